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
        case .complete, .reopen: isCompleted ? .complete : .reopen
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
        }
    }
}
