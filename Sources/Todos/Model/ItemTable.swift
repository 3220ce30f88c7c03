import Foundation

/// A list's items by id, with the tallies its counts come from kept as the
/// items change: how many are completed, and the deadlines of the active
/// ones. So ``TodoList/counts(now:)`` reads a few numbers and the dates of
/// the items that have a deadline, not every item (copying an item retains
/// its strings, which over a long list is most of the time of a count).
struct ItemTable: Hashable, Sendable {
    /// The items by id.
    private(set) var byID: [UUID: TodoItem] = [:]
    /// How many items are completed.
    private(set) var completed = 0
    /// The deadline of each active item that has one.
    private(set) var activeDeadlines: [UUID: Date] = [:]

    /// The number of items.
    var count: Int { byID.count }

    /// The items, in no particular order.
    var values: Dictionary<UUID, TodoItem>.Values { byID.values }

    /// The item with `id`; setting `nil` removes it.
    ///
    /// - Complexity: O(1).
    subscript(id: UUID) -> TodoItem? {
        get { byID[id] }
        set {
            if let newValue { updateValue(newValue, forKey: id) } else { removeValue(forKey: id) }
        }
    }

    /// Puts `item` under `id`, returning the item it replaced, if any.
    @discardableResult
    mutating func updateValue(_ item: TodoItem, forKey id: UUID) -> TodoItem? {
        let old = byID.updateValue(item, forKey: id)
        if let old { forget(old, id: id) }
        remember(item, id: id)
        return old
    }

    /// Removes and returns the item with `id`, if any.
    @discardableResult
    mutating func removeValue(forKey id: UUID) -> TodoItem? {
        guard let old = byID.removeValue(forKey: id) else { return nil }
        forget(old, id: id)
        return old
    }

    /// Makes room for `count` items.
    mutating func reserveCapacity(_ count: Int) {
        byID.reserveCapacity(count)
    }

    private mutating func remember(_ item: TodoItem, id: UUID) {
        if item.isCompleted {
            completed += 1
        } else if let deadline = item.due.deadline {
            activeDeadlines[id] = deadline
        }
    }

    private mutating func forget(_ item: TodoItem, id: UUID) {
        if item.isCompleted {
            completed -= 1
        } else if item.due.deadline != nil {
            activeDeadlines.removeValue(forKey: id)
        }
    }
}
