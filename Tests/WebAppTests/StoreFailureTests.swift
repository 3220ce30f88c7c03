import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Rewind
import TestSupport
import Testing
import TodoStore
import Todos

@testable import WebApp

/// A store that fails (a database that cannot be reached, a disk that is
/// full): the client gets a 503 that says to try again, and the details
/// (which file, which database, what went wrong) go to the server's log
/// only, never to the client.
@Suite("A store that fails")
struct StoreFailureTests {
    /// A store over an in-memory one that fails every call once ``fail()`` was called.
    actor FailingStore: AppStore {
        let store = InMemoryStore(now: { TestServer.now })
        var failing = false
        static let detail = StoreError.io(path: "postgres://rewind@db.internal:5432/rewind", detail: "the connection was closed")

        func fail() { failing = true }

        private func check() throws {
            if failing { throw Self.detail }
        }

        func read<Result: Sendable>(_ body: @escaping @Sendable (AppState) throws -> Result) async throws -> Result {
            try check()
            return try await store.read(body)
        }
        func items(withIDs ids: [UUID]) async throws -> [TodoItem] { try check(); return try await store.items(withIDs: ids) }
        func history() async throws -> HistoryOverview { try check(); return try await store.history() }
        func change(_ changes: [AppState.Change], named name: String?) async throws -> HistoryStep<AppState.Change> {
            try check()
            return try await store.change(changes, named: name)
        }
        func undo() async throws -> String? { try check(); return try await store.undo() }
        func redo() async throws -> String? { try check(); return try await store.redo() }
        func jump(to position: Int) async throws { try check(); try await store.jump(to: position) }
        func historyTree() async throws -> HistoryTree { try check(); return try await store.historyTree() }
        func jump(toStep number: Int64) async throws { try check(); try await store.jump(toStep: number) }
        func reset() async throws { try check(); try await store.reset() }
        func updates() async -> AsyncStream<Void> { await store.updates() }
        func destroy() async throws { try await store.destroy() }
    }

    @Test func theClientIsToldToTryAgainAndTheLogSaysWhatFailed() async throws {
        let store = FailingStore()
        let server = try TestServer(todos: store)
        let logged = Locked<[String]>([])
        let logger = Logger(label: "StoreFailureTests") { _ in
            EventLogHandler { event in logged.withLock { $0.append(event.message.description) } }
        }
        try await server.test(logger: logger) { client in
            #expect(try await client.send(.post, "/api/todos", json: #"{"title": "Milk"}"#, token: server.token).status == .created)
            await store.fail()
            let answers = [
                try await client.send(.post, "/api/todos", json: #"{"title": "Eggs"}"#, token: server.token),
                try await client.get("/api/todos"),
                try await client.send(.post, "/api/history/undo", token: server.token),
            ]
            for answer in answers {
                #expect(answer.status == .serviceUnavailable)
                #expect(answer.errorMessage == "the data cannot be read or saved right now; try again in a moment")
                #expect(!answer.text.contains("db.internal"), "\(answer.text)")
            }
        }
        let lines = logged.withLock { $0 }
        #expect(lines.filter { $0.contains("db.internal") && $0.contains("the connection was closed") }.count >= 3, "\(lines)")
    }
}
