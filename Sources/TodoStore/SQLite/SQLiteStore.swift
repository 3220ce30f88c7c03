import Foundation
import GRDB
import Rewind
import Synchronization
import Todos

/// The embedded default store: state and undo history in one SQLite file
/// (WAL), so that the history survives restarts and several processes (the
/// server and the CLI) share one list.
///
/// Every operation runs in one immediate transaction that writes the
/// touched item rows and appends one row to the history log per step
/// crossed (``StepRecord``); it returns only after the commit, so an
/// acknowledged change survives `kill -9`.
///
/// Opening reads the newest log row, and the items when they are kept in
/// memory (``Items/inMemory``, for a server that draws the list again and
/// again); with ``Items/onDemand`` (for a command that touches a few items)
/// a change reads and writes only the rows it names. A step's changes are
/// read when an undo, redo or jump crosses it, and the names of the steps
/// when ``history()`` is first asked for.
///
/// ```swift
/// let store = try SQLiteStore(url: DataDirectory.resolve().databaseURL)
/// try store.change(.add(milk))
/// // … later, in another process:
/// try SQLiteStore(url: sameURL).undo()    // "Add “Buy milk”"
/// ```
///
/// A change committed by another process is picked up before this store's
/// next operation, a read from memory included (``OtherWritesWatch``), and
/// within a quarter of a second by a poll of SQLite's `data_version`; either
/// then tells the ``updated(_:)`` subscribers.
public final class SQLiteStore: Sendable {
    let database: TodoDatabase

    /// Why changes are refused when the file or its folder cannot be
    /// written (the store was opened for reading only); `nil` when they
    /// can be.
    public var readOnlyReason: StoreError? { database.readOnlyError }
    private let log: HistoryLog
    private let limit: Int?
    private let now: @Sendable () -> Date
    /// What is in memory, changed only inside a write transaction on the
    /// database queue (and by a reload from the file).
    let memory: Mutex<Loaded>
    let subscribers = Subscribers()
    private let poller = Mutex<DispatchSourceTimer?>(nil)
    /// Where the asynchronous operations run (`SQLiteStore+AppStore.swift`).
    let operationQueue = DispatchQueue(label: "rewind.sqlite.store")
    /// The changes waiting for the next group commit (`SQLiteStore+GroupCommit.swift`).
    let commitLine = CommitLine()
    /// The check of every page that runs after open (``Items/inMemoryAfterOpen``);
    /// `nil` when opening checked them, or was not asked to.
    let integrity: IntegrityCheck?
    /// What tells a read that another process changed the list since memory
    /// was read (``catchUpBeforeReading()``); `nil` when the items are read
    /// from their rows (``Items/onDemand``), which are always current, and
    /// for a file opened for reading only.
    private let othersWrites: OtherWritesWatch?
    /// How many times another process's commit had the whole list read
    /// again rather than brought up to date by the rows it appended
    /// (``advance(_:)``): for the tests.
    let listsReadAgain = Atomic<Int>(0)
    /// How many times the steps shown or the tree were read from the log
    /// (``history()``, ``historyTree()``): for the tests.
    let historyReads = Atomic<Int>(0)

    /// What is in memory: the list, when it is kept there, and where the
    /// log stands.
    struct Loaded {
        /// The list and the ranks of its rows; `nil` while the items are
        /// read from their rows when needed (``Items/onDemand``). Once read,
        /// the list stays in memory.
        var list: ListInMemory?
        var head: LogHead
        var dataVersion: Int
        /// The `epoch` of the file's `meta` table: counted up by each reset.
        var epoch: Int64
        /// How many times the log was pruned, as `meta` counts them (this
        /// store's prunings included).
        var prunings: Int64
        /// The steps shown and the tree, once asked for (the page draws
        /// the tree at every request; reading it scans the log): moved by
        /// this store's own operations, forgotten when another process
        /// changed the file or after a jump across branches.
        var history = KeptHistory()
        /// How many positions the changes of the current operation (one
        /// step, or every step of a jump) found row by row (``RowList/positionsFound(by:)``): past
        /// ``RowList/mostPositionsByRow`` the list is read into memory, so
        /// that a jump across many steps does not count rows once per step.
        var positionsFoundByRow = 0

        /// The ``dataVersion`` of a memory that was forgotten: no file has
        /// it, so the next change reads the file first.
        static let forgotten = -1
    }

