import Calculator
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import TestSupport
import Todos
import TodoStore
import Testing

@testable import WebApp

/// A web app over an in-memory store, with a fixed clock and ids 1, 2, 3, …
/// (`IncrementingIDs`), and the helpers the tests send requests with.
struct TestServer: Sendable {
    /// 08:00 UTC on 15 January 2027: "now" for every test.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    let store: InMemoryStore
    let webApp: WebApp

    /// - Parameters:
    ///   - calculator: The keypad; the shipped one by default.
    ///   - todos: The store the web app works on, if not ``store`` (a SQLite
    ///     store, which keeps the abandoned branches of the history).
    ///   - teamMode: Sign-in and sessions; `nil` for local mode.
    ///   - calculators: Where the calculators are kept; in memory only by default.
    ///   - now: The clock sessions are begun and checked by.
    /// - Throws: When the shipped keypad or the web app's files are not
    ///   beside the test bundle.
    init(
        configuration: WebAppConfiguration = WebAppConfiguration(),
        calculator: ButtonConfiguration? = nil,
        store: InMemoryStore = InMemoryStore(now: { TestServer.now }),
        todos: (any AppStore)? = nil,
        teamMode: TeamMode? = nil,
        calculators: (any CalculatorStore)? = nil,
        now: @escaping @Sendable () -> Date = { TestServer.now }
    ) throws {
        self.store = store
        let todos = TodoService(store: todos ?? store, now: { TestServer.now }, makeID: IncrementingIDs().makeID)
        webApp = WebApp(
            configuration: configuration,
            todos: todos,
            calculatorConfiguration: try calculator ?? .shipped(),
            calculatorStore: calculators,
            assets: try .bundled(),
            teamMode: teamMode,
            now: now
        )
    }

    /// The CSRF token pages carry.
    var token: String { webApp.csrfToken }

    /// Runs `body` with a client of the router (no sockets), services
    /// running, the server logging to `logger` (only critical events by default).
    func test<Value: Sendable>(
        logger: Logger? = nil, _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        var quiet = Logger(label: "WebAppTests")
        quiet.logLevel = .critical
        return try await webApp.application(logger: logger ?? quiet).test(.router, body)
    }

    /// Runs `body` with the port of the server listening on 127.0.0.1, for
    /// tests that need real connections (timeouts, raw request targets).
    func testLive<Value: Sendable>(
        logger: Logger? = nil,
        _ body: @Sendable (_ port: Int) async throws -> Value
    ) async throws -> Value {
        var quiet = Logger(label: "WebAppTests")
        quiet.logLevel = .critical
        return try await webApp.application(logger: logger ?? quiet).test(.live) { client in
            let port = try #require(client.port)
            return try await body(port)
        }
    }
}

extension TestClientProtocol {
    /// Sends a request as the page's script does: the CSRF token, JSON.
    @discardableResult
    func send(
        _ method: HTTPRequest.Method,
        _ uri: String,
        json: String? = nil,
        token: String?,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if let token { headers[HTTPField.Name("X-Rewind-CSRF")!] = token }
        if json != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        return try await executeRequest(
            uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }
        )
    }

    /// `GET uri`.
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await executeRequest(uri: uri, method: .get, headers: headers, body: nil)
    }
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The body as a JSON object.
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// The `error` of a JSON error body.
    var errorMessage: String? { object["error"] as? String }
}

/// A title that breaks out of text and attributes if anything is not escaped.
let hostileTitle = #""><script>alert(1)</script>"#

extension TestServer {
    /// Presses `keys` on the calculator of the browser with `cookie` (a new
    /// one when `nil`), as the calculator page's script does.
    func pressCalculatorKeys(
        _ keys: [String], _ client: some TestClientProtocol, cookie: String?
    ) async throws -> TestResponse {
        let json = String(data: try JSONEncoder().encode(["keys": keys]), encoding: .utf8)
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = cookie }
        return try await client.send(.post, "/api/calculator/keys", json: json, token: token, headers: headers)
    }

    /// The `name=value` of the calculator's cookie that `response` sets.
    static func calculatorCookie(_ response: TestResponse) -> String? {
        response.headers[values: .setCookie].first { $0.hasPrefix("rewind_calculator=") }
            .map { String($0.prefix { $0 != ";" }) }
    }
}
