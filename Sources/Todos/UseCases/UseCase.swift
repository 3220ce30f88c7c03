import Foundation
import Rewind

/// A use case of the app domain: it takes a request, does the work
/// against the store, and returns its response, or throws the
/// ``TodoFailure`` that says why nothing was changed (or, when the store
/// could not learn whether it saved the change, that it is not known).
///
/// ```swift
/// let adder = ItemAdder(store: store, now: { Date() }, makeID: { UUID() })
/// let milk = try await adder.request(to: .create(.init(title: "Buy milk"), at: nil))
/// ```
public protocol UseCase: Sendable {
    /// What can be asked.
    associatedtype Request: Sendable
    /// What is answered.
    associatedtype Response: Sendable

    /// Handles `request` and returns the answer.
    ///
    /// - Throws: The ``TodoFailure`` that kept anything from changing.
    func request(to request: Request) async throws(TodoFailure) -> Response
}

/// Why a use case could not do what was asked; nothing was changed, but
/// after ``storeOutcomeUnknown(_:)``.
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
    /// The store failed as it was saving the change, and could not learn
    /// whether it was saved (the connection to a database server failed
    /// as the change was being committed): look before making it again.
    /// The message says so itself.
    case storeOutcomeUnknown(String)

    /// Classifies an error thrown by a store.
    public init(_ error: any Error) {
        switch error {
        case TodoError.itemNotFound(let id): self = .notFound([id])
        case TodoError.nothingToChange(let reason): self = .nothingToChange(reason)
        case let error as TodoError: self = .invalid(error)
        case let error as HistoryError: self = .history(error)
        case let error as TodoFailure: self = error
        case let error as any OutcomeUncertain where error.outcomeIsUnknown: self = .storeOutcomeUnknown(String(describing: error))
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
        case .storeOutcomeUnknown(let message): message
        }
    }
}

/// An error of a store that may leave a change's fate unknown: thrown as
/// the change was being committed, when whether it was could not be learnt.
public protocol OutcomeUncertain: Error {
    /// Whether the change that failed may have been saved.
    var outcomeIsUnknown: Bool { get }
}

extension TodoFailure {
    /// Runs `body` and classifies what it throws.
    static func classifying<Value>(_ body: () async throws -> Value) async throws(TodoFailure) -> Value {
        do {
            return try await body()
        } catch {
            throw TodoFailure(error)
        }
    }
}

extension AppStore {
    /// Performs `changes` as one step and classifies a failure. The text
    /// they bring in is checked first (``TypedText``): this is where new
    /// input enters, while the stores also replay saved changes.
    func perform(_ changes: [AppState.Change], named name: String? = nil) async throws(TodoFailure) -> HistoryStep<AppState.Change> {
        try Self.checkTypedText(of: changes)
        return try await TodoFailure.classifying { try await change(changes, named: name) }
    }

    /// Performs `changes` as one step, as ``perform(_:named:)`` does, and
    /// answers those of the items with `ids` that exist after it, as it
    /// left them.
    func perform(_ changes: [AppState.Change], answering ids: [UUID]) async throws(TodoFailure) -> [TodoItem] {
        try Self.checkTypedText(of: changes)
        return try await TodoFailure.classifying { try await change(changes, named: nil, answering: ids).items }
    }

    /// Checks the text `changes` bring in (``TypedText``).
    private static func checkTypedText(of changes: [AppState.Change]) throws(TodoFailure) {
        do {
            for change in changes { try change.checkTypedText() }
        } catch {
            throw .invalid(error)
        }
    }

    /// Reads the state and classifies a failure.
    func reading<Result: Sendable>(_ body: @escaping @Sendable (AppState) throws -> Result) async throws(TodoFailure) -> Result {
        try await TodoFailure.classifying { try await read(body) }
    }

    /// The current versions of the items with `ids` that still exist.
    func items(_ ids: [UUID]) async throws(TodoFailure) -> [TodoItem] {
        try await TodoFailure.classifying { try await items(withIDs: ids) }
    }
}
