import Foundation
import Logging
import PostgresNIO
import Testing
import TestSupport
import Todos
import TodoStore
@testable import TodoStorePostgres

/// How many statements (each one round trip to the server: postgres-nio
/// sends the next only after the last is answered) a change costs, counted
/// on the pool's connections as they send them.
@Suite("PostgreSQL store: round trips", .enabled(if: PostgresTestDatabase.url != nil, PostgresTestDatabase.missing))
struct PostgresRoundTripTests {
    /// A store over a schema of its own whose pool reports every statement it sends.
    func store() async throws -> (PostgresStore, PostgresTestDatabase, StatementLog) {
        let log = StatementLog()
        let database = try await PostgresTestDatabase.make(
            backgroundLogger: Logger(label: "rewind.test.statements", factory: { _ in log.handler() }))
        let store = try await PostgresStore.open(database.database)
        return (store, database, log)
    }

    /// Holds the list's row (or the rows `locking` locks) from a connection
    /// outside the counted pool (as another instance's transaction would)
    /// until `release` is yielded to; returns once it is held.
    static func holdingTheListsRow(
        _ database: PostgresTestDatabase, locking: PostgresQuery = "SELECT id FROM rewind_list FOR UPDATE"
    ) async -> (locker: Task<Void, any Error>, release: AsyncStream<Void>.Continuation) {
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        let locker = Task {
            try await database.database.withDirectConnection { connection, logger in
                try await connection.withTransaction(logger: logger) { connection in
                    try await connection.query(locking, logger: logger)
                    holding.yield()
                    for await _ in released { break }
                }
            }
        }
        for await _ in held { break }
        return (locker, release)
    }

    /// The undo stack is walked by the log's key at every level even when
    /// the server has no statistics of the log (a fresh or restored
    /// database, a burst of changes before its first analysis). Without
    /// them, a parent tested with `> 0` made the planner walk the `before`
    /// index from 0 at every level: the square of the stack's depth, a first
    /// page that did not come in ten minutes at 267,000 steps.
    @Test func theUndoStackIsWalkedByKeyWhenTheLogHasNoStatistics() async throws {
        let (store, database, _) = try await store()
        try await store.change(.add(TodoItem(id: UUID(), title: "First", created: Date(timeIntervalSince1970: 0))))
        let list = await store.list
        let added = 60_000
        // A burst of adds, written straight into the log, never analysed.
        let client = database.database.client
        for statement: PostgresQuery in [
            "ALTER TABLE rewind_step SET (autovacuum_enabled = false)",
            "ALTER TABLE rewind_item SET (autovacuum_enabled = false)",
            """
            INSERT INTO rewind_item (list_id, id, rank, title, details, state, created, changed)
            SELECT \(list), gen_random_uuid(), 1 + g, 'Item ' || g, '', 'active', 0, 0 FROM generate_series(1, \(added)) g
            """,
            """
            INSERT INTO rewind_step (list_id, seq, kind, name, date, author, before, node, forward, inverse)
            SELECT \(list), 1 + g, 'do', 'Add “Item ' || g || '”', 0, 'local', g, 1 + g,
                   ('[{"op":"add","item":"' || repeat('x', 250) || '"}]')::json, '[{"op":"remove"}]'
            FROM generate_series(1, \(added)) g
            """,
            "UPDATE rewind_list SET last_seq = \(1 + added), node = \(1 + added) WHERE id = \(list)",
        ] {
            try await client.query(statement)
        }
        let stack = PostgresLog.undoStack(of: list, from: Int64(1 + added), deepest: Int64(2 + added))
        let plan = try await client.query(PostgresQuery(unsafeSQL: "EXPLAIN " + stack.sql, binds: stack.binds))
            .decode(String.self).reduce(into: "") { $0 += $1 + "\n" }
        #expect(!plan.contains("rewind_step_before"), "a level walks the before index:\n\(plan)")

        // The whole stack, every level by key (the store's history runs this query).
        let counted = try await client.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM (\(stack.sql)) AS steps", binds: stack.binds))
            .decode(Int64.self).reduce(into: Int64(0)) { $0 = $1 }
        #expect(counted == Int64(1 + added))
    }

