import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing
import TodoStore
import Todos

@testable import WebApp

/// Team mode: the sign-in page, sessions kept in the store, sign-out, the
/// throttle, and the CSRF token bound to the session.
@Suite("Team mode: sign-in and sessions")
struct SignInTests {
    static let password = "correct horse battery"

    /// A server in team mode with the accounts `names` (password ``password``),
    /// over `sessions` (in memory by default), dated by `clock`.
    static func server(
        _ names: [String] = ["ann"],
        sessions: (any SessionStore)? = nil,
        clock: TestClock = TestClock(),
        lifetime: TimeInterval = 3_600,
        throttle: SignInThrottle = SignInThrottle(),
        configuration: WebAppConfiguration = WebAppConfiguration()
    ) async throws -> TestServer {
        let hasher = try #require(PasswordHasher(cost: 4))
        let sessions = sessions ?? InMemoryAccountStore()
        for name in names where try await sessions.passwordHash(for: AccountName(name)) == nil {
            try await sessions.add(name: AccountName(name), passwordHash: try await hasher.hash(password))
        }
        let teamMode = TeamMode(sessions: sessions, hasher: hasher, sessionLifetime: lifetime, throttle: throttle)
        return try TestServer(configuration: configuration, teamMode: teamMode, now: clock.now)
    }

