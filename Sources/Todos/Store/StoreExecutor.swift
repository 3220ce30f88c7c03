import Dispatch

/// A serial executor with a dispatch queue of its own, for store actors:
/// a store's work (a commit that waits for the disk, the restore of
/// thousands of items) then holds one thread of its own rather than one of
/// the few threads of Swift's cooperative pool, so everything else goes on
/// running meanwhile.
///
/// ```swift
/// actor MyStore {
///     private let executor = StoreExecutor(label: "my.store")
///     nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
/// }
/// ```
public final class StoreExecutor: SerialExecutor {
    private let queue: DispatchQueue

    /// Creates an executor on a new serial queue named `label`.
    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs `job` on the queue, after the jobs enqueued before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