    @Test func anAddOnAListAlreadyReadIsOneStatementOutsideATransaction() async throws {
        let (store, database, log) = try await store()
        try await store.change(.add(TodoItem(id: UUID(), title: "First", created: Date(timeIntervalSince1970: 0))))
        log.clear()
        try await store.change(.add(TodoItem(id: UUID(), title: "Buy milk", created: Date(timeIntervalSince1970: 0))))
        // One call, which answers once its commit is made.
        let sent = log.statements
        #expect(sent.count == 1 && sent.first?.hasPrefix("CALL rewind_append_adds_committed") == true, "one add sent \(sent.count) statements: \(sent)")
        #expect(!sent.contains { $0.hasPrefix("BEGIN") || $0.hasPrefix("SAVEPOINT") })
        // Committed when answered: another connection sees it.
        let titles = try await database.database.client.query("SELECT title FROM rewind_item ORDER BY rank")
            .decode(String.self).reduce(into: [String]()) { $0.append($1) }
        #expect(titles == ["First", "Buy milk"])
    }

    @Test func aChangeOtherThanAnAddOnAListAlreadyReadIsOneCallOutsideATransaction() async throws {
        let (store, database, log) = try await store()
        let milk = try TodoItem(id: UUID(), title: "Milk", created: Date(timeIntervalSince1970: 0))
        try await store.change(.add(milk))
        try await store.change(.add(TodoItem(id: UUID(), title: "Bread", created: Date(timeIntervalSince1970: 0))))
        log.clear()
        try await store.change(.todos(.update(milk.id, [.complete], at: Date(timeIntervalSince1970: 60))))
        // One call, which answers once its commit is made.
        let sent = log.statements
        #expect(sent.count == 1 && sent.first?.hasPrefix("CALL rewind_append_committed") == true, "one change sent \(sent.count) statements: \(sent)")
        let states = try await database.database.client.query("SELECT title, state FROM rewind_item ORDER BY rank")
            .decode((String, String).self).reduce(into: [String]()) { $0.append("\($1.0) \($1.1)") }
        #expect(states == ["Milk completed", "Bread active"])
    }

    @Test func aBatchOfAddsIsOneStatement() async throws {
        let (store, database, log) = try await store()
        try await store.change(.add(TodoItem(id: UUID(), title: "First", created: Date(timeIntervalSince1970: 0))))
        // Another instance (a connection outside the counted pool) holds the
        // list's row, so that the adds asked for meanwhile line up behind
        // the first batch.
        let (locker, release) = await Self.holdingTheListsRow(database)
        let batchesBefore = await store.batchesWritten
        log.clear()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<10 {
                group.addTask {
                    try await store.change(.add(TodoItem(id: UUID(), title: "Item \(index)", created: Date(timeIntervalSince1970: 0))))
                }
            }
            try await waitUntil("10 adds waiting") { await store.unansweredChanges == 10 }
            release.yield()
            try await group.waitForAll()
        }
        try await locker.value
        let batches = await store.batchesWritten - batchesBefore
        let sent = log.statements
        #expect(batches < 10, "the adds shared batches")
        #expect(sent.count == batches, "\(batches) batches sent \(sent.count) statements: \(sent)")
        #expect(sent.allSatisfy { $0.hasPrefix("CALL rewind_append_adds_committed") }, "each batch one call: \(sent)")
        let numbers = try await database.database.client.query("SELECT seq FROM rewind_step ORDER BY seq")
            .decode(Int64.self).reduce(into: [Int64]()) { $0.append($1) }
        #expect(numbers == Array(1...11))
    }
}

extension PostgresRoundTripTests {
    @Test func theUpdateMarkAskedWhileABatchIsBeingWrittenSendsNoStatementAndWaitsForNothing() async throws {
        let (store, database, log) = try await store()
        try await store.change(.add(TodoItem(id: UUID(), title: "First", created: Date(timeIntervalSince1970: 0))))
        let afterFirst = try await store.updateMark()
        // Another instance holds the list's row: the next add's batch waits
        // for it, as a commit waits for the server's disk.
        let (locker, release) = await Self.holdingTheListsRow(database)
        log.clear()
        let adding = Task {
            _ = try await store.change(.add(TodoItem(id: UUID(), title: "Second", created: Date(timeIntervalSince1970: 0))))
        }
        try await waitUntil("the batch in flight") {
            // The batch holds the list in memory while it is written, and
            // its statement is sent.
            let unanswered = await store.unansweredChanges
            return await store.loaded == nil && unanswered == 1 && !log.statements.isEmpty
        }
        log.clear()
        // What the update streams ask after every change: answered at once,
        // with the mark of the change they were told of.
        let mark = Locked<String??>(nil)
        let asking = Task {
            let answer = try? await store.updateMark()
            mark.withLock { $0 = .some(answer) }
        }
        do {
            try await waitUntil("the mark answered while the batch waits", timeout: .seconds(5)) { mark.withLock { $0 != nil } }
        } catch {
            release.yield()
            throw error
        }
        #expect(mark.withLock { $0 } == .some(afterFirst))
        #expect(log.statements.isEmpty, "\(log.statements)")
        release.yield()
        try await adding.value
        try await locker.value
        _ = await asking.result
        #expect(try await store.updateMark() != afterFirst)
    }
}

