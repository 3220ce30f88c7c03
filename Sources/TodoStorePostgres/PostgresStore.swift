import Foundation
import Logging
import PostgresNIO
import Rewind
import TodoStore
import Todos

/// The store for several server instances over one PostgreSQL database:
/// items in columns and the history as an append-only log, as the SQLite
/// store keeps them (undo and redo append, abandoned branches stay, the
/// history tree reaches them), through postgres-nio.
///
/// Every operation first locks the list's row, so that writers on any
/// number of instances take turns, takes each new sequence number from that
/// row, writes the touched item rows and appends the log rows; it returns
/// only after the commit. A batch of changes does all that in one statement
/// (`PostgresStore+GroupCommit.swift`); an undo, redo, jump or reset in a
/// transaction. Every query has bind parameters.
///
/// Each instance keeps the list in memory, marked with the log's newest
/// sequence number and the list's epoch; a read or an operation that finds
/// the database further along (another instance wrote) reads the list
/// again first. A step's changes are read when an undo, redo or jump
/// crosses it. Every commit notifies the other instances, and a store whose
/// ``updates()`` someone reads listens, so that it tells its streams as
/// soon as another instance wrote, and reads what changed when next asked
/// for the list (`PostgresStore+Listening.swift`).
///
/// ```swift
/// let database = try PostgresTodoDatabase(url: DatabaseURL("postgres://rewind@db:5432/todos"))
/// let running = Task { await database.run() }
/// let store = try await PostgresStore.open(database)
/// try await store.change(.add(milk))
/// try await store.undo()                      // "Add “Buy milk”"
/// ```
public actor PostgresStore: AppStore {
    let database: PostgresTodoDatabase
    /// The list of this store.
    let list: Int64
    let log: PostgresLog
    let rows: PostgresItems
    private let limit: Int?
    private let now: @Sendable () -> Date
    let logger: Logger
    /// The list in memory and where the log stood when it was read; `nil`
    /// until first needed, while a batch is being written (the batch holds
    /// it), and after a failure left it unsure.
    var loaded: Loaded? {
        // No `oldValue`: the list is still changed in place.
        didSet { if let loaded { know(loaded.head.position) } }
    }
    /// The furthest the log is known to be: where this instance last read
    /// or wrote it, or the newest commit of another instance it heard of
    /// (which it reads only when asked for the list); kept while
    /// ``loaded`` is away. What ``updateMark()`` answers; `nil` when a
    /// failure left it unsure.
    var knownPosition: PostgresLog.Position?
    private var updateStreams = StoreUpdates()
    /// The task that listens for the other instances' changes, once
    /// ``updates()`` was asked for (`PostgresStore+Listening.swift`).
    var listener: Task<Void, Never>?
    /// How many times the listener connected (for the tests).
    var listenerConnections = 0
    /// The sequence numbers this instance's commits left the log at whose
    /// notifications the listener has not heard yet: nothing to read then.
    var ownCommits: Set<Int64> = []
    /// Whether an operation is under way, and those waiting for their turn:
    /// operations of one instance run one at a time, in order.
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// How many operations were asked for and how many finished, and who
    /// waits for those asked for before a moment to finish without taking
    /// a turn (``afterOperationsAskedFor()``).
    private var operationsAskedFor = 0
    private var operationsFinished = 0
    private var waitingForFinish: [(operations: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// The changes waiting for the next group commit, and whether a task
    /// is committing them (`PostgresStore+GroupCommit.swift`).
    var waitingChanges: [WaitingChange] = []
    var committing = false
    /// How many group commits this store made, and how many changes wait
    /// for their answer (for the tests).
    var batchesWritten = 0
    var unansweredChanges = 0
    /// How many log rows the list in memory lacks of where this instance
    /// last wrote or read, and how many items' ranks it is unsure of (for
    /// the tests).
    var rowsBehind: Int64 {
        (knownPosition?.lastSeq ?? 0) - (loaded?.head.lastSeq ?? knownPosition?.lastSeq ?? 0)
    }
    var staleRankCount: Int { loaded?.staleRanks.count ?? 0 }
    /// How many of its own rows the list in memory keeps (for the tests).
    var keptRowCount: Int { loaded?.kept.count ?? 0 }
    /// How many operations wait for their turn, and how many callers wait
    /// for the operations asked for before them to finish (for the tests).
    var operationsWaitingForTheirTurn: Int { waiting.count }
    var callersWaitingForOperationsToFinish: Int { waitingForFinish.count }

    /// The list as this instance last read or wrote it.
    struct Loaded {
        var state: AppState
        var ranks: ItemRanks
        var head: PostgresLog.Head
        /// Items whose saved ranks ``ranks`` may not hold (a batch that
        /// was taken back planned them): read again before the next write.
        var staleRanks: Set<UUID> = []
        /// The history shown and the tree, once asked for, at this head:
        /// this instance's own changes, undos and redos move them in memory
        /// (as SQLite's store does), so that they are read again only after
        /// another instance wrote, a jump across branches or a batch taken back.
        var history = KeptHistory()
        /// This instance's own rows after ``head`` that a batch of adds
        /// took back (another instance wrote before them), by sequence
        /// number: catching up applies their changes without decoding
        /// them, and takes their items' ranks without asking for them.
        var kept: [Int64: KeptRow] = [:]
    }

    /// One of this instance's own rows, kept in memory: ``Loaded/kept``.
    struct KeptRow {
        /// The changes the row holds.
        var changes: [AppState.Change]
        /// The ranks the row's items were saved with.
        var ranks: [UUID: Double]
    }

    private init(database: PostgresTodoDatabase, list: Int64, limit: Int?, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.database = database
        self.list = list
        let location = database.url.redacted
        log = PostgresLog(list: list, location: location, logger: logger, channel: database.notificationChannel)
        rows = PostgresItems(list: list, location: location, logger: logger)
        self.limit = limit
        self.now = now
        self.logger = logger
    }

    deinit {
        listener?.cancel()
    }

    /// Opens the store in `database` after bringing its schema up to date,
    /// in one transaction on a connection of its own: the pool
    /// (``PostgresTodoDatabase/client``) need run only when the store is used.
    ///
    /// - Parameters:
    ///   - limit: The most steps the history keeps: after a change, the log
    ///     rows older than the oldest kept step are deleted. `nil` keeps all.
    ///   - now: The clock that dates steps (rounded to milliseconds).
    /// - Throws: ``StoreError/newerSchema(path:unknownMigrations:)`` when a
    ///   newer Rewind made the database (nothing is written then), or
    ///   ``StoreError/io(path:detail:)`` when the database cannot be reached
    ///   or used (within seconds: see ``PostgresTodoDatabase/check()``).
    public static func open(
        _ database: PostgresTodoDatabase, limit: Int? = nil, now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "rewind.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> PostgresStore {
        try await database.withDirectConnection { connection, logger in
            try await PostgresSchema.migrate(connection, in: database, list: listID, logger: logger)
        }
        return PostgresStore(database: database, list: listID, limit: limit, now: { now().roundedToMilliseconds }, logger: logger)
    }

    /// The one list there is until accounts and several lists exist.
    static let listID: Int64 = 1

    // MARK: Reading

    /// Runs `body` with the current state, read again first when another
    /// instance changed it.
    public func read<Result: Sendable>(_ body: @escaping @Sendable (AppState) throws -> Result) async throws -> Result {
        try await exclusively { try body(try await self.current().state) }
    }

    /// The named steps and the current position.
    public func history() async throws -> HistoryOverview {
        try await exclusively {
            let loaded = try await self.current()
            if let shown = loaded.history.shown { return shown }
            let overview = try await self.reading { connection in try await self.log.overview(loaded.head, connection) }
            self.loaded?.history.shown = overview
            return overview
        }
    }

    /// Every change the log holds, the abandoned branches included.
    public func historyTree() async throws -> HistoryTree {
        try await exclusively {
            let loaded = try await self.current()
            if let tree = loaded.history.tree { return tree }
            let tree = try await self.reading { connection in try await self.log.tree(loaded.head, connection) }
            self.loaded?.history.tree = tree
            return tree
        }
    }

    /// The list in memory, read again when the database is further along;
    /// then the update streams are told, since the change that moved it
    /// may be one whose notification this instance has not heard yet, or
    /// missed (the listener hears it later as a change already read).
    ///
    /// With `moved` (a notification said so) the head is not read first:
    /// the read goes straight to the transaction.
    func current(moved: Bool = false) async throws -> Loaded {
        if !moved {
            // One query, outside a transaction: most of the time nothing changed.
            let head: PostgresLog.Head
            do {
                head = try await PostgresTodoDatabase.whenConnectionsEnd {
                    try await database.withPooledConnection { connection in try await self.log.readHead(connection) }
                }
            } catch {
                throw database.storeError(error)
            }
            if let loaded, loaded.head == head { return loaded }
        }
        // The only reference, so that the list changes in place (after a
        // failure it is read again).
        var known = loaded
        loaded = nil
        let fresh = try await reading(snapshot: true) { connection in
            // The items and the head of one snapshot.
            let head = try await self.log.readHead(connection)
            return try await self.caughtUp(&known, to: head, connection)
        }
        loaded = fresh
        updateStreams.notify()
        return fresh
    }

    /// The most rows another instance may have appended for the list in
    /// memory to be brought up to date from them rather than read again.
    static let catchUpLimit: Int64 = 1_000

    /// The list in memory `known` (taken, so that it changes in place) at
    /// `head`: as it is when the database is still there; else brought up
    /// to it by applying the changes of the rows appended since, and
    /// taking the saved ranks of the items they touched (and of
    /// ``Loaded/staleRanks``): a cost that follows the changes, not the
    /// list. The list is read again instead when there is none, or from
    /// another epoch (a reset), too many rows behind, a row missing or
    /// that does not apply, or a change that touches every item.
    private func caughtUp(_ known: inout Loaded?, to head: PostgresLog.Head, _ connection: PostgresConnection) async throws -> Loaded {
        guard var list = known else { return try await load(head, connection) }
        known = nil
        if list.head == head, list.staleRanks.isEmpty { return list }
        if try await advance(&list, to: head, connection) { return list }
        return try await load(head, connection)
    }

    /// Applies to `list` the rows appended up to `head` and takes the
    /// ranks of the items they touched; `false` when the list must be read
    /// again instead (it is then left half changed).
    private func advance(_ list: inout Loaded, to head: PostgresLog.Head, _ connection: PostgresConnection) async throws -> Bool {
        let behind = head.lastSeq - list.head.lastSeq
        // Ranks of items no row touched moved when the list was numbered again.
        guard list.head.epoch == head.epoch, list.head.renumberings == head.renumberings, behind >= 0,
            behind <= Self.catchUpLimit
        else { return false }
        let appended =
            behind == 0 ? [] : try await log.forwardChanges(after: list.head.lastSeq, through: head.lastSeq, connection)
        guard appended.count == behind else { return false }
        let decoder = TodoJSON.makeDecoder(reading: .store)
        var touched = list.staleRanks
        // The ranks of this instance's own items, from the rows it kept.
        var ownRanks: [UUID: Double] = [:]
        for (offset, forward) in appended.enumerated() {
            let kept = list.kept[list.head.lastSeq + Int64(offset) + 1]
            guard let changes = kept?.changes ?? (try? TodoJSON.storedChanges(forward, orDecoding: decoder)),
                let inverse = try? list.state.apply(all: changes)
            else { return false }
            if let kept {
                ownRanks.merge(kept.ranks) { $1 }
                continue
            }
            for change in inverse {
                guard let ids = change.touchedItemIDs else { return false }
                touched.formUnion(ids)
            }
        }
        let saved = try await rows.ranks(of: touched, connection)
        // The rows must hold exactly the touched items the list holds; an
        // own item a later row touched is among those.
        let own = Set(ownRanks.keys).subtracting(touched)
        guard touched.allSatisfy({ list.state.todos.contains(id: $0) == (saved[$0] != nil) }),
            own.allSatisfy({ list.state.todos.contains(id: $0) })
        else { return false }
        list.ranks.adopt(saved, touched: touched)
        list.ranks.adopt(ownRanks, touched: own)
        list.staleRanks = []
        list.kept = list.kept.filter { $0.key > head.lastSeq }
        list.head = head
        // The history shown and the tree moved on too.
        list.history.forget()
        return true
    }

    private func load(_ head: PostgresLog.Head, _ connection: PostgresConnection) async throws -> Loaded {
        let (state, ranks) = try await rows.load(connection)
        return Loaded(state: state, ranks: ItemRanks(ranks: ranks), head: head)
    }

    // MARK: Changing

    /// Applies `changes` as one undo step, committed before it returns.
    /// Changes asked for while a transaction is under way are committed
    /// together in the next one (`PostgresStore+GroupCommit.swift`).
    @discardableResult
    public func change(_ changes: [AppState.Change], named name: String?) async throws -> HistoryStep<AppState.Change> {
        guard !changes.isEmpty else { throw TodoError.nothingToChange("no change was given") }
        return try await submit(changes, named: name).step
    }

    /// Applies `changes` as one undo step, committed before it returns,
    /// and answers the items with `ids` from the list in memory as the
    /// step left them: in the batch's turn, without another read.
    public func change(
        _ changes: [AppState.Change], named name: String?, answering ids: [UUID]
    ) async throws -> (step: HistoryStep<AppState.Change>, items: [TodoItem]) {
        guard !changes.isEmpty else { throw TodoError.nothingToChange("no change was given") }
        let answer = try await submit(changes, named: name, answering: ids)
        return (answer.step, answer.items)
    }

    /// Applies `changes` to the list in memory as the next step of
    /// `pending` (the batch to be written by one statement,
    /// `PostgresStore+GroupCommit.swift`). A refusal of the domain leaves
    /// the list and `pending` as they were.
    func planning(
        _ changes: [AppState.Change], named name: String?, _ loaded: inout Loaded, _ pending: inout PendingChanges
    ) throws -> HistoryStep<AppState.Change> {
        // A toggle is decided here, in the batch's turn, on the item as it is now.
        let changes = AppState.Change.deciding(changes) { loaded.state.todos[id: $0]?.isCompleted }
        let stepName = name ?? loaded.state.stepName(for: changes)
        let date = now()
        let forward = try Self.json(changes)
        let inverse = try loaded.state.apply(all: changes)
        pending.inverses.append(inverse)
        for change in inverse {
            guard let ids = change.touchedItemIDs else { pending.touched = nil; break }
            pending.touched?.formUnion(ids)
        }
        let seq = loaded.head.lastSeq + 1
        let undoneLeft = loaded.head.redoTop != nil
        let row = PostgresLog.Row(
            seq: seq, kind: "do", name: stepName, date: PostgresLog.milliseconds(date), before: loaded.head.node,
            node: seq, forward: forward, inverse: try Self.json(inverse))
        pending.rows.append(row)
        loaded.head = PostgresLog.Head(
            lastSeq: seq, node: seq, redoTop: nil, epoch: loaded.head.epoch, renumberings: loaded.head.renumberings)
        // As the log will show it: the row's name and its date in whole milliseconds.
        loaded.history.performed(number: seq, name: stepName, date: PostgresLog.date(row.date), undoneLeft: undoneLeft)
        return HistoryStep(name: stepName, date: date, changes: inverse.reversed())
    }

    /// Writes the batch `pending` that ``planning(_:named:_:_:)`` applied
    /// to `loaded` (from `start` on) in one statement, and prunes the log
    /// when the history has a limit; `false` when the list's head is no
    /// longer `start` (another instance wrote since), and nothing was written.
    /// `committing` when `connection` is outside a transaction: the
    /// statement then commits before it answers.
    func writing(
        _ pending: inout PendingChanges, after start: PostgresLog.Head, _ loaded: inout Loaded,
        committing: Bool = false, _ connection: PostgresConnection
    ) async throws -> Bool {
        guard !pending.rows.isEmpty else { return true }
        let writes = loaded.ranks.writes(touched: pending.touched, list: loaded.state.todos)
        pending.renumbered = writes.replacesAll
        guard try await log.append(changes: pending.rows, after: start, items: writes, committing: committing, connection)
        else { return false }
        if writes.replacesAll { loaded.head.renumberings += 1 }
        if let limit, try await log.prune(keepingSteps: limit, head: loaded.head, connection) {
            loaded.history.pruned(keepingNewest: limit)
        }
        return true
    }

    /// Whether a batch can be written outside a transaction: pruning the
    /// history to its limit takes more statements.
    var writesInOneStatement: Bool { limit == nil }

    /// Reverts the newest done step, committed before it returns.
    @discardableResult
    public func undo() async throws -> String? {
        try await write { connection, loaded in try await self.undoStep(connection, &loaded) }
    }

    /// Repeats the newest undone step, committed before it returns.
    @discardableResult
    public func redo() async throws -> String? {
        try await write { connection, loaded in try await self.redoStep(connection, &loaded) }
    }

    /// Moves the history to `position`, the steps between crossed in one transaction.
    ///
    /// - Throws: ``HistoryError/positionOutOfRange(_:valid:)`` when there is no such position.
    public func jump(to position: Int) async throws {
        try await write { connection, loaded in
            let overview = if let shown = loaded.history.shown { shown } else { try await self.log.overview(loaded.head, connection) }
            guard (0...overview.steps.count).contains(position) else {
                throw HistoryError.positionOutOfRange(position, valid: 0...overview.steps.count)
            }
            var at = overview.position
            while at > position, try await self.undoStep(connection, &loaded) != nil { at -= 1 }
            while at < position, try await self.redoStep(connection, &loaded) != nil { at += 1 }
        }
    }

    /// Moves to the step numbered `number` of ``historyTree()``, on any
    /// branch: undoes the steps up to where its branch leaves the current
    /// one, then redoes the steps down to it, in one transaction. A redo
    /// there goes on along the branch last undone from the step.
    ///
    /// - Throws: ``HistoryError/stepNotFound(_:)`` when the tree holds no
    ///   such step; nothing changes then.
    public func jump(toStep number: Int64) async throws {
        try await write { connection, loaded in
            // A step on another branch is not a move along the history shown: read again when asked.
            loaded.history.forget()
            var upward: Set<Int64> = [loaded.head.node]
            var node = loaded.head.node
            while let parent = try await self.log.parent(of: node, connection), !upward.contains(parent) {
                node = parent
                upward.insert(node)
            }
            var downward: [Int64] = []
            var meeting = number
            while !upward.contains(meeting) {
                guard meeting > 0, downward.count <= loaded.head.lastSeq,
                    let parent = try await self.log.parent(of: meeting, connection)
                else { throw HistoryError.stepNotFound(number) }
                downward.append(meeting)
                meeting = parent
            }
            while loaded.head.node != meeting {
                guard try await self.undoStep(connection, &loaded) != nil else { throw HistoryError.stepNotFound(number) }
            }
            for step in downward.reversed() {
                if let top = loaded.head.redoTop, let undo = try await self.log.row(top, connection), undo.before == step {
                    _ = try await self.redoStep(connection, &loaded)
                } else {
                    guard let undo = try await self.log.newestUndo(leaving: step, connection) else {
                        throw HistoryError.stepNotFound(number)
                    }
                    // What is left to redo: the branch last undone from the step.
                    let redoTop = try await self.log.newestUndo(into: step, connection)?.seq
                    try await self.cross(undo, as: "redo", toNode: step, redoTop: redoTop, connection, &loaded)
                }
            }
        }
    }

    /// Deletes every item and step of the list.
    public func reset() async throws {
        try await write { connection, loaded in
            loaded.head = try await self.log.reset(connection)
            loaded.history = .empty
            loaded.state = AppState()
            loaded.ranks = ItemRanks()
            loaded.kept = [:]
        }
    }

    /// Deletes every item and step of the list and ends every update
    /// stream. The tables stay, so that other instances keep working.
    public func destroy() async throws {
        try await reset()
        updateStreams.endAll()
        listener?.cancel()
        listener = nil
    }

    /// A stream with an element after every operation of this instance,
    /// and after every change another instance made (heard through
    /// PostgreSQL's `LISTEN`, `PostgresStore+Listening.swift`).
    public func updates() -> AsyncStream<Void> {
        startListening()
        return updateStreams.subscribe()
    }

    /// Whether the database answers now: `SELECT 1` on a connection of the
    /// pool, asked once (not tried again, as the store's reads are) and
    /// outside the store's turn, so that it does not wait behind a batch.
    ///
    /// - Throws: ``StoreError/io(path:detail:)`` naming the database (never
    ///   its password) and what went wrong, within the connect timeout when
    ///   no connection can be made.
    public func checkReachable() async throws {
        do {
            try await database.withPooledConnection { connection in
                for try await _ in try await connection.answered("SELECT 1", logger: self.logger) {}
            }
        } catch {
            throw database.storeError(error)
        }
    }

    /// `<epoch>.<sequence>` of the list's log: the same on every instance
    /// that has caught up, new after every operation (a reset counts the
    /// epoch up).
    ///
    /// Where the log stood at this instance's latest read or write: the
    /// mark of the change an update stream was just told of, asked for
    /// without a query while the next batch is being written (which would
    /// otherwise wait for that batch, then ask the server).
    public func updateMark() async throws -> String? {
        let position = if let knownPosition { knownPosition } else { try await catchUp().position }
        return "\(position.epoch).\(position.lastSeq)"
    }

    /// Notes that the log is at least at `position`: the known position
    /// never goes back (a list taken back in memory stays behind it).
    func know(_ position: PostgresLog.Position) {
        knownPosition = knownPosition.map { max($0, position) } ?? position
    }

    /// Tells every update stream.
    func notifyUpdates() {
        updateStreams.notify()
    }

    /// Where the log stands, the list read again first when another
    /// instance moved it.
    func catchUp() async throws -> PostgresLog.Head {
        try await exclusively { try await self.current().head }
    }

    // MARK: Crossing steps

    /// Undoes the step at the current node and appends an undo row that
    /// pushes itself on the redo stack; `nil` when there is nothing to undo.
    private func undoStep(_ connection: PostgresConnection, _ loaded: inout Loaded) async throws -> String? {
        let head = loaded.head
        guard let row = try await log.forwardRow(into: head.node, connection) else { return nil }
        try await cross(row, as: "undo", toNode: row.before, redoTop: nil, pushing: head.redoTop, connection, &loaded)
        loaded.history.undone()
        return row.name
    }

    /// Redoes the undo row at the top of the redo stack and appends a redo
    /// row that pops it; `nil` when there is nothing to redo.
    private func redoStep(_ connection: PostgresConnection, _ loaded: inout Loaded) async throws -> String? {
        guard let top = loaded.head.redoTop, let row = try await log.row(top, connection), row.kind == "undo" else {
            return nil
        }
        try await cross(row, as: "redo", toNode: row.before, redoTop: row.redoNext, connection, &loaded)
        loaded.history.redone(row.before)
        return row.name
    }

    /// Takes back what `row` did (all or nothing) and appends a row of
    /// `kind` that moves to `node`, after which the redo stack's top is
    /// `redoTop`; or, for an undo (`pushing` the old top, perhaps `nil`),
    /// the new row itself.
    private func cross(
        _ row: PostgresLog.Row, as kind: String, toNode node: Int64, redoTop: Int64?, pushing redoNext: Int64?? = .none,
        _ connection: PostgresConnection, _ loaded: inout Loaded
    ) async throws {
        let changes: [AppState.Change]
        do {
            changes = try TodoJSON.storedChanges(row.inverse, orDecoding: TodoJSON.makeDecoder(reading: .store))
        } catch {
            throw StoreError.corrupt(
                path: log.location, detail: "history step \(row.seq) (“\(row.name)”) cannot be read: \(error)")
        }
        let again = try await apply(changes, connection, &loaded)
        let seq = try await log.nextSeq(connection)
        let top = redoNext == nil ? redoTop : seq
        try await log.append(PostgresLog.Row(
            seq: seq, kind: kind, name: row.name, date: PostgresLog.milliseconds(now()), before: loaded.head.node,
            node: node, redoTop: top, redoNext: redoNext ?? nil, reverts: row.seq, forward: row.inverse,
            inverse: try Self.json(again)), connection)
        loaded.head = PostgresLog.Head(
            lastSeq: seq, node: node, redoTop: top, epoch: loaded.head.epoch, renumberings: loaded.head.renumberings)
    }

    /// Applies `changes` (all or nothing) to the list in memory, writes the
    /// rows of the items their inverse names, and returns the inverse.
    private func apply(
        _ changes: [AppState.Change], _ connection: PostgresConnection, _ loaded: inout Loaded
    ) async throws -> [AppState.Change] {
        let inverse = try loaded.state.apply(all: changes)
        var touched: Set<UUID>? = []
        for change in inverse {
            guard let ids = change.touchedItemIDs else { touched = nil; break }
            touched?.formUnion(ids)
        }
        let writes = loaded.ranks.writes(touched: touched, list: loaded.state.todos)
        try await rows.write(writes, connection)
        if writes.replacesAll {
            try await log.countRenumbering(connection)
            loaded.head.renumberings += 1
        }
        return inverse
    }

    private static func json(_ changes: [AppState.Change]) throws -> String {
        try TodoJSON.stepText(changes)
    }

    // MARK: Transactions

    /// Runs `body` in a transaction on the list in memory, after locking
    /// the list's row and reading the list again if another instance wrote
    /// since. `body` changes the list in place; it is kept when the
    /// transaction commits, and when the domain refused the operation
    /// before anything moved; otherwise it is read again next time.
    func write<Result: Sendable>(
        _ body: (PostgresConnection, inout Loaded) async throws -> Result
    ) async throws -> Result {
        try await exclusively { try await self.transacting(movingHead: true, body) }
    }

    /// ``write(_:)`` when the operations asked for before have finished;
    /// unless `movingHead`, `body` records where the list's head is and
    /// notifies (as ``PostgresLog/append(changes:after:items:of:_:)`` does).
    ///
    /// When the server ends the connection (a restart, an administrator)
    /// before the transaction's answer, the transaction is run again on a
    /// fresh connection, with the list read again, if it did not commit:
    /// it had not reached its `COMMIT` (the server rolls such a transaction
    /// back), or the server says it was aborted (its number comes with the
    /// row lock). A transaction that did commit is answered as committed
    /// (``PostgresTodoDatabase/retriedTransaction(logger:isolation:_:)``).
    func transacting<Result: Sendable>(
        movingHead: Bool, _ body: (PostgresConnection, inout Loaded) async throws -> Result
    ) async throws -> Result {
        var kept: Loaded?
        do {
            let (result, after, wrote) = try await database.retriedTransaction(logger: logger) { connection in
                // The only reference, so that the list changes in place (a
                // try after one whose connection ended reads it again).
                var taken = self.loaded
                self.loaded = nil
                let (head, number) = try await self.log.lockHead(connection)
                PostgresTodoDatabase.transactionNumber?.note(number)
                // When another instance wrote since: its rows, not the whole list.
                var current = try await self.caughtUp(&taken, to: head, connection)
                // The history shown and the tree move with the operation (``Loaded/history``).
                let start = current.head
                do {
                    let result = try await body(connection, &current)
                    if movingHead {
                        try await self.log.move(to: current.head.node, redoTop: current.head.redoTop, connection)
                    }
                    // Only the COMMIT is left.
                    return (result: result, after: current, wrote: current.head != start)
                } catch let error where error is TodoError || error is HistoryError {
                    if current.head == start { kept = current }
                    throw error
                }
            }
            return committed(result, after: after, wrote: wrote)
        } catch {
            loaded = kept
            throw database.storeError(error)
        }
    }

    /// After a transaction that committed: the list in memory is `after`.
    private func committed<Result>(_ result: Result, after: Loaded, wrote: Bool) -> Result {
        if wrote { noteOwnCommit(after.head.lastSeq) }
        loaded = after
        updateStreams.notify()
        return result
    }

    /// Runs `body` in a transaction that only reads; with `snapshot`, every
    /// statement of it reads one snapshot. Run again when the server ended
    /// its connection (``PostgresTodoDatabase/whenConnectionsEnd(isolation:_:)``); the error thrown is
    /// `body`'s own (a refusal of the domain), or a ``StoreError`` that
    /// names the database and what went wrong.
    private func reading<Result: Sendable>(
        snapshot: Bool = false, _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        do {
            return try await PostgresTodoDatabase.whenConnectionsEnd {
                try await database.withPooledTransaction(logger: logger, snapshot: snapshot) { connection in
                    try await body(connection)
                }
            }
        } catch {
            throw database.storeError(error)
        }
    }

    /// Runs `body` when the operations asked for before have finished.
    func exclusively<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        operationsAskedFor += 1
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        defer {
            operationsFinished += 1
            while let first = waitingForFinish.first, first.operations <= operationsFinished {
                waitingForFinish.removeFirst().continuation.resume()
            }
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }

    /// Returns when the operations asked for until now have finished,
    /// without taking a turn: those asked for later go on meanwhile (the
    /// next batch is not held up by what waits for the last one).
    func afterOperationsAskedFor() async {
        let operations = operationsAskedFor
        guard operationsFinished < operations else { return }
        await withCheckedContinuation { waitingForFinish.append((operations, $0)) }
    }
}
