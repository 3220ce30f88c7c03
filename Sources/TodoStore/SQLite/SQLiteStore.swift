import Foundation
import GRDB
import Rewind
import Todos

/// The embedded default store: state and undo history in one SQLite file
/// (WAL), so that the history survives restarts and several processes (the
/// server and the CLI) share one list.
///
/// Every operation runs in one immediate transaction that writes the touched
/// item rows, the history step and the position together; it returns only
/// after the commit, so an acknowledged change survives `kill -9`.
///
/// ```swift
/// let store = try await SQLiteStore.open(url: DataDirectory.resolve().databaseURL)
/// try await store.change(.add(milk))
/// // … later, in another process:
/// try await SQLiteStore.open(url: sameURL).undo()    // "Add “Buy milk”"
/// ```
///
/// Its ``AppStore`` conformance (`SQLiteStore+AppStore.swift`) runs these
/// synchronous methods on a dispatch queue of their own.
///
/// A change committed by another process is picked up before this store's
/// next operation, and within a quarter of a second by a poll of SQLite's
/// `data_version`, which then tells the ``updated(_:)`` subscribers.
public final class SQLiteStore: @unchecked Sendable {
    private let database: TodoDatabase
    private let journal: SQLiteJournal
    private let core: StoreCore
    // Guarded by the database queue.
    private var dataVersion: Int
    private let subscribers = Subscribers()
    private var poller: DispatchSourceTimer?
    /// Where the asynchronous operations run (`SQLiteStore+AppStore.swift`).
    let operationQueue = DispatchQueue(label: "rewind.sqlite.store")

    /// What an acknowledged change survives.
    public enum Durability: Sendable {
        /// A crash of the process (`kill -9`); a power failure may undo the
        /// last moments of changes (SQLite's `synchronous = NORMAL` in WAL
        /// mode: no corruption, and commits do not wait for the disk).
        case processCrash
        /// A crash of the process or of the machine: every commit waits for
        /// the disk (`synchronous = FULL`). The default.
        case powerLoss

        var synchronousPragma: String {
            switch self {
            case .processCrash: "NORMAL"
            case .powerLoss: "FULL"
            }
        }
    }

    /// Opens the store in the database file at `url`, creating it if needed.
    ///
    /// - Parameters:
    ///   - limit: The most history steps to keep; older ones are pruned. `nil`
    ///     (the default) keeps all.
    ///   - pollInterval: How often to look for changes by other processes;
    ///     `nil` never looks (for short-lived processes such as the CLI).
    ///   - durability: What an acknowledged change survives; see ``Durability``.
    ///   - now: The clock that dates steps.
    /// - Throws: ``StoreError`` when the file is not a Rewind database, is
    ///   from a newer version, or is damaged; the file is then unchanged.
    public init(
        url: URL, limit: Int? = nil, pollInterval: TimeInterval? = 0.25,
        durability: Durability = .powerLoss,
        now: @escaping @Sendable () -> Date = SQLiteStore.millisecondClock
    ) throws {
        let database = try TodoDatabase(url: url, durability: durability)
        self.database = database
        let path = url.path
        let loaded = try TodoDatabase.readingSaved(path: path) {
            try database.queue.read { db in
                (try TodoDatabase.load(db, path: path), try Self.firstSeq(db, path: path), try Self.dataVersion(db))
            }
        }
        journal = SQLiteJournal(snapshot: loaded.0, firstSeq: loaded.1, path: path)
        core = try StoreCore(
            loaded.0.state, steps: loaded.0.steps, position: loaded.0.position,
            limit: limit, now: now, journal: journal)
        dataVersion = loaded.2
        adopt(loaded.0, firstSeq: loaded.1)
        if let pollInterval { startPolling(every: pollInterval) }
    }

    deinit {
        poller?.cancel()
    }

    /// The wall clock rounded down to milliseconds, the precision the file
    /// keeps, so that a reopened store equals the one that was saved.
    public static let millisecondClock: @Sendable () -> Date = {
        let milliseconds = (Date().timeIntervalSince1970 * 1000).rounded(.down)
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }

    /// The database file.
    public var url: URL { database.url }

    // MARK: Operations

    // The core is read on the database queue, where it changes.

    /// The current state.
    public func state() throws -> AppState {
        try database.queue.read { _ in core.state() }
    }

    /// Runs `body` with the current state without copying it.
    public func read<Result>(_ body: (AppState) throws -> Result) throws -> Result {
        try database.queue.read { _ in try core.read(body) }
    }

    /// The named steps and the current position.
    public func history() throws -> HistoryOverview {
        try database.queue.read { _ in core.history() }
    }

    /// Applies `changes` as one undo step, committed before it returns.
    @discardableResult
    public func change(_ changes: [AppState.Change], named name: String?) throws -> HistoryStep<AppState.Change> {
        try write { try core.change(changes, named: name) }
    }