extension PostgresRoundTripTests {
    @Test func theNotificationsOfAnInstancesOwnChangesMakeItReadNothing() async throws {
        let (store, database, log) = try await store()
        // An open page: the store listens, and hears its own commits too.
        let updates = await store.updates()
        try await waitUntil("the listener connected") { await store.listenerConnections >= 1 }
        try await store.change(.add(TodoItem(id: UUID(), title: "First", created: Date(timeIntervalSince1970: 0))))
        log.clear()
        let told = Locked(0)
        let reading = Task {
            for await _ in updates { told.withLock { $0 += 1 } }
        }
        defer { reading.cancel() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    _ = try await store.change(.add(TodoItem(id: UUID(), title: "Item \(index)", created: Date(timeIntervalSince1970: 0))))
                }
            }
            try await group.waitForAll()
        }
        let batches = await store.batchesWritten
        // Every notification heard and handled (the own ones are forgotten once heard).
        try await waitUntil("the own notifications heard") { await store.ownCommits.isEmpty }
        #expect(told.withLock { $0 } >= 1)
        #expect(!log.statements.contains { $0.hasPrefix("SELECT last_seq") }, "the head was read: \(log.statements)")
        // Each batch's call, which commits before it answers.
        #expect(log.statements.count == batches - 1, "\(log.statements)")
        withExtendedLifetime(database) {}
    }
}

/// An instance that hears of another's changes brings its list up to date
/// from the log rows appended since, not by reading every item again.
@Suite("PostgreSQL store: catching up", .dropsPostgresSchemas, .enabled(if: PostgresTestDatabase.url != nil, PostgresTestDatabase.missing))
struct PostgresCatchUpTests {
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    static func item(_ title: String) throws -> TodoItem {
        try TodoItem(id: UUID(), title: title, created: date)
    }

    @Test func anotherInstancesChangesAreReadFromTheLogAndLeaveTheSameListAsAFullRead() async throws {
        // The writer: another instance, with a pool of its own.
        let (log, shared, reader, writer, running) = try await Self.twoInstances()
        defer { running.cancel() }
        let milk = try Self.item("Milk")
        let bread = try Self.item("Bread")
        let eggs = try Self.item("Eggs")
        for item in [milk, bread, eggs] { try await writer.change(.add(item)) }
        #expect(try await reader.read { $0.todos.items.map(\.title) } == ["Milk", "Bread", "Eggs"])
        // Shown once: the history shown must move on with the list.
        #expect(try await reader.history().steps.count == 3)

        log.clear()
        try await writer.change(.update(bread.id, [.title(to: "Rye bread"), .complete], at: Self.date))
        try await writer.change(.move(eggs.id, to: 0))
        try await writer.change(.remove(milk.id))
        try await writer.undo()
        try await writer.redo()
        try await writer.undo()
        try await writer.change(.insert(try Self.item("Tea"), at: 1))
        let caughtUp = try await reader.read { $0.todos.items }

        // The log records each statement by its text up to the first comma:
        // "SELECT id" is the read of every item.
        #expect(!log.statements.contains("SELECT id"), "the list was read again: \(log.statements)")
        #expect(log.statements.contains { $0.hasPrefix("SELECT forward::text FROM rewind_step") }, "\(log.statements)")
        let fresh = try await PostgresStore.open(shared.database)
        #expect(caughtUp == (try await fresh.read { $0.todos.items }))
        #expect(caughtUp.map(\.title) == ["Eggs", "Tea", "Milk", "Rye bread"])
        #expect(try await reader.history() == (try await fresh.history()))
        // The ranks taken over place the reader's own next change where a full read would.
        try await reader.change(.insert(try Self.item("Jam"), at: 2))
        let reread = try await PostgresStore.open(shared.database)
        #expect(try await reader.read { $0.todos.items } == (try await reread.read { $0.todos.items }))
    }
}

