import Foundation

/// An item and the item it follows in the list: what a step needs to put
/// an item back near where it was, even after its neighbours have changed.
public struct PlacedItem: Equatable, Hashable, Sendable {
    /// The item, every field.
    public let item: TodoItem
    /// The id of the item before it, `nil` when it was first.
    public let after: UUID?

    /// Pairs `item` with the id of the item it follows.
    public init(_ item: TodoItem, after: UUID?) {
        self.item = item
        self.after = after
    }

    /// The item with `id` in `list` and the item before it, or `nil` when
    /// `list` has no such item.
    ///
    /// - Complexity: O(log *n*).
    static func find(_ id: UUID, in list: TodoList) -> PlacedItem? {
        guard let item = list[id: id], let position = list.position(of: id) else { return nil }
        return PlacedItem(item, after: position > 0 ? list.ids.id(at: position - 1) : nil)
    }
}
