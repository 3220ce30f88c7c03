import Foundation

extension AppState.Change {
    /// Whether the change alters an item with a ``TodoItem/Change/toggle``,
    /// which is decided where the step is applied (``deciding(_:isCompleted:)``).
    public var holdsToggle: Bool {
        guard case .todos(.update(_, let changes, _)) = self else { return false }
        return changes.contains(.toggle)
    }

    /// `changes`, one step, with each ``TodoItem/Change/toggle`` replaced by
    /// the ``TodoItem/Change/complete`` or ``TodoItem/Change/reopen`` it
    /// makes: what a store records, so that the log holds what was done
    /// and a toggle is decided on the item as it is when the step is
    /// applied, in the store's turn.
    ///
    /// ```swift
    /// let step = AppState.Change.deciding([.update(milk.id, [.toggle], at: now)]) { id in
    ///     state.todos[id: id]?.isCompleted
    /// }   // [.update(milk.id, [.complete], at: now)] when milk is active
    /// ```
    ///
    /// - Parameter isCompleted: Whether the item with an id is completed
    ///   before the step; `nil` when the list does not hold it (the step
    ///   then fails where it is applied). Asked only for the items a toggle
    ///   alters, once each, and not at all when no change holds a toggle.
    /// - Complexity: O(*c*) for *c* changes, plus the calls of `isCompleted`.
    public static func deciding(
        _ changes: [AppState.Change], isCompleted: (UUID) throws -> Bool?
    ) rethrows -> [AppState.Change] {
        guard changes.contains(where: \.holdsToggle) else { return changes }
        // Whether an item is completed after the changes walked so far.
        var known: [UUID: Bool] = [:]
        var every: Bool?
        var setList: TodoList?
        func completed(_ id: UUID) throws -> Bool {
            if let state = known[id] { return state }
            if let every { return every }
            if let setList { return setList[id: id]?.isCompleted ?? false }
            return try isCompleted(id) ?? false
        }
        var decided: [AppState.Change] = []
        decided.reserveCapacity(changes.count)
        for change in changes {
            switch change {
            case .todos(.update(let id, let alterations, let date)):
                let (made, after) = TodoItem.Change.deciding(alterations, completed: try completed(id))
                known[id] = after
                decided.append(.todos(.update(id, made, at: date)))
                continue
            case .todos(.add(let item)), .todos(.insert(let item, at: _)):
                known[item.id] = item.isCompleted
            case .todos(.replace(let items)):
                for item in items { known[item.id] = item.isCompleted }
            case .todos(.restore(let placements)):
                for placement in placements { known[placement.item.id] = placement.item.isCompleted }
            case .todos(.completeAll):
                every = true
                known.removeAll()
            case .todos(.reopenAll):
                every = false
                known.removeAll()
            case .setting(.todos(let list)):
                setList = list
                every = nil
                known.removeAll()
            case .todos(.remove), .todos(.removeItems), .todos(.move), .todos(.removeCompleted):
                break
            }
            decided.append(change)
        }
        return decided
    }

}

extension TodoList.Change {
    /// `changes`, one step, with each ``TodoItem/Change/toggle`` decided
    /// on `list` as it stands before them; see
    /// ``AppState/Change/deciding(_:isCompleted:)``.
    public static func deciding(_ changes: [TodoList.Change], on list: TodoList) -> [TodoList.Change] {
        let wrapped = changes.map(AppState.Change.todos)
        guard wrapped.contains(where: \.holdsToggle) else { return changes }
        return AppState.Change.deciding(wrapped) { list[id: $0]?.isCompleted }.compactMap { change in
            guard case .todos(let change) = change else { return nil }
            return change
        }
    }
}