    /// Reverts the newest done step, committed before it returns.
    @discardableResult
    public func undo() throws -> String? {
        try write { try core.undo() }
    }

    /// Repeats the newest undone step, committed before it returns.
    @discardableResult
    public func redo() throws -> String? {
        try write { try core.redo() }
    }

    /// Moves the history to `position`, committed before it returns.
    public func jump(to position: Int) throws {
        try write { try core.jump(to: position) }
    }

    /// Deletes every item and step.
    public func reset() throws {
        try write { try core.reset() }
    }

    /// Deletes every item and step and ends every subscription. The file
    /// stays, empty, so that other processes that have it open keep working.
    public func destroy() throws {
        try reset()
        subscribers.removeAll()
    }

    /// Calls `callback` after every change, this process's or another's.
    @discardableResult
    public func updated(_ callback: @escaping @Sendable () -> Void) -> StoreSubscription {
        subscribers.add(callback)
    }

    /// Stops looking for other processes' changes. The store stays usable.
    public func close() {
        poller?.cancel()
        poller = nil
    }

    // MARK: Writing

    private func write<Result>(_ body: () throws -> Result) throws -> Result {
        if let readOnlyError = database.readOnlyError { throw readOnlyError }
        var result: Result?
        do {
            try database.queue.inTransaction(.immediate) { db in
                try catchUp(db)
                journal.db = db
                defer { journal.db = nil }
                result = try body()
                return .commit
            }
        } catch let error as TodoError {
            throw error
        } catch let error as HistoryError {
            throw error
        } catch {
            // Memory may be ahead of what was committed: start again from the file.
            try? database.queue.read { db in try reload(db) }
            if let error = error as? DatabaseError {
                throw StoreError.database(error, path: database.url.path)
            }
            throw error
        }
        subscribers.notify()
        guard let result else { throw StoreError.io(path: database.url.path, detail: "the transaction did not run") }
        return result
    }

    /// Reloads when another process committed since this one last looked.
    /// Returns whether it did.
    @discardableResult
    private func catchUp(_ db: Database) throws -> Bool {
        let version = try Self.dataVersion(db)
        guard version != dataVersion else { return false }
        try reload(db)
        return true
    }

    private func reload(_ db: Database) throws {
        let snapshot = try TodoDatabase.load(db, path: database.url.path)
        try core.reload(snapshot.state, steps: snapshot.steps, position: snapshot.position)
        adopt(snapshot, firstSeq: try Self.firstSeq(db, path: database.url.path))
        dataVersion = try Self.dataVersion(db)
    }

    /// Points the journal at the saved steps the core kept. A core with a
    /// smaller limit than the file's history keeps only the newest steps; the
    /// older rows stay until the next trim deletes everything below them.
    private func adopt(_ snapshot: TodoDatabase.Snapshot, firstSeq: Int64) {
        let dropped = snapshot.steps.count - core.history().steps.count
        journal.reset(to: snapshot, firstSeq: firstSeq + Int64(max(0, dropped)))
    }

    private func startPolling(every interval: TimeInterval) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "rewind.sqlite.poll"))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(50))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let changed = (try? self.database.queue.read { db in try self.catchUp(db) }) ?? false
            if changed { self.subscribers.notify() }
        }
        timer.resume()
        poller = timer
    }

    private static func dataVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
    }

    private static func firstSeq(_ db: Database, path: String) throws -> Int64 {
        let bounds = try Row.fetchOne(
            db, sql: "SELECT min(seq) AS low, max(seq) AS high, count(*) AS n, count(seq) = count(*) AND total(typeof(seq) != 'integer') = 0 AS integral FROM step"
        )
        guard let bounds, let low = try bounds.decode(Int64?.self, atIndex: 0),
              let high = try bounds.decode(Int64?.self, atIndex: 1) else { return 1 }
        let count = try bounds.decode(Int64.self, atIndex: 2)
        let integral = try bounds.decode(Bool?.self, atIndex: 3) ?? false
        // Numbers far from 1 would overflow as steps are added: no store numbers its steps so.
        guard integral, low >= 1, high < Int64.max / 2, high - low + 1 == count else {
            throw StoreError.corrupt(path: path, detail: "the history steps are not numbered 1, 2, 3, … without gaps")
        }
        return low
    }
}

/// The subscribers of a store, told outside any lock or transaction.
final class Subscribers: @unchecked Sendable {
    private let lock = NSLock()
    private var callbacks: [Int: @Sendable () -> Void] = [:]
    private var next = 0

    func add(_ callback: @escaping @Sendable () -> Void) -> StoreSubscription {
        let id = lock.withLock {
            next += 1
            callbacks[next] = callback
            return next
        }
        return StoreSubscription { [weak self] in
            self?.lock.withLock { _ = self?.callbacks.removeValue(forKey: id) }
        }
    }

    func removeAll() {
        lock.withLock { callbacks.removeAll() }
    }

    func notify() {
        for callback in lock.withLock({ Array(callbacks.values) }) { callback() }
    }
}