    /// Where the items are while the store is open.
    public enum Items: Sendable {
        /// In memory, read at open and kept up to date: reading the list
        /// costs nothing (a server that draws it for every request).
        case inMemory
        /// In their rows: a change reads and writes the rows it names (and
        /// a few ranks), whatever the size of the list; the whole list is
        /// read (and then kept) only when asked for, or for a change of
        /// every item (a command that touches a few items). Opening then
        /// does not read the whole file for damage (SQLite's `quick_check`):
        /// damage is found in the pages an operation reads, which then
        /// fails with ``StoreError/corrupt(path:detail:)`` and writes nothing.
        case onDemand
        /// Read from their rows when the store opens, as with ``onDemand``,
        /// then into memory, where they stay, on the store's queue at once
        /// (a server that must answer right after it starts, then draws the
        /// list again and again): operations asked for meanwhile wait
        /// behind that read. Opening does not read the whole file for
        /// damage; SQLite's `quick_check` does it in the background on a
        /// connection of its own. Every write waits for that check, and
        /// once it has found damage every operation fails with
        /// ``StoreError/corrupt(path:detail:)`` and the file is never
        /// written (``checkedForDamage()`` tells when).
        case inMemoryAfterOpen
    }

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
    /// A file written by an older version is migrated in one transaction.
    ///
    /// - Parameters:
    ///   - limit: The most steps the history keeps: after a change, the log
    ///     rows older than the oldest kept step are deleted. `nil` (the
    ///     default) keeps all.
    ///   - pollInterval: How often to look for changes by other processes;
    ///     `nil` never looks (for short-lived processes such as the CLI).
    ///   - durability: What an acknowledged change survives; see ``Durability``.
    ///   - items: Where the items are while the store is open; see ``Items``.
    ///   - now: The clock that dates steps.
    /// - Throws: ``StoreError`` when the file is not a Rewind database, is
    ///   from a newer version, or is damaged; the file is then unchanged.
    public init(
        url: URL, limit: Int? = nil, pollInterval: TimeInterval? = 0.25,
        durability: Durability = .powerLoss, items: Items = .inMemory,
        now: @escaping @Sendable () -> Date = SQLiteStore.millisecondClock
    ) throws {
        let database = try TodoDatabase(url: url, durability: durability, checkingEveryPage: items == .inMemory)
        self.database = database
        log = HistoryLog(path: url.path)
        self.limit = limit
        self.now = { now().roundedToMilliseconds }
        let path = url.path
        memory = Mutex(try TodoDatabase.readingSaved(path: path) {
            try database.queue.read { db in try Self.load(db, path: path, list: items == .inMemory) }
        })
        integrity = items == .inMemoryAfterOpen ? IntegrityCheck(path: path) : nil
        othersWrites = items == .onDemand || database.readOnlyError != nil ? nil : OtherWritesWatch(path: path)
        if let pollInterval { startPolling(every: pollInterval) }
        if items == .inMemoryAfterOpen {
            // First in the queue: the operations asked for meanwhile find the list read.
            operationQueue.async { [weak self] in try? self?.loadList() }
        }
    }

    deinit {
        poller.withLock { $0?.cancel() }
    }

    /// The wall clock rounded down to milliseconds, the precision the file
    /// keeps, so that a reopened store equals the one that was saved.
    public static let millisecondClock: @Sendable () -> Date = {
        let milliseconds = (Date().timeIntervalSince1970 * 1000).rounded(.down)
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }

    /// The database file.
    public var url: URL { database.url }

    /// Whether the whole list is in memory: from the open with
    /// ``Items/inMemory``, and with ``Items/onDemand`` once something asked
    /// for the whole list (it is then kept).
    public var keepsListInMemory: Bool {
        memory.withLock { $0.list != nil }
    }

    // MARK: Reading

    /// The current state (the whole list is read first when its items are
    /// read on demand).
    public func state() throws -> AppState {
        try read { $0 }
    }

    /// Runs `body` with the current state without copying it. When the
    /// items are read on demand, the whole list is read first, and kept.
    ///
    /// - Throws: What `body` throws, or ``StoreError`` when the list cannot be read.
    public func read<Result: Sendable>(_ body: (AppState) throws -> Result) throws -> Result {
        try integrity?.refuseIfFailed()
        catchUpBeforeReading()
        while true {
            let reading: Reading<Result> = try memory.withLock { loaded in
                guard let list = loaded.list else { return .listNotInMemory }
                return .read(try body(list.state))
            }
            if case .read(let result) = reading { return result }
            // Sets the list in memory, where it stays: the next round reads it.
            try loadList()
        }
    }

    /// What ``read(_:)`` found under the lock.
    private enum Reading<Value: Sendable>: Sendable {
        case read(Value)
        case listNotInMemory
    }

