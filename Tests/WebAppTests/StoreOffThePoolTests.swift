import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Rewind
import Testing
import Todos

@testable import WebApp

/// A store whose changes wait until the test lets them go, as a long
/// commit or the undo of a huge deletion does.
private final class SlowStore: AppStore, @unchecked Sendable {
    let base = InMemoryStore(now: { TestServer.now })
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)

    func state() -> AppState { base.state() }
    func read<Result>(_ body: (AppState) throws -> Result) rethrows -> Result { try base.read(body) }
    func change(_ changes: [AppState.Change], named name: String?) throws -> HistoryStep<AppState.Change> {
        entered.signal()
        release.wait()
        return try base.change(changes, named: name)
    }
    func undo() throws -> String? { try base.undo() }
    func redo() throws -> String? { try base.redo() }
    func jump(to position: Int) throws { try base.jump(to: position) }
    func history() -> HistoryOverview { base.history() }
    func reset() throws { try base.reset() }
    func updated(_ callback: @escaping @Sendable () -> Void) -> StoreSubscription { base.updated(callback) }
    func destroy() throws { try base.destroy() }
}

/// While the store works, the server answers everything that does not need
/// it: store calls run on a thread of their own, not on the few threads of
/// Swift's cooperative pool that every request shares. (Requests that each
/// held a pool thread through a long store call once froze the server.)
@Suite("Store work off the request threads")
struct StoreOffThePoolTests {
    @Test(.timeLimit(.minutes(1)))
    func assetsAndPagesAreAnsweredWhileChangesWait() async throws {
        let store = SlowStore()
        let todos = TodoService(store: store, now: { TestServer.now }, makeID: { UUID() })
        let webApp = WebApp(configuration: WebAppConfiguration(), todos: todos, calculatorConfiguration: .builtInDefault)
        var logger = Logger(label: "StoreOffThePoolTests")
        logger.logLevel = .critical
        let token = webApp.csrfToken
        // More waiting changes than the machine has cores (and so pool threads).
        let waiting = max(4, ProcessInfo.processInfo.activeProcessorCount * 2)
        try await webApp.application(logger: logger).test(.router) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<waiting {
                    group.addTask {
                        let response = try await client.send(
                            .post, "/api/todos", json: #"{"title": "Item \#(index)"}"#, token: token
                        )
                        #expect(response.status == .created)
                    }
                }
                await withCheckedContinuation { continuation in
                    DispatchQueue.global().async {
                        store.entered.wait()
                        continuation.resume()
                    }
                }
                #expect(try await client.get("/assets/app.css").status == .ok)
                #expect(try await client.get("/").status == .ok)
                #expect(try await client.get("/calculator").status == .ok)
                for _ in 0..<waiting { store.release.signal() }
                try await group.waitForAll()
            }
        }
        #expect(store.state().todos.count == waiting)
    }
}
