import Foundation

/// Moves through the undo history: undo, redo, or jump to a position of
/// the linear history or to a step of the tree, on any branch.
///
/// ```swift
/// let navigator = HistoryNavigator(store: store)
/// try await navigator.request(to: .undo)                 // .undone(name: "Add “Buy milk”")
/// let tree = try await store.historyTree()
/// try await navigator.request(to: .jumpToStep(tree.steps[0].number))
/// ```
public struct HistoryNavigator: UseCase {
    /// What can be asked.
    public enum Request: Equatable, Sendable {
        /// Reverts the newest done step.
        case undo
        /// Repeats the newest undone step.
        case redo
        /// Moves to a position (0 is before the first step).
        case jump(to: Int)
        /// Moves to the step with this number of ``AppStore/historyTree()``
        /// (0 is the start), on any branch.
        case jumpToStep(Int64)
    }

    /// What is answered.
    public enum Response: Equatable, Sendable {
        /// This step was undone.
        case undone(name: String)
        /// This step was redone.
        case redone(name: String)
        /// The history is now at this position.
        case jumped(to: Int)
        /// The history is now at the step with this number.
        case jumpedToStep(Int64)
        /// There was nothing to undo.
        case nothingToUndo
        /// There was nothing to redo.
        case nothingToRedo
    }

    private let store: any AppStore

    /// Creates the use case over `store`.
    public init(store: any AppStore) {
        self.store = store
    }

    /// Moves the history and says where to.
    public func request(to request: Request) async throws(TodoFailure) -> Response {
        switch request {
        case .undo:
            try await TodoFailure.classifying { try await store.undo() }.map { .undone(name: $0) } ?? .nothingToUndo
        case .redo:
            try await TodoFailure.classifying { try await store.redo() }.map { .redone(name: $0) } ?? .nothingToRedo
        case .jump(let position):
            try await TodoFailure.classifying {
                try await store.jump(to: position)
                return .jumped(to: position)
            }
        case .jumpToStep(let number):
            try await TodoFailure.classifying {
                try await store.jump(toStep: number)
                return .jumpedToStep(number)
            }
        }
    }
}