    /// The items with `ids` that exist, in that order: read from their rows
    /// when the list is not in memory.
    ///
    /// - Complexity: O(*k*) rows read by key for *k* ids.
    public func items(withIDs ids: [UUID]) throws -> [TodoItem] {
        try integrity?.refuseIfFailed()
        catchUpBeforeReading()
        if let items = memory.withLock({ $0.list.map { list in ids.compactMap { list.state.todos[id: $0] } } }) {
            return items
        }
        return try TodoDatabase.readingSaved(path: database.url.path) {
            try database.queue.read { db in
                let found = try RowList(db, path: database.url.path).items(ids)
                return ids.compactMap { found[$0] }
            }
        }
    }

    /// Where those of `ids` that are in the list stand, and how many items
    /// it holds: counted in the rows when the list is not in memory (the
    /// whole list is read only when one of them shares its rank with
    /// another row).
    public func positions(of ids: [UUID]) throws -> ListPositions {
        try integrity?.refuseIfFailed()
        catchUpBeforeReading()
        if let inMemory = memory.withLock({ $0.list.map { ListPositions(of: ids, in: $0.state.todos) } }) {
            return inMemory
        }
        let counted = try TodoDatabase.readingSaved(path: database.url.path) {
            try database.queue.read { db in try RowList(db, path: database.url.path).positions(of: ids) }
        }
        if let counted { return counted }
        return try read { ListPositions(of: ids, in: $0.todos) }
    }

    /// The items in `state` (every item when `nil`) in list order, and the
    /// counts of the whole list at `now`: read from the rows in `state` (and
    /// the due dates of active items) when the list is not in memory.
    /// With `dueOnly`, only the items with a due date.
    public func items(
        in state: TodoItem.State?, dueOnly: Bool = false, now: Date
    ) throws -> (items: [TodoItem], counts: TodoCounts) {
        try integrity?.refuseIfFailed()
        catchUpBeforeReading()
        let inMemory = memory.withLock { loaded in
            loaded.list.map { list in
                let items = list.state.todos.items.filter { item in
                    (state.map { item.state == $0 } ?? true) && (!dueOnly || item.due != .unknown)
                }
                return (items, list.state.todos.counts(now: now))
            }
        }
        if let inMemory { return inMemory }
        return try TodoDatabase.readingSaved(path: database.url.path) {
            try database.queue.read { db in
                let rows = RowList(db, path: database.url.path)
                return (try rows.items(in: state, dueOnly: dueOnly), try rows.counts(now: now))
            }
        }
    }

    /// Reads the whole list and keeps it in memory from now on.
    private func loadList() throws {
        let path = database.url.path
        try TodoDatabase.readingSaved(path: path) {
            try database.queue.read { db in
                let fresh = try Self.load(db, path: path, list: true)
                // Kept while the database is held, so that no write (of the
                // group commit, on its own queue) comes between.
                memory.withLock { loaded in
                    guard loaded.list == nil else { return }
                    let history = loaded.head == fresh.head ? loaded.history : KeptHistory()
                    loaded = fresh
                    loaded.history = history
                }
            }
        }
    }

    /// The named steps and the current position: read from the log the
    /// first time (names and dates only), then kept in memory.
    ///
    /// - Complexity: O(*s*) for *s* steps shown the first time, O(1) after.
    public func history() throws -> HistoryOverview {
        try integrity?.refuseIfFailed()
        catchUpBeforeReading()
        if let shown = memory.withLock({ $0.history.shown }) { return shown }
        return try TodoDatabase.readingSaved(path: database.url.path) {
            try database.queue.read { db in
                let head = try log.head(db)
                historyReads.add(1, ordering: .relaxed)
                let overview = try log.overview(head, db)
                memory.withLock { loaded in if loaded.head == head { loaded.history.shown = overview } }
                return overview
            }
        }
    }

    // MARK: Changing

    /// Applies `changes` as one undo step, committed before it returns:
    /// appends a row to the log and writes the rows of the items it touched.
    @discardableResult
    public func change(_ changes: [AppState.Change], named name: String?) throws -> HistoryStep<AppState.Change> {
        try write(changing(changes, named: name))
    }

