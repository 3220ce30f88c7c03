import Calculator
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TodoStore

@testable import WebApp

@Suite("Calculator page and API")
struct CalculatorAPITests {
    /// The `name=value` of the session cookie a response sets.
    private static func sessionCookie(_ response: TestResponse) -> String? {
        TestServer.calculatorCookie(response)
    }

    private static func press(
        _ keys: [String], _ client: some TestClientProtocol, _ server: TestServer, cookie: String?
    ) async throws -> TestResponse {
        try await server.pressCalculatorKeys(keys, client, cookie: cookie)
    }

    @Test func theFirstKeyPressGivesAnHttpOnlyStrictSessionCookie() async throws {
        let server = try TestServer()
        try await server.test { client in
            let response = try await Self.press(["7"], client, server, cookie: nil)
            let header = try #require(response.headers[values: .setCookie].first)
            #expect(header.contains("HttpOnly"))
            #expect(header.contains("SameSite=Strict"))
            #expect(header.contains("Path=/"))
            let cookie = try #require(Self.sessionCookie(response))
            let again = try await client.get("/calculator", headers: [.cookie: cookie])
            #expect(again.headers[values: .setCookie].isEmpty)
            #expect(again.text.contains(">7</output>"))
        }
    }

    /// The display is seen; what a screen reader hears is the number and
    /// the operation waiting for the next one, which the display never shows.
    @Test func theDisplayIsHeardWithTheOperationThatWaits() async throws {
        let server = try TestServer()
        try await server.test { client in
            let cookie = try #require(Self.sessionCookie(try await Self.press(["2", "÷"], client, server, cookie: nil)))
            var html = try await client.get("/calculator", headers: [.cookie: cookie]).text
            #expect(html.contains(#"<output class="calc-display" id="calc-display" aria-live="off" data-error="">2</output>"#))
            #expect(html.contains(#"<p class="visually-hidden" id="calc-spoken" aria-live="polite">2 divided by</p>"#))
            _ = try await Self.press(["3"], client, server, cookie: cookie)
            html = try await client.get("/calculator", headers: [.cookie: cookie]).text
            #expect(html.contains(#"id="calc-spoken" aria-live="polite">3</p>"#))
        }
    }

    /// Showing the page makes no session: another site's `<img
    /// src=".../calculator">` requests cannot push anyone's calculator out.
    @Test func lookingMakesNoSessionSoOtherSitesCannotEvictOne() async throws {
        let server = try TestServer(configuration: WebAppConfiguration(maxCalculatorSessions: 3))
        try await server.test { client in
            let mine = try #require(Self.sessionCookie(try await Self.press(["4", "2"], client, server, cookie: nil)))
            for _ in 0..<2_000 {
                let page = try await client.get("/calculator", headers: [.secFetchSite: "cross-site"])
                #expect(page.headers[values: .setCookie].isEmpty)
            }
            _ = try await client.get("/api/calculator")
            #expect(await server.webApp.calculators.count == 1)
            let forged = try await client.send(.post, "/api/calculator/keys", json: #"{"keys": ["1"]}"#, token: nil)
            #expect(forged.status == .forbidden)
            #expect(await server.webApp.calculators.count == 1)
            #expect(try await client.get("/api/calculator", headers: [.cookie: mine]).object["display"] as? String == "42")
        }
    }

    @Test func pressingKeysUndoAndRedo() async throws {
        let server = try TestServer()
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
            #expect(try state.object["labels"] as? [String] == ButtonConfiguration.shipped().labels)
            #expect(state.object["columnCount"] as? Int == 4)
            let nothing = try await client.send(.post, "/api/calculator/redo", token: server.token, headers: [.cookie: cookie])
            #expect(nothing.status == .conflict)
        }
    }

    @Test func eachBrowserHasItsOwnCalculator() async throws {
        let server = try TestServer()
        try await server.test { client in
            let alice = try #require(Self.sessionCookie(try await Self.press(["7"], client, server, cookie: nil)))
            let bob = try #require(Self.sessionCookie(try await Self.press(["9"], client, server, cookie: nil)))
            #expect(alice != bob)
            #expect(try await client.get("/api/calculator", headers: [.cookie: alice]).object["display"] as? String == "7")
            #expect(try await client.get("/api/calculator", headers: [.cookie: bob]).object["display"] as? String == "9")
        }
    }

    @Test func aForgedCookieShowsAFreshCalculatorAndMakesNoSession() async throws {
        let server = try TestServer()
        try await server.test { client in
            let response = try await client.get("/api/calculator", headers: [.cookie: "rewind_calculator=../../etc"])
            #expect(response.object["display"] as? String == "0")
            #expect(Self.sessionCookie(response) == nil)
            #expect(await server.webApp.calculators.count == 0)
            let press = try await Self.press(["5"], client, server, cookie: "rewind_calculator=../../etc")
            #expect(Self.sessionCookie(press) != nil)
        }
    }