extension PostgresCatchUpTests {
    @Test func anUndoAfterAnotherInstancesChangeReadsItsRowsNotTheWholeList() async throws {
        let (log, shared, counted, writer, running) = try await Self.twoInstances()
        defer { running.cancel() }
        try await counted.change(.add(try Self.item("First")))
        log.clear()

        for round in 0..<3 {
            try await writer.change(.add(try Self.item("Writer \(round)")))
            // Without a read first: the undo's transaction finds the other's row.
            #expect(try await counted.undo() != nil)
        }

        #expect(!log.statements.contains("SELECT id"), "the list was read again: \(log.statements)")
        let fresh = try await PostgresStore.open(shared.database)
        #expect(try await counted.read { $0.todos.items } == (try await fresh.read { $0.todos.items }))
        #expect(try await fresh.read { $0.todos.items.map(\.title) } == ["First"])
    }
}

extension PostgresCatchUpTests {
    @Test func aListeningInstanceReadsAnothersChangesOnlyWhenItsListIsAskedFor() async throws {
        let (log, shared, counted, writer, running) = try await Self.twoInstances()
        defer { running.cancel() }
        try await counted.change(.add(try Self.item("First")))
        let (told, reading) = try await Self.listening(counted, hearing: writer)
        defer { reading.cancel() }
        log.clear()
        let before = told.value
        // Another suite's test ends every listening connection now and then;
        // a reconnection reads the head (and the rows since), rightly.
        let connections = await counted.listenerConnections

        for round in 0..<5 {
            try await writer.change(.add(try Self.item("Writer \(round)")))
        }
        try await writer.change(.update(try #require(await writer.read { $0.todos.items.first?.id }), [.complete], at: Self.date))
        // Heard: the pages are told, and the mark is the writer's, without
        // a statement of the listening instance.
        let mark = try await writer.updateMark()
        try await waitUntil("the notifications heard") { try await counted.updateMark() == mark }
        #expect(told.value > before)
        let reconnected = await counted.listenerConnections > connections
        #expect(log.statements.isEmpty || reconnected, "hearing read: \(log.statements)")

        // Asked for, the list is read from the rows appended since.
        let caughtUp = try await counted.read { $0.todos.items }
        #expect(log.statements.contains { $0.hasPrefix("SELECT forward::text FROM rewind_step") }, "\(log.statements)")
        #expect(!log.statements.contains("SELECT id"), "the list was read again: \(log.statements)")
        let fresh = try await PostgresStore.open(shared.database)
        #expect(caughtUp == (try await fresh.read { $0.todos.items }))
        #expect(try await counted.history() == (try await fresh.history()))
        #expect(try await counted.updateMark() == mark)
    }
}

extension PostgresCatchUpTests {
    /// An open page on `store`: it listens, and the elements of its update
    /// stream are counted until `reading` is cancelled. Returns once it
    /// heard an add of `writer` (its listener's first connection has read
    /// the head by then).
    static func listening(
        _ store: PostgresStore, hearing writer: PostgresStore
    ) async throws -> (told: Locked<Int>, reading: Task<Void, Never>) {
        let updates = await store.updates()
        let told = Locked(0)
        let reading = Task {
            for await _ in updates { told.withLock { $0 += 1 } }
        }
        do {
            try await waitUntil("the listener connected") { await store.listenerConnections >= 1 }
            try await writer.change(.add(try Self.item("Heard")))
            let mark = try await writer.updateMark()
            try await waitUntil("the writer's add heard") { try await store.updateMark() == mark }
        } catch {
            reading.cancel()
            throw error
        }
        return (told, reading)
    }

    @Test func aChangeAfterAnotherInstancesCommitWasHeardGoesStraightToTheTransaction() async throws {
        let (log, shared, counted, writer, running) = try await Self.twoInstances()
        defer { running.cancel() }
        let milk = try Self.item("Milk")
        try await counted.change(.add(milk))
        let (_, reading) = try await Self.listening(counted, hearing: writer)
        defer { reading.cancel() }
        log.clear()

        // Known to be behind: no one-statement write that could only find
        // the list moved, but the transaction that applies the rows since.
        try await counted.change(.update(milk.id, [.complete], at: Self.date))
        #expect(log.statements.first == "BEGIN", "\(log.statements)")
        // One write, in the transaction (the one that would have failed came first).
        #expect(log.statements.filter { $0.hasPrefix("SELECT rewind_append(") }.count == 1, "\(log.statements)")
        #expect(!log.statements.contains("SELECT id"), "the list was read again: \(log.statements)")
        let fresh = try await PostgresStore.open(shared.database)
        #expect(try await counted.read { $0.todos.items } == (try await fresh.read { $0.todos.items }))
        #expect(try await fresh.read { $0.todos.items.map(\.isCompleted) } == [true, false])
    }
}

extension PostgresCatchUpTests {
    /// Two instances with pools of their own over one schema, and the
    /// statements the first one sends.
    static func twoInstances() async throws -> (
        log: StatementLog, shared: PostgresTestDatabase, counted: PostgresStore, writer: PostgresStore, running: Task<Void, Never>
    ) {
        let log = StatementLog()
        let shared = try await PostgresTestDatabase.make(
            backgroundLogger: Logger(label: "rewind.test.statements", factory: { _ in log.handler() }))
        let counted = try await PostgresStore.open(shared.database)
        let other = try PostgresTodoDatabase(
            url: shared.database.url, extraStartupParameters: [("search_path", shared.schema)], maximumConnections: 2, notificationChannel: shared.channel)
        let running = Task { await other.run() }
        return (log, shared, counted, try await PostgresStore.open(other), running)
    }

    @Test func aChangeThatFindsAnotherInstancesRowsAppliesThemInsteadOfReadingTheWholeList() async throws {
        let (log, shared, counted, writer, running) = try await Self.twoInstances()
        defer { running.cancel() }
        for title in ["Milk", "Bread"] { try await counted.change(.add(try Self.item(title))) }
        log.clear()

        for round in 0..<3 {
            // The one-statement write finds the other's row and writes nothing;
            // the change is then made again after the other's. (An insert:
            // an add at the end goes after the other's rows without them.)
            try await writer.change(.add(try Self.item("Writer \(round)")))
            try await counted.change(.insert(try Self.item("Counted \(round)"), at: 2))
        }

        #expect(!log.statements.contains("SELECT id"), "the list was read again: \(log.statements)")
        #expect(log.statements.contains { $0.hasPrefix("SELECT last_seq") }, "no lock was taken: \(log.statements)")
        let fresh = try await PostgresStore.open(shared.database)
        let titles = ["Milk", "Bread", "Counted 2", "Counted 1", "Counted 0", "Writer 0", "Writer 1", "Writer 2"]
        #expect(try await fresh.read { $0.todos.items.map(\.title) } == titles)
        #expect(try await counted.read { $0.todos.items } == (try await fresh.read { $0.todos.items }))
        // The ranks read again place the next change where a full read would.
        try await counted.change(.insert(try Self.item("Jam"), at: 3))
        let reread = try await PostgresStore.open(shared.database)
        #expect(try await counted.read { $0.todos.items } == (try await reread.read { $0.todos.items }))
        #expect(try await counted.history().steps.count == 3 + 2 + 1 + 3)
    }

    @Test func anInstanceThatHoldsTheListPlacesItemsRightAfterTheOtherNumberedEveryRowAgain() async throws {
        let (_, shared, counted, writer, running) = try await Self.twoInstances()
        defer { running.cancel() }
        let items = try ["X", "A", "B", "C", "D", "E"].map(Self.item)
        for item in items { try await counted.change(.add(item)) }
        // The writer holds the list, with a gap at the top.
        try await writer.change(.remove(items[0].id))
        #expect(try await counted.read { $0.todos.count } == 5)
        // The other moves C and D in turns between B and the other until a
        // double has no room left between them, and every row is numbered again.
        for n in 0..<60 { try await counted.change(.move(items[n % 2 == 0 ? 4 : 3].id, to: 2)) }
        // The writer places E between A and B from the ranks it holds and the rows it reads.
        try await writer.change(.move(items[5].id, to: 1))
        #expect(try await writer.read { $0.todos.items.map(\.title) }.prefix(3) == ["A", "E", "B"])
        let fresh = try await PostgresStore.open(shared.database)
        #expect(try await fresh.read { $0.todos.items } == (try await writer.read { $0.todos.items }))
    }

    @Test func addsOnTwoInstancesGoAfterEachOthersWithoutTakingTheListsLock() async throws {
        let (log, shared, counted, writer, running) = try await Self.twoInstances()
        defer { running.cancel() }
        for title in ["Milk", "Bread"] { try await counted.change(.add(try Self.item(title))) }
        #expect(try await writer.read { $0.todos.count } == 2)
        log.clear()

        for round in 0..<3 {
            try await writer.change(.add(try Self.item("Writer \(round)")))
            // Planned on a list that lacks the other's add: written after it
            // all the same, each in one statement, and no lock taken.
            try await counted.change(.add(try Self.item("Counted \(round)")))
        }

        let sent = log.statements
        // Each write one call, which commits before it answers.
        #expect(sent.count == 3, "three adds sent \(sent.count) statements: \(sent)")
        #expect(sent.allSatisfy { $0.hasPrefix("CALL rewind_append_adds_committed") }, "\(sent)")
        // Its own rows, taken back, are kept with their ranks: catching up
        // neither decodes them nor asks for their ranks.
        #expect(await counted.keptRowCount == 3)
        #expect(await counted.staleRankCount == 0)
        let fresh = try await PostgresStore.open(shared.database)
        let titles = ["Milk", "Bread", "Writer 0", "Counted 0", "Writer 1", "Counted 1", "Writer 2", "Counted 2"]
        #expect(try await fresh.read { $0.todos.items.map(\.title) } == titles)
        // Each instance's list, read again from the rows appended since, is the database's.
        #expect(try await counted.read { $0.todos.items } == (try await fresh.read { $0.todos.items }))
        #expect(await counted.keptRowCount == 0, "the rows caught up are no longer kept")
        #expect(try await writer.read { $0.todos.items } == (try await fresh.read { $0.todos.items }))
        #expect(try await counted.history() == (try await fresh.history()))
        // One line of steps, each after the one before.
        let rows = try await shared.database.client.query("SELECT seq, before, node, kind FROM rewind_step ORDER BY seq")
            .decode((Int64, Int64, Int64, String).self).reduce(into: [(Int64, Int64, Int64, String)]()) { $0.append($1) }
        #expect(rows.map(\.0) == Array(1...8))
        #expect(rows.allSatisfy { $0.1 == $0.0 - 1 && $0.2 == $0.0 && $0.3 == "do" }, "\(rows)")
        // And the steps undo in the order written, whoever wrote them.
        #expect(try await counted.undo() == "Add “Counted 2”")
        #expect(try await writer.undo() == "Add “Writer 2”")
        #expect(try await fresh.read { $0.todos.items.map(\.title) } == Array(titles.dropLast(2)))
        try await writer.change(.add(try Self.item("Jam")))
        #expect(try await counted.read { $0.todos.items } == (try await fresh.read { $0.todos.items }))
    }

    @Test func ownRowsKeptInMemoryGiveWayToTheOtherInstancesLaterChangesOfTheirItems() async throws {
        let (_, shared, counted, writer, running) = try await Self.twoInstances()
        defer { running.cancel() }
        try await counted.change(.add(try Self.item("First")))
        let (jam, tea) = (try Self.item("Jam"), try Self.item("Tea"))
        try await writer.change(.add(try Self.item("Writer")))
        // Taken back and kept: the writer's row came first.
        try await counted.change(.add(jam))
        try await counted.change(.add(tea))
        #expect(await counted.keptRowCount == 2)

        // The other instance moves one kept item, and deletes the other.
        #expect(try await writer.read { $0.todos.count } == 4)
        try await writer.change(.move(tea.id, to: 0))
        try await writer.change(.remove(jam.id))

        let fresh = try await PostgresStore.open(shared.database)
        #expect(try await counted.read { $0.todos.items } == (try await fresh.read { $0.todos.items }))
        #expect(await counted.keptRowCount == 0)
        #expect(try await fresh.read { $0.todos.items.map(\.title) } == ["Tea", "First", "Writer"])
        // The moved item's rank is the one saved, not the one kept.
        try await counted.change(.insert(try Self.item("Bread"), at: 1))
        let reread = try await PostgresStore.open(shared.database)
        #expect(try await reread.read { $0.todos.items.map(\.title) } == ["Tea", "Bread", "First", "Writer"])
        #expect(try await counted.read { $0.todos.items } == (try await reread.read { $0.todos.items }))
    }

    @Test func anInstanceWhoseAddsKeepLandingAfterAnothersCatchesUpBeforeItFallsTooFarBehind() async throws {
        let (log, shared, counted, writer, running) = try await Self.twoInstances()
        defer { running.cancel() }
        try await counted.change(.add(try Self.item("First")))
        #expect(try await writer.read { $0.todos.count } == 1)
        log.clear()
        var furthestBehind: Int64 = 0
        let rounds = Int(PostgresStore.catchUpLimit) / 2 + 50
        for round in 0..<rounds {
            try await writer.change(.add(try Self.item("Writer \(round)")))
            try await counted.change(.add(try Self.item("Counted \(round)")))
            furthestBehind = max(furthestBehind, await counted.rowsBehind)
        }

        // Behind by every row since it last read, but never by more than
        // it can apply: it caught up from the log, without reading the list.
        #expect(furthestBehind > 2)
        #expect(furthestBehind <= PostgresStore.catchUpLimit / 2 + 2)
        #expect(log.statements.contains { $0.hasPrefix("SELECT forward::text FROM rewind_step") }, "it never caught up")
        #expect(!log.statements.contains("SELECT id"), "the list was read again")
        #expect(await counted.staleRankCount == 0, "the ranks of its own adds are known")
        #expect(await counted.keptRowCount <= Int(PostgresStore.catchUpLimit) / 2 + 2)
        let fresh = try await PostgresStore.open(shared.database)
        #expect(try await counted.read { $0.todos.items } == (try await fresh.read { $0.todos.items }))
        #expect(try await fresh.read { $0.todos.count } == 1 + 2 * rounds)
        // The ranks of its own items, kept rather than read, place inserts
        // beside them where a full read would.
        try await counted.change(.insert(try Self.item("Jam"), at: 5))
        try await counted.change(.insert(try Self.item("Tea"), at: 2))
        let reread = try await PostgresStore.open(shared.database)
        #expect(try await counted.read { $0.todos.items } == (try await reread.read { $0.todos.items }))
        #expect(try await reread.read { $0.todos.items.map(\.title).prefix(8) }
            == ["First", "Writer 0", "Tea", "Counted 0", "Writer 1", "Counted 1", "Jam", "Writer 2"])
    }

    @Test func addsMadeAtOnceOnTwoInstancesAllLandInOneGapFreeLog() async throws {
        let (_, shared, counted, writer, running) = try await Self.twoInstances()
        defer { running.cancel() }
        try await counted.change(.add(try Self.item("First")))
        #expect(try await writer.read { $0.todos.count } == 1)
        let each = 25
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<each {
                group.addTask { try await counted.change(.add(try Self.item("Counted \(index)"))) }
                group.addTask { try await writer.change(.add(try Self.item("Writer \(index)"))) }
            }
            try await group.waitForAll()
        }

        let fresh = try await PostgresStore.open(shared.database)
        let items = try await fresh.read { $0.todos.items }
        #expect(items.count == 1 + 2 * each)
        #expect(Set(items.map(\.title)).count == items.count)
        #expect(try await counted.read { $0.todos.items } == items)
        #expect(try await writer.read { $0.todos.items } == items)
        // The list's order is the log's: the n-th add row adds the n-th item.
        let steps = try await shared.database.client.query("SELECT seq, before, forward::text FROM rewind_step ORDER BY seq")
            .decode((Int64, Int64, String).self).reduce(into: [(Int64, Int64, String)]()) { $0.append($1) }
        #expect(steps.map(\.0) == Array(1...Int64(1 + 2 * each)))
        #expect(steps.allSatisfy { $0.1 == $0.0 - 1 })
        for (step, item) in zip(steps, items) {
            #expect(step.2.contains(item.id.uuidString), "step \(step.0) does not add \(item.title)")
        }
    }

