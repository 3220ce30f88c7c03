import Foundation

/// Everything the to-do app keeps: its list of items.
///
/// `AppState` is ``Reversible``, so `History<AppState>` gives named undo,
/// redo and jump over it, and a store can persist each step's changes.
public struct AppState: Equatable, Hashable, Sendable {
    /// The to-do items.
    public internal(set) var todos: TodoList

    /// Creates a state holding `todos` (an empty list by default).
    public init(todos: TodoList = TodoList()) {
        self.todos = todos
    }
}
