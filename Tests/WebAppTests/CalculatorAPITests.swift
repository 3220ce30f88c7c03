import Calculator
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import WebApp

@Suite("Calculator page and API")
struct CalculatorAPITests {
    /// The `name=value` of the session cookie a response sets.
    private static func sessionCookie(_ response: TestResponse) -> String? {
        response.headers[values: .setCookie].first { $0.hasPrefix("rewind_calculator=") }
            .map { String($0.prefix { $0 != ";" }) }
    }

    private static func press(
        _ keys: [String], _ client: some TestClientProtocol, _ server: TestServer, cookie: String?
    ) async throws -> TestResponse {
        let json = String(data: try JSONEncoder().encode(["keys": keys]), encoding: .utf8)
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = cookie }
        return try await client.send(.post, "/api/calculator/keys", json: json, token: server.token, headers: headers)
    }

    @Test func aNewBrowserGetsAnHttpOnlyStrictSessionCookie() async throws {
        let server = TestServer()
        try await server.test { client in
            let response = try await client.get("/calculator")
            let header = try #require(response.headers[values: .setCookie].first)
            #expect(header.contains("HttpOnly"))
            #expect(header.contains("SameSite=Strict"))
            #expect(header.contains("Path=/"))
            let cookie = try #require(Self.sessionCookie(response))
            let again = try await client.get("/calculator", headers: [.cookie: cookie])
            #expect(again.headers[values: .setCookie].isEmpty)
        }
    }

    @Test func pressingKeysUndoAndRedo() async throws {
        let server = TestServer()
        try await server.test { client in
            let first = try await Self.press(["1", "2", "+", "3", "="], client, server, cookie: nil)
            #expect(first.status == .ok)
            #expect(first.object["display"] as? String == "15")
            #expect(first.object["tape"] as? [String] == ["12 + 3 = 15"])
            #expect(first.object["undoTitle"] as? String == "Undo Press =")
            let cookie = try #require(Self.sessionCookie(first))
            let undo = try await client.send(.post, "/api/calculator/undo", token: server.token, headers: [.cookie: cookie])
            #expect(undo.object["display"] as? String == "3")
            #expect(undo.object["canRedo"] as? Bool == true)
            let redo = try await client.send(.post, "/api/calculator/redo", token: server.token, headers: [.cookie: cookie])
            #expect(redo.object["display"] as? String == "15")
            let state = try await client.get("/api/calculator", headers: [.cookie: cookie])
            #expect(state.object["display"] as? String == "15")
            #expect(state.object["labels"] as? [String] == ButtonConfiguration.builtInDefault.labels)
            #expect(state.object["columnCount"] as? Int == 4)
            let nothing = try await client.send(.post, "/api/calculator/redo", token: server.token, headers: [.cookie: cookie])
            #expect(nothing.status == .conflict)
        }
    }

    @Test func eachBrowserHasItsOwnCalculator() async throws {
        let server = TestServer()
        try await server.test { client in
            let alice = try #require(Self.sessionCookie(try await Self.press(["7"], client, server, cookie: nil)))
            let bob = try #require(Self.sessionCookie(try await Self.press(["9"], client, server, cookie: nil)))
            #expect(alice != bob)
            #expect(try await client.get("/api/calculator", headers: [.cookie: alice]).object["display"] as? String == "7")
            #expect(try await client.get("/api/calculator", headers: [.cookie: bob]).object["display"] as? String == "9")
        }
    }

    @Test func aForgedCookieGetsAFreshSession() async throws {
        let server = TestServer()
        try await server.test { client in
            let response = try await client.get("/api/calculator", headers: [.cookie: "rewind_calculator=../../etc"])
            #expect(response.object["display"] as? String == "0")
            #expect(Self.sessionCookie(response) != nil)
        }
    }

    @Test func theNumberOfSessionsIsBounded() async throws {
        let server = TestServer(configuration: WebAppConfiguration(maxCalculatorSessions: 3))
        try await server.test { client in
            var cookies: [String] = []
            for digit in ["1", "2", "3", "4", "5"] {
                let response = try await Self.press([digit], client, server, cookie: nil)
                cookies.append(try #require(Self.sessionCookie(response)))
            }
            #expect(await server.webApp.calculators.count == 3)
            // The least recently used one was dropped: it starts from 0 again.
            #expect(try await client.get("/api/calculator", headers: [.cookie: cookies[0]]).object["display"] as? String == "0")
            #expect(try await client.get("/api/calculator", headers: [.cookie: cookies[4]]).object["display"] as? String == "5")
        }
    }

    @Test func errorsNameTheProblem() async throws {
        let server = TestServer()
        try await server.test { client in
            let unknown = try await Self.press(["1", "y"], client, server, cookie: nil)
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.errorMessage?.contains("\"y\"") == true)
            #expect(unknown.object["display"] == nil)
            let empty = try await client.send(.post, "/api/calculator/keys", json: #"{"keys": []}"#, token: server.token)
            #expect(empty.status == .badRequest)
            #expect(empty.errorMessage?.contains("keys") == true)
            let malformed = try await client.send(.post, "/api/calculator/keys", json: #"{"keys": "1"}"#, token: server.token)
            #expect(malformed.status == .badRequest)
            let undo = try await client.send(.post, "/api/calculator/undo", token: server.token)
            #expect(undo.status == .conflict)
            #expect(undo.errorMessage == "nothing to undo")
            let forged = try await client.send(.post, "/api/calculator/keys", json: #"{"keys": ["1"]}"#, token: nil)
            #expect(forged.status == .forbidden)
        }
    }

    @Test func aDivisionByZeroIsShownNotThrown() async throws {
        let server = TestServer()
        try await server.test { client in
            let response = try await Self.press(["1", "÷", "0", "="], client, server, cookie: nil)
            #expect(response.status == .ok)
            #expect(response.object["error"] as? String != nil)
        }
    }

    @Test func thePageShowsTheConfiguredKeypad() async throws {
        let layout = try ButtonConfiguration(labels: ["7", "8", "9", "+", "=", "AC"], columnCount: 3)
        let server = TestServer(calculator: layout)
        try await server.test { client in
            let html = try await client.get("/calculator").text
            #expect(html.contains(#"<div class="keypad" data-columns="3""#))
            let keys = html.components(separatedBy: #"class="key "#).count - 1
            #expect(keys == 6)
            #expect(html.contains(#"data-key="AC">AC</button>"#))
            #expect(html.contains(#"<output class="calc-display" id="calc-display""#))
            #expect(html.contains(#"id="calc-undo" title="Undo" aria-label="Undo" disabled"#))
            #expect(html.contains(#"id="calc-redo" title="Redo" aria-label="Redo" disabled"#))
            #expect(html.contains(#"<ol class="tape-list" id="calc-tape">"#))
        }
    }
}
