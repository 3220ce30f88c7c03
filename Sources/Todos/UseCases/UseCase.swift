import Foundation
import Rewind

/// A use case of the seed's architecture: it takes a request, does the work
/// against the store, and answers through the responder it was made with.
public protocol UseCase: Sendable {
    /// What can be asked.
    associatedtype Request
    /// What is answered.
    associatedtype Response

    /// Handles `request`; the answer goes to the responder.
    func request(to request: Request)
}

/// A function that receives a use case's responses.
public typealias Responder<Response> = @Sendable (Response) -> Void

/// Why a use case could not do what was asked; nothing was changed.
public enum TodoFailure: Error, Equatable, Sendable {
    /// A value in the request is invalid (an empty title, a latitude of 91…).
    case invalid(TodoError)
    /// No item has one of these ids (an update of a missing item does nothing).
    case notFound([UUID])
    /// The request would change nothing, so no undo step was made.
    case nothingToChange(String)
    /// The history refused (a jump to a step that does not exist).
    case history(HistoryError)
    /// The store could not save the change; the message says why.
    case store(String)

    /// Classifies an error thrown by a store.
    public init(_ error: any Error) {
        switch error {
        case TodoError.itemNotFound(let id): self = .notFound([id])
        case TodoError.nothingToChange(let reason): self = .nothingToChange(reason)
        case let error as TodoError: self = .invalid(error)
        case let error as HistoryError: self = .history(error)
        case let error as TodoFailure: self = error
        default: self = .store(String(describing: error))
        }
    }
}

extension TodoFailure: CustomStringConvertible {
    /// A sentence that says what went wrong.
    public var description: String {
        switch self {
        case .invalid(let error): error.description
        case .notFound(let ids): "There is no item with id \(ids.map(\.uuidString).joined(separator: ", "))."
        case .nothingToChange(let reason): "Nothing to change: \(reason)."
        case .history(let error): error.description
        case .store(let message): "The change could not be saved: \(message)"
        }
    }
}

extension AppStore {
    /// Performs `changes` as one step and classifies a failure.
    func perform(_ changes: [AppState.Change], named name: String? = nil) -> Result<HistoryStep<AppState.Change>, TodoFailure> {
        Result { try change(changes, named: name) }.mapError(TodoFailure.init)
    }

    /// The current versions of the items with `ids` that still exist.
    func items(_ ids: [UUID]) -> [TodoItem] {
        read { state in ids.compactMap { state.todos[id: $0] } }
    }
}
