import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Todos
import TodoStore

@testable import WebApp

/// `GET /api/history/tree` and `POST /api/history/jump` with `step`: the
/// undo tree, over a store that keeps abandoned branches (SQLite) and over
/// one that does not (memory).
@Suite("History tree API")
struct HistoryTreeAPITests {
    /// A web app over a SQLite store in a fresh temporary folder.
    private final class SQLiteServer: @unchecked Sendable {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-web-tree-\(UUID().uuidString)", isDirectory: true)
        let store: SQLiteStore
        let server: TestServer

        init() throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            store = try SQLiteStore(url: directory.appendingPathComponent("rewind.sqlite"), pollInterval: nil, now: { TestServer.now })
            server = try TestServer(todos: store)
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private func add(_ title: String, _ client: some TestClientProtocol, _ server: TestServer) async throws {
        let response = try await client.send(.post, "/api/todos", json: #"{"title": "\#(title)"}"#, token: server.token)
        #expect(response.status == .created)
    }

    private func titles(_ client: some TestClientProtocol) async throws -> [String] {
        let items = try await client.get("/api/todos").object["items"] as? [[String: Any]] ?? []
        return items.compactMap { $0["title"] as? String }
    }

    private func jump(_ json: String, _ client: some TestClientProtocol, _ server: TestServer) async throws -> TestResponse {
        try await client.send(.post, "/api/history/jump", json: json, token: server.token)
    }

    /// `[(number, parent, name, branch)]` and `current` of the tree.
    private func tree(_ client: some TestClientProtocol) async throws -> (steps: [(Int, Int, String, String)], current: Int?) {
        let response = try await client.get("/api/history/tree")
        #expect(response.status == .ok)
        let object = response.object
        let steps = (object["steps"] as? [[String: Any]] ?? []).map { step in
            (step["number"] as? Int ?? -1, step["parent"] as? Int ?? -1, step["name"] as? String ?? "", step["branch"] as? String ?? "")
        }
        return (steps, object["current"] as? Int)
    }

    /// Add A, add B, undo, add C: B is left on an abandoned branch.
    private func branch(_ client: some TestClientProtocol, _ server: TestServer) async throws {
        try await add("A", client, server)
        try await add("B", client, server)
        try await client.send(.post, "/api/history/undo", token: server.token)
        try await add("C", client, server)
    }

    @Test func aChangeAfterAnUndoLeavesAnAbandonedStepThatAJumpReturnsTo() async throws {
        let sqlite = try SQLiteServer()
        let server = sqlite.server
        try await server.test { client in
            try await branch(client, server)
            let before = try await tree(client)
            #expect(before.steps.map(\.2) == ["Add “A”", "Add “B”", "Add “C”"])
            #expect(before.steps.map(\.3) == ["done", "abandoned", "done"])
            let (a, b, c) = (before.steps[0].0, before.steps[1].0, before.steps[2].0)
            #expect(before.steps[1].1 == a && before.steps[2].1 == a, "B and C were both made after A")
            #expect(before.current == c)
            let raw = try await client.get("/api/history/tree").object
            #expect((raw["steps"] as? [[String: Any]])?.first?["date"] as? String == "2027-01-15T08:00:00.000Z")

            let moved = try await jump(#"{"step": \#(b)}"#, client, server)
            #expect(moved.status == .ok)
            let history = moved.object["history"] as? [String: Any]
            #expect((history?["steps"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Add “A”", "Add “B”"])
            #expect(try await titles(client) == ["A", "B"])
            let after = try await tree(client)
            #expect(after.current == b)
            #expect(after.steps.map(\.3) == ["done", "done", "abandoned"])

            try await client.send(.post, "/api/history/undo", token: server.token)
            #expect(try await titles(client) == ["A"])
            #expect(try await jump(#"{"step": 0}"#, client, server).status == .ok)
            #expect(try await titles(client) == [])
            #expect(try await jump(#"{"step": \#(c)}"#, client, server).status == .ok)
            #expect(try await titles(client) == ["A", "C"])
        }
    }

    /// `limit` and `before` page the tree as `GET /api/history` pages the
    /// history: the newest steps below a number, oldest first, and the
    /// whole tree's size on every page.
    @Test func aLongTreeComesInPages() async throws {
        let sqlite = try SQLiteServer()
        let server = sqlite.server
        try await server.test { client in
            try await branch(client, server)
            for title in ["D", "E", "F"] { try await add(title, client, server) }
            func page(_ query: String) async throws -> (names: [String], total: Int?, numbers: [Int]) {
                let object = try await client.get("/api/history/tree?" + query).object
                let steps = object["steps"] as? [[String: Any]] ?? []
                return (steps.compactMap { $0["name"] as? String }, object["total"] as? Int, steps.compactMap { $0["number"] as? Int })
            }
            let all = try await page("")
            #expect(all.names == ["Add “A”", "Add “B”", "Add “C”", "Add “D”", "Add “E”", "Add “F”"])
            #expect(all.total == 6)
            let newest = try await page("limit=4")
            #expect(newest.names == ["Add “C”", "Add “D”", "Add “E”", "Add “F”"])
            #expect(newest.total == 6)
            let earlier = try await page("limit=4&before=\(newest.numbers[0])")
            #expect(earlier.names == ["Add “A”", "Add “B”"])
            #expect(try await page("before=\(all.numbers[0])").names.isEmpty)
            for (query, message) in [
                ("limit=0", "invalid query parameter “limit”: a page holds 1 to 500 steps, not 0"),
                ("limit=501", "invalid query parameter “limit”: a page holds 1 to 500 steps, not 501"),
                ("before=0", "invalid query parameter “before”: step numbers start at 1, so 0 has none below it"),
                ("limit=null", "invalid query parameter “limit”: “null” is not a whole number"),
                ("before=x", "invalid query parameter “before”: “x” is not a whole number"),
            ] {
                let refused = try await client.get("/api/history/tree?" + query)
                #expect(refused.status == .badRequest, "\(query)")
                #expect(refused.errorMessage == message)
            }
        }
    }

    @Test func theHistoryPanelListsTheAbandonedStepAndTheBranchIndented() async throws {
        let sqlite = try SQLiteServer()
        let server = sqlite.server
        try await server.test { client in
            try await branch(client, server)
            let numbers = try await tree(client).steps.map(\.0)
            for page in ["/todos", "/todos/fragment"] {
                let html = try await client.get(page).text
                #expect(html.contains(#"class="history-step abandoned" data-step="\#(numbers[1])""#))
                #expect(html.contains(#"<span class="history-name">Add “<bdi>B</bdi>”</span><span class="history-branch">abandoned</span>"#))
                #expect(html.contains(
                    #"<li data-level="1"><button type="button" class="history-step current" data-step="\#(numbers[2])" aria-current="step""#
                ))
            }
        }
    }

