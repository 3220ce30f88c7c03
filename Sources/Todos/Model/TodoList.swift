import Foundation

/// The ordered list of to-do items, with each item found by its id in O(1).
///
/// The list changes only through ``TodoList/Change`` values, each of which
/// returns the change that reverts it (``apply(_:)``), so a ``History`` of a
/// list keeps small inverses, never copies of the list.
///
/// Items are kept in a dictionary by id beside their ids in list order
/// (``OrderedIDs``): altering an item touches one dictionary entry; adding,
/// inserting, removing or moving one, and finding its position, take
/// O(log *n*) in the order of ids.
public struct TodoList: Equatable, Hashable, Sendable {
    /// The ids of the items in list order.
    public internal(set) var ids: OrderedIDs
    var itemsByID: ItemTable

    /// Creates an empty list.
    public init() {
        ids = OrderedIDs()
        itemsByID = ItemTable()
    }

    /// Creates a list of `items` in this order.
    ///
    /// - Throws: ``TodoError/duplicateItem(_:)`` when two items share an id.
    /// - Complexity: O(*n* log *n*).
    public init(items: [TodoItem]) throws(TodoError) {
        self.init()
        ids.reserveCapacity(items.count)
        itemsByID.reserveCapacity(items.count)
        for item in items {
            guard itemsByID.updateValue(item, forKey: item.id) == nil else { throw .duplicateItem(item.id) }
            ids.append(item.id)
        }
    }

    /// The items in list order.
    ///
    /// - Complexity: O(*n*): it builds an array.
    public var items: [TodoItem] {
        ids.compactMap { itemsByID[$0] }
    }

    /// The number of items.
    public var count: Int { ids.count }

    /// Whether the list has no items.
    public var isEmpty: Bool { ids.isEmpty }

    /// The item with `id`, or `nil` when there is none.
    ///
    /// - Complexity: O(1).
    public subscript(id id: UUID) -> TodoItem? {
        itemsByID[id]
    }

    /// The item at `position` in list order, or `nil` when there is none.
    ///
    /// - Complexity: O(log *n*).
    public func item(at position: Int) -> TodoItem? {
        ids.id(at: position).flatMap { itemsByID[$0] }
    }

    /// Whether an item with `id` is in the list.
    ///
    /// - Complexity: O(1).
    public func contains(id: UUID) -> Bool {
        itemsByID[id] != nil
    }

    /// The position of the item with `id` in list order, or `nil`.
    ///
    /// - Complexity: O(log *n*).
    public func position(of id: UUID) -> Int? {
        ids.position(of: id)
    }
}
