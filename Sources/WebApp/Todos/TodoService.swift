import Foundation
import Rewind
import Todos

/// The web app's door into the to-do domain: it sends the domain's messages
/// through the app domain (the same one the CLI uses), collects the
/// acknowledgements, and turns a failure into an ``APIError`` that names it.
/// It adds no domain logic of its own.
struct TodoService: Sendable {
    /// The store the app domain works on, injected by the executable.
    let store: any AppStore
    /// The clock that dates items and tells what is overdue.
    let now: @Sendable () -> Date
    /// Where new items get their ids.
    let makeID: @Sendable () -> UUID
    /// The thread the store works on. A store call may wait for the disk or
    /// restore thousands of items; on this queue it holds none of the few
    /// threads that Swift's cooperative pool has for every request, so the
    /// server goes on answering (and can shut down) meanwhile.
    let queue = DispatchQueue(label: "rewind.todos.store")

    /// Runs `body`, which calls the store, on the store's own thread and
    /// returns what it returns. Calls run one at a time, in order.
    func run<Value: Sendable>(_ body: @escaping @Sendable (TodoService) throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body(self) }) }
        }
    }

    /// Sends `message` into the app domain and returns the acknowledgements it
    /// produced, in order. The features answer synchronously.
    func send(_ message: Message) -> [Message] {
        let collector = AcknowledgementCollector()
        let app = createAppDomain(
            store: store, receivers: [], rootHandler: { collector.append($0) }, now: now, makeID: makeID
        )
        app(message)
        return collector.messages
    }

    /// Sends a to-do command and returns its acknowledgement.
    ///
    /// - Throws: ``APIError`` for a `.failed` acknowledgement (404 for an
    ///   unknown id, 422 for an invalid value, 409 when nothing would change),
    ///   or 500 when the domain answered nothing.
    func perform(_ command: Message.Todos.CMD) throws -> Message.Todos.ACK {
        for case .todos(.ack(let ack)) in send(.todos(.cmd(command))) {
            if case .failed(let failure) = ack { throw Self.apiError(for: failure) }
            return ack
        }
        throw APIError(.internalServerError, "the to-do domain did not answer")
    }

    /// Sends a history command and returns its acknowledgement.
    ///
    /// - Throws: ``APIError`` 409 when there is nothing to undo or redo, 422
    ///   for a jump outside the history.
    func perform(_ command: Message.History.CMD) throws -> Message.History.ACK {
        for case .history(.ack(let ack)) in send(.history(.cmd(command))) {
            switch ack {
            case .failed(let failure): throw Self.apiError(for: failure)
            case .nothingToUndo: throw APIError.conflict("nothing to undo")
            case .nothingToRedo: throw APIError.conflict("nothing to redo")
            default: return ack
            }
        }
        throw APIError(.internalServerError, "the history did not answer")
    }

    /// The answer for a failure of the domain.
    static func apiError(for failure: TodoFailure) -> APIError {
        switch failure {
        case .invalid: APIError.invalidField(failure.description)
        case .notFound: APIError.notFound(failure.description)
        case .nothingToChange: APIError.conflict(failure.description)
        case .history(let error):
            switch error {
            case .positionOutOfRange: APIError.invalidField(failure.description)
            default: APIError.conflict(failure.description)
            }
        case .store: APIError(.serviceUnavailable, failure.description)
        }
    }

    // MARK: Reading

    /// The current state.
    func state() -> AppState { store.state() }

    /// The history's steps and position.
    func history() -> HistoryOverview { store.history() }

    /// The item with `id`.
    ///
    /// - Throws: ``APIError`` 404 when there is none.
    func item(_ id: UUID) throws -> TodoItem {
        guard let item = store.read({ $0.todos[id: id] }) else {
            throw APIError.notFound("There is no item with id \(id.uuidString).")
        }
        return item
    }

    /// Calls `callback` after every change of the store, including changes
    /// another process made to a shared store.
    func observe(_ callback: @escaping @Sendable () -> Void) -> StoreSubscription {
        store.updated(callback)
    }
}

/// Collects the acknowledgements of one request. The features call the root
/// handler synchronously, on the requesting task, but the handler type is
/// `@Sendable`, so the collection is guarded.
private final class AcknowledgementCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [Message] = []

    func append(_ message: Message) {
        lock.lock()
        collected.append(message)
        lock.unlock()
    }

    var messages: [Message] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }
}