    /// Posts the sign-in form as a browser does.
    static func signIn(
        _ client: some TestClientProtocol, server: TestServer, name: String, password: String = password,
        next: String = "/todos", cookie: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .origin: "http://localhost"]
        if let cookie { headers[.cookie] = "\(SignedIn.cookieName)=\(cookie)" }
        let form = [("csrf", server.token), ("name", name), ("password", password), ("next", next)]
            .map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&")
        return try await client.executeRequest(uri: "/signin", method: .post, headers: headers, body: ByteBuffer(string: form))
    }

    /// The session id a response's `Set-Cookie` gives, and the whole header.
    static func sessionCookie(_ response: TestResponse) -> (id: String, header: String)? {
        guard let header = response.headers[values: .setCookie].first(where: { $0.hasPrefix(SignedIn.cookieName + "=") })
        else { return nil }
        let value = header.dropFirst(SignedIn.cookieName.count + 1).prefix { $0 != ";" }
        return value.isEmpty ? nil : (String(value), header)
    }

    /// The headers of a request in session `id`.
    static func session(_ id: String, token: String? = nil) -> HTTPFields {
        var headers: HTTPFields = [.cookie: "\(SignedIn.cookieName)=\(id)"]
        if let token { headers[HTTPField.Name("X-Rewind-CSRF")!] = token }
        return headers
    }

    /// The CSRF token of session `id`, as `GET /api/csrf` gives it.
    static func token(_ client: some TestClientProtocol, session id: String) async throws -> String {
        let response = try await client.get("/api/csrf", headers: session(id))
        return try #require(response.object["token"] as? String)
    }

    @Test func aSignInSetsAnHttpOnlyLaxSiteWideCookieWithANewIdEachTimeAndGoesToTheNextPage() async throws {
        let server = try await Self.server()
        try await server.test { client in
            let first = try await Self.signIn(client, server: server, name: "Ann", next: "/todos?filter=active")
            #expect(first.status == .seeOther)
            #expect(first.headers[.location] == "/todos?filter=active")
            let cookie = try #require(Self.sessionCookie(first))
            #expect(cookie.header.contains("HttpOnly"))
            #expect(cookie.header.contains("SameSite=Lax"))
            #expect(cookie.header.contains("Path=/"))
            #expect(!cookie.header.contains("Secure"))
            #expect(SessionID(cookie: cookie.id) != nil)
            // Signing in again, even from the same browser, makes a new id
            // and ends the old one.
            let second = try await Self.signIn(client, server: server, name: "ann", cookie: cookie.id)
            let renewed = try #require(Self.sessionCookie(second))
            #expect(renewed.id != cookie.id)
            #expect(try await client.get("/api/todos", headers: Self.session(cookie.id)).status == .unauthorized)
            #expect(try await client.get("/api/todos", headers: Self.session(renewed.id)).status == .ok)
        }
    }

    @Test func aFormPostedWithOriginNullIsTakenOnlyWhenTheBrowserSaysSameOrigin() async throws {
        // Chromium sends `Origin: null` for a form posted from a page whose
        // `Referrer-Policy` is `no-referrer`, as every page here is.
        let server = try await Self.server()
        try await server.test { client in
            let form = "csrf=\(server.token)&name=ann&password=\(Self.password.replacingOccurrences(of: " ", with: "+"))"
            var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .origin: "null"]
            let unknown = try await client.executeRequest(
                uri: "/signin", method: .post, headers: headers, body: ByteBuffer(string: form))
            #expect(unknown.status == .forbidden)
            headers[HTTPField.Name("Sec-Fetch-Site")!] = "cross-site"
            let crossSite = try await client.executeRequest(
                uri: "/signin", method: .post, headers: headers, body: ByteBuffer(string: form))
            #expect(crossSite.status == .forbidden)
            headers[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
            let sameOrigin = try await client.executeRequest(
                uri: "/signin", method: .post, headers: headers, body: ByteBuffer(string: form))
            #expect(sameOrigin.status == .seeOther)
            #expect(Self.sessionCookie(sameOrigin) != nil)
            // The API is not a form: Origin null stays refused there.
            let api = try await client.send(
                .post, "/api/todos", json: #"{"title": "x"}"#, token: server.token,
                headers: [.origin: "null", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"])
            #expect(api.status == .unauthorized || api.status == .forbidden)
        }
    }

    @Test func theCookieIsSecureBehindAnHTTPSPublicOrigin() async throws {
        let configuration = WebAppConfiguration(publicOrigins: [try PublicOrigin("https://todo.example")])
        let server = try await Self.server(configuration: configuration)
        try await server.test { client in
            let response = try await Self.signIn(client, server: server, name: "ann")
            let cookie = try #require(Self.sessionCookie(response))
            #expect(cookie.header.contains("Secure"))
        }
    }

    @Test func aWrongPasswordAndAnUnknownAccountGetTheSame401AndNoCookie() async throws {
        let server = try await Self.server()
        try await server.test { client in
            for (name, password) in [("ann", "wrong password"), ("nobody", Self.password), ("no such name!", "x")] {
                let response = try await Self.signIn(client, server: server, name: name, password: password)
                #expect(response.status == .unauthorized, "\(name)")
                #expect(response.text.contains("Wrong account name or password."))
                #expect(Self.sessionCookie(response) == nil)
                #expect(response.headers[.location] == nil)
            }
        }
    }

    @Test func afterTheFreeFailuresAnAttemptGets429WithRetryAfterEvenWithTheRightPassword() async throws {
        let server = try await Self.server(throttle: SignInThrottle(freeFailures: 2, firstWait: 30))
        try await server.test { client in
            for _ in 0..<2 {
                let response = try await Self.signIn(client, server: server, name: "ann", password: "wrong password")
                #expect(response.status == .unauthorized)
            }
            let refused = try await Self.signIn(client, server: server, name: "ann")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "30")
            #expect(refused.text.contains("try again in 30 seconds"))
            #expect(Self.sessionCookie(refused) == nil)
        }
    }

    @Test func guessesSentAllAtOnceAreNoMoreThanTheFreeFailuresAndTheRestWait() async throws {
        let server = try await Self.server(throttle: SignInThrottle(freeFailures: 3, firstWait: 30))
        try await server.test { client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for n in 0..<24 {
                    group.addTask { try await Self.signIn(client, server: server, name: "ann", password: "guess number \(n)").status }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count == 3, "\(statuses)")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 21, "\(statuses)")
            #expect(try await Self.signIn(client, server: server, name: "ann").status == .tooManyRequests)
        }
    }

    @Test func aPasswordLongerThanAPasswordMayBeNeverMatchesEvenWhenItBeginsWithTheRightOne() async throws {
        // bcrypt reads 72 bytes: a 72-byte password with more after it would match.
        let password = String(repeating: "Q", count: 71) + "z"
        let sessions = InMemoryAccountStore()
        let server = try await Self.server([], sessions: sessions)
        let hasher = try #require(PasswordHasher(cost: 4))
        try await sessions.add(name: AccountName("long"), passwordHash: try await hasher.hash(password))
        try await server.test { client in
            let longer = try await Self.signIn(client, server: server, name: "long", password: password + "more")
            #expect(longer.status == .unauthorized)
            let right = try await Self.signIn(client, server: server, name: "long", password: password)
            #expect(right.status == .seeOther)
        }
    }

    @Test func withoutASessionPagesGoToSignInAndTheAPIAndEventsGet401() async throws {
        let server = try await Self.server()
        try await server.test { client in
            let page = try await client.get("/todos?filter=active")
            #expect(page.status == .seeOther)
            #expect(page.headers[.location] == "/signin?next=/todos%3Ffilter%3Dactive")
            #expect(try await client.get("/").headers[.location] == "/signin")
            for path in [
                "/api/todos", "/events", "/api/csrf", "/todos/fragment", "/todos/items/0/fragment", "/lists/events", "/lists/fragment",
                "/lists/0/events", "/lists/0/fragment",
            ] {
                let response = try await client.get(path)
                #expect(response.status == .unauthorized, "\(path)")
                #expect(response.errorMessage == "sign in first", "\(path)")
            }
            let added = try await client.send(.post, "/api/todos", json: #"{"title": "x"}"#, token: server.token)
            #expect(added.status == .unauthorized)
            #expect(try await server.store.state().todos.items.isEmpty)
            #expect(try await client.get("/signin").status == .ok)
            #expect(try await client.get("/assets/app.css").status == .ok)
            let form = try await client.get("/signin?next=/calculator")
            #expect(form.text.contains(#"name="next" value="/calculator""#))
            #expect(!form.text.contains("sign-in-notice"))
            // Sent by a page whose session ended: the page says so.
            let again = try await client.get("/signin?ended=1&next=/calculator")
            #expect(again.text.contains(HTML.escape(SignInPage.sessionEndedNotice)))
            #expect(again.text.contains(#"name="next" value="/calculator""#))
        }
    }

    @Test func aSignedInPageSaysWhoAndCarriesTheSessionsTokenAndASignOutButton() async throws {
        let server = try await Self.server(["Ann"])
        try await server.test { client in
            let id = try #require(Self.sessionCookie(try await Self.signIn(client, server: server, name: "ann"))).id
            let token = try await Self.token(client, session: id)
            #expect(token != server.token)
            for path in ["/", "/todos", "/calculator"] {
                let page = try await client.get(path, headers: Self.session(id))
                #expect(page.status == .ok)
                #expect(page.text.contains("Signed in as <strong>Ann</strong>"), "\(path)")
                // The team's list says it is everyone's, where everyone's Undo takes back anyone's step.
                #expect(page.text.contains("list: everyone signed in here shares it, its history and its Undo") == (path == "/todos"), "\(path)")
                #expect(page.text.contains(#"<meta name="rewind-csrf" content="\#(token)">"#), "\(path)")
                #expect(page.text.contains(#"action="/signout""#), "\(path)")
            }
            let added = try await client.send(.post, "/api/todos", json: #"{"title": "Buy milk"}"#, token: token,
                                              headers: Self.session(id))
            #expect(added.status == .created || added.status == .ok)
            #expect(try await server.store.state().todos.items.map(\.title) == ["Buy milk"])
        }
    }

    @Test func anExpiredSessionGoesBackToSignIn() async throws {
        let clock = TestClock()
        let server = try await Self.server(clock: clock, lifetime: 600)
        try await server.test { client in
            let id = try #require(Self.sessionCookie(try await Self.signIn(client, server: server, name: "ann"))).id
            #expect(try await client.get("/api/todos", headers: Self.session(id)).status == .ok)
            clock.advance(by: 600)
            #expect(try await client.get("/api/todos", headers: Self.session(id)).status == .unauthorized)
            #expect(try await client.get("/todos", headers: Self.session(id)).headers[.location] == "/signin?next=/todos")
        }
    }

    @Test func aSignedOutSessionIsRefusedAndSignOutNeedsTheSessionsToken() async throws {
        let server = try await Self.server()
        try await server.test { client in
            let id = try #require(Self.sessionCookie(try await Self.signIn(client, server: server, name: "ann"))).id
            let token = try await Self.token(client, session: id)
            var headers = Self.session(id)
            headers[.contentType] = "application/x-www-form-urlencoded"
            let wrong = try await client.executeRequest(
                uri: "/signout", method: .post, headers: headers, body: ByteBuffer(string: "csrf=\(server.token)"))
            #expect(wrong.status == .forbidden)
            #expect(try await client.get("/api/todos", headers: Self.session(id)).status == .ok)
            let out = try await client.executeRequest(
                uri: "/signout", method: .post, headers: headers, body: ByteBuffer(string: "csrf=\(token)"))
            #expect(out.status == .seeOther)
            #expect(out.headers[.location] == "/signin?out=1")
            // Where it leads says so.
            #expect(try await client.get("/signin?out=1").text.contains(SignInPage.signedOutNotice))
            #expect(!(try await client.get("/signin").text.contains(SignInPage.signedOutNotice)))
            #expect(out.headers[values: .setCookie].contains { $0.hasPrefix("\(SignedIn.cookieName)=;") && $0.contains("Max-Age=0") })
            #expect(try await client.get("/api/todos", headers: Self.session(id)).status == .unauthorized)
        }
    }

    @Test func aTokenFromAnotherAccountsSessionIsRefusedAndChangesNothing() async throws {
        let server = try await Self.server(["ann", "bob"])
        try await server.test { client in
            let ann = try #require(Self.sessionCookie(try await Self.signIn(client, server: server, name: "ann"))).id
            let bob = try #require(Self.sessionCookie(try await Self.signIn(client, server: server, name: "bob"))).id
            let bobsToken = try await Self.token(client, session: bob)
            for token in [bobsToken, server.token] {
                let response = try await client.send(.post, "/api/todos", json: #"{"title": "Stolen"}"#, token: token,
                                                     headers: Self.session(ann))
                #expect(response.status == .forbidden)
            }
            #expect(try await server.store.state().todos.items.isEmpty)
        }
    }

    @Test func aSessionBegunByOneInstanceIsAcceptedByAnotherOverTheSameSQLiteFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-signin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("rewind.sqlite")
        let first = try await Self.server(sessions: try await SQLiteAccountStore.open(url: file))
        let second = try await Self.server(sessions: try await SQLiteAccountStore.open(url: file))
        let id = try await first.test { client in
            try #require(Self.sessionCookie(try await Self.signIn(client, server: first, name: "ann"))).id
        }
        try await second.test { client in
            let page = try await client.get("/todos", headers: Self.session(id))
            #expect(page.status == .ok)
            #expect(page.text.contains("Signed in as <strong>ann</strong>"))
        }
        // And after a restart: a store opened anew on the file.
        let restarted = try await Self.server(sessions: try await SQLiteAccountStore.open(url: file))
        let status = try await restarted.test { client in try await client.get("/api/todos", headers: Self.session(id)).status }
        #expect(status == .ok)
    }

    @Test func removingTheAccountOrChangingItsPasswordEndsItsSessionsWithinTheRecheckInterval() async throws {
        // As `rewind users rm` and `passwd` do, from another process.
        let clock = TestClock()
        let sessions = InMemoryAccountStore()
        let server = try await Self.server(["ann", "bob"], sessions: sessions, clock: clock)
        try await server.test { client in
            let ann = try #require(Self.sessionCookie(try await Self.signIn(client, server: server, name: "ann"))).id
            let bob = try #require(Self.sessionCookie(try await Self.signIn(client, server: server, name: "bob"))).id
            #expect(try await client.get("/api/todos", headers: Self.session(ann)).status == .ok)
            try await sessions.setPasswordHash(name: AccountName("ann"), "new hash")
            try await sessions.remove(name: AccountName("bob"))
            // bob's session was never used here, so nothing trusts it.
            #expect(try await client.get("/api/todos", headers: Self.session(bob)).status == .unauthorized)
            clock.advance(by: TeamMode.standardSessionRecheck)
            #expect(try await client.get("/api/todos", headers: Self.session(ann)).status == .unauthorized)
            #expect(try await client.get("/todos", headers: Self.session(ann)).status == .seeOther)
        }
    }

    @Test func aSessionFoundIsTrustedForTheRecheckIntervalThenAskedForAgain() async throws {
        let clock = TestClock()
        let sessions = CountingSessions(InMemoryAccountStore())
        let server = try await Self.server(sessions: sessions, clock: clock)
        try await server.test { client in
            let id = try #require(Self.sessionCookie(try await Self.signIn(client, server: server, name: "ann"))).id
            for _ in 0..<5 { #expect(try await client.get("/api/todos", headers: Self.session(id)).status == .ok) }
            #expect(sessions.reads == 1)
            // Ended elsewhere (another instance signed it out): trusted here
            // until the interval is over, then refused.
            try await sessions.endSession(try #require(SessionID(cookie: id)))
            clock.advance(by: TeamMode.standardSessionRecheck / 2)
            #expect(try await client.get("/api/todos", headers: Self.session(id)).status == .ok)
            clock.advance(by: TeamMode.standardSessionRecheck / 2)
            #expect(try await client.get("/api/todos", headers: Self.session(id)).status == .unauthorized)
            #expect(sessions.reads == 2)
            // A cookie that was refused is asked for every time.
            #expect(try await client.get("/api/todos", headers: Self.session(id)).status == .unauthorized)
            #expect(sessions.reads == 3)
        }
    }

    @Test func aSessionIsNeverTrustedPastItsEnd() async throws {
        let clock = TestClock()
        let server = try await Self.server(clock: clock, lifetime: 10)
        try await server.test { client in
            let id = try #require(Self.sessionCookie(try await Self.signIn(client, server: server, name: "ann"))).id
            clock.advance(by: 10 - TeamMode.standardSessionRecheck / 2)
            #expect(try await client.get("/api/todos", headers: Self.session(id)).status == .ok)
            clock.advance(by: TeamMode.standardSessionRecheck / 2)
            #expect(try await client.get("/api/todos", headers: Self.session(id)).status == .unauthorized)
        }
    }

    @Test func withARecheckOfZeroEveryRequestAsksTheStore() async throws {
        let hasher = try #require(PasswordHasher(cost: 4))
        let sessions = CountingSessions(InMemoryAccountStore())
        _ = try await sessions.add(name: AccountName("ann"), passwordHash: try await hasher.hash(Self.password))
        let server = try TestServer(teamMode: TeamMode(sessions: sessions, hasher: hasher, sessionRecheck: 0))
        try await server.test { client in
            let id = try #require(Self.sessionCookie(try await Self.signIn(client, server: server, name: "ann"))).id
            #expect(try await client.get("/api/todos", headers: Self.session(id)).status == .ok)
            try await sessions.endSession(try #require(SessionID(cookie: id)))
            #expect(try await client.get("/api/todos", headers: Self.session(id)).status == .unauthorized)
            #expect(sessions.reads == 2)
        }
    }

    @Test func theToDoEventStreamEndsAtTheNextHeartbeatAfterSignOut() async throws {
        let server = try await Self.server(configuration: WebAppConfiguration(heartbeatInterval: 0.05))
        try await server.test { client in
            let id = try #require(Self.sessionCookie(try await Self.signIn(client, server: server, name: "ann"))).id
            let token = try await Self.token(client, session: id)
            async let stream = client.get("/events", headers: Self.session(id))
            try await waitUntil("the stream is open") { await server.webApp.broadcaster.subscriberCount == 1 }
            // Heartbeats go on while the session lasts.
            let before = await server.webApp.broadcaster.heartbeatCount
            try await waitUntil("two heartbeats") { await server.webApp.broadcaster.heartbeatCount >= before + 2 }
            #expect(await server.webApp.broadcaster.subscriberCount == 1)
            var headers = Self.session(id)
            headers[.contentType] = "application/x-www-form-urlencoded"
            headers[.origin] = "http://localhost"
            let out = try await client.executeRequest(
                uri: "/signout", method: .post, headers: headers, body: ByteBuffer(string: "csrf=\(token)"))
            #expect(out.status == .seeOther)
            try await waitUntil("no stream is open") { await server.webApp.broadcaster.subscriberCount == 0 }
            #expect(try await stream.status == .ok)
        }
    }

    @Test func inLocalModeNobodyIsAskedToSignIn() async throws {
        let server = try TestServer()
        try await server.test { client in
            let page = try await client.get("/todos")
            #expect(page.status == .ok)
            #expect(!page.text.contains("Signed in as"))
            #expect(!page.text.contains("/signout"))
            #expect(try await client.get("/api/todos").status == .ok)
            #expect(try await client.get("/signin").status == .notFound)
            let added = try await client.send(.post, "/api/todos", json: #"{"title": "Buy milk"}"#, token: server.token)
            #expect(added.status == .created || added.status == .ok)
        }
    }

    @Test(arguments: [
        ("/todos?filter=active", "/todos?filter=active"), ("//evil.example/", "/"), ("/\\evil.example", "/"),
        ("https://evil.example/", "/"), ("", "/"), ("/signin", "/"), ("/todos\r\nSet-Cookie: x", "/"),
    ])
    func aSignInGoesOnlyToAPathOfThisSite(_ next: String, _ expected: String) {
        #expect(SignInForm.safeNext(next) == expected)
    }
}

/// A session store that counts how often a session is looked up.
final class CountingSessions: SessionStore {
    private let store: any SessionStore
    private let count = Locked(0)

    init(_ store: any SessionStore) {
        self.store = store
    }

    /// How many times ``session(_:at:)`` was asked.
    var reads: Int { count.value }

    func session(_ id: SessionID, at now: Date) async throws -> Session? {
        count.withLock { $0 += 1 }
        return try await store.session(id, at: now)
    }

    func beginSession(_ id: SessionID, for account: AccountName, at now: Date, lifetime: TimeInterval) async throws -> Session {
        try await store.beginSession(id, for: account, at: now, lifetime: lifetime)
    }
    func endSession(_ id: SessionID) async throws { try await store.endSession(id) }
    func endSessions(of account: AccountName) async throws -> Int { try await store.endSessions(of: account) }
    func add(name: AccountName, passwordHash: String) async throws -> Account {
        try await store.add(name: name, passwordHash: passwordHash)
    }
    func list() async throws -> [Account] { try await store.list() }
    func remove(name: AccountName) async throws -> Account { try await store.remove(name: name) }
    func passwordHash(for name: AccountName) async throws -> String? { try await store.passwordHash(for: name) }
    func setPasswordHash(name: AccountName, _ hash: String) async throws { try await store.setPasswordHash(name: name, hash) }
}