    @Test func aStepThatIsNotThereIs422NamingItAndChangesNothing() async throws {
        let sqlite = try SQLiteServer()
        let server = sqlite.server
        try await server.test { client in
            try await add("A", client, server)
            for number in ["99", "-1", "9223372036854775807"] {
                let response = try await jump(#"{"step": \#(number)}"#, client, server)
                #expect(response.status == .unprocessableContent)
                #expect(response.errorMessage == "There is no step \(number) in the history (it was never made, or the oldest steps were pruned).")
            }
            #expect(try await titles(client) == ["A"])
        }
    }

    @Test func aStoreWithoutBranchesAnswersWithItsLinearHistoryNumberedByPosition() async throws {
        let server = try TestServer()
        try await server.test { client in
            try await add("A", client, server)
            try await add("B", client, server)
            try await client.send(.post, "/api/history/undo", token: server.token)
            let linear = try await tree(client)
            #expect(linear.steps.map(\.0) == [1, 2])
            #expect(linear.steps.map(\.1) == [0, 1])
            #expect(linear.steps.map(\.3) == ["done", "undone"])
            #expect(linear.current == 1)

            try await add("C", client, server)
            #expect(try await tree(client).steps.map(\.2) == ["Add “A”", "Add “C”"], "the undone step is gone")
            #expect(try await jump(#"{"step": 0}"#, client, server).status == .ok)
            #expect(try await titles(client) == [])
            #expect(try await jump(#"{"step": 2}"#, client, server).status == .ok)
            #expect(try await titles(client) == ["A", "C"])
            let outside = try await jump(#"{"step": 3}"#, client, server)
            #expect(outside.status == .unprocessableContent)
            #expect(outside.errorMessage?.contains("no step 3") == true)
        }
    }

    @Test(arguments: [
        (#"{"position": 0, "step": 0}"#, "give either “position” or “step”, not both"),
        (#"{}"#, "missing field: give “position” (of GET /api/history) or “step” (of GET /api/history/tree)"),
        (#"{"step": "one"}"#, "invalid field “step”: expected a whole number"),
        (#"{"step": null}"#, "invalid field “step”: expected a whole number, found null"),
        (#"{"step": 1.5}"#, "invalid field “step”: expected a whole number"),
        (#"{"position": 1e30}"#, "invalid field “position”: expected a whole number"),
        (#"{"position": 1e400}"#, "invalid field “position”: expected a whole number"),
        (#"{"step": -1e400}"#, "invalid field “step”: expected a whole number"),
        (#"{"stepp": 1}"#, "invalid field “stepp”: unknown field; the allowed fields are position, step"),
    ])
    func aJumpBodyWithoutExactlyOneWholeNumberIs400(_ body: String, _ message: String) async throws {
        let server = try TestServer()
        try await server.test { client in
            try await add("A", client, server)
            let response = try await jump(body, client, server)
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.contains(message) == true, "\(response.errorMessage ?? "no message")")
            #expect(try await titles(client) == ["A"])
        }
    }
}
