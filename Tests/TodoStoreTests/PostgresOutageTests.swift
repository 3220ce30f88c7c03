import Foundation
import PostgresNIO
import Testing
import TestSupport
import Todos
import TodoStore
@testable import TodoStorePostgres

/// A server whose connections end (a restart, an administrator) or that
/// cannot be reached: the next operation after it is back succeeds, and
/// one made while it cannot be reached fails with a clear error within the
/// connect timeout instead of waiting for the pool's circuit breaker.
@Suite("PostgreSQL store: connections that end", .dropsPostgresSchemas, .enabled(if: PostgresTestDatabase.url != nil, PostgresTestDatabase.missing))
struct PostgresOutageTests {
    /// A store over `shared` with a pool of its own whose connections the
    /// server can tell apart by their `application_name` (returned), with
    /// one item, “Before”; cancel the task when done.
    static func instanceOfItsOwn(
        _ fixture: StoreFixture, _ shared: PostgresTestDatabase
    ) async throws -> (store: PostgresStore, name: String, running: Task<Void, Never>) {
        let name = "rewind test \(UUID().uuidString.prefix(8))"
        let database = try PostgresTodoDatabase(
            url: shared.database.url,
            extraStartupParameters: [("search_path", shared.schema), ("application_name", name)],
            maximumConnections: 4, notificationChannel: shared.channel)
        let running = Task { await database.run() }
        let store = try await PostgresStore.open(database, now: fixture.clock.now)
        try await store.change(.add(try fixture.item("Before")))
        return (store, name, running)
    }

    @Test func aChangeAfterTheServerEndedEveryConnectionOfThePoolSucceeds() async throws {
        let fixture = try StoreFixture(.postgres)
        let first = try await fixture.open()
        let shared = try #require(fixture.postgresDatabase)
        let (second, name, running) = try await Self.instanceOfItsOwn(fixture, shared)
        defer { running.cancel() }
        let ended = try await shared.database.client.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(name)")
        var count = 0
        for try await _ in ended { count += 1 }
        #expect(count >= 1)
        try await waitUntil("the server ended the connections") {
            var left = 0
            for try await _ in try await shared.database.client.query(
                "SELECT pid FROM pg_stat_activity WHERE application_name = \(name)") { left += 1 }
            return left == 0
        }
        // The pool learns of the closes on its event loop a moment after the
        // server shows them gone. Only a batch of adds whose own statement
        // meets a dead connection is written again (the test below); a dead
        // connection met elsewhere is not, so this one waits for the pool.
        try await Task.sleep(for: .milliseconds(500))
        try await second.change(.add(try fixture.item("After")))
        #expect(try await second.read { $0.todos.items.map(\.title) } == ["Before", "After"])
        #expect(try await first.read { $0.todos.items.map(\.title) } == ["Before", "After"])
    }

    /// A batch of adds whose connection the server ends while the statement
    /// waits (here for the list's row, held by another connection) did not
    /// commit: it is written again on a fresh connection, once.
    @Test func aBatchOfAddsWhoseConnectionEndsBeforeTheAnswerIsWrittenAgainOnce() async throws {
        let fixture = try StoreFixture(.postgres)
        let reader = try await fixture.open()
        let shared = try #require(fixture.postgresDatabase)
        let (store, name, running) = try await Self.instanceOfItsOwn(fixture, shared)
        defer { running.cancel() }

        let (locker, release) = await PostgresRoundTripTests.holdingTheListsRow(shared)
        let after = try fixture.item("After")
        let adding = Task { try await store.change(.add(after)) }
        // The add's statement waits for the row; the server ends its connection.
        var ended = 0
        try await waitUntil("the add waiting for the list's row, then ended") {
            let rows = try await shared.database.client.query("""
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE application_name = \(name) AND wait_event_type = 'Lock'
                """)
            for try await _ in rows { ended += 1 }
            return ended > 0
        }
        release.yield()
        try await locker.value
        _ = try await adding.value
        #expect(try await reader.read { $0.todos.items.map(\.title) } == ["Before", "After"], "the add is saved once")
        #expect(try await store.read { $0.todos.items.map(\.title) } == ["Before", "After"])
        #expect(try await store.history().steps.count == 2)
    }

