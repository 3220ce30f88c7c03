import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import WebApp

/// A TLS proxy in front of the server: browsers see `https://todo.example`,
/// the server plain HTTP. Its pages may make changes once it is configured
/// as a public origin, and only then; nothing else is let in with it.
@Suite("Security behind a TLS proxy: public origins")
struct PublicOriginTests {
    private static let host = HTTPField.Name("Host")!
    private static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!

    /// Behind a proxy whose browsers see `https://todo.example`.
    static func proxied() throws -> WebAppConfiguration {
        WebAppConfiguration(publicOrigins: [try PublicOrigin("https://todo.example")])
    }

    /// Adds an item as the page of `origin` would, through a proxy that
    /// passes on the browser's `Host: todo.example`.
    private static func add(
        through server: TestServer, origin: String, host: String = "todo.example", referer: String? = nil
    ) async throws -> TestResponse {
        try await server.test { client in
            var headers: HTTPFields = [PublicOriginTests.host: host, PublicOriginTests.secFetchSite: "same-origin"]
            if !origin.isEmpty { headers[.origin] = origin }
            if let referer { headers[.referer] = referer }
            return try await client.send(.post, "/api/todos", json: #"{"title": "x"}"#, token: server.token, headers: headers)
        }
    }

    @Suite("Changes")
    struct Changes {
        @Test(arguments: ["https://todo.example", "HTTPS://Todo.Example", "https://todo.example:443"])
        func aPageOfTheConfiguredHTTPSOriginMakesChanges(origin: String) async throws {
            let server = try TestServer(configuration: PublicOriginTests.proxied())
            let response = try await PublicOriginTests.add(through: server, origin: origin)
            #expect(response.status == .created, "\(response.text)")
            #expect(try await server.store.state().todos.items.map(\.title) == ["x"])
        }

        @Test func withoutThePublicOriginAnHTTPSPageIsRefused() async throws {
            let server = try TestServer()
            let response = try await PublicOriginTests.add(through: server, origin: "https://localhost", host: "localhost")
            #expect(response.status == .forbidden)
            // Its host is this server's: a TLS proxy in front, and the option that tells the server so, named.
            #expect(
                response.errorMessage == "cross-origin request refused (Origin: https://localhost); a page served through a TLS proxy"
                    + " at https://localhost is refused unless the server is started with --public-origin https://localhost,"
                    + " which tells it that address")
            #expect(try await server.store.state().todos.isEmpty)
            let other = try await PublicOriginTests.add(through: server, origin: "https://evil.example", host: "localhost")
            #expect(other.errorMessage == "cross-origin request refused (Origin: https://evil.example)")
        }

        @Test(arguments: [
            "http://todo.example",  // scheme
            "https://todo.example:8443",  // port
            "http://todo.example:443",  // scheme, with the https port
            "https://evil.example",  // host
            "https://sub.todo.example",
            "https://todo.example.evil.example",
            "https://todo.example/",  // not an origin
            "https://user@todo.example",
            "null",
        ])
        func anOriginThatDiffersInSchemePortOrHostIsRefused(origin: String) async throws {
            let server = try TestServer(configuration: PublicOriginTests.proxied())
            let response = try await PublicOriginTests.add(through: server, origin: origin)
            #expect(response.status == .forbidden)
            #expect(response.errorMessage == "cross-origin request refused (Origin: \(origin))")
            #expect(try await server.store.state().todos.isEmpty)
        }

        @Test func theServersOwnOriginStillMakesChanges() async throws {
            let server = try TestServer(configuration: PublicOriginTests.proxied())
            let response = try await PublicOriginTests.add(through: server, origin: "http://localhost", host: "localhost")
            #expect(response.status == .created)
        }

        @Test func theTokenIsStillNeeded() async throws {
            let server = try TestServer(configuration: PublicOriginTests.proxied())
            try await server.test { client in
                let response = try await client.send(
                    .post, "/api/todos", json: #"{"title": "x"}"#, token: nil,
                    headers: [PublicOriginTests.host: "todo.example", .origin: "https://todo.example"]
                )
                #expect(response.status == .forbidden)
                #expect(response.errorMessage?.contains("X-Rewind-CSRF") == true)
            }
            #expect(try await server.store.state().todos.isEmpty)
        }

        @Test func withoutOriginTheRefererMustBeOfAnAcceptedOrigin() async throws {
            let server = try TestServer(configuration: PublicOriginTests.proxied())
            let foreign = try await PublicOriginTests.add(
                through: server, origin: "", referer: "https://evil.example/todos"
            )
            #expect(foreign.status == .forbidden)
            #expect(foreign.errorMessage == "cross-origin request refused (Referer: https://evil.example/todos)")
            let downgraded = try await PublicOriginTests.add(
                through: server, origin: "", referer: "http://todo.example/todos"
            )
            #expect(downgraded.status == .forbidden)
            #expect(try await server.store.state().todos.isEmpty)
            let ours = try await PublicOriginTests.add(
                through: server, origin: "", referer: "https://todo.example/todos?filter=active#x"
            )
            #expect(ours.status == .created)
        }
    }

