import Foundation

/// An item change is `{"op": "title", "to": "Buy milk"}`, `{"op": "details", "to": …}`,
/// `{"op": "due", "to": due}`, `{"op": "location", "to": location}`,
/// `{"op": "complete"}`, `{"op": "reopen"}` or `{"op": "toggle"}`. Earlier
/// versions wrote `finish` and `unfinish` for complete and reopen: they are
/// read as well. The stores never write `toggle`: they record the complete
/// or reopen it made (``AppState/Change/deciding(_:isCompleted:)``).
extension TodoItem.Change: Codable {
    private enum Key: String, CodingKey { case op, to }
    private static let ops = ["title", "details", "due", "location", "complete", "reopen", "toggle"]
    /// The names earlier versions wrote, which their files and history logs
    /// still hold, and the names they are read as.
    private static let earlierOps = ["finish": "complete", "unfinish": "reopen"]

    /// Reads an item change in the documented shape, or with an op name an
    /// earlier version wrote.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        switch try container.decodeTag(forKey: .op, allowed: Self.ops, renamed: Self.earlierOps) {
        case "title": self = .title(to: try container.decode(String.self, forKey: .to))
        case "details": self = .details(to: try container.decode(String.self, forKey: .to))
        case "due": self = .due(to: try container.decode(TodoDate.self, forKey: .to))
        case "location": self = .location(to: try container.decode(Location.self, forKey: .to))
        case "complete": self = .complete
        case "toggle": self = .toggle
        default: self = .reopen
        }
    }

    /// Writes the item change in the documented shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .title(let title):
            try container.encode("title", forKey: .op)
            try container.encode(title, forKey: .to)
        case .details(let details):
            try container.encode("details", forKey: .op)
            try container.encode(details, forKey: .to)
        case .due(let due):
            try container.encode("due", forKey: .op)
            try container.encode(due, forKey: .to)
        case .location(let location):
            try container.encode("location", forKey: .op)
            try container.encode(location, forKey: .to)
        case .complete:
            try container.encode("complete", forKey: .op)
        case .reopen:
            try container.encode("reopen", forKey: .op)
        case .toggle:
            try container.encode("toggle", forKey: .op)
        }
    }
}

/// `{"position": 2, "item": item}`.
extension TodoList.Placement: Codable {
    private enum Key: String, CodingKey { case position, item }

    /// Reads a placement.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        self.init(try container.decode(TodoItem.self, forKey: .item), at: try container.decode(Int.self, forKey: .position))
    }

    /// Writes a placement.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(position, forKey: .position)
        try container.encode(item, forKey: .item)
    }
}

/// A list change is an object whose `op` names the case; see `docs/json-format.md`.
extension TodoList.Change: Codable {
    enum Key: String, CodingKey { case op, item, items, at, id, ids, placements, changes, to }
    static let ops = [
        "add", "insert", "remove", "removeItems", "restore", "update", "replace",
        "move", "completeAll", "reopenAll", "removeCompleted",
    ]
    /// The names earlier versions wrote, which their files and history logs
    /// still hold, and the names they are read as.
    static let earlierOps = ["finishAll": "completeAll", "unfinishAll": "reopenAll", "removeFinished": "removeCompleted"]

    /// Reads a list change in the documented shape, or with an op name an
    /// earlier version wrote.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        try self.init(
            op: try container.decodeTag(forKey: .op, allowed: Self.ops, renamed: Self.earlierOps), in: container,
            checkingRange: decoder.checksDateRange
        )
    }

    init(op: String, in container: KeyedDecodingContainer<Key>, checkingRange: Bool) throws {
        switch op {
        case "add": self = .add(try container.decode(TodoItem.self, forKey: .item))
        case "insert":
            self = .insert(try container.decode(TodoItem.self, forKey: .item), at: try container.decode(Int.self, forKey: .at))
        case "remove": self = .remove(try container.decode(UUID.self, forKey: .id))
        case "removeItems": self = .removeItems(try container.decode([UUID].self, forKey: .ids))
        case "restore": self = .restore(try container.decode([TodoList.Placement].self, forKey: .placements))
        case "update":
            self = .update(
                try container.decode(UUID.self, forKey: .id),
                try container.decode([TodoItem.Change].self, forKey: .changes),
                at: try container.decodeDate(forKey: .at, checkingRange: checkingRange)
            )
        case "replace": self = .replace(try container.decode([TodoItem].self, forKey: .items))
        case "move": self = .move(try container.decode(UUID.self, forKey: .id), to: try container.decode(Int.self, forKey: .to))
        case "completeAll": self = .completeAll(at: try container.decodeDate(forKey: .at, checkingRange: checkingRange))
        case "reopenAll": self = .reopenAll(at: try container.decodeDate(forKey: .at, checkingRange: checkingRange))
        default: self = .removeCompleted
        }
    }

    /// Writes the list change in the documented shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .add(let item):
            try container.encode("add", forKey: .op)
            try container.encode(item, forKey: .item)
        case .insert(let item, let position):
            try container.encode("insert", forKey: .op)
            try container.encode(item, forKey: .item)
            try container.encode(position, forKey: .at)
        case .remove(let id):
            try container.encode("remove", forKey: .op)
            try container.encode(id, forKey: .id)
        case .removeItems(let ids):
            try container.encode("removeItems", forKey: .op)
            try container.encode(ids, forKey: .ids)
        case .restore(let placements):
            try container.encode("restore", forKey: .op)
            try container.encode(placements, forKey: .placements)
        case .update(let id, let changes, let date):
            try container.encode("update", forKey: .op)
            try container.encode(id, forKey: .id)
            try container.encode(changes, forKey: .changes)
            try container.encodeDate(date, forKey: .at)
        case .replace(let items):
            try container.encode("replace", forKey: .op)
            try container.encode(items, forKey: .items)
        case .move(let id, let position):
            try container.encode("move", forKey: .op)
            try container.encode(id, forKey: .id)
            try container.encode(position, forKey: .to)
        case .completeAll(let date):
            try container.encode("completeAll", forKey: .op)
            try container.encodeDate(date, forKey: .at)
        case .reopenAll(let date):
            try container.encode("reopenAll", forKey: .op)
            try container.encodeDate(date, forKey: .at)
        case .removeCompleted:
            try container.encode("removeCompleted", forKey: .op)
        }
    }
}

/// An app-state change is a list change, or `{"op": "setTodos", "items": […]}`
/// for ``AppState/Change/setting(_:)``.
extension AppState.Change: Codable {
    private enum Key: String, CodingKey { case op, items }

    /// Reads an app-state change in the documented shape.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TodoList.Change.Key.self)
        let op = try container.decodeTag(
            forKey: .op, allowed: TodoList.Change.ops + ["setTodos"], renamed: TodoList.Change.earlierOps)
        if op == "setTodos" {
            self = .setting(.todos(try TodoList(itemsIn: container, forKey: .items)))
        } else {
            self = .todos(try TodoList.Change(op: op, in: container, checkingRange: decoder.checksDateRange))
        }
    }

    /// Writes the app-state change in the documented shape.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .todos(let change):
            try change.encode(to: encoder)
        case .setting(.todos(let list)):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("setTodos", forKey: .op)
            try container.encode(list.items, forKey: .items)
        }
    }
}
