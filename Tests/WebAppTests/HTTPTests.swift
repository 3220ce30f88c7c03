import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import WebApp

@Suite("HTTP")
struct HTTPTests {
    @Suite("Slow and idle connections are closed")
    struct Timeouts {
        /// Short timeouts, so that the tests wait for the close, not for the
        /// defaults; long enough that a busy machine still sends what a test
        /// sends before they run out (0.1 s was not, with the suite in parallel).
        static func server(head: Double = 1, idle: Double = 30, heartbeat: Double = 15) throws -> TestServer {
            try TestServer(
                configuration: WebAppConfiguration(
                    port: 0, heartbeatInterval: heartbeat, requestHeadTimeout: head, idleTimeout: idle
                )
            )
        }

        @Test func aConnectionThatSendsHalfARequestHeadIsClosed() async throws {
            try await Self.server().testLive { port in
                let connection = try await RawConnection.open(port: port, sending: "GET /todos HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                try await connection.waitUntilClosed()
                #expect(connection.text.isEmpty)
            }
        }

        /// A body trickled byte by byte holds the connection no longer than
        /// three times the head's limit after its head (each byte restarted
        /// no clock before).
        /// A request head that passes every check, for a body of `length` bytes.
        static func postHead(port: Int, token: String, length: Int) -> String {
            "POST /api/todos HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\n"
                + "X-Rewind-CSRF: \(token)\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n\r\n"
        }

        @Test func aConnectionThatTricklesItsBodyIsClosed() async throws {
            let server = try Self.server(head: 1)
            try await server.testLive { port in
                let connection = try await RawConnection.open(
                    port: port, sending: Self.postHead(port: port, token: server.token, length: 100) + "{\"ti")
                let started = ContinuousClock.now
                // A byte every 0.9 s: each restarted no clock, and the body never ends.
                for _ in 0..<8 where connection.isOpen {
                    try await Task.sleep(for: .seconds(0.9))
                    try? await connection.send("t")
                }
                try await connection.waitUntilClosed()
                #expect(ContinuousClock.now - started < .seconds(6), "a body trickled byte by byte kept the connection")
                #expect(try await server.store.state().todos.isEmpty)
            }
        }

        @Test func aBodySentInTimeIsAnswered() async throws {
            let server = try Self.server(head: 1)
            try await server.testLive { port in
                let body = #"{"title": "slow but in time"}"#
                let connection = try await RawConnection.open(
                    port: port, sending: Self.postHead(port: port, token: server.token, length: body.utf8.count) + body.prefix(5))
                try await Task.sleep(for: .seconds(1.5))
                try await connection.send(String(body.dropFirst(5)))
                try await connection.waitUntilReceived { $0.contains("\r\n\r\n{") }
                #expect(connection.text.hasPrefix("HTTP/1.1 201"), "\(connection.text)")
            }
        }

        @Test func aConnectionThatSendsNothingIsClosed() async throws {
            try await Self.server().testLive { port in
                let connection = try await RawConnection.open(port: port)
                try await connection.waitUntilClosed()
            }
        }

        @Test func theNextRequestOfAKeepAliveConnectionHasTheSameLimit() async throws {
            try await Self.server(head: 1).testLive { port in
                let connection = try await RawConnection.open(port: port, sending: "GET /api/csrf HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                try await connection.waitUntilReceived { $0.contains("\"token\"") }
                #expect(connection.text.hasPrefix("HTTP/1.1 200"))
                try await connection.send("GET /api/csrf HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                try await connection.waitUntilClosed()
            }
        }

        @Test func anIdleKeepAliveConnectionIsClosed() async throws {
            try await Self.server(head: 30, idle: 1).testLive { port in
                let connection = try await RawConnection.open(port: port, sending: "GET /api/csrf HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                try await connection.waitUntilReceived { $0.contains("\"token\"") }
                try await connection.waitUntilClosed()
                #expect(connection.text.hasPrefix("HTTP/1.1 200"))
            }
        }