    @Suite("Host")
    struct Host {
        @Test func thePublicOriginsHostNameIsServed() async throws {
            let server = try TestServer(
                configuration: WebAppConfiguration(publicOrigins: [try PublicOrigin("https://todo.example:8443")])
            )
            try await server.test { client in
                for host in ["todo.example", "todo.example:8443", "TODO.example:80"] {
                    let response = try await client.get("/todos", headers: [PublicOriginTests.host: host])
                    #expect(response.status == .ok, "Host: \(host)")
                }
                let foreign = try await client.get("/todos", headers: [PublicOriginTests.host: "evil.example"])
                #expect(foreign.status == .misdirectedRequest)
            }
        }

        @Test func withoutThePublicOriginItsHostNameIsRefused() async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.get("/todos", headers: [PublicOriginTests.host: "todo.example"])
                #expect(response.status == .misdirectedRequest)
            }
        }
    }

    @Suite("Cookies")
    struct Cookies {
        private static func calculatorCookie(configuration: WebAppConfiguration) async throws -> String {
            let server = try TestServer(configuration: configuration)
            return try await server.test { client in
                let response = try await client.send(
                    .post, "/api/calculator/keys", json: #"{"keys": ["1"]}"#, token: server.token
                )
                #expect(response.status == .ok)
                return try #require(response.headers[.setCookie])
            }
        }

        @Test func behindAnHTTPSPublicOriginTheCookieIsSecure() async throws {
            let cookie = try await Self.calculatorCookie(configuration: PublicOriginTests.proxied())
            #expect(cookie.contains("rewind_calculator="))
            #expect(cookie.contains("; Secure"))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
        }

        @Test func withoutOneOrBehindHTTPTheCookieIsNotSecure() async throws {
            for configuration in [
                WebAppConfiguration(),
                WebAppConfiguration(publicOrigins: [try PublicOrigin("http://todo.example")]),
            ] {
                let cookie = try await Self.calculatorCookie(configuration: configuration)
                #expect(cookie.contains("rewind_calculator="))
                #expect(!cookie.contains("Secure"))
            }
        }
    }

    @Suite("Reading a public origin")
    struct Reading {
        @Test(arguments: [
            ("https://todo.example", "https://todo.example"),
            ("HTTPS://Todo.Example:443", "https://todo.example"),
            ("http://todo.example:80", "http://todo.example"),
            ("https://todo.example:8443", "https://todo.example:8443"),
            ("http://10.0.0.5:8000", "http://10.0.0.5:8000"),
            ("https://[::1]:9443", "https://[::1]:9443"),
        ])
        func anOriginIsReadAsBrowsersWriteIt(text: String, origin: String) throws {
            #expect(try PublicOrigin(text).description == origin)
        }

        @Test(arguments: [
            "", "todo.example", "ftp://todo.example", "https://", "https://todo.example/",
            "https://todo.example/todos", "https://todo.example?x", "https://todo.example#x",
            "https://user@todo.example", "https://user:pw@todo.example", "https://todo.example:0",
            "https://todo.example:65536", "https://todo.example:", "https://todo example", "https://todo.example\n",
            "https://todo.éxample", "//todo.example",
        ])
        func anythingElseIsRefused(text: String) {
            #expect(throws: PublicOriginError.self) { try PublicOrigin(text) }
        }
    }
}
