import Foundation
import GRDB
import Testing
import TestSupport
import Todos
@testable import TodoStore

/// Changes asked for at the same moment share one transaction; each is
/// answered after the commit that holds it, and one that fails fails alone.
@Suite("SQLite store: group commit")
struct GroupCommitTests {
    /// Holds the database's write lock from another connection until
    /// `release()`, so that the store's first batch waits and everything
    /// submitted meanwhile lines up behind it.
    final class WriteLock: @unchecked Sendable {
        private let queue: DatabaseQueue
        private let released = DispatchSemaphore(value: 0)
        private let held = DispatchSemaphore(value: 0)

        init(_ url: URL) throws {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            queue = try DatabaseQueue(path: url.path, configuration: configuration)
            Thread.detachNewThread { [queue, released, held] in
                try? queue.inTransaction(.immediate) { _ in
                    held.signal()
                    released.wait()
                    return .rollback
                }
            }
            held.wait()
        }

        func release() {
            released.signal()
        }
    }

    @Test func changesAskedForTogetherShareOneCommitAndAllArrive() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try await SQLiteStore.open(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        try await store.change(.add(try fixture.item("First")))
        let lock = try WriteLock(fixture.fileURL)
        let items = try (0..<50).map { try fixture.item("Item \($0)") }
        let missing = UUID()
        let asked = Counter()
        let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for (index, item) in items.enumerated() {
                group.addTask {
                    asked.increment()
                    try await store.change(.add(item))
                    return (index, true)
                }
            }
            // One change the domain refuses, in the middle of the batch.
            group.addTask {
                asked.increment()
                do {
                    try await store.change(.remove(missing))
                    return (-1, true)
                } catch TodoError.itemNotFound(let id) where id == missing {
                    return (-1, false)
                }
            }
            // Everything waits in line behind the held lock; then it goes.
            // (A change counted here is in line as soon as its task goes on:
            // `submit` queues it without waiting.)
            try await waitUntil("51 changes asked for; \(asked.value) so far") { asked.value == 51 }
            lock.release()
            var results: [(Int, Bool)] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(results.count == 51)
        #expect(results.filter { $0.0 == -1 }.map(\.1) == [false], "the refused change failed alone")
        #expect(store.commitLine.batchesWritten <= 3, "51 changes in \(store.commitLine.batchesWritten) batches")

        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let titles = Set(try await reopened.state().todos.items.map(\.title))
        #expect(titles == Set(["First"] + items.map(\.title)))
        // One step per change, in the order they were applied: the list's order.
        let history = try await reopened.history()
        #expect(history.steps.count == 51)
        #expect(history.steps.dropFirst().map(\.name) == (try await reopened.state()).todos.items.dropFirst().map { "Add “\($0.title)”" })
        // And each undoes on its own.
        try await reopened.undo()
        #expect(try await reopened.state().todos.count == 50)
    }

    @Test func aLoneChangeIsWrittenAtOnce() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try await SQLiteStore.open(url: fixture.fileURL, pollInterval: nil)
        for index in 0..<5 {
            try await store.change(.add(try fixture.item("Item \(index)")))
        }
        #expect(store.commitLine.batchesWritten == 5)
        #expect(try await store.history().steps.count == 5)
    }
}