        @Test func anEventStreamOutlivesBothTimeouts() async throws {
            try await Self.server(head: 1, idle: 1, heartbeat: 0.1).testLive { port in
                let connection = try await RawConnection.open(port: port, sending: "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                // Twenty-five heartbeats take two and a half times the longer timeout.
                try await connection.waitUntilReceived { $0.components(separatedBy: ": heartbeat").count > 25 }
                #expect(connection.isOpen)
                #expect(connection.text.hasPrefix("HTTP/1.1 200"))
                connection.close()
            }
        }

        @Test func theDefaultsAreTenSecondsForAHeadAndAMinuteIdle() async throws {
            let configuration = WebAppConfiguration()
            #expect(configuration.requestHeadTimeout == 10)
            #expect(configuration.idleTimeout == 60)
        }
    }

    @Suite("HEAD and methods a path lacks")
    struct Methods {
        @Test(arguments: ["/todos", "/", "/api/todos", "/assets/app.css", "/openapi.json", "/api/csrf"])
        func headAnswersAsGetWithoutABody(path: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let get = try await client.get(path)
                let head = try await client.executeRequest(uri: path, method: .head, headers: [:], body: nil)
                #expect(head.status == .ok)
                #expect(head.body.readableBytes == 0)
                #expect(head.headers[.contentType] == get.headers[.contentType])
                #expect(head.headers[.contentLength] == get.headers[.contentLength])
                #expect(head.headers[.eTag] == get.headers[.eTag])
            }
        }

        @Test func headOfAnUnknownItemIs404() async throws {
            let server = try TestServer()
            try await server.test { client in
                let head = try await client.executeRequest(
                    uri: "/api/todos/00000000-0000-0000-0000-000000000099", method: .head, headers: [:], body: nil
                )
                #expect(head.status == .notFound)
            }
        }

        @Test(arguments: [
            (HTTPRequest.Method.trace, "/", "GET, HEAD"),
            (.put, "/api/todos", "GET, HEAD, POST, DELETE"),
            (.options, "/todos", "GET, HEAD"),
            (.post, "/api/todos/00000000-0000-0000-0000-000000000001", "GET, HEAD, PATCH, DELETE"),
            (.get, "/api/todos/toggle-all", "POST"),
            (HTTPRequest.Method("PROPFIND")!, "/api/history", "GET, HEAD"),
        ])
        func aMethodThePathLacksIs405WithAllow(method: HTTPRequest.Method, path: String, allow: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                // With the token too: the answer does not depend on it.
                for token in [nil, server.token] {
                    let response = try await client.send(method, path, token: token)
                    #expect(response.status == .methodNotAllowed)
                    #expect(response.headers[.allow] == allow)
                    #expect(response.errorMessage?.contains("allowed: \(allow)") == true)
                    #expect(response.headers[.contentSecurityPolicy] != nil)
                }
                #expect(try await server.store.state().todos.isEmpty)
            }
        }