    /// The work of ``change(_:named:)`` inside a transaction. The changes
    /// are written as the log's JSON here, by the caller, so that the one
    /// writer of a group commit does not spend its time on them; but a
    /// step with a toggle is decided and written in the writer's turn.
    func changing(
        _ changes: [AppState.Change], named name: String?
    ) throws -> @Sendable (Database, inout Loaded) throws -> HistoryStep<AppState.Change> {
        // A toggle is decided in the writer's turn, on the item as it is then.
        let decidesInTurn = changes.contains(where: \.holdsToggle)
        let written = decidesInTurn ? nil : try log.json(changes)
        return { [self] db, loaded in
            guard !changes.isEmpty else { throw TodoError.nothingToChange("no change was given") }
            let changes = try AppState.Change.deciding(changes) { id in
                if let list = loaded.list { return list.state.todos[id: id]?.isCompleted }
                return try RowList(db, path: database.url.path).row(id)?.item.isCompleted
            }
            let forward = try written ?? log.json(changes)
            let stepName = try name ?? self.stepName(for: changes, db, &loaded)
            let date = now()
            let inverse = try apply(changes, db, &loaded)
            let seq = loaded.head.lastSeq + 1
            let undoneLeft = loaded.head.redoTop != nil
            try log.append(StepRecord(
                seq: seq, kind: .do, name: stepName, date: ItemRecord.milliseconds(date),
                before: loaded.head.node, node: seq, redoTop: nil,
                forward: forward, inverse: try log.json(inverse)), db)
            loaded.head = LogHead(lastSeq: seq, node: seq, redoTop: nil)
            // As the log keeps it: the date in whole milliseconds.
            let saved = ItemRecord.date(ItemRecord.milliseconds(date))
            loaded.history.performed(number: seq, name: stepName, date: saved, undoneLeft: undoneLeft)
            try prune(&loaded, db)
            return HistoryStep(name: stepName, date: date, changes: inverse.reversed())
        }
    }

    /// Reverts the newest done step, committed before it returns: reads that
    /// step's row and appends an undo row.
    @discardableResult
    public func undo() throws -> String? {
        try write(undoing)
    }

    /// Repeats the newest undone step, committed before it returns.
    @discardableResult
    public func redo() throws -> String? {
        try write(redoing)
    }

    /// Moves the history to `position`, undoing or redoing the steps between,
    /// committed together before it returns.
    ///
    /// - Throws: ``HistoryError/positionOutOfRange(_:valid:)`` when there is
    ///   no such position.
    public func jump(to position: Int) throws {
        try write { db, loaded in
            let overview = try loaded.history.shown ?? log.overview(loaded.head, db)
            guard (0...overview.steps.count).contains(position) else {
                throw HistoryError.positionOutOfRange(position, valid: 0...overview.steps.count)
            }
            loaded.history.shown = overview
            var at = overview.position
            while at > position, try undoStep(db, &loaded) != nil { at -= 1 }
            while at < position, try redoStep(db, &loaded) != nil { at += 1 }
        }
    }

    /// Every change the log holds, the abandoned branches included.
    ///
    /// - Complexity: O(*r*) for *r* rows of the log; no change is decoded.
    public func historyTree() throws -> HistoryTree {
        try integrity?.refuseIfFailed()
        catchUpBeforeReading()
        if let tree = memory.withLock({ $0.history.tree }) { return tree }
        return try TodoDatabase.readingSaved(path: database.url.path) {
            try database.queue.read { db in
                let head = try log.head(db)
                historyReads.add(1, ordering: .relaxed)
                let tree = try log.tree(head, db)
                memory.withLock { loaded in if loaded.head == head { loaded.history.tree = tree } }
                return tree
            }
        }
    }

    /// Moves to the step numbered `number` of ``historyTree()``, on any
    /// branch: undoes the steps up to where its branch leaves the current
    /// one, then redoes the steps down to it, committed together. Off the
    /// current branch the redo steps are left behind (they stay in the tree),
    /// and a redo there goes on along the branch last undone from the step.
    ///
    /// - Throws: ``HistoryError/stepNotFound(_:)`` when the tree holds no
    ///   such step; nothing changes then.
    public func jump(toStep number: Int64) throws {
        try write { db, loaded in
            // The way up from where the list is now, and the way up from the
            // target until it meets it.
            var upward: Set<Int64> = [loaded.head.node]
            var node = loaded.head.node
            while let parent = try log.parent(of: node, db) {
                node = parent
                upward.insert(node)
            }
            var downward: [Int64] = []
            var meeting = number
            while !upward.contains(meeting) {
                guard meeting > 0, let parent = try log.parent(of: meeting, db) else {
                    throw HistoryError.stepNotFound(number)
                }
                downward.append(meeting)
                meeting = parent
            }
            while loaded.head.node != meeting {
                guard try undoStep(db, &loaded) != nil else { throw HistoryError.stepNotFound(number) }
            }
            for step in downward.reversed() {
                if let top = loaded.head.redoTop, let undo = try log.row(top, db), undo.before == step {
                    _ = try redoStep(db, &loaded)
                } else {
                    guard let undo = try log.newestUndo(leaving: step, db) else { throw HistoryError.stepNotFound(number) }
                    // What is left to redo: the branch last undone from the step.
                    let next = LogHead(lastSeq: loaded.head.lastSeq + 1, node: step, redoTop: try log.newestUndo(into: step, db)?.seq)
                    try cross(undo, as: .redo, to: next, redoNext: nil, db, &loaded)
                }
            }
            loaded.history.forget()
        }
    }