    @Test func aChangeToAnItemAnotherInstanceDeletedIsRefusedAfterItsBatchIsTakenBack() async throws {
        let (_, shared, counted, writer, running) = try await Self.twoInstances()
        defer { running.cancel() }
        let milk = try Self.item("Milk")
        let bread = try Self.item("Bread")
        for item in [milk, bread] { try await counted.change(.add(item)) }
        #expect(try await writer.read { $0.todos.count } == 2)
        try await writer.change(.remove(bread.id))

        // In memory, Bread is still there: the rename applies, is taken back
        // when the write finds the other's row, and is refused after it.
        await #expect(throws: TodoError.self) {
            try await counted.change(.update(bread.id, [.title(to: "Rye bread")], at: Self.date))
        }

        let fresh = try await PostgresStore.open(shared.database)
        #expect(try await counted.read { $0.todos.items } == (try await fresh.read { $0.todos.items }))
        #expect(try await fresh.read { $0.todos.items.map(\.title) } == ["Milk"])
        try await counted.change(.update(milk.id, [.title(to: "Oat milk")], at: Self.date))
        #expect(try await fresh.read { $0.todos.items.map(\.title) } == ["Oat milk"])
    }

    /// Notifications queue while the list is read; those of rows it read
    /// then cost nothing, and another's new row is read only when the list
    /// is asked for. A reset's (`0`) is read at once, since the log is
    /// numbered again after it.
    @Test func aNotificationReadsNothingUntilTheListIsAskedForButAResetsIsReadAtOnce() async throws {
        let (log, shared, counted, writer, running) = try await Self.twoInstances()
        defer { running.cancel() }
        for title in ["Milk", "Bread", "Jam"] { try await writer.change(.add(try Self.item(title))) }
        #expect(try await counted.read { $0.todos.count } == 3)
        let list = await counted.list
        log.clear()
        for seq in 1...3 { await counted.heard(.notified("\(list):\(seq)")) }
        #expect(log.statements.isEmpty, "rows already read were read again: \(log.statements)")

        // Another instance's row: heard, and read only when the list is asked for.
        try await writer.change(.add(try Self.item("Tea")))
        let mark = try await writer.updateMark()
        await counted.heard(.notified("\(list):4"))
        #expect(log.statements.isEmpty, "hearing read: \(log.statements)")
        #expect(try await counted.updateMark() == mark)
        #expect(try await counted.read { $0.todos.items.map(\.title) } == ["Milk", "Bread", "Jam", "Tea"])
        // The head, then one snapshot, begun in the round trip of its BEGIN:
        // the head, the new row, the ranks of the items it touched.
        let read = log.statements.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        #expect(
            read == ["SELECT last_seq", "BEGIN ISOLATION", "SELECT last_seq", "SELECT forward::text", "SELECT rank", "COMMIT"],
            "\(log.statements)")

        try await writer.reset()
        try await writer.change(.add(try Self.item("Oats")))
        log.clear()
        await counted.heard(.notified("\(list):0"))
        #expect(!log.statements.isEmpty, "the reset was taken as known")
        #expect(try await counted.read { $0.todos.items.map(\.title) } == ["Oats"])
        withExtendedLifetime(shared) {}
    }

    /// A notification heard while an operation is under way (often this
    /// instance's own commit, heard before the commit's answer) waits for
    /// it to finish without taking a turn of its own: the operation asked
    /// for next, the next batch, does not wait for it to be heard.
    @Test func aNotificationHeardWhileAnOperationIsUnderWayTakesNoTurn() async throws {
        let (log, shared, counted, writer, running) = try await Self.twoInstances()
        defer { running.cancel() }
        try await counted.change(.add(try Self.item("Milk")))
        try await writer.change(.add(try Self.item("Bread")))
        let mark = try await writer.updateMark()
        let list = await counted.list
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        let underWay = Task {
            try await counted.exclusively {
                start.yield()
                for await _ in released {}
            }
        }
        for await _ in started { break }
        log.clear()

        let hearing = Task { await counted.heard(.notified("\(list):2")) }
        try await waitUntil("the notification waiting for the operation under way") {
            let waiting = (await counted.callersWaitingForOperationsToFinish, await counted.operationsWaitingForTheirTurn)
            return waiting != (0, 0)
        }
        #expect(await counted.operationsWaitingForTheirTurn == 0, "hearing took a turn")
        #expect(await counted.callersWaitingForOperationsToFinish == 1)
        release.finish()
        try await underWay.value
        await hearing.value
        #expect(await counted.callersWaitingForOperationsToFinish == 0)

        // The other's row is known, not read, until the list is asked for.
        #expect(log.statements.isEmpty, "hearing read: \(log.statements)")
        #expect(try await counted.updateMark() == mark)
        #expect(try await counted.read { $0.todos.items.map(\.title) } == ["Milk", "Bread"])
        withExtendedLifetime(shared) {}
    }
}

