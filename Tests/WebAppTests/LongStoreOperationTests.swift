import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Rewind
import ServiceLifecycle
import TestSupport
import Testing
import Todos

@testable import WebApp

@Suite("A long store operation")
struct LongStoreOperationTests {
    // As many waiting requests as the cooperative pool has threads: were they
    // to wait on those threads, nothing else could run.
    static let waitingReaders = max(ProcessInfo.processInfo.activeProcessorCount, 2)

    @Test func leavesTheServerAnsweringAndShuttingDown() async throws {
        let store = BlockingStore()
        try await store.inner.change(.add(try TodoItem(id: UUID(), title: "Buy milk", created: TestServer.now)))
        let webApp = WebApp(
            configuration: WebAppConfiguration(port: 0),
            todos: TodoService(store: store, now: { TestServer.now }, makeID: { UUID() }),
            calculatorConfiguration: try .shipped(),
            assets: try .bundled()
        )
        var logger = Logger(label: "LongStoreOperationTests")
        logger.logLevel = .critical
        let (ports, portReached) = AsyncStream.makeStream(of: Int.self)
        let app = webApp.application(logger: logger) { port in portReached.yield(port) }
        let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let running = Task { try await services.run() }
        var portIterator = ports.makeAsyncIterator()
        let port = try #require(await portIterator.next())
        let client = HTTPClient(port: port, token: webApp.csrfToken)

        // Deleting every item stands in for any long commit: it waits in the store.
        let deletion = Task { try await client.send(.delete, "/api/todos") }
        try await waitUntil("the store to be blocked") { store.isBlocked }
        let readers = (0..<Self.waitingReaders).map { _ in Task { try await client.send(.get, "/api/todos") } }

        let stylesheet = try await client.send(.get, "/assets/app.css")
        #expect(stylesheet.status == .ok)
        let calculator = try await client.send(.get, "/calculator")
        #expect(calculator.status == .ok)

        // Shutdown starts at once: the server takes no new connection while the store still works.
        await services.triggerGracefulShutdown()
        try await waitUntil("the server to stop answering") { await (try? client.send(.get, "/assets/app.css")) == nil }
        #expect(store.isBlocked)

        // The requests in flight are answered, then the server stops.
        store.release()
        #expect(try await deletion.value.status == .ok)
        for reader in readers {
            #expect(try await reader.value.status == .ok)
        }
        try await running.value
        #expect(try await store.inner.state().todos.isEmpty)
    }
}

/// A store whose changes wait until the test releases them, holding the
/// store's thread meanwhile, as a long SQLite commit does.
private actor BlockingStore: AppStore {
    let inner = InMemoryStore(now: { TestServer.now })
    private let executor = StoreExecutor(label: "rewind.test.blocking")
    private nonisolated let gate = DispatchSemaphore(value: 0)
    private nonisolated let blocked = Locked(false)

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Whether a change is waiting to be released.
    nonisolated var isBlocked: Bool { blocked.value }

    /// Lets the waiting change (and every later one) go through.
    nonisolated func release() {
        blocked.withLock { $0 = false }
        gate.signal()
    }

    func read<Result: Sendable>(_ body: @escaping @Sendable (AppState) throws -> Result) async throws -> Result {
        try await inner.read(body)
    }
    func history() async -> HistoryOverview { await inner.history() }

    func change(_ changes: [AppState.Change], named name: String?) async throws -> HistoryStep<AppState.Change> {
        blocked.withLock { $0 = true }
        gate.wait()
        gate.signal()
        return try await inner.change(changes, named: name)
    }

    func undo() async throws -> String? { try await inner.undo() }
    func redo() async throws -> String? { try await inner.redo() }
    func jump(to position: Int) async throws { try await inner.jump(to: position) }
    func historyTree() async -> HistoryTree { await inner.historyTree() }
    func jump(toStep number: Int64) async throws { try await inner.jump(toStep: number) }
    func reset() async throws { try await inner.reset() }
    func destroy() async throws { try await inner.destroy() }
    func updates() async -> AsyncStream<Void> { await inner.updates() }
}

/// Requests over real connections, one connection each, as browsers make them.
private struct HTTPClient: Sendable {
    let port: Int
    let token: String

    func send(_ method: HTTPRequest.Method, _ path: String) async throws -> TestClient.Response {
        let headers: HTTPFields = [HTTPField.Name("X-Rewind-CSRF")!: token]
        return try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            try await client.execute(TestClient.Request(path, method: method, authority: "127.0.0.1", headers: headers))
        }
    }
}
