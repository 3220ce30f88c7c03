import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TodoStore

@testable import WebApp

/// In team mode the calculator is the signed-in account's, not the
/// browser's: it follows the account to another browser, and another
/// account signed in later on the same browser does not see it.
@Suite("Team mode: each account's calculator")
struct AccountCalculatorTests {
    typealias API = SharedListAPITests

    /// `person`'s session and, as the same browser would send it, the
    /// calculator cookie `calculator`.
    static func headers(_ person: API.Person, calculator: String? = nil) -> HTTPFields {
        var headers = SignInTests.session(person.session)
        if let calculator { headers[.cookie] = "\(SignedIn.cookieName)=\(person.session); \(calculator)" }
        return headers
    }

    static func press(_ keys: String, _ client: some TestClientProtocol, as person: API.Person, calculator: String? = nil)
        async throws -> TestResponse
    {
        try await client.send(
            .post, "/api/calculator/keys", json: #"{"keys": \#(keys)}"#, token: person.token,
            headers: headers(person, calculator: calculator))
    }

    static func display(_ client: some TestClientProtocol, as person: API.Person, calculator: String? = nil) async throws -> String? {
        try await client.get("/api/calculator", headers: headers(person, calculator: calculator)).object["display"] as? String
    }

    @Test func theCalculatorFollowsTheAccountAndNoOtherAccountSeesIt() async throws {
        let server = try await SignInTests.server(["ann", "bob"])
        try await server.test { client in
            // The calculator cookie of one browser, which Ann and then Bob use.
            let browser = "\(CalculatorSessions.cookieName)=0123456789abcdef0123456789abcdef"
            let ann = try await API.signIn("ann", client, server: server)
            let pressed = try await Self.press(#"["1", "2"]"#, client, as: ann, calculator: browser)
            #expect(pressed.status == .ok)
            #expect(pressed.object["display"] as? String == "12")
            #expect(TestServer.calculatorCookie(pressed) == nil, "no calculator cookie is set for an account's calculator")
            // Ann on another browser (another session, no calculator cookie).
            let annElsewhere = try await API.signIn("ann", client, server: server)
            #expect(try await Self.display(client, as: annElsewhere) == "12")
            let page = try await client.get("/calculator", headers: Self.headers(annElsewhere))
            #expect(page.text.contains(">12</output>"))
            // Bob signs in on Ann's first browser: its cookie does not give him Ann's calculator, nor the browser's.
            let bob = try await API.signIn("bob", client, server: server)
            #expect(try await Self.display(client, as: bob, calculator: browser) == "0")
            #expect(try await client.get("/calculator", headers: Self.headers(bob, calculator: browser)).text.contains(">0</output>"))
            let undone = try await client.send(
                .post, "/api/calculator/undo", token: bob.token, headers: Self.headers(bob, calculator: browser))
            #expect(undone.status == .conflict)
            #expect(try await Self.display(client, as: ann) == "12")
        }
    }
}