/// The statements the connections of a pool send, read from postgres-nio's
/// trace of the actions it runs (the pool's keep-alive left out).
final class StatementLog: Sendable {
    private let sent = Locked<[String]>([])

    /// The statements sent since the last ``clear()``, oldest first, each
    /// by the first line of its text.
    var statements: [String] { sent.value }

    /// Forgets the statements sent so far.
    func clear() {
        sent.withLock { $0.removeAll() }
    }

    /// A log handler that records into this log.
    func handler() -> some LogHandler {
        EventLogHandler { event in
            guard event.message.description == "Run action", let action = event.metadata?["psql_connection_action"] else { return }
            self.record(action.description)
        }
    }

    private func record(_ action: String) {
        for prefix in ["sendParseDescribeBindExecuteSync(", "sendBindExecuteSync("] where action.hasPrefix(prefix) {
            // "PostgresQuery(sql: <text>, binds: […]))": the text's first line.
            var statement = action.dropFirst(prefix.count)
            if statement.hasPrefix("PostgresQuery(sql: ") { statement = statement.dropFirst("PostgresQuery(sql: ".count) }
            let firstLine = statement.prefix { $0 != "\n" && $0 != "," }.trimmingCharacters(in: .whitespaces)
            guard !firstLine.hasPrefix("SELECT 1;") else { return }
            sent.withLock { $0.append(firstLine) }
        }
    }
}
