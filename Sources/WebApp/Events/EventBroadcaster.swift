import Foundation
import ServiceLifecycle

/// Tells every open event stream when the to-do state changed, sends each a
/// heartbeat while it is idle, and closes them all when the server shuts
/// down (so that a graceful shutdown does not wait for browsers).
///
/// It runs as a service of the application: its ``run()`` waits for the
/// graceful shutdown.
actor EventBroadcaster: Service {
    private var subscribers: [Int: Subscriber] = [:]
    private var nextID = 0
    private var isClosed = false
    private let heartbeatInterval: Double
    private let maxSubscribers: Int

    /// The number of changes published so far.
    private(set) var version = 0

    /// Names this run of the server in the ids of the events it counts
    /// itself (a store without ``Todos/AppStore/updateMark()``), so that
    /// an id from before a restart never matches one after it.
    nonisolated let run = String(UInt32.random(in: .min ... .max), radix: 36)

    /// The store's mark of the newest change published, so that a change
    /// told twice (two updates read at once) goes out once.
    private var publishedMark: String?

    /// Whether any stream is open, and the changes nobody was told of, for
    /// ``noteTodosChanged()``, which runs outside the actor.
    private nonisolated let listening = ListenerTally()

    private struct Subscriber {
        let continuation: AsyncStream<ServerEvent>.Continuation
        let heartbeat: Task<Void, Never>
    }

    init(heartbeatInterval: Double, maxSubscribers: Int) {
        self.heartbeatInterval = heartbeatInterval
        self.maxSubscribers = maxSubscribers
    }

    /// The number of open streams.
    var subscriberCount: Int { subscribers.count }

    /// The number of heartbeats sent so far, over all streams.
    private(set) var heartbeatCount = 0

    private func countHeartbeat() { heartbeatCount += 1 }

    /// A new stream of events, or `nil` when the server is shutting down or
    /// already has its maximum of open streams.
    ///
    /// The stream ends when the broadcaster closes; when the reader stops
    /// reading (its task is cancelled), the subscription is removed.
    func subscribe() -> AsyncStream<ServerEvent>? {
        guard !isClosed, subscribers.count < maxSubscribers else { return nil }
        let id = nextID
        nextID += 1
        let (stream, continuation) = AsyncStream.makeStream(of: ServerEvent.self, bufferingPolicy: .bufferingNewest(16))
        let interval = heartbeatInterval
        let heartbeat = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(max(interval, 0.01) * 1_000_000_000))
                guard !Task.isCancelled else { return }
                continuation.yield(.heartbeat)
                await self?.countHeartbeat()
            }
        }
        continuation.onTermination = { [weak self] _ in
            heartbeat.cancel()
            Task { await self?.remove(id) }
        }
        subscribers[id] = Subscriber(continuation: continuation, heartbeat: heartbeat)
        listening.setCount(subscribers.count)
        return stream
    }

    /// ``subscribe()``, making room when every stream is taken: a stream
    /// whose browser went away keeps its place until a write to it fails,
    /// at its next heartbeat. Each open stream is sent two heartbeats a
    /// moment apart (the first may still be taken by the connection, the
    /// second fails on it), and the subscription is tried again once the
    /// streams that failed gave their places back.
    func subscribeMakingRoom(wait: Duration = .milliseconds(150)) async -> AsyncStream<ServerEvent>? {
        if let stream = subscribe() { return stream }
        guard !isClosed else { return nil }
        for _ in 0..<2 {
            for subscriber in subscribers.values { subscriber.continuation.yield(.heartbeat) }
            try? await Task.sleep(for: wait)
        }
        return subscribe()
    }

    /// Called by the store after every change, on the thread that made it:
    /// hops onto the actor to tell the open streams only when there are
    /// some, so that a change nobody watches costs a lock, not a task.
    /// The changes nobody was told of still count in ``version``.
    ///
    /// - Parameter mark: The store's ``Todos/AppStore/updateMark()`` after
    ///   the change, the event's id; `nil` when it has none.
    nonisolated func noteTodosChanged(mark: String? = nil) {
        guard listening.noteChange() else { return }
        Task { await publishTodosChanged(mark: mark) }
    }

    /// Tells every open stream that the to-do state changed, unless it was
    /// told of `mark` already.
    func publishTodosChanged(mark: String? = nil) {
        version += 1 + listening.takeUnannounced()
        if let mark {
            guard mark != publishedMark else { return }
            publishedMark = mark
        }
        let event = ServerEvent.todosChanged(version: version, id: mark ?? countedID(version))
        for subscriber in subscribers.values {
            subscriber.continuation.yield(event)
        }
    }

    /// The event of the current state, for a stream that resumes: its id
    /// is `mark` (the store's), or this server's count of changes, those
    /// nobody was told of included.
    func currentEvent(mark: String?) -> ServerEvent {
        let current = version + listening.pending
        return .todosChanged(version: current, id: mark ?? countedID(current))
    }

    private func countedID(_ count: Int) -> String { "\(run)-\(count)" }

    /// Ends every stream and refuses new ones.
    func close() {
        isClosed = true
        let all = subscribers.values
        subscribers.removeAll()
        listening.setCount(0)
        for subscriber in all {
            subscriber.heartbeat.cancel()
            subscriber.continuation.finish()
        }
    }

    private func remove(_ id: Int) {
        if let subscriber = subscribers.removeValue(forKey: id) {
            subscriber.heartbeat.cancel()
        }
        listening.setCount(subscribers.count)
    }

    /// Waits for the graceful shutdown, then closes every stream.
    func run() async throws {
        try? await gracefulShutdown()
        close()
    }
}

/// The broadcaster's count of open streams, readable without entering the
/// actor, and the changes that happened while none was open.
private final class ListenerTally: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var count = 0
    private var unannounced = 0

    /// Records the number of open streams.
    func setCount(_ newCount: Int) {
        lock.withLock { count = newCount }
    }

    /// Records a change; returns whether a stream is open to be told.
    func noteChange() -> Bool {
        lock.withLock {
            guard count == 0 else { return true }
            unannounced += 1
            return false
        }
    }

    /// The changes recorded while no stream was open.
    var pending: Int {
        lock.withLock { unannounced }
    }

    /// The changes recorded while no stream was open, reset to zero.
    func takeUnannounced() -> Int {
        lock.withLock {
            defer { unannounced = 0 }
            return unannounced
        }
    }
}
