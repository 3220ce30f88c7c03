import Foundation
import Rewind

extension TodoList {
    /// A change of the list: `list.alter(.add(milk), .remove(bread.id))`.
    ///
    /// Every change refers to items by id and carries its own timestamp when
    /// it alters items, so applying it is pure and a saved change replays to
    /// the same state.
    public enum Change: Equatable, Hashable, Sendable {
        /// Appends an item.
        case add(TodoItem)
        /// Inserts an item so that it ends up at a position (0...count).
        case insert(TodoItem, at: Int)
        /// Removes the item with this id.
        case remove(UUID)
        /// Removes the items with these ids, as one change.
        case removeItems([UUID])
        /// Inserts items so that each ends up at its position; positions
        /// ascend. The inverse of removing several items.
        case restore([Placement])
        /// Alters the item with this id and sets its `changed` date.
        case update(UUID, [TodoItem.Change], at: Date)
        /// Replaces stored items by the given versions with the same ids (a
        /// whole item saved at once, as an edit form does).
        case replace([TodoItem])
        /// Moves the item with this id so that it ends up at a position (0..<count).
        case move(UUID, to: Int)
        /// Completes every active item and sets its `changed` date.
        case completeAll(at: Date)
        /// Reopens every completed item and sets its `changed` date.
        case reopenAll(at: Date)
        /// Removes every completed item.
        case removeCompleted
    }

    /// An item and the position it has in the list.
    public struct Placement: Equatable, Hashable, Sendable {
        /// The item.
        public let item: TodoItem
        /// Its position in list order, from 0.
        public let position: Int

        /// Pairs an item with its position.
        public init(_ item: TodoItem, at position: Int) {
            self.item = item
            self.position = position
        }
    }

    /// Returns this list with `changes` applied in order.
    ///
    /// - Throws: ``TodoError`` when a change cannot be applied.
    public func alter(_ changes: Change...) throws(TodoError) -> TodoList {
        var list = self
        for change in changes { _ = try list.apply(change) }
        return list
    }
}

extension TodoList: Reversible {
    /// Applies `change` and returns the change that reverts it exactly:
    /// positions, every field and `changed` dates included.
    ///
    /// - Throws: ``TodoError``; the list is then unchanged.
    /// - Complexity: O(1) for `update`, O(log *n*) for `add`, `insert`,
    ///   `remove` and `move`, O(*k*) to replace *k* items, O(*k* log *n*)
    ///   to restore them, O(*n*) at most for changes that visit all items.
    public mutating func apply(_ change: Change) throws(TodoError) -> Change {
        switch change {
        case .add(let item):
            return try insert(item, at: count)
        case .insert(let item, let position):
            return try insert(item, at: position)
        case .remove(let id):
            return try remove(id)
        case .removeItems(let ids):
            return try removeItems(ids)
        case .restore(let placements):
            return try restore(placements)
        case .update(let id, let changes, let date):
            guard let item = itemsByID[id] else { throw .itemNotFound(id) }
            var altered = item
            let inverse = try altered.apply(changes, at: date)
            itemsByID[id] = altered
            return .update(id, inverse.changes, at: inverse.date)
        case .replace(let items):
            return try replace(items)
        case .move(let id, let position):
            return try move(id, to: position)
        case .completeAll(let date):
            return try setState(.completed, at: date)
        case .reopenAll(let date):
            return try setState(.active, at: date)
        case .removeCompleted:
            let completed = ids.filter { itemsByID[$0]?.isCompleted == true }
            guard !completed.isEmpty else { throw .nothingToChange("no item is completed") }
            return try removeItems(completed)
        }
    }

    private mutating func insert(_ item: TodoItem, at position: Int) throws(TodoError) -> Change {
        // The order refuses both a duplicate and a position out of range.
        guard ids.insert(item.id, at: position) else {
            guard itemsByID[item.id] == nil else { throw .duplicateItem(item.id) }
            throw .positionOutOfRange(position, valid: 0...count)
        }
        itemsByID[item.id] = item
        return .remove(item.id)
    }

    private mutating func remove(_ id: UUID) throws(TodoError) -> Change {
        guard let position = ids.remove(id), let item = itemsByID.removeValue(forKey: id) else {
            throw .itemNotFound(id)
        }
        return .insert(item, at: position)
    }

    private mutating func removeItems(_ removed: [UUID]) throws(TodoError) -> Change {
        guard !removed.isEmpty else { throw .nothingToChange("no item to remove") }
        let doomed = Set(removed)
        if let missing = removed.first(where: { itemsByID[$0] == nil }) { throw .itemNotFound(missing) }
        var placements: [Placement] = []
        placements.reserveCapacity(doomed.count)
        for (id, position) in ids.remove(doomed) {
            if let item = itemsByID.removeValue(forKey: id) {
                placements.append(Placement(item, at: position))
            }
        }
        return .restore(placements)
    }

    private mutating func restore(_ placements: [Placement]) throws(TodoError) -> Change {
        guard !placements.isEmpty else { throw .nothingToChange("no item to restore") }
        let finalCount = count + placements.count
        var seen = Set<UUID>()
        var previous = -1
        for placement in placements {
            let id = placement.item.id
            guard itemsByID[id] == nil, seen.insert(id).inserted else { throw .duplicateItem(id) }
            guard placement.position > previous, placement.position < finalCount else {
                // Positions ascend, so the next one lies after the previous; a
                // saved change may still say otherwise, and must not trap here.
                let first = min(previous + 1, finalCount - 1)
                throw .positionOutOfRange(placement.position, valid: first...(finalCount - 1))
            }
            previous = placement.position
        }
        // In ascending order each item goes straight to its final position:
        // the ones after it are not there yet.
        itemsByID.reserveCapacity(finalCount)
        for placement in placements {
            ids.insert(placement.item.id, at: placement.position)
            itemsByID[placement.item.id] = placement.item
        }
        return .removeItems(placements.map(\.item.id))
    }

    private mutating func replace(_ items: [TodoItem]) throws(TodoError) -> Change {
        guard !items.isEmpty else { throw .nothingToChange("no item to replace") }
        var seen = Set<UUID>()
        for item in items {
            guard itemsByID[item.id] != nil else { throw .itemNotFound(item.id) }
            guard seen.insert(item.id).inserted else { throw .duplicateItem(item.id) }
        }
        var previous: [TodoItem] = []
        previous.reserveCapacity(items.count)
        for item in items {
            if let old = itemsByID.updateValue(item, forKey: item.id) { previous.append(old) }
        }
        return .replace(previous)
    }

    private mutating func move(_ id: UUID, to target: Int) throws(TodoError) -> Change {
        guard contains(id: id) else { throw .itemNotFound(id) }
        guard (0..<count).contains(target) else { throw .positionOutOfRange(target, valid: 0...(count - 1)) }
        guard let position = ids.move(id, to: target) else { throw .itemNotFound(id) }
        return .move(id, to: position)
    }

    private mutating func setState(_ state: TodoItem.State, at date: Date) throws(TodoError) -> Change {
        guard count > 0 else { throw .nothingToChange("the list has no items") }
        let changing = ids.compactMap { itemsByID[$0] }.filter { $0.state != state }
        guard !changing.isEmpty else {
            throw .nothingToChange(state == .completed ? "every item is completed" : "no item is completed")
        }
        let stamp = date.roundedToMilliseconds
        for item in changing {
            var altered = item
            altered.state = state
            altered.changed = stamp
            itemsByID[item.id] = altered
        }
        return .replace(changing)
    }
}
