import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Todos

@testable import WebApp

/// Due dates far away are refused with a 4xx that says what is allowed;
/// the server goes on serving and nothing is stored (each of these once
/// stopped the process, or stored a date that could not be read back).
@Suite("Due dates out of range through the API")
struct DueDateRangeAPITests {
    static let farDueTexts = [
        "in 999999999999999 days",
        "in 106751991168 days",
        "in 9223372036854775807 hours",
        "in 9223372036854775807 weeks",
        "2026-12-01 for 9223372036854775807 weeks",
        "in 3000000 days",
        "9999-12-31..9999-12-31",
    ]

    static let farDues = [
        #"{"kind": "date", "date": "9999-12-31T23:59:59.999-23:59"}"#,
        #"{"kind": "date", "date": "0000-01-01T00:00:00+23:59"}"#,
        #"{"kind": "duration", "start": "2026-12-01T00:00:00Z", "amount": 9223372036854775807, "unit": "hours"}"#,
    ]

    @Test("POST with a far dueText is a 422 and the server keeps serving", arguments: farDueTexts)
    func postDueText(text: String) async throws {
        let server = try TestServer()
        try await server.test { client in
            let json = #"{"title": "a", "dueText": "\#(text)"}"#
            let response = try await client.send(.post, "/api/todos", json: json, token: server.token)
            #expect(response.status == .unprocessableContent)
            #expect(response.errorMessage?.contains("9999") == true, "\(response.errorMessage ?? "")")
            #expect(try await server.store.state().todos.isEmpty)
            #expect(try await client.get("/api/todos").status == .ok)
        }
    }

    @Test("PATCH with a far dueText is a 422 and the item keeps its due date", arguments: farDueTexts)
    func patchDueText(text: String) async throws {
        let server = try TestServer()
        try await server.test { client in
            let created = try await client.send(.post, "/api/todos", json: #"{"title": "a", "dueText": "tomorrow"}"#, token: server.token)
            let id = try #require(created.object["id"] as? String)
            let before = try await server.store.state().todos.items.first?.due
            let response = try await client.send(
                .patch, "/api/todos/\(id)", json: #"{"dueText": "\#(text)"}"#, token: server.token
            )
            #expect(response.status == .unprocessableContent)
            #expect(try await server.store.state().todos.items.first?.due == before)
        }
    }

    @Test("a far due object is a 4xx naming the field", arguments: farDues)
    func postDue(due: String) async throws {
        let server = try TestServer()
        try await server.test { client in
            let response = try await client.send(.post, "/api/todos", json: #"{"title": "a", "due": \#(due)}"#, token: server.token)
            #expect((400...499).contains(response.status.code))
            #expect(response.errorMessage?.contains("due") == true, "\(response.errorMessage ?? "")")
            #expect(response.errorMessage?.contains("9999-12-31") == true, "\(response.errorMessage ?? "")")
            #expect(try await server.store.state().todos.isEmpty)
        }
    }
}
