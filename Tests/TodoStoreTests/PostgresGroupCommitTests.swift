import Foundation
import Logging
import PostgresNIO
import Testing
import TestSupport
import Todos
@testable import TodoStorePostgres

/// Changes asked for while a transaction is under way share the next one;
/// each is answered after the commit that holds it, and one that the domain
/// refuses fails alone.
@Suite("PostgreSQL store: group commit", .dropsPostgresSchemas, .enabled(if: PostgresTestDatabase.url != nil, PostgresTestDatabase.missing))
struct PostgresGroupCommitTests {
    @Test func changesAskedForTogetherShareOneCommitAndARefusedOneFailsAlone() async throws {
        let fixture = try StoreFixture(.postgres)
        let store = try #require(try await fixture.open() as? PostgresStore)
        try await store.change(.add(try fixture.item("First")))
        let shared = try #require(fixture.postgresDatabase)
        // Another instance holds the list's row, so the store's first batch
        // waits and everything asked for meanwhile lines up behind it.
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        let locker = Task {
            try await shared.database.client.withTransaction(logger: Logger(label: "test")) { connection in
                try await connection.query("SELECT id FROM rewind_list FOR UPDATE", logger: Logger(label: "test"))
                holding.yield()
                for await _ in released { break }
            }
        }
        for await _ in held { break }
        let items = try (0..<20).map { try fixture.item("Item \($0)") }
        let missing = UUID()
        let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for (index, item) in items.enumerated() {
                group.addTask {
                    try await store.change(.add(item))
                    return (index, true)
                }
            }
            group.addTask {
                do {
                    try await store.change(.remove(missing))
                    return (-1, true)
                } catch TodoError.itemNotFound(let id) where id == missing {
                    return (-1, false)
                }
            }
            try await waitUntil("21 changes waiting") { await store.unansweredChanges == 21 }
            release.yield()
            var results: [(Int, Bool)] = []
            for try await result in group { results.append(result) }
            return results
        }
        try await locker.value
        #expect(results.count == 21)
        #expect(results.filter { $0.0 == -1 }.map(\.1) == [false], "the refused change failed alone")
        let batches = await store.batchesWritten
        #expect(batches <= 3, "21 changes in \(batches - 1) batches")

        let reopened = try await fixture.open()
        #expect(Set(try await reopened.state().todos.items.map(\.title)) == Set(["First"] + items.map(\.title)))
        let numbers = try await shared.database.client.query("SELECT seq FROM rewind_step ORDER BY seq")
            .decode(Int64.self).reduce(into: [Int64]()) { $0.append($1) }
        #expect(numbers == Array(1...21), "one gap-free log: the refused change took no number")
        try await reopened.undo()
        #expect(try await reopened.state().todos.count == 20)
    }

    @Test func aLoneChangeIsCommittedAtOnce() async throws {
        let fixture = try StoreFixture(.postgres)
        let store = try #require(try await fixture.open() as? PostgresStore)
        for index in 0..<5 { try await store.change(.add(try fixture.item("Item \(index)"))) }
        #expect(await store.batchesWritten == 5)
        #expect(try await store.history().steps.count == 5)
    }
}
