import Foundation

/// Everything a user interface asks of the app domain, as the domain's
/// receivers see it: each value wraps the request of one use case.
///
/// A caller does not build these: it calls ``AppDomain/send(_:)-(ItemAdder.Request)``
/// with the request, which reads the same and returns the typed answer.
///
/// ```swift
/// let milk = try await app.send(.create(.init(title: "Buy milk"), at: nil))   // .todos(.add(…))
/// try await app.send(.complete([milk.id]))                                     // .todos(.update(…))
/// try await app.send(.undo)                                                  // .history(.undo)
/// ```
public enum Message: Equatable, Sendable {
    /// A request to the to-do list feature.
    case todos(Todos)
    /// A request to the history feature: undo, redo, jump(to:), jumpToStep(_:).
    case history(History)

    /// The requests of the to-do list, by use case.
    public enum Todos: Equatable, Sendable {
        /// Adds, inserts or creates an item (``ItemAdder``).
        case add(ItemAdder.Request)
        /// Removes items (``ItemRemover``).
        case remove(ItemRemover.Request)
        /// Changes items (``ItemUpdater``).
        case update(ItemUpdater.Request)
        /// Moves an item (``ItemMover``).
        case move(ItemMover.Request)
        /// Imports items (``ListImporter``).
        case `import`(ListImporter.Request)
    }

    /// The requests of the undo history (``HistoryNavigator``).
    public typealias History = HistoryNavigator.Request
}

/// A function that takes messages: a receiver of the app domain, which sees
/// every request before it is handled (to log it, say).
public typealias MessageHandler = @Sendable (Message) -> Void
