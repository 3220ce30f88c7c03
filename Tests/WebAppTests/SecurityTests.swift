import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import WebApp

@Suite("Security")
struct SecurityTests {
    static let host = HTTPField.Name("Host")!
    private static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!

    @Suite("DNS rebinding: the Host must name this server")
    struct HostCheck {
        @Test(arguments: ["evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.2:8080"])
        func aForeignHostIsRefusedWith421(host: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.get("/api/todos", headers: [SecurityTests.host: host])
                #expect(response.status == .misdirectedRequest)
                #expect(response.errorMessage?.contains("Host") == true)
                let page = try await client.get("/todos", headers: [SecurityTests.host: host])
                #expect(page.status == .misdirectedRequest)
            }
        }

        @Test(arguments: ["localhost", "localhost:8080", "127.0.0.1:8080", "[::1]:8080", "LOCALHOST:9"])
        func localHostsAreServed(host: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.get("/api/todos", headers: [SecurityTests.host: host])
                #expect(response.status == .ok)
            }
        }

        @Test func theBoundHostAndConfiguredNamesAreServed() async throws {
            let server = try TestServer(
                configuration: WebAppConfiguration(host: "192.168.1.5", additionalAllowedHosts: ["todo.local"])
            )
            try await server.test { client in
                let bound = try await client.get("/", headers: [SecurityTests.host: "192.168.1.5:8080"])
                #expect(bound.status == .ok)
                let configured = try await client.get("/", headers: [SecurityTests.host: "todo.local"])
                #expect(configured.status == .ok)
                let foreign = try await client.get("/", headers: [SecurityTests.host: "evil.example"])
                #expect(foreign.status == .misdirectedRequest)
            }
        }

        @Test func hostNamesWithoutPort() async throws {
            #expect(RequestGuardMiddleware<BasicRequestContext>.name(ofHost: "localhost:8080") == "localhost")
            #expect(RequestGuardMiddleware<BasicRequestContext>.name(ofHost: "[::1]:8080") == "[::1]")
            #expect(RequestGuardMiddleware<BasicRequestContext>.name(ofHost: "[::1]") == "[::1]")
            #expect(RequestGuardMiddleware<BasicRequestContext>.name(ofHost: "example") == "example")
            #expect(RequestGuardMiddleware<BasicRequestContext>.name(ofHost: "Todo-1.Local:65535") == "Todo-1.Local")
            #expect(RequestGuardMiddleware<BasicRequestContext>.name(ofHost: "[fe80::1.2.3.4]:1") == "[fe80::1.2.3.4]")
            for refused in [
                "", ":8080", "localhost:", "localhost:0", "localhost:65536", "localhost:123456", "localhost:80:80",
                "local_host", "lo calhost", "localhost/", "évil.example", "ｌocalhost", "[]", "[::1", "[::g]", "[::1]x",
                "[１::1]", "localhost:８0", "a@b",
            ] {
                #expect(RequestGuardMiddleware<BasicRequestContext>.name(ofHost: refused) == nil, "\(refused)")
            }
            #expect(RequestGuardMiddleware<BasicRequestContext>.host(ofOrigin: "HTTP://Localhost:8080") == "localhost:8080")
            #expect(RequestGuardMiddleware<BasicRequestContext>.host(ofOrigin: "http://localhost:8080/") == nil)
            #expect(RequestGuardMiddleware<BasicRequestContext>.host(ofOrigin: "https://localhost:8080") == nil)
            #expect(RequestGuardMiddleware<BasicRequestContext>.host(ofOrigin: "null") == nil)
        }
    }

    @Suite("Cross-site requests change nothing")
    struct CrossSite {
        @Test func aRequestWithoutTheCSRFHeaderIsRefused() async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.send(.post, "/api/todos", json: #"{"title": "x"}"#, token: nil)
                #expect(response.status == .forbidden)
                #expect(response.errorMessage?.contains("X-Rewind-CSRF") == true)
                #expect(try await server.store.state().todos.isEmpty)
            }
        }

        @Test func aWrongTokenIsRefused() async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.send(.post, "/api/todos", json: #"{"title": "x"}"#, token: "0123")
                #expect(response.status == .forbidden)
                #expect(try await server.store.state().todos.isEmpty)
            }
        }

        @Test func theTokenIsServedToSameOriginPagesAndScripts() async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.get("/api/csrf")
                #expect(response.object["token"] as? String == server.token)
                #expect(response.object["header"] as? String == "X-Rewind-CSRF")
                let page = try await client.get("/todos")
                #expect(page.text.contains(#"<meta name="rewind-csrf" content="\#(server.token)">"#))
            }
        }

        @Test func instancesGivenOneTokenAcceptEachOthersChanges() async throws {
            let shared = String(repeating: "ab12", count: 8)
            let first = try TestServer(configuration: WebAppConfiguration(csrfToken: shared))
            let second = try TestServer(configuration: WebAppConfiguration(csrfToken: shared), store: first.store)
            let token = try await first.test { client in
                try #require(try await client.get("/api/csrf").object["token"] as? String)
            }
            #expect(token == shared)
            try await second.test { client in
                let response = try await client.send(.post, "/api/todos", json: #"{"title": "x"}"#, token: token)
                #expect(response.status == .created)
            }
            #expect(try await first.store.state().todos.count == 1)
        }

        @Test func instancesWithoutAGivenTokenEachMakeTheirOwn() throws {
            #expect(try TestServer().token != TestServer().token)
            #expect(try TestServer().token.count >= 32)
        }

        @Test(arguments: ["http://evil.example", "http://localhost:3000", "null", "https://localhost"])
        func anotherOriginIsRefusedEvenWithTheToken(origin: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.send(
                    .post, "/api/todos", json: #"{"title": "x"}"#, token: server.token, headers: [.origin: origin]
                )
                #expect(response.status == .forbidden)
                #expect(response.errorMessage?.contains("cross-origin") == true)
                #expect(try await server.store.state().todos.isEmpty)
            }
        }

        @Test func theSameOriginIsAccepted() async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.send(
                    .post, "/api/todos", json: #"{"title": "x"}"#, token: server.token,
                    headers: [.origin: "http://localhost", SecurityTests.secFetchSite: "same-origin"]
                )
                #expect(response.status == .created)
            }
        }

        @Test(arguments: ["cross-site", "same-site"])
        func secFetchSiteOfAnotherSiteIsRefused(site: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.send(
                    .delete, "/api/todos", token: server.token, headers: [SecurityTests.secFetchSite: site]
                )
                #expect(response.status == .forbidden)
                #expect(response.errorMessage?.contains(site) == true)
            }
        }

        /// What a hostile page's `<form method="post" action="http://127.0.0.1:8080/api/…">`
        /// sends: a form body, its own Origin, no custom header.
        @Test(arguments: [
            ("/api/todos", "title=pwned"),
            ("/api/todos/clear-completed", ""),
            ("/api/history/undo", ""),
            ("/api/todos/toggle-all", "completed=true"),
            ("/api/calculator/keys", "keys=1"),
        ])
        func aPlainFormFromAnotherSiteChangesNothing(path: String, body: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                try await client.send(.post, "/api/todos", json: #"{"title": "Keep me"}"#, token: server.token)
                let before = try await server.store.state()
                let historyBefore = await server.store.history()
                for contentType in ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"] {
                    let response = try await client.executeRequest(
                        uri: path, method: .post,
                        headers: [
                            .contentType: contentType, .origin: "http://evil.example",
                            SecurityTests.secFetchSite: "cross-site",
                        ],
                        body: ByteBuffer(string: body)
                    )
                    #expect(response.status == .forbidden)
                    // The same form without Origin headers (an old browser) is refused too.
                    let bare = try await client.executeRequest(
                        uri: path, method: .post, headers: [.contentType: contentType], body: ByteBuffer(string: body)
                    )
                    #expect(bare.status == .forbidden)
                }
                #expect(try await server.store.state() == before)
                #expect(await server.store.history() == historyBefore)
            }
        }

        @Test func readingNeedsNoToken() async throws {
            let server = try TestServer()
            try await server.test { client in
                for path in ["/api/todos", "/api/history", "/todos", "/api/csrf"] {
                    let response = try await client.get(path)
                    #expect(response.status == .ok)
                }
            }
        }
    }

    @Suite("Headers of every answer")
    struct Headers {
        @Test(arguments: ["/", "/todos", "/calculator", "/api/todos", "/nothing", "/assets/todos.js", "/openapi.json"])
        func everyAnswerHasTheSecurityHeaders(path: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.get(path)
                let policy = try #require(response.headers[.contentSecurityPolicy])
                #expect(policy.contains("script-src 'self'"))
                #expect(!policy.contains("unsafe-inline"))
                #expect(policy.contains("frame-ancestors 'none'"))
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
            }
        }

        @Test func refusedRequestsHaveThemToo() async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.get("/", headers: [SecurityTests.host: "evil.example"])
                #expect(response.headers[.contentSecurityPolicy] != nil)
            }
        }

        /// Each page loads its own script, an ES module from `/assets/`, and nothing inline.
        @Test(arguments: [("/", nil), ("/todos", "todos.js"), ("/calculator", "calculator.js")])
        func pagesHaveNoInlineScriptOrHandlers(path: String, script: String?) async throws {
            let server = try TestServer()
            try await server.test { client in
                let html = try await client.get(path).text
                let scripts = html.components(separatedBy: "<script").dropFirst()
                #expect(scripts.count == (script == nil ? 0 : 1))
                for tag in scripts {
                    #expect(tag.hasPrefix(#" type="module" src="/assets/\#(script ?? "")"></script>"#))
                }
                #expect(html.range(of: #" on[a-z]+="#, options: .regularExpression) == nil)
                #expect(!html.contains("style="))
                #expect(!html.contains("javascript:"))
            }
        }
    }

    @Test func theDefaultConfigurationBindsToLoopback() async throws {
        let configuration = WebAppConfiguration()
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.url == "http://127.0.0.1:8080")
        #expect(WebAppConfiguration(host: "::1", port: 9).url == "http://[::1]:9")
    }
}