    @Test func aCalculatorThatLeftMemoryIsNotCountedForTheOneReadAgainInItsPlace() async throws {
        let store = InMemoryCalculatorStore()
        let sessions = CalculatorSessions(configuration: try .shipped(), capacity: 1, store: store)
        let a = "a0000000000000000000000000000000"
        let first = try await sessions.calculator(a)
        let (_, steps) = try await first.change { session in try session.press(["1", "+", "2"]) }
        await sessions.account(a, steps: steps, of: first)
        _ = try await sessions.calculator("b0000000000000000000000000000000")  // a leaves memory
        let again = try #require(try await sessions.existing(a))
        #expect(again !== first)
        #expect(await sessions.stepCount == 3)
        // The first copy's late report is not taken for the one in memory.
        let (_, late) = try await first.change { session in try session.press(["4", "5"]) }
        await sessions.account(a, steps: late, of: first)
        #expect(await sessions.stepCount == 3)
    }

    @Test func pastTheBudgetTheOldestStepsGoInTheStoreTooAndThePageSaysSo() async throws {
        let store = InMemoryCalculatorStore()
        let sessions = CalculatorSessions(
            configuration: try .shipped(), capacity: 10, stepLimit: 50, totalStepBudget: 80, store: store)
        let a = "a0000000000000000000000000000000"
        let first = try await sessions.calculator(a)
        let (_, steps) = try await first.change { session in (try? session.press(Array(repeating: "1", count: 40))) ?? [] }
        await sessions.account(a, steps: steps, of: first)
        #expect(await sessions.stepCount == 16)  // 16 digits can be typed; more change nothing
        let second = try await sessions.calculator("b")
        let (state, more) = try await second.change { session in
            (0..<40).flatMap { _ in (try? session.press(["1", "+"])) ?? [] }
        }
        #expect(more == 50)
        #expect(state.droppedSteps == 30)
        await sessions.account("b", steps: more, of: second)
        // Together 66 steps: within the budget of 80, nothing more goes.
        #expect(await sessions.stepCount == 66)
        let (_, grown) = try await second.change { session in
            (0..<40).flatMap { _ in (try? session.press(["2", "+"])) ?? [] }
        }
        await sessions.account("b", steps: grown, of: second)
        // 16 + 50 is within the budget; the limit of 50 per session holds.
        #expect(await sessions.stepCount <= 80)
        let third = try await sessions.calculator("c")
        let (_, thirdSteps) = try await third.change { session in
            (0..<25).flatMap { _ in (try? session.press(["3", "+"])) ?? [] }
        }
        await sessions.account("c", steps: thirdSteps, of: third)
        // 16 + 50 + 50 > 80: the least recently used session ("a") loses its oldest steps first.
        #expect(await sessions.stepCount <= 80)
        let shown = await first.state
        #expect(shown.droppedSteps > 0)
        #expect(shown.snapshot.display == "1111111111111111")
        let html = CalculatorPage(state: shown, csrfToken: "t").render().rendered
        #expect(html.contains("dropped to save memory"))
        // The store dropped them too: a restart finds the same calculator.
        let kept = try #require(await store.calculator(a))
        #expect(kept.droppedSteps == shown.droppedSteps)
        #expect(kept.steps.count == 16 - shown.droppedSteps)
        let again = CalculatorSessions(configuration: try .shipped(), capacity: 10, store: store)
        let restored = try #require(try await again.existing(a))
        #expect(await restored.state.snapshot == shown.snapshot)
        #expect(await restored.state.droppedSteps == shown.droppedSteps)
    }

    @Test func theKeyOfTheOperationThatWaitsIsNamedAndDrawnHeldDown() async throws {
        let server = try TestServer()
        try await server.test { client in
            let pressed = try await Self.press(["9", "*"], client, server, cookie: nil)
            #expect(pressed.object["pendingKey"] as? String == "x")
            let cookie = try #require(Self.sessionCookie(pressed))
            let page = try await client.get("/calculator", headers: [.cookie: cookie]).text
            #expect(page.contains(#"class="key key-operator pending" data-key="x" aria-current="true" title="Times""#))
            #expect(page.components(separatedBy: #"aria-current="true""#).count == 2)
            let changed = try await Self.press(["-"], client, server, cookie: cookie)
            #expect(changed.object["pendingKey"] as? String == "-")
            let done = try await Self.press(["1", "="], client, server, cookie: cookie)
            #expect(done.object["pendingKey"] == nil)
            #expect(done.object["display"] as? String == "8")
            #expect(try await client.get("/calculator", headers: [.cookie: cookie]).text.contains(#"aria-current="true""#) == false)
            let undone = try await client.send(.post, "/api/calculator/undo", token: server.token, headers: [.cookie: cookie])
            #expect(undone.object["pendingKey"] as? String == "-")
        }
    }

