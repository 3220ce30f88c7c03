import Foundation
import Testing
import TodoStore
import Todos

@testable import WebApp

/// Behind a trusted proxy the sign-in throttle counts the client's address
/// as the proxy names it in `X-Forwarded-For`; from any other peer the
/// header is ignored.
@Suite("The client address of a sign-in")
struct ClientAddressTests {
    @Test func fromAPeerThatIsNotATrustedProxyTheHeaderIsIgnored() {
        #expect(ClientAddress.of(peer: "198.51.100.4", forwardedFor: ["203.0.113.7"], trusting: []) == "198.51.100.4")
        #expect(
            ClientAddress.of(peer: "198.51.100.4", forwardedFor: ["203.0.113.7"], trusting: ["127.0.0.1"]) == "198.51.100.4")
        #expect(ClientAddress.of(peer: nil, forwardedFor: ["203.0.113.7"], trusting: ["127.0.0.1"]) == "unknown")
    }

    @Test func fromATrustedProxyTheRightmostAddressThatIsNotOneIsTheClient() {
        let proxies: Set<String> = ["127.0.0.1", "10.0.0.2"]
        // What the client wrote itself ("1.2.3.4") is on the left: not believed.
        #expect(ClientAddress.of(peer: "127.0.0.1", forwardedFor: ["1.2.3.4, 203.0.113.7"], trusting: proxies) == "203.0.113.7")
        // Two proxies in a row, and the header split over two fields.
        #expect(
            ClientAddress.of(peer: "127.0.0.1", forwardedFor: ["203.0.113.7", " 10.0.0.2 "], trusting: proxies) == "203.0.113.7")
        // No header: the proxy itself.
        #expect(ClientAddress.of(peer: "127.0.0.1", forwardedFor: [], trusting: proxies) == "127.0.0.1")
        #expect(ClientAddress.of(peer: "127.0.0.1", forwardedFor: [" , "], trusting: proxies) == "127.0.0.1")
        // Only proxies named: the leftmost.
        #expect(ClientAddress.of(peer: "127.0.0.1", forwardedFor: ["10.0.0.2, 127.0.0.1"], trusting: proxies) == "10.0.0.2")
    }

    /// Fails `count` sign-ins of unknown accounts, then signs ann in, each
    /// over a real connection with `X-Forwarded-For: client`.
    static func signInAfterFailures(_ count: Int, from client: String, port: Int, token: String) async throws -> String {
        for attempt in 0..<count {
            _ = try await post(form: "name=nobody\(attempt)&password=wrong+password+here", from: client, port: port, token: token)
        }
        return try await post(form: "name=ann&password=correct+horse+battery", from: client, port: port, token: token)
    }

    static func post(form: String, from client: String, port: Int, token: String) async throws -> String {
        let body = "csrf=\(token)&\(form)&next=%2Ftodos"
        let connection = try await RawConnection.open(
            port: port,
            sending: "POST /signin HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nX-Forwarded-For: \(client)\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        defer { connection.close() }
        try await connection.waitUntilClosed()
        return connection.text.components(separatedBy: "\r\n").first ?? ""
    }

    @Test(arguments: [true, false])
    func behindATrustedProxyOneClientsFailuresDoNotSlowAnothersSignIn(trusted: Bool) async throws {
        let hasher = try #require(PasswordHasher(cost: 4))
        let sessions = InMemoryAccountStore()
        _ = try await sessions.add(name: AccountName("ann"), passwordHash: try await hasher.hash(SignInTests.password))
        let server = try TestServer(
            configuration: WebAppConfiguration(trustedProxies: trusted ? ["127.0.0.1"] : []),
            teamMode: TeamMode(sessions: sessions, hasher: hasher, throttle: SignInThrottle(freeFailures: 2, firstWait: 60)))
        try await server.testLive { port in
            let guesser = try await Self.signInAfterFailures(3, from: "203.0.113.7", port: port, token: server.token)
            #expect(guesser == "HTTP/1.1 429 Too Many Requests")
            let other = try await Self.signInAfterFailures(0, from: "198.51.100.4", port: port, token: server.token)
            #expect(other == (trusted ? "HTTP/1.1 303 See Other" : "HTTP/1.1 429 Too Many Requests"))
        }
    }
}
