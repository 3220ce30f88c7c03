import Foundation
import Logging
import PostgresNIO
import TodoStore
import Todos

/// The named lists of team mode in PostgreSQL, shared by every instance
/// (migration `shared-lists`): `rewind_shared_list`, `rewind_shared_member`,
/// `rewind_shared_step`, `rewind_shared_writer`, and the items in
/// `rewind_item` under the list's own `rewind_list` row.
///
/// Each change, undo and redo appends one row to the list's log and writes
/// the rows of the items it touched, the latest writer of each part it
/// wrote and the list's `last_seq`, all or nothing, holding the list's row
/// so that writers on any number of instances take turns. On a list this
/// instance holds and knows no newer row of, that is one statement that
/// writes only if the list's row still names the instance's latest row
/// (and the person may still change the list), called through a procedure
/// that commits before it answers; else, or when that call wrote nothing,
/// one transaction that locks the list's row (`SELECT … FOR UPDATE`), reads
/// the log rows other instances appended since, and appends its row after
/// them. Every query goes through `PostgresConnection.answered(_:logger:)`,
/// every connection through the pool's bounded wait.
///
/// Live updates across instances: every row appended sends
/// `NOTIFY rewind_shared, '<list id>:<seq>'` inside its transaction (a
/// rename, a change of members or a deletion `'<list id>:list:<instance>'`,
/// on which the others read the list's row again), and a
/// store keeps one connection that listens on that channel once someone
/// reads its ``updates(of:as:)`` or it changes a list it holds a second
/// time (connecting again when it drops, and then telling every open stream
/// the list's latest row, for the notifications lost meanwhile).
///
/// The first time an instance opens a list it reads the list's items, the
/// latest writers and each log row's head, and rebuilds each person's
/// stacks from the heads, decoding no row's changes; a row is read when an
/// operation asks for it (``SharingError/rowsNotHeld(_:)``), and the newest
/// rows are kept. After that it keeps the list in memory and
/// reads the rows appended since, and the ranks of the items they touched
/// (every rank when the list was numbered again meanwhile, which the
/// `renumberings` of the list's `rewind_list` row counts). A change costs
/// what it touches; the list's calls take turns in the instance
/// (``inTurn(of:_:)``), as they would at its row anyway. Reading the items
/// of a list the instance does not hold reads their rows alone.
///
/// The pool (``PostgresTodoDatabase/client``) must run while the store is used.
public actor PostgresSharedListStore: SharedListStore {
    private typealias Cached = CachedSharedList

    /// A list's row and members.
    private struct Head: Sendable {
        var number: Int64
        var name: String
        var access: ListAccess
        var lastSeq: Int
        /// How many times every item row was numbered again: the
        /// `renumberings` of the list's `rewind_list` row.
        var renumberings: Int64
    }

    let database: PostgresTodoDatabase
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    private let coalescingWindow: TimeInterval
    let logger: Logger
    /// The lists held in memory, up to about `cachedRows` items in all, on the lists and in their rows held.
    private var cache: SharedListCache
    /// The number of each list's `rewind_list` row, as read with the list
    /// (it never changes while the list exists).
    private var numbers: [UUID: Int64] = [:]
    /// The latest row of each list this instance holds that the listener
    /// heard of, when it is ahead of the list held (another instance wrote
    /// since); `Int.max` after the listener connected again, when rows may
    /// have gone unheard.
    private var heardAhead: [UUID: Int] = [:]
    /// Whether a second change of a list held starts the listener (the
    /// tests turn it off, to choose what the store has heard).
    var listensWhenChanging = true
    /// The lists a call reads or changes in memory now (``inTurn(of:_:)``),
    /// and the calls waiting for each.
    private var listsInUse: Set<UUID> = []
    private var waitingForList: [UUID: [CheckedContinuation<Void, Never>]] = [:]
    /// The lists held in memory (read by the tests).
    var heldLists: Set<UUID> { Set(cache.keys) }
    /// The update streams of the lists (read by the tests).
    private(set) var updateStreams = SharedListUpdates()
    /// The streams of ``newLists(for:)``.
    private var newListSignals = NewListSignals()
    private var listener: Task<Void, Never>?
    /// How many times the listener has connected and told every open
    /// stream its list's latest row (a test that waits for it then knows
    /// that each later row is heard as its own notification).
    private(set) var listenerConnections = 0
    /// How many rows were saved in one statement, on the list as this
    /// instance held it, and how many were taken back because another
    /// instance wrote first (read by the tests).
    private(set) var rowsSavedAlone = 0, rowsTakenBack = 0
    /// The rows waiting for the next call that saves rows of several lists
    /// (`PostgresSharedListStore+GroupCommit.swift`), and how many such
    /// calls are on their way.
    var waitingSaves: [WaitingSave] = []
    var saveCallsOnTheirWay = 0
    /// Whether rows to save wait until ``releaseSaves()`` (the tests hold
    /// them, to choose which rows one call saves).
    var holdsSaves = false
    /// How many rows were saved by a call that saved rows of other lists
    /// too, and how many such calls there were (read by the tests).
    var rowsSavedTogether = 0, callsSavingSeveralRows = 0

    /// The channel of the notifications: the database's
    /// (``PostgresTodoDatabase/notificationChannel``) with `_shared`,
    /// `rewind_shared` by default.
    nonisolated var channel: String { database.notificationChannel + "_shared" }
    /// This store's name in the notifications it sends of a list's name or
    /// members, so that it does not read the list again for its own.
    nonisolated let instance = UUID().uuidString.lowercased()

    private init(
        database: PostgresTodoDatabase, now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID,
        coalescingWindow: TimeInterval, cachedRows: Int, logger: Logger
    ) {
        cache = SharedListCache(rowLimit: cachedRows)
        self.database = database
        self.now = now
        self.makeID = makeID
        self.coalescingWindow = coalescingWindow
        self.logger = logger
    }

    /// Opens the shared lists of `database` after bringing its schema up to
    /// date, on a connection of its own (the pool need not run yet); rows
    /// are dated by `now` (rounded to milliseconds) and lists get ids from
    /// `makeID`; the lists read are kept in memory up to about `cachedRows`
    /// items in all, on the lists and in their rows held (``SharedListCache``).
    ///
    /// - Throws: ``StoreError/newerSchema(path:unknownMigrations:)`` when a
    ///   newer Rewind made the database (nothing is written then), or
    ///   ``StoreError/io(path:detail:)`` when it cannot be reached or used.
    public static func open(
        _ database: PostgresTodoDatabase, now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = UUID.init, coalescingWindow: TimeInterval = 0.5,
        cachedRows: Int = 100_000,
        logger: Logger = Logger(label: "rewind.postgres.shared", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> PostgresSharedListStore {
        try await database.withDirectConnection { connection, logger in
            try await PostgresSchema.migrate(connection, in: database, list: PostgresStore.listID, logger: logger)
        }
        return PostgresSharedListStore(
            database: database, now: now, makeID: makeID, coalescingWindow: coalescingWindow, cachedRows: cachedRows,
            logger: logger)
    }

    deinit {
        listener?.cancel()
    }

    // MARK: Lists

    /// Makes a list; see ``SharedListStore/create(name:owner:)``.
    public func create(name: String, owner: AccountName) async throws -> SharedListSummary {
        let summary = SharedListSummary(id: makeID(), name: try SharedListSummary.checkedName(name), access: ListAccess(owner: owner))
        let (id, listName, key, text) = (summary.id, summary.name, owner.key, owner.text)
        let created = PostgresLog.milliseconds(now())
        try await transaction { connection, logger in
            // With the transaction's number: what became of it can be asked
            // when its connection ends after its COMMIT was sent.
            let rows = try await connection.answered(
                """
                WITH number AS (INSERT INTO rewind_list (id) VALUES (nextval('rewind_shared_list_number')) RETURNING id)
                INSERT INTO rewind_shared_list (id, list_id, name, owner_key, owner, created)
                SELECT \(id), number.id, \(listName), \(key), \(text), \(created) FROM number
                RETURNING txid_current()
                """, logger: logger)
            for try await transaction in rows.decode(Int64.self) { PostgresTodoDatabase.transactionNumber?.note(transaction) }
            try await self.notifyOthers(of: id, joinedBy: owner, sharing: false, connection, logger)
        }
        newListSignals.tell(owner.key)
        return summary
    }

    /// Renames a list; see ``SharedListStore/rename(_:to:by:)``.
    @discardableResult
    public func rename(_ list: UUID, to name: String, by person: AccountName) async throws -> SharedListSummary {
        let (summary, seq) = try await transaction { connection, logger in
            let head = try await self.head(list, checking: .rename, by: person, locking: true, connection, logger)
            let name = try SharedListSummary.checkedName(name)
            try await connection.answered("UPDATE rewind_shared_list SET name = \(name) WHERE id = \(list)", logger: logger)
            try await self.notifyOthers(of: list, connection, logger)
            return (SharedListSummary(id: list, name: name, access: head.access), head.lastSeq)
        }
        cache[list]?.open.name = summary.name
        updateStreams.notify(list, seq: seq, always: true)
        return summary
    }

    /// Deletes a list; see ``SharedListStore/delete(_:by:)``.
    public func delete(_ list: UUID, by person: AccountName) async throws {
        try await transaction { connection, logger in
            let number = try await self.head(list, checking: .delete, by: person, locking: true, connection, logger).number
            try await connection.answered(
                """
                WITH writers AS (DELETE FROM rewind_shared_writer WHERE list_id = \(number)),
                     steps AS (DELETE FROM rewind_shared_step WHERE list_id = \(number)),
                     members AS (DELETE FROM rewind_shared_member WHERE list_id = \(number)),
                     items AS (DELETE FROM rewind_item WHERE list_id = \(number))
                DELETE FROM rewind_shared_list WHERE id = \(list)
                """, logger: logger)
            try await connection.answered("DELETE FROM rewind_list WHERE id = \(number)", logger: logger)
            try await self.notifyOthers(of: list, connection, logger)
        }
        cache[list] = nil
        numbers[list] = nil
        heardAhead[list] = nil
        updateStreams.end(list)
    }

    /// Shares a list; see ``SharedListStore/share(_:with:madeAt:by:)``.
    @discardableResult
    public func share(_ list: UUID, with account: AccountName, madeAt made: Date, by person: AccountName) async throws
        -> SharedListSummary
    {
        let (summary, seq) = try await transaction { connection, logger in
            var head = try await self.head(list, checking: .read, by: person, locking: true, connection, logger)
            let (number, key, text, before) = (head.number, account.key, account.text, PostgresLog.milliseconds(made))
            var earlier: Int64 = 0
            for try await seq in try await connection.answered(
                """
                SELECT coalesce(max(seq), 0) FROM rewind_shared_step
                WHERE list_id = \(number) AND author = \(key) AND date < \(before)
                """, logger: logger
            ).decode(Int64.self) {
                earlier = seq
            }
            try head.access.share(with: account, by: person, earlierRows: Int(earlier))
            try await connection.answered(
                """
                INSERT INTO rewind_shared_member (list_id, key, name, earlier)
                VALUES (\(number), \(key), \(text), \(earlier))
                """, logger: logger)
            try await self.notifyOthers(of: list, joinedBy: account, sharing: true, connection, logger)
            return (SharedListSummary(id: list, name: head.name, access: head.access), head.lastSeq)
        }
        cache[list]?.open.access = summary.access
        updateStreams.notify(list, seq: seq, always: true)
        newListSignals.tell(account.key)
        return summary
    }

    /// Stops sharing a list; see ``SharedListStore/unshare(_:with:by:)``.
    @discardableResult
    public func unshare(_ list: UUID, with account: AccountName, by person: AccountName) async throws -> SharedListSummary {
        let (summary, seq) = try await transaction { connection, logger in
            var head = try await self.head(list, checking: .read, by: person, locking: true, connection, logger)
            try head.access.unshare(with: account, by: person)
            let (number, key) = (head.number, account.key)
            try await connection.answered(
                "DELETE FROM rewind_shared_member WHERE list_id = \(number) AND key = \(key)", logger: logger)
            try await self.notifyOthers(of: list, connection, logger)
            return (SharedListSummary(id: list, name: head.name, access: head.access), head.lastSeq)
        }
        cache[list]?.open.access = summary.access
        updateStreams.end(list, for: account)
        updateStreams.notify(list, seq: seq, always: true)
        return summary
    }

    /// The lists `person` can open, oldest first.
    public func lists(of person: AccountName) async throws -> [SharedListSummary] {
        let key = person.key
        return try await transaction { connection, logger in
            var ids: [UUID] = []
            let rows = try await connection.answered(
                """
                SELECT id FROM rewind_shared_list
                WHERE owner_key = \(key) OR list_id IN (SELECT list_id FROM rewind_shared_member WHERE key = \(key))
                ORDER BY created, list_id
                """, logger: logger)
            for try await id in rows.decode(UUID.self) { ids.append(id) }
            var summaries: [SharedListSummary] = []
            for id in ids {
                if let head = try await self.readHead(id, locking: false, connection, logger) {
                    summaries.append(SharedListSummary(id: id, name: head.name, access: head.access))
                }
            }
            return summaries
        }
    }

    /// How many items each of `person`'s lists holds; see
    /// ``SharedListStore/itemCounts(of:)``. Counted from the item rows, in
    /// one query.
    public func itemCounts(of person: AccountName) async throws -> [UUID: SharedListCounts] {
        let key = person.key
        let completed = TodoItem.State.completed.rawValue
        return try await transaction { connection, logger in
            let rows = try await connection.answered(
                """
                SELECT s.id, count(i.id), count(*) FILTER (WHERE i.state = \(completed))
                FROM rewind_shared_list s LEFT JOIN rewind_item i ON i.list_id = s.list_id
                WHERE s.owner_key = \(key) OR s.list_id IN (SELECT list_id FROM rewind_shared_member WHERE key = \(key))
                GROUP BY s.id
                """, logger: logger)
            var counts: [UUID: SharedListCounts] = [:]
            for try await (id, items, done) in rows.decode((UUID, Int64, Int64).self) {
                counts[id] = SharedListCounts(items: Int(items), completed: Int(done))
            }
            return counts
        }
    }

    // MARK: One list

    /// The items of a list; see ``SharedListStore/items(of:as:)``. A list
    /// this instance holds is brought up to date with the rows appended
    /// since (none, most often); another is read from its item rows.
    public func items(of list: UUID, as person: AccountName) async throws -> SharedListItems {
        // A call under way has the list out of the cache: wait for it.
        if cache[list] != nil || listsInUse.contains(list) {
            let open = try await caughtUp(list, by: person)
            return SharedListItems(list: open.shared.list, seq: open.seq)
        }
        return try await transaction { connection, logger in
            let head = try await self.head(list, checking: .read, by: person, locking: false, connection, logger)
            let (state, _) = try await self.items(head.number, logger).load(connection)
            return SharedListItems(list: state.todos, seq: head.lastSeq)
        }
    }

    /// Applies the changes a plan makes; see ``SharedListStore/perform(on:by:answering:_:)``.
    public func perform(
        on list: UUID, by person: AccountName, answering item: UUID?, _ plan: @Sendable (TodoList) throws -> PlannedSharedChange
    ) async throws -> (step: SharedStep, item: TodoItem?) {
        let date = now().roundedToMilliseconds
        let step = try await PlanRefusal.unwrapping {
            try await append(to: list, by: person, for: .change) { open in try open.perform(planning: plan, by: person, at: date) }
        }
        return (step, item.flatMap { cache[list]?.open.shared.list[id: $0] })
    }

    /// Undoes a step; see ``SharedListStore/undo(on:by:expecting:)``.
    @discardableResult
    public func undo(on list: UUID, by person: AccountName, expecting step: Int?) async throws -> SharedStep {
        let date = now().roundedToMilliseconds
        return try await append(to: list, by: person, for: .undo) { open in try open.undo(by: person, expecting: step, at: date) }
    }

    /// Redoes a step; see ``SharedListStore/redo(on:by:expecting:)``.
    @discardableResult
    public func redo(on list: UUID, by person: AccountName, expecting step: Int?) async throws -> SharedStep {
        let date = now().roundedToMilliseconds
        return try await append(to: list, by: person, for: .redo) { open in try open.redo(by: person, expecting: step, at: date) }
    }

    /// A person's next undo and redo; see ``SharedListStore/nextSteps(on:of:)``.
    public func nextSteps(on list: UUID, of person: AccountName) async throws -> SharedListNextSteps {
        try await caughtUp(list, by: person) { $0.shared.summariesNeeded(by: person.key) }.nextSteps(of: person)
    }

    /// A page of history; see ``SharedListStore/history(of:as:before:limit:)``.
    public func history(of list: UUID, as person: AccountName, before: Int?, limit: Int) async throws -> [SharedStep.Summary] {
        try SharedListSummary.checkPageSize(limit)
        return try await caughtUp(list, by: person) { $0.shared.summariesNotHeld(in: $0.historyRows(before: before, limit: limit)) }
            .history(as: person, before: before, limit: limit)
    }

    /// The updates of a list made through this instance; see ``SharedListStore/updates(of:as:)``.
    public func updates(of list: UUID, as person: AccountName) async throws -> AsyncStream<SharedListUpdate> {
        let head = try await transaction { connection, logger in
            try await self.head(list, checking: .read, by: person, locking: false, connection, logger)
        }
        startListening()
        return updateStreams.subscribe(to: list, as: person, seq: head.lastSeq) { [weak self] id in
            Task { await self?.forgetStream(id, of: list) }
        }
    }

    /// Forgets an update stream of `list` whose reader stopped.
    private func forgetStream(_ id: UUID, of list: UUID) {
        updateStreams.forget(id, of: list)
    }

    /// The lists made for or shared with `person` from now on, through this
    /// instance or another; see ``SharedListStore/newLists(for:)``.
    public func newLists(for person: AccountName) -> AsyncStream<Void> {
        let key = person.key
        startListening()
        return newListSignals.subscribe(person) { [weak self] id in
            Task { await self?.forgetNewListStream(id, of: key) }
        }
    }

    /// Forgets a stream of ``newLists(for:)`` whose reader stopped.
    private func forgetNewListStream(_ id: UUID, of key: String) {
        newListSignals.forget(id, of: key)
    }

    // MARK: Listening

    /// Starts the listener unless it runs already.
    private func startListening() {
        guard listener == nil else { return }
        // Nothing of the store in the task, which holds only the handle, weakly:
        // the store ends the listener (and its connection) when it goes.
        let (database, logger, channel) = (database, logger, channel)
        let handle: @Sendable (PostgresStore.ListenerEvent) async -> Void = { [weak self] event in await self?.heard(event) }
        listener = Task { await PostgresStore.listen(to: database, channel: channel, logger: logger, handle) }
    }

    /// Tells the streams of a list that another instance appended a row to
    /// it; after a (re)connection, tells every open stream its list's latest row
    /// when the stream has not heard of it.
    private func heard(_ event: PostgresStore.ListenerEvent) async {
        switch event {
        case .connected:
            defer { listenerConnections += 1 }
            // Lists may have been made or shared unheard meanwhile.
            newListSignals.tellEveryone()
            // Rows may have gone unheard meanwhile: each list held is read
            // again at its next change.
            for list in cache.keys { heardAhead[list] = Int.max }
            for list in updateStreams.lists {
                do {
                    let head = try await transaction { connection, logger in
                        try await self.readHead(list, locking: false, connection, logger)
                    }
                    if let head { updateStreams.notify(list, seq: head.lastSeq) } else { updateStreams.end(list) }
                } catch {
                    logger.warning("could not read shared list \(list) after the listener connected: \(error)")
                }
            }
        case .notified(let payload):
            let parts = payload.split(separator: ":")
            if parts.count == 4, parts[1] == "joined" {
                if parts[2] != Substring(instance) { newListSignals.tell(String(parts[3])) }
                return
            }
            if parts.count == 3, parts[1] == "list", let list = UUID(uuidString: String(parts[0])) {
                if parts[2] != Substring(instance) { await heardOfListChange(list) }
                return
            }
            guard parts.count == 2, let list = UUID(uuidString: String(parts[0])), let seq = Int(parts[1]) else { return }
            if let held = cache[list]?.open.seq ?? (listsInUse.contains(list) ? 0 : nil), seq > held, heardAhead[list] != Int.max {
                heardAhead[list] = max(heardAhead[list] ?? 0, seq)
            }
            guard updateStreams.isHeard(list) else { return }
            // A row the streams were told of already (this instance's own) is not told again.
            updateStreams.notify(list, seq: seq)
        }
    }

    /// Tells every listening instance, at the commit, that the list's name
    /// or members changed or that it is gone, which no log row says:
    /// `NOTIFY` with `<list id>:list:<instance>` (instances of an earlier
    /// version, which know only `<list id>:<seq>`, let it pass).
    private nonisolated func notifyOthers(of list: UUID, _ connection: PostgresConnection, _ logger: Logger) async throws {
        let payload = "\(list.uuidString.lowercased()):list:\(instance)"
        try await connection.answered("SELECT pg_notify(\(channel), \(payload))", logger: logger)
    }

    /// Tells every listening instance, at the commit, that `account` can
    /// open `list` now (it was made for them or shared with them), for their
    /// streams of ``newLists(for:)``: `NOTIFY` with
    /// `<list id>:joined:<instance>:<account key>` (instances of an earlier
    /// version let it pass). When `sharing`, with the notification of
    /// ``notifyOthers(of:_:_:)`` in the same call.
    private nonisolated func notifyOthers(
        of list: UUID, joinedBy account: AccountName, sharing: Bool, _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        let id = list.uuidString.lowercased()
        let joined = "\(id):joined:\(instance):\(account.key)"
        if sharing {
            let changed = "\(id):list:\(instance)"
            try await connection.answered("SELECT pg_notify(\(channel), \(changed)), pg_notify(\(channel), \(joined))", logger: logger)
        } else {
            try await connection.answered("SELECT pg_notify(\(channel), \(joined))", logger: logger)
        }
    }

    /// Another instance renamed, shared, stopped sharing or deleted `list`:
    /// the list held takes its name and members, the streams of whoever can
    /// no longer open it end (all of them when it is gone), and the others
    /// are told, as after this instance's own change.
    private func heardOfListChange(_ list: UUID) async {
        guard cache[list] != nil || updateStreams.isHeard(list) else { return }
        do {
            let head = try await transaction { connection, logger in
                try await self.readHead(list, locking: false, connection, logger)
            }
            guard let head else {
                cache[list] = nil
                numbers[list] = nil
                heardAhead[list] = nil
                updateStreams.end(list)
                return
            }
            cache[list]?.open.name = head.name
            cache[list]?.open.access = head.access
            updateStreams.end(list, forEveryoneBut: Set([head.access.owner.key] + head.access.members.map(\.key)))
            updateStreams.notify(list, seq: head.lastSeq, always: true)
        } catch {
            logger.warning("could not read shared list \(list) after another instance changed it: \(error)")
        }
    }

    /// The latest row of `list` heard of ahead of the list held (read by the tests).
    func heardAhead(of list: UUID) -> Int? {
        heardAhead[list]
    }

    /// Turns off (or on) the listener that a second change starts (for the tests).
    func setListensWhenChanging(_ listens: Bool) {
        listensWhenChanging = listens
    }

    /// Holds the rows to save until ``releaseSaves()`` (the tests).
    func holdSaves() {
        holdsSaves = true
    }

    /// Sends the rows held since ``holdSaves()``, in one call when there
    /// are several (the tests).
    func releaseSaves() {
        holdsSaves = false
        sendWaitingSavesIfFree()
    }

    /// How many rows wait to be saved (read by the tests).
    var waitingSaveCount: Int { waitingSaves.count }

    /// How many times the list's rows had been numbered again when this
    /// instance last read or wrote it (read by the tests).
    func renumberings(of list: UUID) -> Int64? {
        cache[list]?.renumberings
    }

    /// Who wrote each part of the list's items last, as the table
    /// `rewind_shared_writer` holds it.
    func savedWriters(of list: UUID) async throws -> [ItemPartKey: (seq: Int, author: String)] {
        try await transaction { connection, logger in
            guard let head = try await self.readHead(list, locking: false, connection, logger) else { return [:] }
            return try await self.savedWriters(head.number, connection, logger)
        }
    }

    /// Every log row of the list as the database holds it, oldest first
    /// (read by the tests).
    func savedRows(of list: UUID) async throws -> [SharedStep] {
        try await transaction { connection, logger in
            guard let head = try await self.readHead(list, locking: false, connection, logger) else { return [] }
            return try await self.steps(head.number, after: 0, connection, logger)
        }
    }

    /// The log rows of the list held in memory (read by the tests).
    func heldRowCount(of list: UUID) -> Int? {
        cache[list]?.open.shared.heldRowCount
    }

    /// The log rows of the list held in memory as summaries alone (read by the tests).
    func heldSummaryCount(of list: UUID) -> Int? {
        cache[list]?.open.shared.heldSummaryCount
    }

    // MARK: Reading and writing a list

    /// The list with every row appended so far, and with the summaries of
    /// the rows `needed` names, after checking that `person` may read it.
    private func caughtUp(
        _ list: UUID, by person: AccountName, holding needed: @Sendable (OpenSharedList) -> [Int] = { _ in [] }
    ) async throws -> OpenSharedList {
        try await inTurn(of: list) {
            // Taken out while it is brought up to date, so that it changes in place.
            var known = cache.removeValue(forKey: list)
            let (cached, number) = try await transaction { connection, logger in
                let head = try await self.head(list, checking: .read, by: person, locking: false, connection, logger)
                var cached = try await self.load(list, head, known: &known, connection, logger)
                cached.open.shared.hold(
                    summaries: try await self.summaries(head.number, numbered: needed(cached.open), connection, logger))
                return (cached, head.number)
            }
            cache[list] = cached.keepingNewestRows()
            numbers[list] = number
            noteHeld(list, at: cached.open.seq)
            return cached.open
        }
    }

    /// Runs `body`, which appends one row to the list, and saves the row
    /// with everything it wrote.
    ///
    /// When this instance holds the list and has not heard of rows that
    /// other instances appended since (``heardAhead``: the store listens
    /// from its second change on), the row is made on it and saved in one
    /// statement that commits on its own, and writes only if the
    /// database's list is still the one held (``appendingAlone(to:by:_:_:)``):
    /// one round trip, whose answer comes after the commit. Otherwise (the
    /// list not held or behind, the statement found it so, or `body`
    /// refused, which a list behind the database's may do), in one
    /// transaction that holds the list's row, reads what other instances
    /// wrote since, and runs `body` on the list brought up to date.
    private func append(
        to list: UUID, by person: AccountName, for operation: SharedList.Operation,
        _ body: @Sendable (inout OpenSharedList) throws -> SharedStep
    ) async throws -> SharedStep {
        try await inTurn(of: list) {
            // As in the SQLite store: the list is taken out, to change in
            // place; a refusal puts it back, a failure to save leaves it out.
            var known = cache.removeValue(forKey: list)
            if known != nil, listensWhenChanging {
                // From the second change on: the listener tells which lists
                // other instances wrote since, for which one statement would
                // only fail.
                startListening()
            }
            if let number = numbers[list], let needed = known?.open.shared.rowsToRead(for: operation, by: person.key),
                !needed.rows.isEmpty || !needed.summaries.isEmpty
            {
                // The rows the person's undo or redo reads, or the summaries a joining change looks at, read first.
                let (rows, summaries) = try await transaction { connection, logger in
                    (
                        try await self.steps(number, numbered: needed.rows, connection, logger),
                        try await self.summaries(number, numbered: needed.summaries, connection, logger)
                    )
                }
                known?.open.shared.hold(rows)
                known?.open.shared.hold(summaries: summaries)
            }
            if let number = numbers[list], let items = known?.open.shared.writersToRead(for: operation, by: person.key),
                !items.isEmpty
            {
                // The latest writers of the items an undo or redo looks at, which were removed before the list was opened.
                let writers = try await transaction { connection, logger in
                    try await self.savedWriters(number, of: items, connection, logger)
                }
                known?.open.shared.hold(writers: writers, of: items)
            }
            if heardAhead[list] == nil, case (let step, var cached)? = try await appendingAlone(to: list, by: person, &known, body) {
                cached.open.shared.forgetRows(keepingNewest: Cached.rowsKept)
                cache[list] = cached
                noteHeld(list, at: step.seq)
                updateStreams.notify(list, seq: step.seq)
                return step
            }
            var refused = Cached?.none
            let (step, cached, number): (SharedStep, Cached, Int64)
            do {
                (step, cached, number) = try await transaction { connection, logger in
                    let head = try await self.head(list, checking: .change, by: person, locking: true, connection, logger)
                    var cached = try await self.load(list, head, known: &known, connection, logger)
                    let needed = cached.open.shared.rowsToRead(for: operation, by: person.key)
                    cached.open.shared.hold(try await self.steps(head.number, numbered: needed.rows, connection, logger))
                    cached.open.shared.hold(
                        summaries: try await self.summaries(head.number, numbered: needed.summaries, connection, logger))
                    let items = cached.open.shared.writersToRead(for: operation, by: person.key)
                    cached.open.shared.hold(writers: try await self.savedWriters(head.number, of: items, connection, logger), of: items)
                    var requests = RowRequests()
                    var made: SharedStep?
                    while made == nil {
                        do {
                            made = try cached.append(body, keepingRefused: &refused)
                        } catch {
                            switch try requests.asked(after: error, of: list, location: self.database.url.redacted) {
                            case .rows(let rows)?:
                                cached.open.shared.hold(try await self.steps(head.number, numbered: rows, connection, logger))
                            case .writers(let items)?:
                                cached.open.shared.hold(
                                    writers: try await self.savedWriters(head.number, of: items, connection, logger), of: items)
                            case nil:
                                throw error
                            }
                        }
                    }
                    guard let step = made else { throw self.corrupt("no row was made on shared list \(list)") }
                    let saving = try self.savingRow(step, of: &cached, number: head.number, expecting: nil)
                    guard let saved = try await self.saved(try saving.row.statement(channel: self.channel), connection, logger) else {
                        throw self.corrupt("the row of shared list \(list) went while it was locked")
                    }
                    if let renumberings = saved.renumberings { cached.renumberings = renumberings }
                    cached.open.shared.forgetRows(keepingNewest: Cached.rowsKept)
                    return (step, cached, head.number)
                }
            } catch {
                cache[list] = refused
                throw error
            }
            cache[list] = cached
            numbers[list] = number
            noteHeld(list, at: cached.open.seq)
            updateStreams.notify(list, seq: step.seq)
            return step
        }
    }

    /// The row `body` makes on `known`, the list as this instance holds it,
    /// saved in one statement that writes only when the database's list is
    /// still at `known`'s latest row and `person` may still change it
    /// (``savingRow(_:of:number:expecting:)``), and the list with it.
    ///
    /// `nil`, with nothing written, when there is no `known` list, `body`
    /// refuses, or the statement did not write: `known` is then left as it
    /// was (the row taken back in memory), or `nil` when it cannot be (the
    /// row numbered every item again), for the transaction to bring up to
    /// date. When the server ends the connection before the answer, a
    /// fresh connection tells whether the row was saved.
    private func appendingAlone(
        to list: UUID, by person: AccountName, _ known: inout Cached?, _ body: (inout OpenSharedList) throws -> SharedStep
    ) async throws -> (SharedStep, Cached)? {
        guard let number = numbers[list], var cached = known.take() else { return nil }
        let expected = cached.open.seq
        let step: SharedStep
        do {
            step = try body(&cached.open)
        } catch {
            // A refusal left the list as it was; it is made again on the
            // list brought up to date, where it is sure.
            known = cached
            return nil
        }
        let touched = Set(step.patch.entries.map(\.id))
        let ranksBefore = Dictionary(uniqueKeysWithValues: touched.compactMap { id in cached.ranks.ranks[id].map { (id, $0) } })
        var writes: ItemRanks.Writes?
        let outcome: Saved?
        do {
            let saving = try savingRow(
                step, of: &cached, number: number, expecting: (seq: expected, person: person))
            writes = saving.writes
            do {
                // With the rows of other lists waiting meanwhile, if any: one call and one commit for them all.
                outcome = try await savedWithOthers(saving.row)
            } catch let stopped as ServerStoppedAnswering {
                throw CommitOutcomeUnknown(givenUp: stopped)
            } catch where PostgresTodoDatabase.connectionEnded(error) {
                // A restart, or the pool lent a connection the server had ended.
                outcome = try await wasSaved(step, number: number, lost: error) ? Saved(name: nil, renumberings: nil) : nil
                if outcome != nil, writes?.replacesAll == true { cached.renumberings = nil }
            }
        } catch {
            throw rulesOrStoreError(error)
        }
        guard let outcome else {
            // Another instance wrote first (or the list went, or `person`
            // left it): taken back, for the transaction to see why.
            cached.open.shared.takeBackLastRow()
            rowsTakenBack += 1
            if writes?.replacesAll == true { return nil }
            cached.ranks.adopt(ranksBefore, touched: touched)
            known = cached
            return nil
        }
        if let name = outcome.name { cached.open.name = name }
        if let renumberings = outcome.renumberings { cached.renumberings = renumberings }
        rowsSavedAlone += 1
        return (step, cached)
    }

    /// What a saving statement answered: the list's name and, when every
    /// item row was numbered again, its `renumberings`.
    struct Saved: Sendable {
        var name: String?
        var renumberings: Int64?
    }

    /// What saves `step`, just applied to `cached` (``SharedRowSave``, whose
    /// `statement(channel:)` is the call, and the item rows' writes): the rows
    /// of the items it touched (every row when they are numbered again),
    /// the log row, the latest writer of each part it wrote and the list's
    /// `last_seq` (and `renumberings` when every row was numbered again);
    /// and that tells every listening instance (`NOTIFY`, at the commit).
    /// It answers one row (``saved(_:_:_:)``). It is one call of
    /// `rewind_shared_save` (migration `shared-save`), whose statements the
    /// server plans once per connection: a data-modifying `WITH` of five
    /// parts spent two thirds of its time being parsed and planned.
    ///
    /// With `expecting`, it writes only when the list's row still names row
    /// `expecting.seq` its latest and `expecting.person` may still change
    /// the list, and answers a row of nulls otherwise: it needs no
    /// transaction, and takes the list's row lock before it writes
    /// anything, so that writers take turns as under `SELECT … FOR UPDATE`.
    /// It is then called through `rewind_shared_save_committed` (migration
    /// `committed-calls`), which commits before it answers: an answer means
    /// the row is saved. Without, it runs in the transaction that holds
    /// that lock.
    private nonisolated func savingRow(
        _ step: SharedStep, of cached: inout Cached, number: Int64, expecting: (seq: Int, person: AccountName)?
    ) throws -> (row: SharedRowSave, writes: ItemRanks.Writes) {
        let writes = cached.ranks.writes(touched: Set(step.patch.entries.map(\.id)), list: cached.open.shared.list)
        let row = try SharedRowSave(
            step, writes: writes, number: number, expecting: expecting.map { (Int64($0.seq), $0.person.key) })
        return (row, writes)
    }

    /// Runs the statement of a row of ``savingRow(_:of:number:expecting:)`` and
    /// reads its answer: `nil` when it wrote nothing (no row, or a row of
    /// nulls from the procedure).
    nonisolated func saved(_ statement: PostgresStatement, _ connection: PostgresConnection, _ logger: Logger)
        async throws -> Saved?
    {
        var saved: Saved?
        // The whole answer is read: the statement is done only at its end.
        for try await (name, renumberings) in try await connection.answered(statement.query, logger: logger)
            .decode((String?, Int64?).self)
        {
            if let name { saved = Saved(name: name, renumberings: renumberings) }
        }
        return saved
    }

    /// Whether the one-statement save of `step` committed although the
    /// server ended its connection before it answered: the list's row
    /// numbered `step.seq` is there and is `step` (the statement writes all
    /// its rows or none). Asked on a fresh connection; when that fails too,
    /// the error is `lost`'s.
    private func wasSaved(_ step: SharedStep, number: Int64, lost: any Error) async throws -> Bool {
        let columns = try SharedStepColumns(step, encoder: TodoJSON.makeEncoder())
        let seq = Int64(step.seq)
        do {
            return try await PostgresTodoDatabase.whenConnectionsEnd {
                try await database.withPooledConnection { connection in
                    let rows = try await connection.answered(
                        """
                        SELECT author, kind, date, changes::text FROM rewind_shared_step
                        WHERE list_id = \(number) AND seq = \(seq)
                        """, logger: self.logger)
                    for try await (author, kind, date, changes) in rows.decode((String, String, Int64, String).self) {
                        return author == step.author && kind == columns.kind && date == columns.date && changes == columns.changes
                    }
                    return false
                }
            }
        } catch {
            throw lost
        }
    }

    /// Notes that the list held is at row `seq`: what the listener heard up
    /// to it is no longer ahead.
    private func noteHeld(_ list: UUID, at seq: Int) {
        if let heard = heardAhead[list], heard <= seq || heard == Int.max { heardAhead[list] = nil }
    }

    /// Runs `body` when no other call that reads or changes the list in
    /// memory runs: such a call takes the list out of ``cache`` while its
    /// statements are under way, and one list's calls would wait for each
    /// other at its row in the database anyway.
    private func inTurn<Value: Sendable>(of list: UUID, _ body: () async throws -> Value) async throws -> Value {
        if listsInUse.contains(list) {
            await withCheckedContinuation { waitingForList[list, default: []].append($0) }
        } else {
            listsInUse.insert(list)
        }
        defer {
            if var waiting = waitingForList[list], !waiting.isEmpty {
                let next = waiting.removeFirst()
                waitingForList[list] = waiting.isEmpty ? nil : waiting
                next.resume()
            } else {
                listsInUse.remove(list)
            }
        }
        return try await body()
    }

    /// The list's row, after checking that `person` may do `action`;
    /// `locking` holds it until the transaction ends.
    ///
    /// - Throws: ``AccountError/listNotFound`` when there is no such list
    ///   or `person` cannot open it.
    private nonisolated func head(
        _ list: UUID, checking action: ListAccess.Action, by person: AccountName, locking: Bool,
        _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> Head {
        guard let head = try await readHead(list, locking: locking, connection, logger) else { throw AccountError.listNotFound }
        try head.access.check(action, by: person)
        return head
    }

    private nonisolated func readHead(_ list: UUID, locking: Bool, _ connection: PostgresConnection, _ logger: Logger)
        async throws -> Head?
    {
        // Locking, with the transaction's number: what became of it can be
        // asked when its connection ends after its COMMIT was sent.
        // The members in the same statement: one round trip.
        let query: PostgresQuery =
            locking
            ? """
            SELECT s.list_id, s.name, s.owner, s.last_seq, l.renumberings,
                   ARRAY(SELECT m.name FROM rewind_shared_member m WHERE m.list_id = s.list_id),
                   ARRAY(SELECT m.key || ' ' || m.earlier FROM rewind_shared_member m WHERE m.list_id = s.list_id AND m.earlier > 0),
                   txid_current()
            FROM rewind_shared_list s JOIN rewind_list l ON l.id = s.list_id WHERE s.id = \(list) FOR UPDATE OF s
            """
            : """
            SELECT s.list_id, s.name, s.owner, s.last_seq, l.renumberings,
                   ARRAY(SELECT m.name FROM rewind_shared_member m WHERE m.list_id = s.list_id),
                   ARRAY(SELECT m.key || ' ' || m.earlier FROM rewind_shared_member m WHERE m.list_id = s.list_id AND m.earlier > 0),
                   NULL::int8
            FROM rewind_shared_list s JOIN rewind_list l ON l.id = s.list_id WHERE s.id = \(list)
            """
        var found: (Int64, String, String, Int64, Int64, [String], [String])?
        let heads = try await connection.answered(query, logger: logger)
            .decode((Int64, String, String, Int64, Int64, [String], [String], Int64?).self)
        for try await (number, name, owner, lastSeq, renumberings, memberNames, earlier, transaction) in heads {
            found = (number, name, owner, lastSeq, renumberings, memberNames, earlier)
            if let transaction { PostgresTodoDatabase.transactionNumber?.note(transaction) }
        }
        guard let (number, name, owner, lastSeq, renumberings, memberNames, earlier) = found else { return nil }
        let members = Set(try memberNames.map(accountName))
        // "key seq" for each member with rows of an earlier account.
        var earlierRows: [String: Int] = [:]
        for entry in earlier {
            let parts = entry.split(separator: " ")
            guard parts.count == 2, let seq = Int(parts[1]) else { throw corrupt("a member's earlier rows read “\(entry)”") }
            earlierRows[String(parts[0])] = seq
        }
        return Head(
            number: number, name: name, access: ListAccess(owner: try accountName(owner), members: members, earlierRows: earlierRows),
            lastSeq: Int(lastSeq), renumberings: renumberings)
    }

    /// The list as `known`, brought up to date with the rows appended
    /// since, or read whole when this instance has not read it yet.
    private nonisolated func load(
        _ list: UUID, _ head: Head, known: inout Cached?, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> Cached {
        let after = Cached.rowsToRead(after: known, lastSeq: head.lastSeq)
        guard after > 0 else {
            // Opened afresh: the items, the latest writers and each row's head, no row's changes.
            let (state, ranks) = try await items(head.number, logger).load(connection)
            let writersOf = Cached.writersToOpen(items: state.todos.count, lastSeq: head.lastSeq)
            let writers = try await writersOf == .ofListedItems
                ? listedWriters(head.number, connection, logger) : savedWriters(head.number, connection, logger)
            return try Cached.opened(
                list, name: head.name, access: head.access, lastSeq: head.lastSeq, items: state.todos,
                heads: try await heads(head.number, connection, logger), writers: writers, of: writersOf, ranks: ranks,
                renumberings: head.renumberings, coalescingWindow: coalescingWindow, location: database.url.redacted)
        }
        // No other writer since: nothing to read.
        let rows = after == head.lastSeq ? [] : try await steps(head.number, after: after, connection, logger)
        // After other instances' rows, the ranks of the items they touched:
        // the others moved only when the list was numbered again.
        let read = Cached.ranksToRead(known, lastSeq: head.lastSeq, rows: rows, renumberings: head.renumberings)
        let saved: [UUID: Double] =
            switch read {
            case .none: [:]
            case .all: try await ranks(head.number, connection, logger)
            case .touched(let ids): try await items(head.number, logger).ranks(of: ids, connection)
            }
        return try Cached.loaded(
            list, name: head.name, access: head.access, lastSeq: head.lastSeq, known: &known, rows: rows, ranks: (read, saved),
            renumberings: head.renumberings,
            coalescingWindow: coalescingWindow, location: database.url.redacted)
    }

    /// The log rows of the list numbered `number` above `seq`, oldest first.
    private nonisolated func steps(_ number: Int64, after seq: Int, _ connection: PostgresConnection, _ logger: Logger)
        async throws -> [SharedStep]
    {
        let after = Int64(seq)
        return try await steps(
            number,
            """
            SELECT seq, author, kind, reverts, name, date, coalescing_key, joins, changes::text, patch::text, skipped::text
            FROM rewind_shared_step WHERE list_id = \(number) AND seq > \(after) ORDER BY seq
            """, connection, logger)
    }

    /// The log rows of the list numbered `number` numbered `seqs`, oldest first.
    private nonisolated func steps(_ number: Int64, numbered seqs: [Int], _ connection: PostgresConnection, _ logger: Logger)
        async throws -> [SharedStep]
    {
        guard !seqs.isEmpty else { return [] }
        let numbers = seqs.map(Int64.init)
        return try await steps(
            number,
            """
            SELECT seq, author, kind, reverts, name, date, coalescing_key, joins, changes::text, patch::text, skipped::text
            FROM rewind_shared_step WHERE list_id = \(number) AND seq = ANY(\(numbers)) ORDER BY seq
            """, connection, logger)
    }

    /// The log rows of the list numbered `number` that `query` answers.
    private nonisolated func steps(_ number: Int64, _ query: PostgresQuery, _ connection: PostgresConnection, _ logger: Logger)
        async throws -> [SharedStep]
    {
        let decoder = TodoJSON.makeDecoder(reading: .store)
        let rows = try await connection.answered(query, logger: logger)
        var steps: [SharedStep] = []
        for try await (seq, author, kind, reverts, name, date, key, joins, changes, patch, skipped) in rows.decode(
            (Int64, String, String, Int64?, String, Int64, String?, Int64?, String, String, String).self)
        {
            do {
                let columns = SharedStepColumns(
                    kind: kind, reverts: reverts.map(Int.init), date: date, changes: changes, patch: patch, skipped: skipped)
                steps.append(
                    try columns.step(
                        seq: Int(seq), author: author, name: name, coalescingKey: key, joins: joins.map(Int.init), decoder: decoder))
            } catch {
                throw corrupt("row \(seq) of shared list \(number) does not decode: \(error)")
            }
        }
        return steps
    }

    /// The summaries of the log rows of the list numbered `number` numbered
    /// `seqs`, oldest first: their columns but the changes and the patch.
    private nonisolated func summaries(
        _ number: Int64, numbered seqs: [Int], _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [SharedStep.Summary] {
        guard !seqs.isEmpty else { return [] }
        let numbers = seqs.map(Int64.init)
        let decoder = TodoJSON.makeDecoder(reading: .store)
        let rows = try await connection.answered(
            """
            SELECT seq, author, kind, reverts, name, date, coalescing_key, joins, skipped::text,
                CASE WHEN kind IN ('undo', 'redo') THEN changes::text = '[]' ELSE false END
            FROM rewind_shared_step WHERE list_id = \(number) AND seq = ANY(\(numbers)) ORDER BY seq
            """, logger: logger)
        var summaries: [SharedStep.Summary] = []
        for try await (seq, author, kind, reverts, name, date, key, joins, skipped, changedNothing) in rows.decode(
            (Int64, String, String, Int64?, String, Int64, String?, Int64?, String, Bool).self)
        {
            do {
                summaries.append(
                    try SharedStepColumns.summary(
                        seq: Int(seq), author: author, kind: kind, reverts: reverts.map(Int.init), name: name, date: date,
                        coalescingKey: key, joins: joins.map(Int.init), skipped: skipped, changedNothing: changedNothing,
                        decoder: decoder))
            } catch {
                throw corrupt("a row of shared list \(number) does not decode: \(error)")
            }
        }
        return summaries
    }

    /// The head of every log row of the list numbered `number`, oldest
    /// first: what each person's stacks are rebuilt from.
    private nonisolated func heads(_ number: Int64, _ connection: PostgresConnection, _ logger: Logger) async throws
        -> [SharedStep.Head]
    {
        let rows = try await connection.answered(
            "SELECT seq, author, kind, reverts, joins FROM rewind_shared_step WHERE list_id = \(number) ORDER BY seq",
            logger: logger)
        var heads: [SharedStep.Head] = []
        do {
            for try await (seq, author, kind, reverts, joins) in rows.decode((Int64, String, String, Int64?, Int64?).self) {
                heads.append(
                    try SharedStepColumns.head(
                        seq: Int(seq), author: author, kind: kind, reverts: reverts.map(Int.init), joins: joins.map(Int.init)))
            }
        } catch let error as UndecodableRow {
            throw corrupt("a log row of shared list \(number) does not decode: \(error)")
        }
        return heads
    }

    /// Who wrote each part of every item the list numbered `number` ever had last.
    private nonisolated func savedWriters(_ number: Int64, _ connection: PostgresConnection, _ logger: Logger) async throws
        -> [ItemPartKey: (seq: Int, author: String)]
    {
        try await writers("SELECT item, part, seq, author FROM rewind_shared_writer WHERE list_id = \(number)", connection, logger)
    }

    /// Who wrote each part of the items on the list numbered `number` now
    /// last: what opening it reads (the writers of items removed before are
    /// read when an undo asks for them).
    private nonisolated func listedWriters(_ number: Int64, _ connection: PostgresConnection, _ logger: Logger) async throws
        -> [ItemPartKey: (seq: Int, author: String)]
    {
        try await writers(
            """
            SELECT w.item, w.part, w.seq, w.author FROM rewind_item i
            JOIN rewind_shared_writer w ON w.list_id = i.list_id AND w.item = i.id WHERE i.list_id = \(number)
            """, connection, logger)
    }

    /// Who wrote each part of `items` of the list numbered `number` last.
    private nonisolated func savedWriters(
        _ number: Int64, of items: [UUID], _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [ItemPartKey: (seq: Int, author: String)] {
        guard !items.isEmpty else { return [:] }
        return try await writers(
            "SELECT item, part, seq, author FROM rewind_shared_writer WHERE list_id = \(number) AND item = ANY(\(items))",
            connection, logger)
    }

    /// The latest writers that `query` selects (item, part, seq, author).
    private nonisolated func writers(_ query: PostgresQuery, _ connection: PostgresConnection, _ logger: Logger) async throws
        -> [ItemPartKey: (seq: Int, author: String)]
    {
        var writers: [ItemPartKey: (seq: Int, author: String)] = [:]
        let rows = try await connection.answered(query, logger: logger)
        for try await (item, text, seq, author) in rows.decode((UUID, String, Int64, String).self) {
            guard let part = ItemPart(rawValue: text) else { throw corrupt("a latest writer names the part “\(text)”") }
            writers[ItemPartKey(item, part)] = (Int(seq), author)
        }
        return writers
    }

    /// The rank of every item row of the list numbered `number`.
    private nonisolated func ranks(_ number: Int64, _ connection: PostgresConnection, _ logger: Logger) async throws
        -> [UUID: Double]
    {
        var ranks: [UUID: Double] = [:]
        let rows = try await connection.answered("SELECT id, rank FROM rewind_item WHERE list_id = \(number)", logger: logger)
        for try await (id, rank) in rows.decode((UUID, Double).self) { ranks[id] = rank }
        return ranks
    }

    /// The item rows of the list numbered `number`.
    private nonisolated func items(_ number: Int64, _ logger: Logger) -> PostgresItems {
        PostgresItems(list: number, location: database.url.redacted, logger: logger)
    }

    /// Runs `body` in a transaction on a connection of the pool; the
    /// errors of the rules pass as they are, others become ``StoreError``s
    /// that name the database.
    ///
    /// When the server ends the connection (a restart, an administrator)
    /// before the transaction's answer, it is run again on a fresh
    /// connection if it did not commit: it had not sent its `COMMIT` (the
    /// server rolls it back), or, for one that locked the list's row, the
    /// server says it was aborted. One that did commit is answered as
    /// committed. (``PostgresTodoDatabase/retriedTransaction(logger:isolation:_:)``.)
    @discardableResult
    private func transaction<Value: Sendable>(
        _ body: (PostgresConnection, Logger) async throws -> Value
    ) async throws -> Value {
        let logger = logger
        do {
            return try await database.retriedTransaction(logger: logger) { connection in
                try await body(connection, logger)
            }
        } catch {
            throw rulesOrStoreError(error)
        }
    }

    /// `error` as it is when it is of the rules, else as a ``StoreError``.
    private func rulesOrStoreError(_ error: any Error) -> any Error {
        switch error {
        case is AccountError, is SharingError, is SharedListError, is PlanRefusal: error
        default: database.storeError(error)
        }
    }

    private nonisolated func accountName(_ text: String) throws -> AccountName {
        try AccountName.saved(text, in: database.url.redacted)
    }

    private nonisolated func corrupt(_ detail: String) -> StoreError {
        .corrupt(path: database.url.redacted, detail: detail)
    }
}
