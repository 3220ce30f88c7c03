import Foundation

/// Moves through the undo history: undo, redo, or jump to a step.
public struct HistoryNavigator: UseCase {
    /// What can be asked.
    public enum Request: Equatable, Sendable {
        /// Reverts the newest done step.
        case undo
        /// Repeats the newest undone step.
        case redo
        /// Moves to a position (0 is before the first step).
        case jump(to: Int)
    }

    /// What is answered.
    public enum Response: Equatable, Sendable {
        /// This step was undone.
        case undone(name: String)
        /// This step was redone.
        case redone(name: String)
        /// The history is now at this position.
        case jumped(to: Int)
        /// There was nothing to undo.
        case nothingToUndo
        /// There was nothing to redo.
        case nothingToRedo
        /// The history did not move.
        case failed(TodoFailure)
    }

    private let store: any AppStore
    private let respond: Responder<Response>

    /// Creates the use case over `store`.
    public init(store: any AppStore, responder: @escaping Responder<Response>) {
        self.store = store
        respond = responder
    }

    /// Handles `request`.
    public func request(to request: Request) {
        do {
            switch request {
            case .undo: respond(try store.undo().map { .undone(name: $0) } ?? .nothingToUndo)
            case .redo: respond(try store.redo().map { .redone(name: $0) } ?? .nothingToRedo)
            case .jump(let position):
                try store.jump(to: position)
                respond(.jumped(to: position))
            }
        } catch {
            respond(.failed(TodoFailure(error)))
        }
    }
}