    /// Deletes every item and step.
    public func reset() throws {
        try write { db, loaded in
            try db.execute(sql: "DELETE FROM item; DELETE FROM step; UPDATE meta SET value = value + 1 WHERE key = 'epoch'")
            if let renumberings = loaded.list?.items.renumberings { loaded.list = ListInMemory(renumberings: renumberings) }
            loaded.head = .empty
            loaded.epoch += 1
            loaded.history = .empty
        }
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
        poller.withLock { poller in
            poller?.cancel()
            poller = nil
        }
    }

    // MARK: Crossing steps

    /// The work of ``undo()`` inside a transaction.
    var undoing: @Sendable (Database, inout Loaded) throws -> String? {
        { [self] db, loaded in try undoStep(db, &loaded) }
    }

    /// The work of ``redo()`` inside a transaction.
    var redoing: @Sendable (Database, inout Loaded) throws -> String? {
        { [self] db, loaded in try redoStep(db, &loaded) }
    }

    /// Undoes the step at the current node: applies the inverse of the row
    /// that moved into it, and appends an undo row that pushes itself on the
    /// redo stack. `nil` when there is nothing to undo.
    private func undoStep(_ db: Database, _ loaded: inout Loaded) throws -> String? {
        let head = loaded.head
        guard let row = try log.forwardRow(into: head.node, db) else { return nil }
        let seq = head.lastSeq + 1
        try cross(row, as: .undo, to: LogHead(lastSeq: seq, node: row.before, redoTop: seq), redoNext: head.redoTop, db, &loaded)
        loaded.history.undone()
        return row.name
    }

    /// Redoes the undo row at the top of the redo stack: applies its
    /// inverse, and appends a redo row that pops it. `nil` when there is
    /// nothing to redo.
    private func redoStep(_ db: Database, _ loaded: inout Loaded) throws -> String? {
        let head = loaded.head
        guard let top = head.redoTop, let row = try log.row(top, db), row.kind == StepRecord.Kind.undo.rawValue else {
            return nil
        }
        let next = LogHead(lastSeq: head.lastSeq + 1, node: row.before, redoTop: row.redoNext)
        try cross(row, as: .redo, to: next, redoNext: nil, db, &loaded)
        loaded.history.redone(row.before)
        return row.name
    }

