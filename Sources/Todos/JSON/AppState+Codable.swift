import Foundation

/// A list is `{"items": [item, …]}` in list order; ids must be unique.
extension TodoList: Codable {
    private enum Key: String, CodingKey { case items }

    /// Reads a list, reporting a repeated id at its item's path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        try self.init(itemsIn: container, forKey: .items)
    }

    init<K: CodingKey>(itemsIn container: KeyedDecodingContainer<K>, forKey key: K) throws {
        var items = try container.nestedUnkeyedContainer(forKey: key)
        self.init()
        while !items.isAtEnd {
            let item = try items.decode(TodoItem.self)
            guard itemsByID.updateValue(item, forKey: item.id) == nil else {
                let first = ids.firstIndex(of: item.id).map { " (item \($0) has it too)" } ?? ""
                throw DecodingError.dataCorrupted(.init(
                    codingPath: items.codingPath + [JSONIndex(items.currentIndex - 1), JSONIndex(name: "id")],
                    debugDescription: "the id \(item.id.uuidString) is in the document twice\(first); each item's id must be unique"
                ))
            }
            ids.append(item.id)
        }
    }

    /// Writes the items in list order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(items, forKey: .items)
    }
}

/// The document of the whole state:
/// `{"format": "rewind-todos", "version": 2, "items": [item, …]}`.
extension AppState: Codable {
    private enum Key: String, CodingKey, CaseIterable { case format, version, items }

    /// Reads a state document; refuses another format, a newer version, or
    /// (unless it is a store's own) a field it does not know.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let format = try container.decode(String.self, forKey: .format)
        guard format == TodoJSON.format else {
            throw DecodingError.dataCorruptedError(
                forKey: .format, in: container, debugDescription: "expected “\(TodoJSON.format)”, found “\(format)”"
            )
        }
        let version = try container.decode(Int.self, forKey: .version)
        guard (1...TodoJSON.version).contains(version) else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription: "version \(version) is not supported; this program reads versions 1 to \(TodoJSON.version)"
            )
        }
        try decoder.refuseUnknownFields(allowing: Key.allCases.map(\.rawValue))
        self.init(todos: try TodoList(itemsIn: container, forKey: .items))
    }

    /// Writes the state document.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(TodoJSON.format, forKey: .format)
        try container.encode(TodoJSON.version, forKey: .version)
        try container.encode(todos.items, forKey: .items)
    }
}

/// A coding key for an array index or a name, used in error paths.
struct JSONIndex: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init(name: String) {
        stringValue = name
        intValue = nil
    }

    init?(stringValue: String) { self.init(name: stringValue) }
    init?(intValue: Int) { self.init(intValue) }
}
