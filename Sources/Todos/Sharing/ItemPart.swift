import Foundation

/// A part of one item that a change writes: whether the item is in the list
/// at all, its place in the list, or one of its fields.
///
/// Per-person undo decides part by part whether a step may still be taken
/// back: a part that someone else wrote after the step is left as they
/// wrote it.
public enum ItemPart: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Whether the item is in the list (an add, a delete).
    case existence
    /// Its place in the list (a move).
    case position
    /// Its title.
    case title
    /// Its details.
    case details
    /// Its due date.
    case due
    /// Its location.
    case location
    /// Whether it is active or completed.
    case state

    /// The fields of an item, in the order a step names them.
    static let fields: [ItemPart] = [.title, .details, .due, .location, .state]

    /// Whether `a` and `b` differ in this field (`false` for existence and
    /// position, which are not fields).
    func differs(_ a: TodoItem, _ b: TodoItem) -> Bool {
        switch self {
        case .existence, .position: false
        case .title: a.title != b.title
        case .details: a.details != b.details
        case .due: a.due != b.due
        case .location: a.location != b.location
        case .state: a.state != b.state
        }
    }

    /// The change that gives an item `item`'s value of this field (`nil`
    /// for existence and position).
    func change(toValueOf item: TodoItem) -> TodoItem.Change? {
        switch self {
        case .existence, .position: nil
        case .title: .title(to: item.title)
        case .details: .details(to: item.details)
        case .due: .due(to: item.due)
        case .location: .location(to: item.location)
        case .state: item.isCompleted ? .complete : .reopen
        }
    }
}

/// One part of one item: the unit whose latest writer per-person undo looks up.
public struct ItemPartKey: Equatable, Hashable, Sendable {
    /// The item's id.
    public let item: UUID
    /// The part of it.
    public let part: ItemPart

    /// The part `part` of the item with id `item`.
    public init(_ item: UUID, _ part: ItemPart) {
        self.item = item
        self.part = part
    }
}
