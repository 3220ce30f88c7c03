import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Rewind
import TestSupport
import Testing
import TodoStore
import Todos

@testable import WebApp

/// A store that fails (a database that cannot be reached, a disk that is
/// full) is a 503, its details (which file, which database, what went
/// wrong) in the server's log; in team mode the client is only told to try
/// again, in local mode (the person at the page runs the server) it is told
/// what failed too.
@Suite("A store that fails")
struct StoreFailureTests {
    /// A store over an in-memory one that fails every call once ``fail()`` was called.
    actor FailingStore: AppStore {
        let store = InMemoryStore(now: { TestServer.now })
        var failing: StoreError?
        static let detail = StoreError.io(path: "postgres://rewind@db.internal:5432/rewind", detail: "the connection was closed")

        func fail(with error: StoreError = detail) { failing = error }

        private func check() throws {
            if let failing { throw failing }
        }

        func read<Result: Sendable>(_ body: @escaping @Sendable (AppState) throws -> Result) async throws -> Result {
            try check()
            return try await store.read(body)
        }
        func items(withIDs ids: [UUID]) async throws -> [TodoItem] { try check(); return try await store.items(withIDs: ids) }
        func history() async throws -> HistoryOverview { try check(); return await store.history() }
        func change(_ changes: [AppState.Change], named name: String?) async throws -> HistoryStep<AppState.Change> {
            try check()
            return try await store.change(changes, named: name)
        }
        func undo() async throws -> String? { try check(); return try await store.undo() }
        func redo() async throws -> String? { try check(); return try await store.redo() }
        func jump(to position: Int) async throws { try check(); try await store.jump(to: position) }
        func historyTree() async throws -> HistoryTree { try check(); return await store.historyTree() }
        func jump(toStep number: Int64) async throws { try check(); try await store.jump(toStep: number) }
        func reset() async throws { try check(); try await store.reset() }
        func updates() async -> AsyncStream<Void> { await store.updates() }
        func destroy() async throws { try await store.destroy() }

        /// How many health checks asked the store.
        private(set) var checksAsked = 0
        private var holdsChecks = false
        private var heldChecks: [CheckedContinuation<Void, Never>] = []

        /// Makes health checks wait, unanswered, until ``releaseChecks()``.
        func holdChecks() { holdsChecks = true }

        /// Lets the held health checks answer, and the next ones at once.
        func releaseChecks() {
            holdsChecks = false
            for check in heldChecks { check.resume() }
            heldChecks = []
        }

        func checkReachable() async throws {
            checksAsked += 1
            if holdsChecks { await withCheckedContinuation { heldChecks.append($0) } }
            try check()
        }
    }

