import Foundation
import Rewind

extension AppState {
    /// A change of the app state, reverted by the change ``apply(_:)`` returns.
    ///
    /// ```swift
    /// try state.apply(.add(milk))
    /// try state.apply(.update(milk.id, [.complete], at: now()))
    /// try state.apply(.setting(.todos(importedList)))
    /// ```
    public enum Change: Equatable, Hashable, Sendable {
        /// A change of the to-do list.
        case todos(TodoList.Change)
        /// Replaces a whole part of the state (import, reset).
        case setting(Setting)

        /// What ``AppState/Change/setting(_:)`` replaces.
        public enum Setting: Equatable, Hashable, Sendable {
            /// The whole to-do list.
            case todos(TodoList)
        }

        /// Appends an item.
        public static func add(_ item: TodoItem) -> Change { .todos(.add(item)) }
        /// Inserts an item so that it ends up at `position`.
        public static func insert(_ item: TodoItem, at position: Int) -> Change { .todos(.insert(item, at: position)) }
        /// Removes the item with `id`.
        public static func remove(_ id: UUID) -> Change { .todos(.remove(id)) }
        /// Alters the item with `id`, stamping `date` as its `changed` date.
        public static func update(_ id: UUID, _ changes: [TodoItem.Change], at date: Date) -> Change {
            .todos(.update(id, changes, at: date))
        }
        /// Moves the item with `id` so that it ends up at `position`.
        public static func move(_ id: UUID, to position: Int) -> Change { .todos(.move(id, to: position)) }
    }
}

extension AppState: Reversible {
    /// Applies `change` and returns the change that reverts it exactly.
    ///
    /// - Throws: ``TodoError``; the state is then unchanged.
    /// - Complexity: That of ``TodoList/apply(_:)``; O(1) for setting a list.
    public mutating func apply(_ change: Change) throws(TodoError) -> Change {
        switch change {
        case .todos(let change):
            return .todos(try todos.apply(change))
        case .setting(.todos(let list)):
            let old = todos
            todos = list
            return .setting(.todos(old))
        }
    }
}
