import Foundation
import GRDB
import Todos

/// The named lists of team mode in the SQLite file of the data directory
/// (tables `shared_list`, `shared_member`, `shared_item`, `shared_step`,
/// `shared_writer`; migration `v5-shared-lists`).
///
/// Each change, undo and redo is one immediate transaction that appends
/// the log row, writes the rows of the items it touched (a rank orders
/// them, as in `item`) and the latest writer of each part it wrote, and
/// moves the list's `lastSeq`. The row's number is taken inside the
/// transaction, so several processes over one file write one gap-free log:
/// each first reads the rows others appended since it last looked.
///
/// The first time a process opens a list it reads the list's items, the
/// latest writers and each log row's head, and rebuilds each person's stacks
/// from the heads (``SharedList/init(opening:heads:writers:coalescingWindow:)``),
/// decoding no row's changes; a row is read when an operation asks for it
/// (``SharingError/rowsNotHeld(_:)``), and the newest rows are kept. After
/// that it reads only the rows appended since. Reading the items of a list
/// not held reads their rows alone.
///
/// The update streams hear this store's writes at once, and another
/// process's (a second `rewind serve` or `rewind todo --as` over the same
/// file) within the poll interval: while a stream is open the store looks
/// at the heard lists' latest row numbers that often.
///
/// ```swift
/// let lists = try await SQLiteSharedListStore.open(url: DataDirectory.resolve().databaseURL)
/// let groceries = try await lists.create(name: "Groceries", owner: ann)
/// ```
public actor SQLiteSharedListStore: SharedListStore {
    private typealias Cached = CachedSharedList

    /// A list's row and members.
    private struct Head {
        var name: String
        var access: ListAccess
        var lastSeq: Int
    }

    private let database: TodoDatabase
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    private let coalescingWindow: TimeInterval
    private let executor = StoreExecutor(label: "rewind.sqlite.shared")
    /// The lists held in memory, up to about `cachedRows` items in all, on the lists and in their rows held.
    private var cache: SharedListCache
    /// The lists held in memory (read by the tests).
    var heldLists: Set<UUID> { Set(cache.keys) }
    /// The update streams of the lists (read by the tests).
    private(set) var updateStreams = SharedListUpdates()
    private let pollInterval: TimeInterval
    private var poll: Task<Void, Never>?
    /// The name, owner and members of each heard list as this store last
    /// knew them: a poll that finds them changed learns that another
    /// process renamed, shared or stopped sharing the list.
    private var knownNames: [UUID: String] = [:]
    /// The streams of ``newLists(for:)``, and the lists each of their
    /// accounts could open at the last look: a poll that finds one more
    /// learns that another process made or shared it.
    private var newListSignals = NewListSignals()
    private var knownLists: [String: Set<UUID>] = [:]

    /// Runs the store's work on a thread of its own, not Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Opens the database file at `url`, creating it or adding the tables
    /// of shared lists if needed; rows are dated by `now` (rounded to
    /// milliseconds) and lists get ids from `makeID`. While an update
    /// stream is open, other processes' rows are looked for every
    /// `pollInterval` seconds. The lists read are kept in memory up to about
    /// `cachedRows` items in all, on the lists and in their rows held (``SharedListCache``).
    ///
    /// - Throws: ``StoreError`` when the file is not a Rewind database, is
    ///   from a newer version, or is damaged; the file is then unchanged.
    public init(
        url: URL, now: @escaping @Sendable () -> Date = SQLiteStore.millisecondClock,
        makeID: @escaping @Sendable () -> UUID = UUID.init, coalescingWindow: TimeInterval = 0.5,
        pollInterval: TimeInterval = 0.25, cachedRows: Int = 100_000
    ) throws {
        database = try TodoDatabase(url: url, checkingEveryPage: false)
        self.now = now
        self.makeID = makeID
        self.coalescingWindow = coalescingWindow
        self.pollInterval = pollInterval
        cache = SharedListCache(rowLimit: cachedRows)
    }

    /// Opens the database file at `url` as
    /// ``init(url:now:makeID:coalescingWindow:pollInterval:cachedRows:)`` does, away
    /// from Swift's cooperative pool.
    public static func open(
        url: URL, now: @escaping @Sendable () -> Date = SQLiteStore.millisecondClock,
        makeID: @escaping @Sendable () -> UUID = UUID.init, coalescingWindow: TimeInterval = 0.5,
        pollInterval: TimeInterval = 0.25, cachedRows: Int = 100_000
    ) async throws -> SQLiteSharedListStore {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try SQLiteSharedListStore(
                            url: url, now: now, makeID: makeID, coalescingWindow: coalescingWindow, pollInterval: pollInterval,
                            cachedRows: cachedRows)
                    })
            }
        }
    }

    deinit {
        poll?.cancel()
    }

    /// The database file.
    public nonisolated var url: URL { database.url }

    // MARK: Lists

    /// Makes a list; see ``SharedListStore/create(name:owner:)``.
    public func create(name: String, owner: AccountName) throws -> SharedListSummary {
        let summary = SharedListSummary(id: makeID(), name: try SharedListSummary.checkedName(name), access: ListAccess(owner: owner))
        try database.writing { db in
            try db.execute(
                sql: "INSERT INTO shared_list (id, name, ownerKey, owner, created, lastSeq) VALUES (?, ?, ?, ?, ?, 0)",
                arguments: [summary.id.uuidString, summary.name, owner.key, owner.text, ItemRecord.milliseconds(now())])
        }
        gained(summary.id, by: owner)
        return summary
    }

    /// Renames a list; see ``SharedListStore/rename(_:to:by:)``.
    @discardableResult
    public func rename(_ list: UUID, to name: String, by person: AccountName) throws -> SharedListSummary {
        let (summary, seq) = try database.writing { db in
            let head = try self.head(db, list, checking: .rename, by: person)
            let name = try SharedListSummary.checkedName(name)
            try db.execute(sql: "UPDATE shared_list SET name = ? WHERE id = ?", arguments: [name, list.uuidString])
            return (SharedListSummary(id: list, name: name, access: head.access), head.lastSeq)
        }
        cache[list]?.open.name = summary.name
        noteKnown(summary)
        updateStreams.notify(list, seq: seq, always: true)
        return summary
    }

    /// Deletes a list; see ``SharedListStore/delete(_:by:)``.
    public func delete(_ list: UUID, by person: AccountName) throws {
        try database.writing { db in
            _ = try self.head(db, list, checking: .delete, by: person)
            for table in ["shared_writer", "shared_step", "shared_item", "shared_member"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE list = ?", arguments: [list.uuidString])
            }
            try db.execute(sql: "DELETE FROM shared_list WHERE id = ?", arguments: [list.uuidString])
        }
        cache[list] = nil
        updateStreams.end(list)
    }

    /// Shares a list; see ``SharedListStore/share(_:with:madeAt:by:)``.
    @discardableResult
    public func share(_ list: UUID, with account: AccountName, madeAt made: Date, by person: AccountName) throws
        -> SharedListSummary
    {
        let (summary, seq) = try database.writing { db in
            var head = try self.head(db, list, checking: .read, by: person)
            let earlier = try Int.fetchOne(
                db, sql: "SELECT coalesce(max(seq), 0) FROM shared_step WHERE list = ? AND author = ? AND date < ?",
                arguments: [list.uuidString, account.key, ItemRecord.milliseconds(made)]) ?? 0
            try head.access.share(with: account, by: person, earlierRows: earlier)
            try db.execute(
                sql: "INSERT INTO shared_member (list, key, name, earlier) VALUES (?, ?, ?, ?)",
                arguments: [list.uuidString, account.key, account.text, earlier])
            return (SharedListSummary(id: list, name: head.name, access: head.access), head.lastSeq)
        }
        cache[list]?.open.access = summary.access
        noteKnown(summary)
        updateStreams.notify(list, seq: seq, always: true)
        gained(list, by: account)
        return summary
    }

    /// Stops sharing a list; see ``SharedListStore/unshare(_:with:by:)``.
    @discardableResult
    public func unshare(_ list: UUID, with account: AccountName, by person: AccountName) throws -> SharedListSummary {
        let (summary, seq) = try database.writing { db in
            var head = try self.head(db, list, checking: .read, by: person)
            try head.access.unshare(with: account, by: person)
            try db.execute(
                sql: "DELETE FROM shared_member WHERE list = ? AND key = ?", arguments: [list.uuidString, account.key])
            return (SharedListSummary(id: list, name: head.name, access: head.access), head.lastSeq)
        }
        cache[list]?.open.access = summary.access
        noteKnown(summary)
        updateStreams.end(list, for: account)
        updateStreams.notify(list, seq: seq, always: true)
        return summary
    }

    /// The lists `person` can open, oldest first.
    public func lists(of person: AccountName) throws -> [SharedListSummary] {
        try database.reading { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id FROM shared_list
                    WHERE ownerKey = ? OR id IN (SELECT list FROM shared_member WHERE key = ?)
                    ORDER BY created, rowid
                    """,
                arguments: [person.key, person.key])
            return try rows.compactMap { row -> SharedListSummary? in
                let text: String = try row.decode(String.self, atIndex: 0)
                guard let id = UUID(uuidString: text) else { throw self.corrupt("a shared list's id “\(text)” is not a UUID") }
                return try self.readHead(db, id).map { SharedListSummary(id: id, name: $0.name, access: $0.access) }
            }
        }
    }

    /// How many items each of `person`'s lists holds; see
    /// ``SharedListStore/itemCounts(of:)``. A list this store holds is
    /// brought up to date (with the rows another process appended, if any)
    /// and counted in memory; the others are counted from their item rows
    /// (the primary key's index and the rows' states), in one read. So an
    /// open lists page that looks again after each change of a long list
    /// costs what the change costs, not a pass over the list's rows.
    public func itemCounts(of person: AccountName) throws -> [UUID: SharedListCounts] {
        let ids = try database.reading { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM shared_list WHERE ownerKey = ? OR id IN (SELECT list FROM shared_member WHERE key = ?)",
                arguments: [person.key, person.key])
        }
        var counts: [UUID: SharedListCounts] = [:]
        var unheld: [String] = []
        for text in ids {
            guard let id = UUID(uuidString: text) else { throw corrupt("a shared list's id “\(text)” is not a UUID") }
            // A list gone or no longer shared since the read above is left out, as a later read would.
            if cache[id] != nil, let open = try? caughtUp(id, by: person) {
                counts[id] = SharedListCounts(items: open.shared.list.count, completed: open.shared.list.completedCount)
            } else {
                unheld.append(text)
            }
        }
        guard !unheld.isEmpty else { return counts }
        return try database.reading { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT shared_list.id, count(shared_item.id), count(CASE WHEN shared_item.state = ? THEN 1 END)
                    FROM shared_list LEFT JOIN shared_item ON shared_item.list = shared_list.id
                    WHERE shared_list.id IN (\(unheld.map { _ in "?" }.joined(separator: ",")))
                    GROUP BY shared_list.id
                    """,
                arguments: StatementArguments([TodoItem.State.completed.rawValue] + unheld))
            for row in rows {
                let text: String = try row.decode(String.self, atIndex: 0)
                guard let id = UUID(uuidString: text) else { throw self.corrupt("a shared list's id “\(text)” is not a UUID") }
                counts[id] = SharedListCounts(items: try row.decode(Int.self, atIndex: 1), completed: try row.decode(Int.self, atIndex: 2))
            }
            return counts
        }
    }

    // MARK: One list

    /// The items of a list; see ``SharedListStore/items(of:as:)``. A list
    /// this store holds is brought up to date with the rows appended since
    /// (none, most often); another is read from its item rows.
    public func items(of list: UUID, as person: AccountName) throws -> SharedListItems {
        if cache[list] != nil {
            let open = try caughtUp(list, by: person)
            return SharedListItems(list: open.shared.list, seq: open.seq)
        }
        return try database.reading { db in
            let head = try self.head(db, list, checking: .read, by: person)
            return SharedListItems(list: try self.savedItems(db, list).list, seq: head.lastSeq)
        }
    }

    /// Applies the changes a plan makes; see ``SharedListStore/perform(on:by:answering:_:)``.
    public func perform(
        on list: UUID, by person: AccountName, answering item: UUID?, _ plan: @Sendable (TodoList) throws -> PlannedSharedChange
    ) throws -> (step: SharedStep, item: TodoItem?) {
        let date = now().roundedToMilliseconds
        let step = try PlanRefusal.unwrapping {
            try append(to: list, by: person, for: .change) { open in try open.perform(planning: plan, by: person, at: date) }
        }
        return (step, item.flatMap { cache[list]?.open.shared.list[id: $0] })
    }

    /// Undoes a step; see ``SharedListStore/undo(on:by:expecting:)``.
    @discardableResult
    public func undo(on list: UUID, by person: AccountName, expecting step: Int?) throws -> SharedStep {
        let date = now().roundedToMilliseconds
        return try append(to: list, by: person, for: .undo) { open in try open.undo(by: person, expecting: step, at: date) }
    }

    /// Redoes a step; see ``SharedListStore/redo(on:by:expecting:)``.
    @discardableResult
    public func redo(on list: UUID, by person: AccountName, expecting step: Int?) throws -> SharedStep {
        let date = now().roundedToMilliseconds
        return try append(to: list, by: person, for: .redo) { open in try open.redo(by: person, expecting: step, at: date) }
    }

    /// A person's next undo and redo; see ``SharedListStore/nextSteps(on:of:)``.
    public func nextSteps(on list: UUID, of person: AccountName) throws -> SharedListNextSteps {
        try caughtUp(list, by: person) { $0.shared.summariesNeeded(by: person.key) }.nextSteps(of: person)
    }

    /// A page of history; see ``SharedListStore/history(of:as:before:limit:)``.
    public func history(of list: UUID, as person: AccountName, before: Int?, limit: Int) throws -> [SharedStep.Summary] {
        try SharedListSummary.checkPageSize(limit)
        return try caughtUp(list, by: person) { $0.shared.summariesNotHeld(in: $0.historyRows(before: before, limit: limit)) }
            .history(as: person, before: before, limit: limit)
    }

    /// The updates of a list, made through this store or by another
    /// process (within the poll interval); see ``SharedListStore/updates(of:as:)``.
    public func updates(of list: UUID, as person: AccountName) throws -> AsyncStream<SharedListUpdate> {
        let head = try database.reading { db in try self.head(db, list, checking: .read, by: person) }
        if knownNames[list] == nil { knownNames[list] = Self.known(head.access, name: head.name) }
        let stream = updateStreams.subscribe(to: list, as: person, seq: head.lastSeq) { [weak self] id in
            Task { await self?.forgetStream(id, of: list) }
        }
        startPolling()
        return stream
    }

    /// Forgets an update stream of `list` whose reader stopped.
    private func forgetStream(_ id: UUID, of list: UUID) {
        updateStreams.forget(id, of: list)
    }

    /// The lists made for or shared with `person` from now on, through this
    /// store or by another process (within the poll interval); see
    /// ``SharedListStore/newLists(for:)``.
    public func newLists(for person: AccountName) -> AsyncStream<Void> {
        let key = person.key
        if knownLists[key] == nil {
            // Unread, nothing is known: the first poll tells the stream, once.
            knownLists[key] = (try? database.reading { db in try self.listIDs(db, of: [key])[key] ?? [] }) ?? []
        }
        let stream = newListSignals.subscribe(person) { [weak self] id in
            Task { await self?.forgetNewListStream(id, of: key) }
        }
        startPolling()
        return stream
    }

    /// Forgets a stream of ``newLists(for:)`` whose reader stopped.
    private func forgetNewListStream(_ id: UUID, of key: String) {
        newListSignals.forget(id, of: key)
        if !newListSignals.keys.contains(key) { knownLists[key] = nil }
    }

    /// `person` can open `list` now, through this store: their streams of
    /// ``newLists(for:)`` are told, and the next poll does not tell them again.
    private func gained(_ list: UUID, by person: AccountName) {
        knownLists[person.key]?.insert(list)
        newListSignals.tell(person.key)
    }

    /// The ids of the lists each of the accounts `keys` owns or is a member of.
    private nonisolated func listIDs(_ db: Database, of keys: [String]) throws -> [String: Set<UUID>] {
        let marks = keys.map { _ in "?" }.joined(separator: ",")
        var ids: [String: Set<UUID>] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT ownerKey, id FROM shared_list WHERE ownerKey IN (\(marks))
                UNION ALL SELECT key, list FROM shared_member WHERE key IN (\(marks))
                """,
            arguments: StatementArguments(keys + keys))
        {
            if let id = UUID(uuidString: row[1]) { ids[row[0], default: []].insert(id) }
        }
        return ids
    }

    /// Starts looking for other processes' rows, unless it runs already.
    private func startPolling() {
        guard poll == nil else { return }
        let interval = pollInterval
        poll = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(interval))
                guard let self, await self.pollOnce() else { return }
            }
        }
    }

    /// Tells the streams of every heard list whose latest row moved on
    /// (another process appended) or whose name or members another process
    /// changed (then the streams of whoever can no longer open it end), and
    /// ends those of a list that is gone; tells the streams of
    /// ``newLists(for:)`` of lists others made or shared.
    ///
    /// - Returns: Whether to go on: `false` once no stream is open.
    private func pollOnce() -> Bool {
        let lists = updateStreams.lists
        guard !lists.isEmpty || !newListSignals.isEmpty else {
            poll = nil
            knownNames = [:]
            return false
        }
        pollNewLists()
        guard !lists.isEmpty else {
            knownNames = [:]
            return true
        }
        // A file that cannot be read now is tried again next time.
        guard
            let latest = try? database.reading({ db in
                try Dictionary(
                    Row.fetchAll(
                        db,
                        sql: """
                            SELECT id, lastSeq, name, ownerKey,
                                (SELECT group_concat(key, ',') FROM shared_member WHERE list = shared_list.id)
                            FROM shared_list WHERE id IN (\(lists.map { _ in "?" }.joined(separator: ",")))
                            """,
                        arguments: StatementArguments(lists.map(\.uuidString))
                    ).map { row -> (String, (seq: Int, name: String, keys: [String])) in
                        // Sorted here as `noteKnown` sorts them, whatever SQLite's order.
                        let members = (row[4] as String?).map { $0.split(separator: ",").map(String.init).sorted() } ?? []
                        return (row[0], (row[1], row[2], [row[3]] + members))
                    },
                    uniquingKeysWith: { first, _ in first })
            })
        else { return true }
        for list in lists {
            guard let head = latest[list.uuidString] else {
                cache[list] = nil
                knownNames[list] = nil
                updateStreams.end(list)
                continue
            }
            let known = Self.known(name: head.name, keys: head.keys)
            if let before = knownNames[list], before != known {
                // Read again whole at its next use, under its new name and members.
                cache[list] = nil
                updateStreams.end(list, forEveryoneBut: Set(head.keys))
                updateStreams.notify(list, seq: head.seq, always: true)
            } else {
                updateStreams.notify(list, seq: head.seq)
            }
            knownNames[list] = known
        }
        for list in knownNames.keys where !updateStreams.isHeard(list) { knownNames[list] = nil }
        return true
    }

    /// Tells the streams of ``newLists(for:)`` of each account that can open
    /// a list it could not at the last look (another process made or shared it).
    private func pollNewLists() {
        let keys = newListSignals.keys
        // A file that cannot be read now is tried again next time.
        guard !keys.isEmpty, let now = try? database.reading({ db in try self.listIDs(db, of: keys) }) else { return }
        for key in keys {
            let lists = now[key] ?? []
            if !lists.isSubset(of: knownLists[key] ?? []) { newListSignals.tell(key) }
            knownLists[key] = lists
        }
    }

    /// Notes the name, owner and members of a list this store changed, so
    /// that the next poll does not take them for another process's change.
    private func noteKnown(_ summary: SharedListSummary) {
        guard knownNames[summary.id] != nil else { return }
        knownNames[summary.id] = Self.known(summary.access, name: summary.name)
    }

    /// A list's name, owner and members, as one text to compare (`keys`:
    /// the owner's key, then the members' in order).
    private static func known(name: String, keys: [String]) -> String {
        ([name] + keys).joined(separator: "\u{0}")
    }

    /// What ``known(name:keys:)`` makes of a list's name and access.
    private static func known(_ access: ListAccess, name: String) -> String {
        known(name: name, keys: [access.owner.key] + access.members.map(\.key).sorted())
    }

    /// Who wrote each part of the list's items last, as the table
    /// `shared_writer` holds it.
    func savedWriters(of list: UUID) throws -> [ItemPartKey: (seq: Int, author: String)] {
        try database.reading { db in try self.savedWriters(db, list) }
    }

    /// Every log row of the list as the file holds it, oldest first (read by the tests).
    func savedRows(of list: UUID) throws -> [SharedStep] {
        try database.reading { db in try self.steps(db, list, after: 0) }
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
    private func caughtUp(_ list: UUID, by person: AccountName, holding needed: (OpenSharedList) -> [Int] = { _ in [] }) throws
        -> OpenSharedList
    {
        // Taken out while it is brought up to date, so that it changes in place.
        var known = cache.removeValue(forKey: list)
        let cached = try database.reading { db in
            var cached = try self.load(db, list, checking: .read, by: person, known: &known)
            cached.open.shared.hold(summaries: try self.summaries(db, list, numbered: needed(cached.open)))
            return cached
        }
        cache[list] = cached.keepingNewestRows()
        return cached.open
    }

    /// Runs `body`, which appends one row to the list by doing `operation`,
    /// in one transaction that saves the row with everything it wrote.
    private func append(
        to list: UUID, by person: AccountName, for operation: SharedList.Operation,
        _ body: (inout OpenSharedList) throws -> SharedStep
    ) throws
        -> SharedStep
    {
        // Taken out while it changes, so that it changes in place. A change
        // refused (which leaves it as it was) puts it back; one that could
        // not be saved leaves it out, and the next call reads it again.
        var known = cache.removeValue(forKey: list)
        var refused: Cached?
        let step: SharedStep
        let cached: Cached
        do {
            (step, cached) = try database.writing { db in
                var cached = try self.load(db, list, checking: .change, by: person, known: &known)
                let needed = cached.open.shared.rowsToRead(for: operation, by: person.key)
                cached.open.shared.hold(try self.steps(db, list, numbered: needed.rows))
                cached.open.shared.hold(summaries: try self.summaries(db, list, numbered: needed.summaries))
                let items = cached.open.shared.writersToRead(for: operation, by: person.key)
                cached.open.shared.hold(writers: try self.savedWriters(db, list, of: items), of: items)
                let step = try cached.append(
                    body, keepingRefused: &refused, reading: { try self.steps(db, list, numbered: $0) },
                    readingWriters: { try self.savedWriters(db, list, of: $0) },
                    location: self.database.url.path)
                try self.save(step, of: &cached, db)
                cached.open.shared.forgetRows(keepingNewest: Cached.rowsKept)
                return (step, cached)
            }
        } catch {
            cache[list] = refused
            throw error
        }
        cache[list] = cached
        updateStreams.notify(list, seq: step.seq)
        return step
    }

    /// The list's row, after checking that `person` may do `action`.
    ///
    /// - Throws: ``AccountError/listNotFound`` when there is no such list
    ///   or `person` cannot open it.
    private nonisolated func head(_ db: Database, _ list: UUID, checking action: ListAccess.Action, by person: AccountName)
        throws -> Head
    {
        guard let head = try readHead(db, list) else { throw AccountError.listNotFound }
        try head.access.check(action, by: person)
        return head
    }

    private nonisolated func readHead(_ db: Database, _ list: UUID) throws -> Head? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT name, owner, lastSeq FROM shared_list WHERE id = ?", arguments: [list.uuidString])
        else { return nil }
        var members = Set<AccountName>()
        var earlierRows: [String: Int] = [:]
        for member in try Row.fetchAll(
            db, sql: "SELECT name, earlier FROM shared_member WHERE list = ?", arguments: [list.uuidString])
        {
            let name = try accountName(member.decode(String.self, atIndex: 0))
            members.insert(name)
            earlierRows[name.key] = try member.decode(Int.self, atIndex: 1)
        }
        return Head(
            name: try row.decode(String.self, atIndex: 0),
            access: ListAccess(
                owner: try accountName(row.decode(String.self, atIndex: 1)), members: members, earlierRows: earlierRows),
            lastSeq: try row.decode(Int.self, atIndex: 2))
    }

    /// The list as `known`, brought up to date with the rows appended
    /// since, or opened afresh when this process has not read it yet: its
    /// items, latest writers and rows' heads, none of its rows' changes.
    private nonisolated func load(
        _ db: Database, _ list: UUID, checking action: ListAccess.Action, by person: AccountName, known: inout Cached?
    ) throws -> Cached {
        let head = try head(db, list, checking: action, by: person)
        let after = Cached.rowsToRead(after: known, lastSeq: head.lastSeq)
        guard after > 0 else {
            let (items, ranks) = try savedItems(db, list)
            let writersOf = Cached.writersToOpen(items: items.count, lastSeq: head.lastSeq)
            return try Cached.opened(
                list, name: head.name, access: head.access, lastSeq: head.lastSeq, items: items, heads: try heads(db, list),
                writers: try writersOf == .ofListedItems ? listedWriters(db, list) : savedWriters(db, list), of: writersOf,
                ranks: ranks, coalescingWindow: coalescingWindow, location: database.url.path)
        }
        let rows = try steps(db, list, after: after)
        // This store does not count renumberings: after another process's
        // rows it reads every rank (`read` is never `.touched`).
        let read = Cached.ranksToRead(known, lastSeq: head.lastSeq, rows: rows, renumberings: nil)
        let ranks = read == .none ? [:] : try ranks(db, list)
        return try Cached.loaded(
            list, name: head.name, access: head.access, lastSeq: head.lastSeq, known: &known, rows: rows, ranks: (read, ranks),
            coalescingWindow: coalescingWindow, location: database.url.path)
    }

    /// Saves `step`, just applied to `cached`: the log row, the rows of
    /// the items it touched, the latest writers and the list's `lastSeq`.
    private nonisolated func save(_ step: SharedStep, of cached: inout Cached, _ db: Database) throws {
        let list = cached.open.id.uuidString
        let encoder = TodoJSON.makeEncoder()
        let writes = cached.ranks.writes(touched: Set(step.patch.entries.map(\.id)), list: cached.open.shared.list)
        if writes.replacesAll {
            try db.execute(sql: "DELETE FROM shared_item WHERE list = ?", arguments: [list])
        }
        for id in writes.deletions {
            try db.execute(sql: "DELETE FROM shared_item WHERE list = ? AND id = ?", arguments: [list, id.uuidString])
        }
        for (item, rank, isNew) in writes.rows {
            let record = try ItemRecord(item, rank: rank, encoder: encoder)
            let fields: StatementArguments = [
                record.rank, record.title, record.details, record.state, record.created, record.changed, record.due,
                record.location,
            ]
            if isNew {
                try db.cachedStatement(
                    sql: "INSERT INTO shared_item (list, \(ItemRecord.selection)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                ).execute(arguments: [list, record.id] + fields)
            } else {
                try db.cachedStatement(
                    sql: """
                        UPDATE shared_item SET rank = ?, title = ?, details = ?, state = ?, created = ?, changed = ?, due = ?,
                        location = ? WHERE list = ? AND id = ?
                        """
                ).execute(arguments: fields + [list, record.id])
                guard db.changesCount == 1 else { throw corrupt("shared list \(list) has no row for item \(item.id)") }
            }
        }
        let columns = try SharedStepColumns(step, encoder: encoder)
        try db.cachedStatement(
            sql: """
                INSERT INTO shared_step (list, seq, author, kind, reverts, name, date, coalescingKey, joins, changes, patch, skipped)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            list, step.seq, step.author, columns.kind, columns.reverts, step.name, columns.date, step.coalescingKey, step.joins,
            columns.changes, columns.patch, columns.skipped,
        ])
        for key in step.patch.parts {
            try db.cachedStatement(
                sql: """
                    INSERT INTO shared_writer (list, item, part, seq, author) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (list, item, part) DO UPDATE SET seq = excluded.seq, author = excluded.author
                    """
            ).execute(arguments: [list, key.item.uuidString, key.part.rawValue, step.seq, step.author])
        }
        try db.execute(sql: "UPDATE shared_list SET lastSeq = ? WHERE id = ?", arguments: [step.seq, list])
    }

    /// The log rows of `list` numbered above `seq`, oldest first.
    private nonisolated func steps(_ db: Database, _ list: UUID, after seq: Int) throws -> [SharedStep] {
        try steps(db, list, where: "seq > ?", [seq])
    }

    /// The log rows of `list` numbered `seqs`, oldest first.
    private nonisolated func steps(_ db: Database, _ list: UUID, numbered seqs: [Int]) throws -> [SharedStep] {
        guard !seqs.isEmpty else { return [] }
        return try steps(db, list, where: "seq IN (\(seqs.map { _ in "?" }.joined(separator: ",")))", StatementArguments(seqs))
    }

    /// The log rows of `list` that `condition` picks, oldest first.
    private nonisolated func steps(_ db: Database, _ list: UUID, where condition: String, _ arguments: StatementArguments)
        throws -> [SharedStep]
    {
        let decoder = TodoJSON.makeDecoder(reading: .store)
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT seq, author, kind, reverts, name, date, coalescingKey, joins, changes, patch, skipped
                FROM shared_step WHERE list = ? AND \(condition) ORDER BY seq
                """,
            arguments: [list.uuidString] + arguments)
        return try rows.map { row in
            let seq: Int = try row.decode(Int.self, atIndex: 0)
            do {
                let columns = SharedStepColumns(
                    kind: try row.decode(String.self, atIndex: 2), reverts: try row.decode(Int?.self, atIndex: 3),
                    date: try row.decode(Int64.self, atIndex: 5), changes: try row.decode(String.self, atIndex: 8),
                    patch: try row.decode(String.self, atIndex: 9), skipped: try row.decode(String.self, atIndex: 10))
                return try columns.step(
                    seq: seq, author: try row.decode(String.self, atIndex: 1), name: try row.decode(String.self, atIndex: 4),
                    coalescingKey: try row.decode(String?.self, atIndex: 6), joins: try row.decode(Int?.self, atIndex: 7),
                    decoder: decoder)
            } catch {
                throw corrupt("row \(seq) of shared list \(list) does not decode: \(error)")
            }
        }
    }

    /// The summaries of the log rows of `list` numbered `seqs`, oldest
    /// first: their columns but the changes and the patch.
    private nonisolated func summaries(_ db: Database, _ list: UUID, numbered seqs: [Int]) throws -> [SharedStep.Summary] {
        guard !seqs.isEmpty else { return [] }
        let decoder = TodoJSON.makeDecoder(reading: .store)
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT seq, author, kind, reverts, name, date, coalescingKey, joins, skipped,
                    CASE WHEN kind IN ('undo', 'redo') THEN changes = '[]' ELSE 0 END
                FROM shared_step WHERE list = ? AND seq IN (\(seqs.map { _ in "?" }.joined(separator: ","))) ORDER BY seq
                """,
            arguments: [list.uuidString] + StatementArguments(seqs))
        return try rows.map { row in
            do {
                return try SharedStepColumns.summary(
                    seq: try row.decode(Int.self, atIndex: 0), author: try row.decode(String.self, atIndex: 1),
                    kind: try row.decode(String.self, atIndex: 2), reverts: try row.decode(Int?.self, atIndex: 3),
                    name: try row.decode(String.self, atIndex: 4), date: try row.decode(Int64.self, atIndex: 5),
                    coalescingKey: try row.decode(String?.self, atIndex: 6), joins: try row.decode(Int?.self, atIndex: 7),
                    skipped: try row.decode(String.self, atIndex: 8), changedNothing: try row.decode(Bool.self, atIndex: 9),
                    decoder: decoder)
            } catch {
                throw corrupt("a row of shared list \(list) does not decode: \(error)")
            }
        }
    }

    /// The query of a list's heads, which SQLite answers from the index
    /// `shared_step_head` alone (migration `v6-shared-step-heads`).
    static let headsQuery = "SELECT seq, author, kind, reverts, joins FROM shared_step WHERE list = ? ORDER BY seq"

    /// The head of every log row of `list`, oldest first: what each
    /// person's stacks are rebuilt from.
    private nonisolated func heads(_ db: Database, _ list: UUID) throws -> [SharedStep.Head] {
        let rows = try Row.fetchCursor(db, sql: Self.headsQuery, arguments: [list.uuidString])
        var heads: [SharedStep.Head] = []
        do {
            while let row = try rows.next() {
                heads.append(
                    try SharedStepColumns.head(
                        seq: try row.decode(Int.self, atIndex: 0), author: try row.decode(String.self, atIndex: 1),
                        kind: try row.decode(String.self, atIndex: 2), reverts: try row.decode(Int?.self, atIndex: 3),
                        joins: try row.decode(Int?.self, atIndex: 4)))
            }
        } catch let error as UndecodableRow {
            throw corrupt("a log row of shared list \(list) does not decode: \(error)")
        }
        return heads
    }

    /// The items of `list` in order, as their rows hold them, and their ranks.
    private nonisolated func savedItems(_ db: Database, _ list: UUID) throws -> (list: TodoList, ranks: [UUID: Double]) {
        let decoder = TodoJSON.makeDecoder(reading: .store)
        let rows = try Row.fetchCursor(
            db, sql: "SELECT \(ItemRecord.selection) FROM shared_item WHERE list = ? ORDER BY rank, id", arguments: [list.uuidString])
        var items: [TodoItem] = []
        var ranks: [UUID: Double] = [:]
        while let row = try rows.next() {
            let record = try ItemRecord(row: row)
            let item = try record.item(decoder: decoder, path: database.url.path)
            items.append(item)
            ranks[item.id] = record.rank
        }
        do {
            return (try TodoList(items: items), ranks)
        } catch {
            throw corrupt("the items of shared list \(list) do not form a list: \(error)")
        }
    }

    /// Who wrote each part of every item `list` ever had last.
    private nonisolated func savedWriters(_ db: Database, _ list: UUID) throws -> [ItemPartKey: (seq: Int, author: String)] {
        try writers(db, "SELECT item, part, seq, author FROM shared_writer WHERE list = ?", [list.uuidString])
    }

    /// Who wrote each part of the items on `list` now last: what opening
    /// it reads when most of its writers are of items removed before (which
    /// are read when an undo asks for them), found from the items' rows
    /// (`CROSS JOIN`: the items first, whatever SQLite's planner would choose).
    private nonisolated func listedWriters(_ db: Database, _ list: UUID) throws -> [ItemPartKey: (seq: Int, author: String)] {
        try writers(
            db,
            """
            SELECT w.item, w.part, w.seq, w.author FROM shared_item i
            CROSS JOIN shared_writer w ON w.list = i.list AND w.item = i.id WHERE i.list = ?
            """, [list.uuidString])
    }

    /// Who wrote each part of `items` of `list` last.
    private nonisolated func savedWriters(_ db: Database, _ list: UUID, of items: [UUID]) throws
        -> [ItemPartKey: (seq: Int, author: String)]
    {
        guard !items.isEmpty else { return [:] }
        return try writers(
            db,
            "SELECT item, part, seq, author FROM shared_writer WHERE list = ? AND item IN (\(items.map { _ in "?" }.joined(separator: ",")))",
            [list.uuidString] + StatementArguments(items.map(\.uuidString)))
    }

    /// The latest writers that `sql` selects (item, part, seq, author).
    private nonisolated func writers(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws
        -> [ItemPartKey: (seq: Int, author: String)]
    {
        var writers: [ItemPartKey: (seq: Int, author: String)] = [:]
        for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
            let item: String = try row.decode(String.self, atIndex: 0)
            let part: String = try row.decode(String.self, atIndex: 1)
            guard let id = ItemRecord.uuid(item), let part = ItemPart(rawValue: part) else {
                throw corrupt("a latest writer names the item “\(item)” and part “\(part)”")
            }
            writers[ItemPartKey(id, part)] = (try row.decode(Int.self, atIndex: 2), try row.decode(String.self, atIndex: 3))
        }
        return writers
    }

    /// The rank of every item row of `list`.
    private nonisolated func ranks(_ db: Database, _ list: UUID) throws -> [UUID: Double] {
        var ranks: [UUID: Double] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, rank FROM shared_item WHERE list = ?", arguments: [list.uuidString]) {
            let text: String = try row.decode(String.self, atIndex: 0)
            guard let id = ItemRecord.uuid(text) else { throw corrupt("an item's id “\(text)” is not a UUID") }
            ranks[id] = try row.decode(Double.self, atIndex: 1)
        }
        return ranks
    }

    private nonisolated func accountName(_ text: String) throws -> AccountName {
        try AccountName.saved(text, in: database.url.path)
    }

    private nonisolated func corrupt(_ detail: String) -> StoreError {
        .corrupt(path: database.url.path, detail: detail)
    }
}
