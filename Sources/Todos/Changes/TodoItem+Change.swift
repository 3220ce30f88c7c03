import Foundation

extension TodoItem {
    /// A change of one item, in words: `item.alter(.title(to: "Buy milk"), .complete, at: now)`.
    public enum Change: Equatable, Hashable, Sendable {
        /// Sets the title (trimmed; 1 to 500 characters).
        case title(to: String)
        /// Sets the details.
        case details(to: String)
        /// Sets the due date.
        case due(to: TodoDate)
        /// Sets the location.
        case location(to: Location)
        /// Marks the item as completed.
        case complete
        /// Marks the item as active again.
        case reopen
        /// Completes the item when it is active and reopens it when it is
        /// completed, as it stands when the change is applied. The stores
        /// decide it where they apply a step and record the change it made
        /// (``TodoItem/deciding(_:)``), so that two toggles sent at once
        /// bring the item back.
        case toggle
    }

    /// Returns this item with `changes` applied in order and ``changed`` set
    /// to `date`.
    ///
    /// ```swift
    /// let renamed = try item.alter(.title(to: "Get coffee — ASAP"), at: now())
    /// ```
    ///
    /// - Throws: ``TodoError`` when a change carries an invalid value; the
    ///   item is then not altered.
    public func alter(_ changes: Change..., at date: Date) throws(TodoError) -> TodoItem {
        try alter(changes, at: date)
    }

    /// Returns this item with `changes` applied in order and ``changed`` set
    /// to `date`.
    ///
    /// - Throws: ``TodoError`` when a change carries an invalid value.
    public func alter(_ changes: [Change], at date: Date) throws(TodoError) -> TodoItem {
        var item = self
        _ = try item.apply(changes, at: date)
        return item
    }

    /// Applies `changes` and stamps `date`, returning the changes and date
    /// that restore every field exactly, ``changed`` included.
    ///
    /// All changes are validated before any is applied.
    mutating func apply(_ changes: [Change], at date: Date) throws(TodoError) -> (changes: [Change], date: Date) {
        var altered = self
        var inverse: [Change] = []
        inverse.reserveCapacity(changes.count)
        for change in changes {
            inverse.append(restoring(change))
            try altered.set(change)
        }
        altered.changed = date.roundedToMilliseconds
        let oldDate = changed
        self = altered
        // Later changes of a field must be reverted first.
        return (inverse.reversed(), oldDate)
    }

    /// The change that sets the field `change` touches back to its value now.
    private func restoring(_ change: Change) -> Change {
        switch change {
        case .title: .title(to: title)
        case .details: .details(to: details)
        case .due: .due(to: due)
        case .location: .location(to: location)
        case .complete, .reopen, .toggle: isCompleted ? .complete : .reopen
        }
    }

    private mutating func set(_ change: Change) throws(TodoError) {
        switch change {
        case .title(let title): self.title = try TodoItem.validatedTitle(title)
        case .details(let details): self.details = details
        case .due(let due): self.due = try due.validated()
        case .location(let location): self.location = try location.validated()
        case .complete: state = .completed
        case .reopen: state = .active
        case .toggle: state = isCompleted ? .active : .completed
        }
    }

    /// `changes` as they apply to this item: each ``Change/toggle``
    /// replaced by the ``Change/complete`` or ``Change/reopen`` it makes,
    /// given the changes before it.
    ///
    /// ```swift
    /// milk.deciding([.toggle])             // [.complete] when milk is active
    /// milk.deciding([.complete, .toggle])  // [.complete, .reopen]
    /// ```
    public func deciding(_ changes: [Change]) -> [Change] {
        Change.deciding(changes, completed: isCompleted).changes
    }

    /// Those of `changes` that alter this item, in order: a change that
    /// sets a field to the value it has then (a title as it is saved,
    /// trimmed) is left out, so that saving an unchanged form makes no
    /// step. A ``Change/toggle`` always alters; a change with an invalid
    /// value is kept, so that applying it says what is wrong.
    ///
    /// ```swift
    /// milk.effective([.title(to: " Buy milk "), .complete])   // [.complete] when milk is active
    /// ```
    public func effective(_ changes: [Change]) -> [Change] {
        var item = self
        return changes.filter { change in
            var altered = item
            guard (try? altered.set(change)) != nil else { return true }
            defer { item = altered }
            return altered != item
        }
    }
}

extension TodoItem.Change {
    /// `changes` with each ``toggle`` decided for an item that is
    /// `completed` before them, and whether it is completed after them.
    static func deciding(_ changes: [Self], completed: Bool) -> (changes: [Self], completed: Bool) {
        var completed = completed
        guard changes.contains(.toggle) else {
            for change in changes where change == .complete || change == .reopen { completed = change == .complete }
            return (changes, completed)
        }
        let decided = changes.map { change -> Self in
            switch change {
            case .complete: completed = true
            case .reopen: completed = false
            case .toggle:
                completed.toggle()
                return completed ? .complete : .reopen
            case .title, .details, .due, .location: break
            }
            return change
        }
        return (decided, completed)
    }
}