        @Test func anUnknownPathStays404WhateverTheMethod() async throws {
            let server = try TestServer()
            try await server.test { client in
                for method in [HTTPRequest.Method.get, .head, .trace, .post] {
                    let response = try await client.send(method, "/nothing/here", token: server.token)
                    #expect(response.status == .notFound)
                }
            }
        }
    }

    /// A browser that loads a page that does not exist, or an address the
    /// page cannot take, gets a page (404 or 400 still), with the way to the
    /// apps; scripts and API clients keep the JSON error.
    @Suite("A page that does not exist or cannot be opened")
    struct NotFoundPages {
        static let navigation: HTTPFields = [
            .accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
            HTTPField.Name("Sec-Fetch-Mode")!: "navigate",
        ]

        @Test func aBrowserGetsAPageThatSaysWhatWasNotFoundAndLinksToTheApps() async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.get("/calc", headers: Self.navigation)
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.contentSecurityPolicy] != nil)
                let html = response.text
                #expect(html.contains("<title>Not found · Rewind</title>"))
                #expect(html.contains(#"<p class="lead">There is no page at /calc.</p>"#))
                #expect(html.contains(#"<a href="/todos">to-dos</a>"#))
                #expect(html.contains(#"<a href="/calculator">calculator</a>"#))
                // Escaped like any text: a path cannot write markup.
                let hostile = try await client.get("/%3Cscript%3Ex", headers: Self.navigation)
                #expect(hostile.status == .notFound)
                #expect(!hostile.text.contains("<script>x"))

                let item = try await client.get("/todos/items/00000000-0000-0000-0000-000000000099", headers: Self.navigation)
                #expect(item.status == .notFound)
                #expect(item.text.contains("There is no item with id 00000000-0000-0000-0000-000000000099."))

                // A command the message names between backticks is shown as code, not with its backticks.
                let lists = try await client.get("/lists", headers: Self.navigation)
                #expect(lists.status == .notFound)
                #expect(lists.text.contains("start the server with <code>rewind serve --accounts</code>."))
                #expect(!lists.text.contains("`"))
            }
        }

        /// An address whose query the page does not take, or whose item id
        /// is not one: a page that says what is allowed, 400 still, and a
        /// link to the page without the query; the fragments keep their
        /// JSON error.
        @Test func aBadAddressGetsAPageThatSaysWhatIsAllowed() async throws {
            let server = try TestServer()
            try await server.test { client in
                let steps = try await client.get("/todos?steps=0", headers: Self.navigation)
                #expect(steps.status == .badRequest)
                #expect(steps.headers[.contentType] == "text/html; charset=utf-8")
                #expect(steps.text.contains("<title>Cannot open this address · Rewind</title>"))
                #expect(steps.text.contains(
                    "Invalid query parameter “steps”: “0” is not a whole number of steps from 1 to 1000000."
                ))
                #expect(steps.text.contains(#"<a href="/todos">Open /todos</a> without “?steps=0”."#))

                let filter = try await client.get("/todos?filter=%3Cb%3E", headers: Self.navigation)
                #expect(filter.status == .badRequest)
                #expect(filter.text.contains("“&lt;b&gt;” is not one of all, active, completed, overdue."))
                #expect(!filter.text.contains("<b>"))

                let id = try await client.get("/todos/items/nope", headers: Self.navigation)
                #expect(id.status == .badRequest)
                #expect(id.text.contains("“nope” is not an item id: an item&#39;s address holds its id"))
                #expect(id.text.contains("<code>rewind todo list</code> prints it (at least 4 hex digits)"))
                #expect(!id.text.contains("Open /todos/items/nope"), "no query to leave out")

                let fragment = try await client.get("/todos/fragment?steps=0", headers: Self.navigation)
                #expect(fragment.status == .badRequest)
                #expect(fragment.headers[.contentType] == "application/json; charset=utf-8")
            }
        }

        @Test func scriptsAndAPIClientsKeepTheJSONError() async throws {
            let server = try TestServer()
            try await server.test { client in
                var fetch = Self.navigation
                fetch[HTTPField.Name("Sec-Fetch-Mode")!] = "cors"
                let unknownItem = "/todos/items/00000000-0000-0000-0000-000000000099"
                let requests: [(String, HTTPFields)] = [
                    ("/calc", [:]),                                   // no Accept: a client such as curl
                    ("/calc", [.accept: "application/json"]),
                    ("/calc", fetch),                                 // the page's script
                    ("/api/nothing", Self.navigation),
                    ("/assets/nothing.js", Self.navigation),
                    (unknownItem + "/fragment", Self.navigation),
                ]
                for (path, headers) in requests {
                    let response = try await client.get(path, headers: headers)
                    #expect(response.status == .notFound, "\(path)")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8", "\(path) \(headers)")
                }
                let post = try await client.send(.post, "/calc", token: server.token)
                #expect(post.status == .notFound)
                #expect(post.headers[.contentType] == "application/json; charset=utf-8")
            }
        }

        @Test func inTeamModeThePageShowsWhoIsSignedIn() async throws {
            let server = try await SignInTests.server()
            try await server.test { client in
                let signedIn = try await SignInTests.signIn(client, server: server, name: "ann")
                let session = try #require(SignInTests.sessionCookie(signedIn))
                var headers = SignInTests.session(session.id)
                for field in Self.navigation { headers.append(field) }
                let response = try await client.get("/calc", headers: headers)
                #expect(response.status == .notFound)
                #expect(response.text.contains("Signed in as <strong>ann</strong>"))
            }
        }
    }

    @Suite("Request bodies are RFC 8259 JSON in UTF-8")
    struct StrictJSON {
        static func utf16(_ text: String, bigEndian: Bool, bom: Bool) -> ByteBuffer {
            var bytes: [UInt8] = bom ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
            for unit in text.utf16 {
                let pair = [UInt8(unit >> 8), UInt8(unit & 0xFF)]
                bytes += bigEndian ? pair : pair.reversed()
            }
            return ByteBuffer(bytes: bytes)
        }

        @Test(arguments: [
            #"{"title":"a",}"#, #"{"title":"a"}x"#, #"{"title":'a'}"#, #"{title:"a"}"#, #"{"title":"a"} // c"#,
            #"{"title":"a","position":01}"#, #"{"title":"a","position":+1}"#, #"{"title":"a","position":.5}"#,
            #"{"title":"a","position":NaN}"#, "{\"title\":\"a\tb\"}", #"{"title":"\x"}"#, #"[1,]"#,
        ])
        func aBodyBeyondRFC8259IsRefused(body: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.send(.post, "/api/todos", json: body, token: server.token)
                #expect(response.status == .badRequest)
                #expect(response.errorMessage?.contains("RFC 8259") == true)
                #expect(try await server.store.state().todos.isEmpty)
            }
        }

        @Test(arguments: [(false, false), (false, true), (true, false), (true, true)])
        func aUTF16BodyIsRefused(bigEndian: Bool, bom: Bool) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.executeRequest(
                    uri: "/api/todos", method: .post,
                    headers: [.contentType: "application/json", HTTPField.Name("X-Rewind-CSRF")!: server.token],
                    body: Self.utf16(#"{"title":"a"}"#, bigEndian: bigEndian, bom: bom)
                )
                #expect(response.status == .badRequest)
                #expect(response.errorMessage?.contains("UTF-8") == true)
                #expect(try await server.store.state().todos.isEmpty)
            }
        }

        @Test func aUTF8ByteOrderMarkOrAnotherCharsetIsRefused() async throws {
            let server = try TestServer()
            try await server.test { client in
                let withBOM = try await client.executeRequest(
                    uri: "/api/todos", method: .post,
                    headers: [.contentType: "application/json", HTTPField.Name("X-Rewind-CSRF")!: server.token],
                    body: ByteBuffer(bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"title":"a"}"#.utf8))
                )
                #expect(withBOM.status == .badRequest)
                let latin1 = try await client.send(
                    .post, "/api/todos", json: #"{"title":"a"}"#, token: server.token,
                    headers: [.contentType: "application/json; charset=iso-8859-1"]
                )
                #expect(latin1.status == .unsupportedMediaType)
                #expect(try await server.store.state().todos.isEmpty)
            }
        }

        @Test(arguments: [
            #"{"title":"a"}"#, " \r\n\t{ \"title\" : \"a\\u00e9\\n\\\"\" , \"details\":\"é 😀\" } ",
            #"{"title":"a","position":0}"#, #"{"title":"a","due":{"kind":"unknown"}}"#,
        ])
        func rfc8259BodiesAreAccepted(body: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.send(.post, "/api/todos", json: body, token: server.token)
                #expect(response.status == .created)
                let charset = try await client.send(
                    .post, "/api/todos", json: body, token: server.token,
                    headers: [.contentType: "application/json; charset=UTF-8"]
                )
                #expect(charset.status == .created)
            }
        }

        /// Half a character cannot be kept in a title: the answer says so,
        /// where, and how to write the whole one.
        @Test(arguments: [#"{"title":"\ud800"}"#, #"{"title":"a","details":"x\udfff"}"#])
        func aLoneSurrogateIsRefusedAsSuch(body: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.send(.post, "/api/todos", json: body, token: server.token)
                #expect(response.status == .badRequest)
                #expect(response.errorMessage?.contains("half of a character (a UTF-16 surrogate) with no other half") == true, "\(response.text)")
                #expect(try await server.store.state().todos.isEmpty)
            }
        }

        @Test(arguments: [
            ("0", true), ("-0.5e+10", true), ("[]", true), ("[1, [2, {}]]", true), (#""\ud83d\ude00""#, true),
            ("1.", false), ("-", false), ("1e", false), ("[1 2]", false), ("{\"a\" 1}", false), ("tru", false),
            ("\"abc", false), ("", false), ("[", false), (String(repeating: "[", count: 65) + String(repeating: "]", count: 65), false),
            (String(repeating: "[", count: 64) + String(repeating: "]", count: 64), true),
            (#""\uD83D\uDE00""#, true), (#""\ud800""#, false), (#""\udc00""#, false), (#""\ud800x""#, false),
            (#""\ud800\u0041""#, false), (#""\ud800\n""#, false),
        ])
        func theValidatorFollowsTheGrammar(text: String, valid: Bool) {
            var reader = StrictJSONReader(bytes: Array(text.utf8))
            #expect(((try? reader.readText()) != nil) == valid)
        }
    }

    @Suite("Host and request target are parsed strictly")
    struct HostParsing {
        private static let host = HTTPField.Name("Host")!

        @Test(arguments: [
            "127.0.0.1:1, evil.example", "[::1]evil", "127.0.0.1:notaport", "localhost:0", "localhost:65536",
            "localhost:", "localhost:+80", "localhost:8080:80", "local host", "[::1", "[]:80", "[evil.example]",
            "localhost:123456", "",
        ])
        func aMalformedHostIsRefusedWith421(host: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.get("/api/todos", headers: [Self.host: host])
                #expect(response.status == .misdirectedRequest)
                // The names this server answers to, [::1] among them.
                #expect(
                    response.errorMessage == "the Host header must be one name[:port] of this server (127.0.0.1, [::1] or localhost), port 1–65535;"
                        + " another name is allowed by starting the server with --allow-host NAME")
            }
        }

        @Test func twoHostHeadersAreRefused() async throws {
            let server = try TestServer()
            try await server.test { client in
                var headers = HTTPFields()
                headers.append(HTTPField(name: Self.host, value: "localhost"))
                headers.append(HTTPField(name: Self.host, value: "evil.example"))
                let response = try await client.get("/api/todos", headers: headers)
                #expect(response.status == .misdirectedRequest)
            }
        }

        @Test(arguments: ["http://evil.example/api/todos", "http://evil.example:8080/", "https://localhost/", "http://x@localhost/", "ftp://localhost/"])
        func anAbsoluteFormTargetNamingAnotherHostIsRefused(target: String) async throws {
            try await TestServer(configuration: WebAppConfiguration(port: 0)).testLive { port in
                let connection = try await RawConnection.open(
                    port: port, sending: "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
                try await connection.waitUntilClosed()
                #expect(connection.text.hasPrefix("HTTP/1.1 421"))
            }
        }

        @Test func anAbsoluteFormTargetNamingThisServerIsServed() async throws {
            try await TestServer(configuration: WebAppConfiguration(port: 0)).testLive { port in
                let connection = try await RawConnection.open(
                    port: port,
                    sending: "GET http://127.0.0.1:\(port)/api/csrf HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
                )
                try await connection.waitUntilClosed()
                #expect(connection.text.hasPrefix("HTTP/1.1 200"))
                #expect(connection.text.contains("\"token\""))
            }
        }

        @Test func targetHosts() async throws {
            #expect(RequestTargetHostHandler.host(ofTarget: "/todos") == nil)
            #expect(RequestTargetHostHandler.host(ofTarget: "*") == nil)
            #expect(RequestTargetHostHandler.host(ofTarget: "http://Localhost:8080/x?y") == "Localhost:8080")
            #expect(RequestTargetHostHandler.host(ofTarget: "http://localhost") == "localhost")
            #expect(RequestTargetHostHandler.host(ofTarget: "https://localhost/") == "")
        }
    }

    @Suite("Aborted uploads")
    struct AbortedUploads {
        @Test func anUploadCutShortIsLoggedAsAClientAbortNotAsAnError() async throws {
            let log = LogCapture()
            let server = try TestServer(configuration: WebAppConfiguration(port: 0))
            try await server.testLive(logger: log.logger) { port in
                let connection = try await RawConnection.open(
                    port: port,
                    sending: "POST /api/todos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "X-Rewind-CSRF: \(server.token)\r\nContent-Length: 100\r\n\r\n{\"title\": \"cut"
                )
                connection.close()
                try await waitUntil("“client aborted” in the log") { log.messages.contains { $0.message.contains("client aborted") } }
            }
            #expect(!log.messages.contains { $0.level >= .error }, "\(log.messages)")
            #expect(try await server.store.state().todos.isEmpty)
        }
    }
}
