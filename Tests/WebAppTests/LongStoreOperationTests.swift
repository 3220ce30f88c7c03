import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Rewind
import ServiceLifecycle
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
        try store.inner.change(.add(try TodoItem(id: UUID(), title: "Buy milk", created: TestServer.now)))
        let webApp = WebApp(
            configuration: WebAppConfiguration(port: 0),
            todos: TodoService(store: store, now: { TestServer.now }, makeID: { UUID() }),
            calculatorConfiguration: .builtInDefault
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
        try await eventually { store.isBlocked }
        let readers = (0..<Self.waitingReaders).map { _ in Task { try await client.send(.get, "/api/todos") } }

        let stylesheet = try await client.send(.get, "/assets/app.css")
        #expect(stylesheet.status == .ok)
        let calculator = try await client.send(.get, "/calculator")
        #expect(calculator.status == .ok)

        // Shutdown starts at once: the server takes no new connection while the store still works.
        await services.triggerGracefulShutdown()
        try await eventually { await (try? client.send(.get, "/assets/app.css")) == nil }
        #expect(store.isBlocked)

        // The requests in flight finish, then the server stops.
        store.release()
        #expect(try await deletion.value.status == .ok)
        for reader in readers {
            #expect(try await reader.value.status == .ok)
        }
        try await running.value
        #expect(store.inner.state().todos.isEmpty)
    }
}

/// A store whose changes wait until the test releases them, holding the
/// store's lock meanwhile, as a long SQLite commit does.
private final class BlockingStore: AppStore, @unchecked Sendable {
    let inner = InMemoryStore(now: { TestServer.now })
    private let lock = NSLock()
    private let gate = DispatchSemaphore(value: 0)
    private let flag = NSLock()
    private var blocked = false

    /// Whether a change is waiting to be released.
    var isBlocked: Bool { flag.withLock { blocked } }

    /// Lets the waiting change (and every later one) go through.
    func release() {
        flag.withLock { blocked = false }
        gate.signal()
    }

    private func held<Result>(_ body: () throws -> Result) rethrows -> Result {
        try lock.withLock(body)
    }

    func state() -> AppState { held { inner.state() } }
    func read<Result>(_ body: (AppState) throws -> Result) rethrows -> Result { try held { try inner.read(body) } }
    func history() -> HistoryOverview { held { inner.history() } }

    func change(_ changes: [AppState.Change], named name: String?) throws -> HistoryStep<AppState.Change> {
        try held {
            flag.withLock { blocked = true }
            gate.wait()
            gate.signal()
            return try inner.change(changes, named: name)
        }
    }

    func undo() throws -> String? { try held { try inner.undo() } }
    func redo() throws -> String? { try held { try inner.redo() } }
    func jump(to position: Int) throws { try held { try inner.jump(to: position) } }
    func reset() throws { try held { try inner.reset() } }
    func destroy() throws { try held { try inner.destroy() } }

    func updated(_ callback: @escaping @Sendable () -> Void) -> StoreSubscription { inner.updated(callback) }
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
