import Foundation
import PostgresNIO
import Testing
import TestSupport
import Todos
@testable import TodoStorePostgres

/// Live updates across instances: a change committed through one instance
/// reaches the update streams of the others (PostgreSQL's `LISTEN` and
/// `NOTIFY`), and an instance whose listening connection dropped catches
/// up when it connects again. One test at a time: the second kills every
/// listening connection, the first's too.
@Suite("PostgreSQL store: live updates across instances", .serialized, .dropsPostgresSchemas, .enabled(if: PostgresTestDatabase.url != nil, PostgresTestDatabase.missing))
struct PostgresListeningTests {
    /// A second instance over `fixture`'s schema, its update stream counted.
    func listeningInstance(
        of fixture: StoreFixture
    ) async throws -> (store: PostgresStore, updates: Counter, running: Task<Void, Never>, reading: Task<Void, Never>) {
        let shared = try #require(fixture.postgresDatabase)
        let database = try PostgresTodoDatabase(
            url: shared.database.url, extraStartupParameters: [("search_path", shared.schema)], maximumConnections: 4, notificationChannel: shared.channel)
        let running = Task { await database.run() }
        let store: PostgresStore
        do {
            store = try await PostgresStore.open(database, now: fixture.clock.now)
        } catch {
            running.cancel()
            throw error
        }
        let updates = Counter()
        let stream = await store.updates()
        let reading = Task {
            for await _ in stream { _ = updates.increment() }
        }
        do {
            try await waitUntil("the listener connected") { await store.listenerConnections >= 1 }
        } catch {
            // Nothing of this instance outlives a failed test.
            reading.cancel()
            running.cancel()
            throw error
        }
        return (store, updates, running, reading)
    }

    @Test func aChangeOnOneInstanceReachesTheUpdatesAndTheStateOfAnother() async throws {
        let fixture = try StoreFixture(.postgres)
        let first = try await fixture.open()
        let second = try await listeningInstance(of: fixture)
        defer { second.reading.cancel(); second.running.cancel() }
        #expect(try await second.store.state().todos.isEmpty)
        try await first.change(.add(try fixture.item("Buy milk")))
        try await waitUntil("the second instance was told") { second.updates.value >= 1 }
        let state = try await first.state()
        #expect(try await second.store.state() == state)
        #expect(second.updates.value >= 1)
        // An undo and a reset reach it too.
        let before = second.updates.value
        try await first.undo()
        try await waitUntil("the undo was told") { second.updates.value > before }
        #expect(try await second.store.state().todos.isEmpty)
        try await first.change(.add(try fixture.item("Buy bread")))
        try await first.reset()
        try await waitUntil("the reset was told") {
            try await second.store.updateMark() == (try await first.updateMark())
        }
        #expect(try await second.store.state() == AppState())
    }

    /// Ends every listening connection of the test's stores: those whose
    /// `LISTEN` names its channel (not other tests', which count their
    /// listeners' connections).
    func endEveryListener(of fixture: StoreFixture) async throws {
        let shared = try #require(fixture.postgresDatabase)
        let channel = "%\"\(shared.channel)%"
        try await shared.database.client.query(
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name LIKE '% listen' AND query LIKE \(channel)
            """)
    }

    @Test func anInstanceWhoseListenerWasKilledReconnectsAndCatchesUp() async throws {
        let fixture = try StoreFixture(.postgres)
        let first = try await fixture.open()
        let second = try await listeningInstance(of: fixture)
        defer { second.reading.cancel(); second.running.cancel() }
        _ = try await second.store.state()
        try await endEveryListener(of: fixture)
        // Made while the listener is away, most likely: its notification is lost.
        try await first.change(.add(try fixture.item("Made while away")))
        try await waitUntil("the listener connected again") { await second.store.listenerConnections >= 2 }
        try await waitUntil("the second instance was told") { second.updates.value >= 1 }
        #expect(try await second.store.read { $0.todos.items.map(\.title) } == ["Made while away"])
        #expect(try await second.store.updateMark() == (try await first.updateMark()))
    }

    @Test func aReadThatFindsAnotherInstancesChangeFirstStillTellsTheUpdates() async throws {
        let fixture = try StoreFixture(.postgres)
        let first = try await fixture.open()
        let second = try await listeningInstance(of: fixture)
        defer { second.reading.cancel(); second.running.cancel() }
        #expect(try await second.store.state().todos.isEmpty)
        try await endEveryListener(of: fixture)
        // While the listener is away, a read (a page's request) finds the
        // change first: the pages must be told all the same.
        try await first.change(.add(try fixture.item("Read before heard")))
        #expect(try await second.store.read { $0.todos.items.map(\.title) } == ["Read before heard"])
        try await waitUntil("the second instance's pages were told") { second.updates.value >= 1 }
    }

    @Test func theUpdateMarkNamesWhereTheLogStands() async throws {
        let fixture = try StoreFixture(.postgres)
        let store = try await fixture.open()
        let empty = try await store.updateMark()
        try await store.change(.add(try fixture.item("One")))
        let after = try await store.updateMark()
        #expect(after != empty)
        try await store.reset()
        // A reset starts the log again in a new epoch: not the empty list's mark.
        #expect(try await store.updateMark() != empty)
        #expect(try await store.updateMark() != after)
    }
}