    /// Takes back what `row` did: applies its inverse (all or nothing),
    /// appends a row of `kind` that moves to `next`, and writes the items.
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` naming the row when its
    ///   changes do not decode, and the domain's error when they do not
    ///   apply; nothing has changed then.
    private func cross(
        _ row: StepRecord, as kind: StepRecord.Kind, to next: LogHead, redoNext: Int64?, _ db: Database, _ loaded: inout Loaded
    ) throws {
        let changes = try log.changes(row.inverse, of: row)
        let again = try apply(changes, db, &loaded)
        try log.append(StepRecord(
            seq: next.lastSeq, kind: kind, name: row.name, date: ItemRecord.milliseconds(now()),
            before: loaded.head.node, node: next.node, redoTop: next.redoTop, redoNext: redoNext, reverts: row.seq,
            forward: row.inverse, inverse: try log.json(again)), db)
        loaded.head = next
    }

    // MARK: Applying changes to the items

    /// Applies `changes` (all or nothing) to the items and their rows, and
    /// returns their inverse: row by row when the list is not in memory and
    /// the changes name few items, else to the list in memory (read first
    /// in this transaction if it is not there yet), whose touched rows are
    /// then written.
    private func apply(_ changes: [AppState.Change], _ db: Database, _ loaded: inout Loaded) throws -> [AppState.Change] {
        if loaded.list == nil, let positions = positionsLeftByRow(for: changes, used: loaded.positionsFoundByRow) {
            do {
                var inverse: [AppState.Change] = []
                try db.inSavepoint {
                    var rows = RowList(db, path: database.url.path)
                    inverse = try rows.apply(all: changes)
                    return .commit
                }
                loaded.positionsFoundByRow += positions
                return inverse
            } catch is RowList.NeedsWholeList {
                // Rolled back: the list in memory does it (and renumbers).
            }
        }
        var list = try loaded.list ?? ListInMemory(TodoDatabase.load(db, path: database.url.path))
        // The only reference, so that the list changes in place.
        loaded.list = nil
        defer { loaded.list = list }
        return try list.apply(changes, db)
    }

    /// How many positions `changes` find row by row, when that is within
    /// what the operation has left of ``RowList/mostPositionsByRow`` after
    /// the `used` ones; `nil` when they are to be applied to the list in
    /// memory instead.
    private func positionsLeftByRow(for changes: [AppState.Change], used: Int) -> Int? {
        guard let positions = RowList.positionsFound(by: changes), used + positions <= RowList.mostPositionsByRow
        else { return nil }
        return positions
    }

    /// The name of the step `changes` make, which quotes the titles of the
    /// items as they are now: read from their rows when the list is not in
    /// memory.
    private func stepName(for changes: [AppState.Change], _ db: Database, _ loaded: inout Loaded) throws -> String {
        if let list = loaded.list { return list.state.stepName(for: changes) }
        guard positionsLeftByRow(for: changes, used: loaded.positionsFoundByRow) != nil else {
            let list = try ListInMemory(TodoDatabase.load(db, path: database.url.path))
            loaded.list = list
            return list.state.stepName(for: changes)
        }
        let named = changes.reduce(into: Set<UUID>()) { ids, change in ids.formUnion(change.touchedItemIDs ?? []) }
        let items = try RowList(db, path: database.url.path).items(named)
        return AppState(todos: try TodoList(items: Array(items.values))).stepName(for: changes)
    }

    /// Prunes the log to the newest `limit` steps, if the store has a cap.
    private func prune(_ loaded: inout Loaded, _ db: Database) throws {
        guard let limit, try log.prune(keepingSteps: limit, head: loaded.head, db) else { return }
        loaded.history.pruned(keepingNewest: limit)
        loaded.prunings += 1
    }

    // MARK: Writing

    /// Runs `body` in an immediate transaction on what is loaded, after
    /// catching up with other processes. `body` changes what is loaded in
    /// place (a copy would copy the whole list), under the lock, so readers
    /// may see a change a moment before its commit. When the transaction
    /// fails after `body` began to change things, what is loaded is read
    /// again from the file; the domain's refusals change nothing.
    private func write<Result: Sendable>(_ body: (Database, inout Loaded) throws -> Result) throws -> Result {
        try database.refuseWrites()
        let path = database.url.path
        var result: Result?
        // Whether `body` moved the log before it failed (a jump that
        // undid some steps and then found one it cannot cross).
        var moved = false
        do {
            try database.queue.inTransaction(.immediate) { db in
                try catchUp(db)
                result = try memory.withLock { loaded in
                    loaded.positionsFoundByRow = 0
                    let start = loaded.head
                    do {
                        return try body(db, &loaded)
                    } catch {
                        moved = loaded.head != start
                        throw error
                    }
                }
                return .commit
            }
        } catch let error as TodoError where !moved {
            throw error
        } catch let error as HistoryError where !moved {
            throw error
        } catch {
            // Memory may be ahead of what was committed: start again from the file.
            reloadAfterFailure()
            if let error = error as? DatabaseError { throw StoreError.database(error, path: path) }
            throw error
        }
        subscribers.notify()
        guard let result else { throw StoreError.io(path: path, detail: "the transaction did not run") }
        return result
    }

    /// Reads again what is in memory when another process committed since
    /// this one last looked. Runs on the database queue.
    func catchUp(_ db: Database) throws {
        // Nothing is written before the file is known to be whole.
        try integrity?.waitUntilPassed()
        let known = memory.withLock { $0.dataVersion }
        guard try Self.dataVersion(db) != known else { return }
        guard try !listUnchanged(db) else { return }
        try readOthersChanges(db)
    }

    /// Brings memory up to the file after another process's commit: by the
    /// log rows appended since, when it can (``advance(_:)``), else by
    /// reading the list again. Runs on the database queue.
    private func readOthersChanges(_ db: Database) throws {
        let keepsList = memory.withLock { $0.list != nil }
        if try advance(db) { return }
        if keepsList { listsReadAgain.add(1, ordering: .relaxed) }
        let fresh = try Self.load(db, path: database.url.path, list: keepsList)
        memory.withLock { $0 = fresh }
    }

    /// The most log rows another process may have appended for the list in
    /// memory to be brought up to date from them rather than read again.
    static let catchUpLimit: Int64 = 1_000

    /// Brings the list in memory up to the file by applying the changes of
    /// the log rows another process appended since it was read, and taking
    /// the saved ranks of the items they touched: a cost that follows the
    /// change, not the list (reading 100,000 items again takes a third of a
    /// second). The history kept is moved by the same rows (``follow(_:from:)``).
    /// `false` when the list must be read again instead: memory
    /// was forgotten, the file was reset (another epoch) or numbered again,
    /// more than ``catchUpLimit`` rows behind, a row is missing or does not
    /// apply, a change touches every item, or the rows do not hold the
    /// items the changes leave. A list left half changed is dropped from
    /// memory at once (under the lock), so that no read sees it. Runs on
    /// the database queue, where memory changes.
    private func advance(_ db: Database) throws -> Bool {
        let path = database.url.path
        let (start, startEpoch, renumberings, version) = memory.withLock {
            ($0.head, $0.epoch, $0.list?.items.renumberings, $0.dataVersion)
        }
        let head = try TodoDatabase.readingSaved(path: path) { try TodoDatabase.head(db, path: path) }
        let behind = head.lastSeq - start.lastSeq
        guard version != Loaded.forgotten, try Self.epoch(db) == startEpoch, behind >= 0, behind <= Self.catchUpLimit
        else { return false }
        let newVersion = try Self.dataVersion(db)
        let prunings = try TodoDatabase.count(.prunings, db)
        guard let renumberings else {
            // Only where the log stands is in memory.
            memory.withLock { loaded in
                loaded.head = head
                loaded.dataVersion = newVersion
                loaded.prunings = prunings
                loaded.history.forget()
            }
            return true
        }
        guard try TodoDatabase.count(.renumberings, db) == renumberings,
            let rows = try? log.rows(after: start.lastSeq, through: head.lastSeq, db), rows.count == behind,
            let appended = try? rows.map({ try log.changes($0.forward, of: $0) })
        else { return false }
        return try memory.withLock { loaded in
            // Read again by the caller; meanwhile any read reads the file.
            func dropped() -> Bool {
                loaded.list = nil
                loaded.history.forget()
                loaded.dataVersion = Loaded.forgotten
                return false
            }
            var touched = Set<UUID>()
            for changes in appended {
                guard let inverse = try? loaded.list?.state.apply(all: changes) else { return dropped() }
                for change in inverse {
                    guard let ids = change.touchedItemIDs else { return dropped() }
                    touched.formUnion(ids)
                }
            }
            guard let list = loaded.list?.state.todos else { return dropped() }
            let saved: [UUID: Double]
            do {
                saved = try ItemRecord.ranks(of: touched, db)
            } catch {
                _ = dropped()
                throw error
            }
            // The rows hold exactly the touched items that the list holds.
            guard touched.allSatisfy({ list.contains(id: $0) == (saved[$0] != nil) }) else { return dropped() }
            loaded.list?.items.adopt(saved, touched: touched)
            loaded.head = head
            loaded.dataVersion = newVersion
            if prunings == loaded.prunings {
                loaded.history.follow(rows, from: start)
            } else {
                loaded.prunings = prunings
                loaded.history.forget()
            }
            return true
        }
    }

    /// Whether the list and its log are as memory holds them although
    /// another connection committed (another table of the file changed: a
    /// browser's calculator, a shared list, a sign-in), and then notes the
    /// file's new `data_version` as seen: the same newest log row and the
    /// same epoch mean the same items, since every change of them appends
    /// a row and a reset counts the epoch up. Memory that was forgotten is
    /// never unchanged.
    private func listUnchanged(_ db: Database) throws -> Bool {
        let (known, head, epoch) = memory.withLock { ($0.dataVersion, $0.head, $0.epoch) }
        guard known != Loaded.forgotten else { return false }
        let path = database.url.path
        guard try HistoryLog(path: path).head(db) == head, try Self.epoch(db) == epoch else { return false }
        let version = try Self.dataVersion(db)
        memory.withLock { $0.dataVersion = version }
        return true
    }

    private static func epoch(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = 'epoch'")) ?? -1
    }

    /// What is in memory at open: where the log stands, and the whole list
    /// when `list` is true.
    static func load(_ db: Database, path: String, list: Bool) throws -> Loaded {
        guard list else {
            return Loaded(
                list: nil, head: try TodoDatabase.readingSaved(path: path) { try TodoDatabase.head(db, path: path) },
                dataVersion: try dataVersion(db), epoch: try epoch(db), prunings: try TodoDatabase.count(.prunings, db))
        }
        let snapshot = try TodoDatabase.load(db, path: path)
        return Loaded(
            list: ListInMemory(snapshot), head: snapshot.head, dataVersion: try dataVersion(db), epoch: try epoch(db),
            prunings: try TodoDatabase.count(.prunings, db))
    }

    private func startPolling(every interval: TimeInterval) {
        poller.withLock { poller in
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "rewind.sqlite.poll"))
            timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(50))
            timer.setEventHandler { [weak self] in self?.lookForOtherProcessesChanges() }
            timer.resume()
            poller = timer
        }
    }

    /// Reads again what is in memory, and tells the subscribers, when
    /// another process committed since this one last looked.
    ///
    /// When the file cannot be read, memory is forgotten and the subscribers
    /// are told: what they read next comes from the file, or is its error.
    private func lookForOtherProcessesChanges() {
        let changed: Bool
        do {
            changed = try database.queue.read { db -> Bool in
                let known = memory.withLock { $0.dataVersion }
                guard try Self.dataVersion(db) != known else { return false }
                guard try !listUnchanged(db) else { return false }
                try readOthersChanges(db)
                return true
            }
        } catch {
            changed = memory.withLock { $0.dataVersion != Loaded.forgotten }
            forgetMemory()
        }
        if changed { subscribers.notify() }
    }

    /// Reads again what is in memory, and tells the subscribers, when
    /// another process committed a change of the list since it was read,
    /// before a read answers from memory: what another process has
    /// acknowledged is then never missing from an answer, nor from what is
    /// decided on one (the poll would only see it within its interval).
    /// Costs a read of `data_version` on a connection of its own, which
    /// does not wait for this store's writer.
    private func catchUpBeforeReading() {
        guard let othersWrites else { return }
        let others = (try? othersWrites.othersWrote {
            memory.withLock { ($0.head.lastSeq, $0.epoch) }
        }) ?? true
        if others { lookForOtherProcessesChanges() }
    }

    /// Drops what memory holds of the file (the list, the steps shown, the
    /// tree) and marks it as out of date, so that the next read or change
    /// reads the file again: used when reading it failed, so that memory is
    /// never shown ahead of or behind the file.
    func forgetMemory() {
        memory.withLock { loaded in
            loaded.list = nil
            loaded.history.forget()
            loaded.dataVersion = Loaded.forgotten
        }
    }

    private static func dataVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
    }
}

extension KeptHistory {
    /// Moves the history kept as the log `rows` another process appended
    /// after `start` moved it: a change, an undo, a redo of the newest undone
    /// step. A redo of another (a jump across branches) is not a move the
    /// kept history can follow: it is forgotten, and read again when asked
    /// for.
    mutating func follow(_ rows: [StepRecord], from start: LogHead) {
        var redoTop = start.redoTop
        for row in rows {
            switch StepRecord.Kind(rawValue: row.kind) {
            case .do:
                performed(number: row.seq, name: row.name, date: ItemRecord.date(row.date), undoneLeft: redoTop != nil)
            case .undo:
                undone()
            case .redo where row.reverts == redoTop:
                redone(row.node)
            case .redo, nil:
                forget()
                return
            }
            redoTop = row.redoTop
        }
    }
}

/// The list in memory and the ranks of its rows.
struct ListInMemory {
    var state = AppState()
    var items: ItemRows

    /// An empty list, in a file whose rows were numbered again
    /// `renumberings` times.
    init(renumberings: Int64) {
        items = ItemRows(ranks: [:], renumberings: renumberings)
    }

    /// The list as the file holds it.
    init(_ snapshot: TodoDatabase.Snapshot) {
        state = snapshot.state
        items = ItemRows(ranks: snapshot.ranks, renumberings: snapshot.renumberings)
    }

    /// Applies `changes` (all or nothing) and writes the rows of the items
    /// their inverse names (every row, for a change of the whole list);
    /// returns the inverse.
    mutating func apply(_ changes: [AppState.Change], _ db: Database) throws -> [AppState.Change] {
        let inverse = try state.apply(all: changes)
        var ids: Set<UUID>? = []
        for change in inverse {
            guard let some = change.touchedItemIDs else { ids = nil; break }
            ids?.formUnion(some)
        }
        try items.write(touched: ids, list: state.todos, db)
        return inverse
    }
}

/// The subscribers of a store, told outside any lock or transaction.
final class Subscribers: Sendable {
    private let callbacks = Mutex<(next: Int, all: [Int: @Sendable () -> Void])>((0, [:]))

    func add(_ callback: @escaping @Sendable () -> Void) -> StoreSubscription {
        let id = callbacks.withLock { callbacks in
            callbacks.next += 1
            callbacks.all[callbacks.next] = callback
            return callbacks.next
        }
        return StoreSubscription { [weak self] in
            self?.callbacks.withLock { _ = $0.all.removeValue(forKey: id) }
        }
    }

    func removeAll() {
        callbacks.withLock { $0.all.removeAll() }
    }

    func notify() {
        for callback in callbacks.withLock({ Array($0.all.values) }) { callback() }
    }
}