    /// Three requests after the store failed: an add, a read and an undo.
    static func requests(_ client: some TestClientProtocol, token: String, headers: HTTPFields = [:]) async throws -> [TestResponse] {
        [
            try await client.send(.post, "/api/todos", json: #"{"title": "Eggs"}"#, token: token, headers: headers),
            try await client.send(.get, "/api/todos", token: nil, headers: headers),
            try await client.send(.post, "/api/history/undo", token: token, headers: headers),
        ]
    }

    /// A logger whose messages land in `lines`.
    static func logger(_ lines: Locked<[String]>) -> Logger {
        Logger(label: "StoreFailureTests") { _ in EventLogHandler { event in lines.withLock { $0.append(event.message.description) } } }
    }

    /// Runs `body` on a team-mode server over `store`, logging to `logged`,
    /// with Ann signed in: `body` gets the client, the CSRF token and the
    /// session's headers.
    static func signedIn(
        over store: FailingStore, logging logged: Locked<[String]>,
        _ body: @Sendable (any TestClientProtocol, String, HTTPFields) async throws -> Void
    ) async throws {
        let hasher = try #require(PasswordHasher(cost: 4))
        let accounts = InMemoryAccountStore()
        try await accounts.add(name: AccountName("ann"), passwordHash: try await hasher.hash(SignInTests.password))
        let server = try TestServer(todos: store, teamMode: TeamMode(sessions: accounts, hasher: hasher))
        try await server.test(logger: Self.logger(logged)) { client in
            let signedIn = try await SignInTests.signIn(client, server: server, name: "ann")
            let session = try #require(SignInTests.sessionCookie(signedIn)).id
            let token = try await SignInTests.token(client, session: session)
            try await body(client, token, SignInTests.session(session))
        }
    }

    @Test func inTeamModeTheClientIsToldToTryAgainAndOnlyTheLogSaysWhatFailed() async throws {
        let store = FailingStore()
        let logged = Locked<[String]>([])
        try await Self.signedIn(over: store, logging: logged) { client, token, session in
            await store.fail()
            for answer in try await Self.requests(client, token: token, headers: session) {
                #expect(answer.status == .serviceUnavailable)
                #expect(answer.errorMessage == "the data cannot be read or saved right now; try again in a moment")
                #expect(!answer.text.contains("db.internal"), "\(answer.text)")
            }
        }
        let lines = logged.withLock { $0 }
        #expect(lines.filter { $0.contains("db.internal") && $0.contains("the connection was closed") }.count >= 3, "\(lines)")
    }

    /// A change whose connection failed as it was being committed, and
    /// whose fate could not be learnt: the client is told to look before
    /// making it again, not to try again.
    @Test func aChangeWhoseOutcomeIsNotKnownSaysSoAndNotToTryAgain() async throws {
        let store = FailingStore()
        let logged = Locked<[String]>([])
        try await Self.signedIn(over: store, logging: logged) { client, token, session in
            await store.fail(with: .outcomeUnknown(path: "postgres://rewind@db.internal:5432/rewind", detail: "the server stopped answering"))
            let answer = try await client.send(.post, "/api/todos", json: #"{"title": "Eggs"}"#, token: token, headers: session)
            #expect(answer.status == .serviceUnavailable)
            #expect(
                answer.errorMessage
                    == "whether the change was saved is not known: the connection to the database failed as it was being saved; reload to see before making it again")
        }
        #expect(logged.withLock { $0 }.contains { $0.contains("postgres://rewind@db.internal:5432/rewind: the server stopped answering.") })
    }

    @Test func inLocalModeThePageSaysWhatFailedToo() async throws {
        let store = FailingStore()
        let server = try TestServer(todos: store)
        let logged = Locked<[String]>([])
        try await server.test(logger: Self.logger(logged)) { client in
            await store.fail()
            for answer in try await Self.requests(client, token: server.token) {
                #expect(answer.status == .serviceUnavailable)
                #expect(answer.errorMessage?.contains("postgres://rewind@db.internal:5432/rewind: the connection was closed") == true)
            }
        }
        #expect(logged.withLock { $0 }.filter { $0.contains("the connection was closed") }.count >= 3)
    }

    /// A browser that opens a page while the store fails gets a page that
    /// says so and offers to try again, 503 still; in team mode without
    /// the details, which go to the log.
    @Test(arguments: [false, true])
    func aBrowserGetsAPageThatOffersToTryAgain(teamMode: Bool) async throws {
        let store = FailingStore()
        let hasher = try #require(PasswordHasher(cost: 4))
        let accounts = InMemoryAccountStore()
        try await accounts.add(name: AccountName("ann"), passwordHash: try await hasher.hash(SignInTests.password))
        let server = try TestServer(todos: store, teamMode: teamMode ? TeamMode(sessions: accounts, hasher: hasher) : nil)
        let logged = Locked<[String]>([])
        try await server.test(logger: Self.logger(logged)) { client in
            var headers = HTTPTests.NotFoundPages.navigation
            if teamMode {
                let signedIn = try await SignInTests.signIn(client, server: server, name: "ann")
                let session = try #require(SignInTests.sessionCookie(signedIn)).id
                for field in SignInTests.session(session) { headers.append(field) }
            }
            await store.fail()
            let page = try await client.get("/todos?filter=active", headers: headers)
            #expect(page.status == .serviceUnavailable)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains("<title>Not available right now · Rewind</title>"))
            #expect(page.text.contains(#"<a href="/todos?filter=active">Try again</a>"#))
            #expect(page.text.contains("The data cannot be read or saved right now; try again in a moment.") == teamMode)
            #expect(page.text.contains("db.internal") == !teamMode)
        }
        #expect(logged.withLock { $0 }.contains { $0.contains("db.internal") && $0.contains("the connection was closed") })
    }
}
