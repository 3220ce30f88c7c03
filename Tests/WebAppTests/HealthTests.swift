import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import TestSupport
import Testing
import TodoStore
import Todos

@testable import WebApp

/// `GET /healthz`: what a load balancer or a supervisor asks. 200 when the
/// store answers, 503 when it fails or does not answer in time; open
/// without a sign-in and whatever `Host` it names; requests at the same
/// time share one question to the store.
@Suite("The health check")
struct HealthTests {
    typealias FailingStore = StoreFailureTests.FailingStore

    @Test func aStoreThatAnswersIsOKWithNothingButTheStatus() async throws {
        let server = try TestServer()
        try await server.test { client in
            let answer = try await client.get("/healthz")
            #expect(answer.status == .ok)
            #expect(answer.text == #"{"status":"ok"}"#)
            #expect(answer.headers[.contentType] == "application/json; charset=utf-8")
            #expect(answer.headers[.cacheControl] == "no-store")
            #expect(answer.headers[.setCookie] == nil)
            let head = try await client.executeRequest(uri: "/healthz", method: .head, headers: [:], body: nil)
            #expect(head.status == .ok)
            let post = try await client.send(.post, "/healthz", token: server.token)
            #expect(post.status == .methodNotAllowed)
        }
    }

    /// A load balancer asks by the instance's address, which the allowed
    /// hosts need not list; every other path still refuses it.
    @Test func anyHostIsAnsweredButOnlyHere() async throws {
        let server = try TestServer()
        try await server.test { client in
            let headers: HTTPFields = [SecurityTests.host: "10.0.0.5:8091"]
            let health = try await client.get("/healthz", headers: headers)
            #expect(health.status == .ok)
            #expect(try await client.get("/api/todos", headers: headers).status == .misdirectedRequest)
            #expect(try await client.get("/openapi.json", headers: headers).status == .misdirectedRequest)
            #expect(try await client.get("/healthz/", headers: headers).status == .misdirectedRequest)
        }
    }

    @Test func inTeamModeItIsOpenWithoutASession() async throws {
        let hasher = try #require(PasswordHasher(cost: 4))
        let server = try TestServer(teamMode: TeamMode(sessions: InMemoryAccountStore(), hasher: hasher))
        try await server.test { client in
            let health = try await client.get("/healthz")
            #expect(health.status == .ok)
            #expect(try await client.get("/api/todos").status == .unauthorized)
        }
    }

    /// A store that fails: 503; in local mode the answer says what failed,
    /// in team mode only the log does.
    @Test(arguments: [false, true])
    func aStoreThatFailsIsUnavailable(teamMode: Bool) async throws {
        let store = FailingStore()
        let hasher = try #require(PasswordHasher(cost: 4))
        let server = try TestServer(
            todos: store, teamMode: teamMode ? TeamMode(sessions: InMemoryAccountStore(), hasher: hasher) : nil)
        let logged = Locked<[String]>([])
        try await server.test(logger: StoreFailureTests.logger(logged)) { client in
            #expect(try await client.get("/healthz").status == .ok)
            await store.fail()
            let answer = try await client.get("/healthz")
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.headers[.cacheControl] == "no-store")
            #expect(answer.errorMessage?.contains("db.internal") == !teamMode, "\(answer.text)")
            if teamMode { #expect(answer.errorMessage == APIError.storeFailedMessage) }
        }
        #expect(logged.withLock { $0 }.contains { $0.contains("/healthz") && $0.contains("the connection was closed") })
    }

    /// A store that does not answer: 503 at the limit, saying so; the
    /// checks that come while it stays unanswered are answered so at once,
    /// without asking again; once the store answers, the next check is 200.
    @Test(.timeLimit(.minutes(1)))
    func aStoreThatDoesNotAnswerIsUnavailableAtTheLimitAndAskedOnce() async throws {
        let store = FailingStore()
        let server = try TestServer(configuration: WebAppConfiguration(healthCheckTimeout: 1), todos: store)
        try await server.test { client in
            await store.holdChecks()
            let started = ContinuousClock.now
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<4 { group.addTask { try await client.get("/healthz") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let waited = ContinuousClock.now - started
            #expect(waited >= .seconds(1) && waited < .seconds(10), "\(waited)")
            for answer in answers {
                #expect(answer.status == .serviceUnavailable)
                #expect(answer.errorMessage?.contains("the store did not answer within 1 second") == true, "\(answer.text)")
            }
            // Still unanswered: a later check is answered without waiting for a limit of its own, asking nothing.
            let later = ContinuousClock.now
            #expect(try await client.get("/healthz").status == .serviceUnavailable)
            #expect(ContinuousClock.now - later < .seconds(1))
            #expect(await store.checksAsked == 1)
            await store.releaseChecks()
            try await waitUntil("the held question answered") { try await client.get("/healthz").status == .ok }
            #expect(try await client.get("/healthz").status == .ok)
            #expect(await store.checksAsked >= 2, "asked anew once the held question answered")
        }
    }

    /// Checks that come while the store is asked share its answer.
    @Test(.timeLimit(.minutes(1)))
    func checksAtTheSameTimeAskTheStoreOnce() async throws {
        let store = FailingStore()
        let server = try TestServer(todos: store)
        try await server.test { client in
            await store.holdChecks()
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<6 { group.addTask { try await client.get("/healthz").status } }
                try await waitUntil("the first check asked the store") { await store.checksAsked == 1 }
                try await Task.sleep(for: .milliseconds(200))
                await store.releaseChecks()
                for try await status in group { #expect(status == .ok) }
            }
            #expect(await store.checksAsked == 1)
        }
    }
}