    @Test func aPoolThatCannotConnectFailsWithinTheConnectTimeoutSayingSo() async throws {
        let given = try DatabaseURL(try #require(PostgresTestDatabase.url))
        // Port 1, where nothing listens: every connection is refused, and the
        // pool would keep a request waiting until its breaker trips (a minute).
        let closed = try DatabaseURL("postgres://\(given.username):x@127.0.0.1:1/\(given.database)")
        let database = try PostgresTodoDatabase(url: closed, connectTimeout: .seconds(1))
        let running = Task { await database.run() }
        defer { running.cancel() }
        let error = await #expect(throws: StoreError.self) {
            try await database.withPooledConnection { connection in
                try await connection.query("SELECT 1", logger: Logger(label: "test"))
            }
        }
        guard case .io(let path, let detail) = error else {
            Issue.record("expected StoreError.io, got \(String(describing: error))")
            return
        }
        #expect(path == closed.redacted)
        #expect(detail == "no connection to the server within 1 second; is it running?")
    }

    /// A query written to a connection that has closed is never answered by
    /// postgres-nio (awaited directly, it waits forever, whatever the test's
    /// time limit); the store's queries give up on it instead of holding
    /// the store up for good.
    @Test func aQueryOnAConnectionThatClosedFailsInsteadOfWaitingForever() async throws {
        let given = try DatabaseURL(try #require(PostgresTestDatabase.url))
        let database = try PostgresTodoDatabase(url: given)
        let outcome = try await database.withDirectConnection { connection, logger in
            try await connection.close()
            return await Self.firstOf(seconds: 30) {
                do {
                    try await connection.answered("SELECT 1", logger: logger)
                    return "answered"
                } catch {
                    return "failed: \(error)"
                }
            }
        }
        #expect(outcome == "failed: the server closed the connection before it answered")
    }

    /// What `body` returns, or "no answer" after `seconds`, without waiting
    /// for `body` to end (a hung query never does).
    private static func firstOf(seconds: Int, _ body: @escaping @Sendable () async -> String) async -> String {
        let first = Locked<CheckedContinuation<String, Never>?>(nil)
        return await withCheckedContinuation { continuation in
            first.withLock { $0 = continuation }
            let give = { @Sendable (text: String) in first.withLock { waiting in waiting.take() }?.resume(returning: text) }
            Task { give(await body()) }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                give("no answer")
            }
        }
    }
}

/// The one timer of the waits that must not last for ever.
@Suite("Wait watch")
struct WaitWatchTests {
    @Test func aCheckIsCalledEveryTickUntilItIsDoneAndAnEndedOneNeverAgain() async throws {
        let watch = WaitWatch()
        let calls = Locked(0)
        let endedCalls = Locked(0)
        let deadline = ContinuousClock.now + .milliseconds(350)
        _ = watch.watch { now in
            calls.withLock { $0 += 1 }
            return now >= deadline
        }
        let ended = watch.watch { _ in
            endedCalls.withLock { $0 += 1 }
            return false
        }
        watch.end(ended)
        #expect(watch.watched == 1)
        try await waitUntil("the check done", timeout: .seconds(60)) { watch.watched == 0 }
        // Called at ticks of 100 ms until 350 ms had passed, then dropped.
        let called = calls.withLock { $0 }
        #expect((1...5).contains(called))
        try await Task.sleep(for: .milliseconds(300))
        #expect(calls.withLock { $0 } == called)
        #expect(endedCalls.withLock { $0 } == 0)
        // The watch starts ticking again for a new wait after it stopped.
        let again = Locked(false)
        _ = watch.watch { _ in
            again.withLock { $0 = true }
            return true
        }
        try await waitUntil("the new check called and done", timeout: .seconds(60)) { again.withLock { $0 } && watch.watched == 0 }
    }
}