    @Test func theNumberOfSessionsIsBounded() async throws {
        let server = try TestServer(configuration: WebAppConfiguration(maxCalculatorSessions: 3))
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
        let server = try TestServer()
        try await server.test { client in
            let unknown = try await Self.press(["1", "y"], client, server, cookie: nil)
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.errorMessage?.contains("\"y\"") == true)
            #expect(unknown.errorMessage?.hasPrefix("invalid field “keys[1]”: ") == true, "\(unknown.errorMessage ?? "")")
            #expect(unknown.object["display"] == nil)
            let single = try await client.send(.post, "/api/calculator/keys", json: #"{"key": ""}"#, token: server.token)
            #expect(single.errorMessage?.hasPrefix("invalid field “key”: ") == true, "\(single.errorMessage ?? "")")
            let empty = try await client.send(.post, "/api/calculator/keys", json: #"{"keys": []}"#, token: server.token)
            #expect(empty.status == .badRequest)
            #expect(empty.errorMessage?.hasPrefix("invalid field “keys”: an empty list presses nothing") == true, "\(empty.errorMessage ?? "")")
            // At most 1000 in all: 999 in “keys” (the document's maxItems) and one in “key”.
            let most = Array(repeating: #""1""#, count: 999).joined(separator: ",")
            #expect(try await client.send(.post, "/api/calculator/keys", json: #"{"keys": [\#(most)], "key": "1"}"#, token: server.token).status == .ok)
            let more = try await client.send(.post, "/api/calculator/keys", json: #"{"keys": [\#(most), "1"], "key": "1"}"#, token: server.token)
            #expect(more.status == .badRequest)
            #expect(more.errorMessage == "too many keys in one request: at most 1000")
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
        let server = try TestServer()
        try await server.test { client in
            let response = try await Self.press(["1", "÷", "0", "="], client, server, cookie: nil)
            #expect(response.status == .ok)
            #expect(response.object["error"] as? String != nil)
        }
    }

    @Test func keysDrawnWithASignShowTheTypographicSignAndSayWhatTheyDo() async throws {
        let server = try TestServer()
        try await server.test { client in
            let html = try await client.get("/calculator").text
            // The label stays what the script sends; the face and the name are for people.
            #expect(html.contains(#"data-key="x" title="Times" aria-label="times">×</button>"#))
            #expect(html.contains(#"data-key="-" title="Minus" aria-label="minus">−</button>"#))
            #expect(html.contains(#"data-key="⌫" title="Delete last digit" aria-label="delete last digit">⌫</button>"#))
            #expect(html.contains(#"data-key="x²" title="Square" aria-label="square">x²</button>"#))
            // Letters are read as letters: the words follow them.
            #expect(html.contains(#"data-key="C" title="Clear entry" aria-label="C, clear entry">C</button>"#))
            #expect(html.contains(#"data-key="0">0</button>"#))
        }
    }

    /// A keypad file that spells keys as a terminal types them gets them
    /// drawn with their signs and named as the shipped keypad names them.
    @Test func keysSpelledAsATerminalTypesThemAreDrawnWithTheirSigns() async throws {
        let layout = try ButtonConfiguration(labels: ["sqrt", "x^2", "+/-", "*", "/", "1", "=", "AC"], columnCount: 4)
        let server = try TestServer(calculator: layout)
        try await server.test { client in
            let html = try await client.get("/calculator").text
            #expect(html.contains(#"data-key="sqrt" title="Square root" aria-label="square root">√</button>"#))
            #expect(html.contains(#"data-key="x^2" title="Square" aria-label="square">x²</button>"#))
            #expect(html.contains(#"data-key="+/-" title="Change sign" aria-label="change sign">±</button>"#))
            #expect(html.contains(#"data-key="*" title="Times" aria-label="times">×</button>"#))
            #expect(html.contains(#"data-key="/" title="Divided by" aria-label="divided by">÷</button>"#))
        }
    }

    @Test func thePageShowsTheConfiguredKeypad() async throws {
        let layout = try ButtonConfiguration(labels: ["7", "8", "9", "+", "=", "AC"], columnCount: 3)
        let server = try TestServer(calculator: layout)
        try await server.test { client in
            let html = try await client.get("/calculator").text
            #expect(html.contains(#"<div class="keypad" data-columns="3""#))
            let keys = html.components(separatedBy: #"class="key "#).count - 1
            #expect(keys == 6)
            #expect(html.contains(#"data-key="AC" title="All clear" aria-label="AC, all clear">AC</button>"#))
            #expect(html.contains(#"data-key="7">7</button>"#))
            #expect(html.contains(#"data-key="+" title="Plus" aria-label="plus">+</button>"#))
            #expect(html.contains(#"<output class="calc-display" id="calc-display""#))
            #expect(html.contains(#"id="calc-undo" title="Undo" aria-label="Undo" disabled"#))
            #expect(html.contains(#"id="calc-redo" title="Redo" aria-label="Redo" disabled"#))
            #expect(html.contains(#"<ol class="tape-list" id="calc-tape">"#))
        }
    }
}
