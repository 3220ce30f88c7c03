import Foundation
import GRDB
import Rewind
import Synchronization
import Todos

/// The store's asynchronous face. Changes, undos and redos go through the
/// group commit (`SQLiteStore+GroupCommit.swift`): those asked for at the
/// same moment share one transaction and one wait for the disk. The other
/// operations run the synchronous method of the same name on the store's own
/// dispatch queue. Either way a commit waiting for the disk, or a long undo,
/// holds none of the threads of Swift's cooperative pool.
extension SQLiteStore: AppStore {
    /// Opens the store in the database file at `url`, creating it if
    /// needed, away from Swift's cooperative pool; the parameters are those of
    /// ``init(url:limit:pollInterval:durability:items:now:)``.
    ///
    /// - Throws: ``StoreError`` when the file is not a Rewind database, is
    ///   from a newer version, or is damaged; the file is then unchanged.
    public static func open(
        url: URL, limit: Int? = nil, pollInterval: TimeInterval? = 0.25,
        durability: Durability = .powerLoss, items: Items = .inMemory,
        now: @escaping @Sendable () -> Date = SQLiteStore.millisecondClock
    ) async throws -> SQLiteStore {
        try await onQueue(DispatchQueue.global()) {
            try SQLiteStore(url: url, limit: limit, pollInterval: pollInterval, durability: durability, items: items, now: now)
        }
    }

    /// Runs `body` with the current state without copying it.
    public func read<Result: Sendable>(_ body: @escaping @Sendable (AppState) throws -> Result) async throws -> Result {
        try await onQueue { try self.read(body) }
    }

    /// The items with `ids` that exist, in that order: only their rows are
    /// read when the list is not in memory.
    public func items(withIDs ids: [UUID]) async throws -> [TodoItem] {
        try await onQueue { try self.items(withIDs: ids) }
    }

    /// Where those of `ids` that are in the list stand, and how many items
    /// it holds, as the synchronous method of the same name reads them.
    public func positions(of ids: [UUID]) async throws -> ListPositions {
        try await onQueue { try self.positions(of: ids) }
    }

    /// The items in `state` (every item when `nil`) in list order, and the
    /// counts of the whole list at `now`; see ``items(in:dueOnly:now:)``.
    public func items(
        in state: TodoItem.State?, dueOnly: Bool = false, now: Date
    ) async throws -> (items: [TodoItem], counts: TodoCounts) {
        try await onQueue { try self.items(in: state, dueOnly: dueOnly, now: now) }
    }

    /// The named steps and the current position.
    public func history() async throws -> HistoryOverview {
        try await onQueue { try self.history() }
    }

    /// Applies `changes` as one undo step, committed before it returns.
    @discardableResult
    public func change(_ changes: [AppState.Change], named name: String?) async throws -> HistoryStep<AppState.Change> {
        try await submit(changing(changes, named: name))
    }

    /// Applies `changes` as one undo step, committed before it returns, and
    /// answers those of the items with `ids` that exist after it, read in
    /// the writer's turn.
    public func change(
        _ changes: [AppState.Change], named name: String?, answering ids: [UUID]
    ) async throws -> (step: HistoryStep<AppState.Change>, items: [TodoItem]) {
        let changing = try changing(changes, named: name)
        let path = database.url.path
        return try await submit { db, loaded in
            let step = try changing(db, &loaded)
            if let list = loaded.list { return (step, ids.compactMap { list.state.todos[id: $0] }) }
            let found = try RowList(db, path: path).items(ids)
            return (step, ids.compactMap { found[$0] })
        }
    }

    /// Reverts the newest done step, committed before it returns.
    @discardableResult
    public func undo() async throws -> String? {
        try await submit(undoing)
    }

    /// Repeats the newest undone step, committed before it returns.
    @discardableResult
    public func redo() async throws -> String? {
        try await submit(redoing)
    }

    /// Moves the history to `position`, committed before it returns.
    public func jump(to position: Int) async throws {
        try await onQueue { try self.jump(to: position) }
    }

    /// Every change the log holds, the abandoned branches included.
    public func historyTree() async throws -> HistoryTree {
        try await onQueue { try self.historyTree() }
    }

    /// Moves to the step numbered `number` of ``historyTree()``, on any
    /// branch, committed before it returns.
    public func jump(toStep number: Int64) async throws {
        try await onQueue { try self.jump(toStep: number) }
    }

    /// Deletes every item and step.
    public func reset() async throws {
        try await onQueue { try self.reset() }
    }

    /// Whether the store can read its file now: the background check of
    /// every page (when one ran) found no damage, the file is still at the
    /// path it was opened from, and a read of it answers. It waits for the
    /// operations asked for before it, as any read does.
    ///
    /// - Throws: ``StoreError`` naming the file and what is wrong.
    public func checkReachable() async throws {
        try await onQueue {
            try self.integrity?.refuseIfFailed()
            let path = self.database.url.path
            guard FileManager.default.fileExists(atPath: path) else {
                throw StoreError.io(
                    path: path,
                    detail: "the database file is no longer at this path (moved or deleted while the store is open): what is saved now would not be found at the next start"
                )
            }
            _ = try TodoDatabase.readingSaved(path: path) {
                try self.database.queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            }
        }
    }

    /// Deletes every item and step and stops every update.
    public func destroy() async throws {
        try await onQueue { try self.destroy() }
    }

    /// A stream with an element after every change, this process's or
    /// another's (seen by the poll of ``init(url:limit:pollInterval:durability:items:now:)``).
    public func updates() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let subscription = updated { continuation.yield() }
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }

    /// Runs `body` on the store's queue, away from Swift's cooperative pool.
    func onQueue<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await Self.onQueue(operationQueue, body)
    }

    private static func onQueue<Value: Sendable>(
        _ queue: DispatchQueue, _ body: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        let work = Work(body)
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                // The work (and the store it holds) is let go before the
                // answer goes out, as the group commit does: a process that
                // ends right after it then closes the database.
                let result = work.run()
                continuation.resume(with: result)
            }
        }
    }
}

/// A piece of work that is run once and then let go.
private final class Work<Value: Sendable>: Sendable {
    private let body: Mutex<(@Sendable () throws -> Value)?>

    init(_ body: @escaping @Sendable () throws -> Value) {
        self.body = Mutex(body)
    }

    /// Runs the work and drops it; a second call finds nothing to run.
    func run() -> Result<Value, any Error> {
        guard let body = body.withLock({ body in defer { body = nil }; return body }) else {
            return .failure(CancellationError())
        }
        return Result(catching: body)
    }
}
