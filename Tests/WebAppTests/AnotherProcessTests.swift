import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Todos
import TodoStore

@testable import WebApp

/// The API over a SQLite file that another process (here a second store,
/// as `rewind todo` opens it) changes between two requests: every answer,
/// and every decision, takes that change into account at once, not after
/// the server's poll (which these servers do not run).
@Suite("API after another process's change")
struct AnotherProcessTests {
    /// A web app over a SQLite file, and a second store on the same file.
    private final class Shared: @unchecked Sendable {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-web-other-\(UUID().uuidString)", isDirectory: true)
        let server: TestServer
        let cli: SQLiteStore

        init() throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let url = directory.appendingPathComponent("rewind.sqlite")
            server = try TestServer(todos: try SQLiteStore(url: url, pollInterval: nil))
            cli = try SQLiteStore(url: url, pollInterval: nil, items: .onDemand)
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
        }

        /// Adds an item through the other process.
        func add(_ title: String) async throws -> TodoItem {
            let item = try TodoItem(id: UUID(), title: title, created: .now)
            try await cli.change(.add(item))
            return item
        }
    }

    private func titles(_ client: some TestClientProtocol) async throws -> [String] {
        let items = try await client.get("/api/todos").object["items"] as? [[String: Any]] ?? []
        return items.compactMap { $0["title"] as? String }
    }

    @Test func anEditOfWhatAnotherProcessJustChangedIsSaved() async throws {
        let shared = try Shared()
        let server = shared.server
        try await server.test { client in
            let milk = try await shared.add("A")
            // A fresh id is found, and the edit saved.
            let first = try await client.send(.patch, "/api/todos/\(milk.id)", json: #"{"title": "B"}"#, token: server.token)
            #expect(first.status == .ok)
            try await shared.cli.change([.todos(.update(milk.id, [.title(to: "C")], at: .now))], named: nil)
            // Asking for the title the server last saw is a change now.
            let second = try await client.send(.patch, "/api/todos/\(milk.id)", json: #"{"title": "B"}"#, token: server.token)
            #expect(second.status == .ok)
            #expect(second.object["title"] as? String == "B")
            #expect(try await shared.cli.items(withIDs: [milk.id]).first?.title == "B")
            #expect(try await titles(client) == ["B"])
        }
    }

    @Test func deleteAllTakesWhatAnotherProcessJustAdded() async throws {
        let shared = try Shared()
        let server = shared.server
        try await server.test { client in
            _ = try await shared.add("Mine")
            #expect(try await titles(client) == ["Mine"])
            _ = try await shared.add("Theirs")
            let removed = try await client.send(.delete, "/api/todos", token: server.token)
            #expect(removed.status == .ok)
            #expect((removed.object["removed"] as? [[String: Any]])?.count == 2)
            #expect(try await shared.cli.state().todos.isEmpty)
        }
    }

    @Test func aMoveIsDecidedOnTheOrderAnotherProcessJustMade() async throws {
        let shared = try Shared()
        let server = shared.server
        try await server.test { client in
            let one = try await shared.add("One")
            let two = try await shared.add("Two")
            #expect(try await titles(client) == ["One", "Two"])
            try await shared.cli.change(.move(two.id, to: 0))
            // "One" is at the bottom already: the server says so.
            let bottom = try await client.send(.post, "/api/todos/\(one.id)/move", json: #"{"position": 1}"#, token: server.token)
            #expect(bottom.status == .conflict)
            let top = try await client.send(.post, "/api/todos/\(one.id)/move", json: #"{"position": 0}"#, token: server.token)
            #expect(top.status == .ok)
            #expect(try await shared.cli.state().todos.items.map(\.title) == ["One", "Two"])
        }
    }
}
