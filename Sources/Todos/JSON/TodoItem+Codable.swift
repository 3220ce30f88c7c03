import Foundation

/// `{"id", "title", "details", "state", "due", "location", "created", "changed"}`;
/// see `docs/json-format.md`.
extension TodoItem: Codable {
    private enum Key: String, CodingKey, CaseIterable { case id, title, details, state, due, location, created, changed }

    /// Reads an item and validates it; `details`, `state`, `due`, `location`
    /// and `changed` may be left out (empty, active, unknown, unknown, `created`).
    /// `state` is `active` or `completed`, or `unfinished` or `finished`
    /// as earlier versions wrote it. Any other field is refused, unless the
    /// document is a store's own.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        try decoder.refuseUnknownFields(allowing: Key.allCases.map(\.rawValue))
        id = try container.decode(UUID.self, forKey: .id)
        let title = try container.decode(String.self, forKey: .title)
        self.title = try container.validating(.title) { () throws(TodoError) in try TodoItem.validatedTitle(title) }
        details = try container.decodeIfPresent(String.self, forKey: .details) ?? ""
        let state = try container.decodeIfPresent(String.self, forKey: .state) ?? State.active.rawValue
        guard let known = State(reading: state) else {
            throw DecodingError.dataCorruptedError(
                forKey: .state, in: container, debugDescription: "“\(state)” is not one of active, completed"
            )
        }
        self.state = known
        due = try container.decodeIfPresent(TodoDate.self, forKey: .due) ?? .unknown
        location = try container.decodeIfPresent(Location.self, forKey: .location) ?? .unknown
        let checkingRange = decoder.checksDateRange
        created = try container.decodeDate(forKey: .created, checkingRange: checkingRange)
        changed = try container.contains(.changed)
            ? container.decodeDate(forKey: .changed, checkingRange: checkingRange) : created
    }

    /// Writes every field of the item.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(details, forKey: .details)
        try container.encode(state, forKey: .state)
        try container.encode(due, forKey: .due)
        try container.encode(location, forKey: .location)
        try container.encodeDate(created, forKey: .created)
        try container.encodeDate(changed, forKey: .changed)
    }
}

/// `{"title", "details", "due", "location"}`; only `title` is required.
extension TodoItem.Draft: Codable {
    private enum Key: String, CodingKey { case title, details, due, location }

    /// Reads a draft; the title is validated when the item is made.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        self.init(
            title: try container.decode(String.self, forKey: .title),
            details: try container.decodeIfPresent(String.self, forKey: .details) ?? "",
            due: try container.decodeIfPresent(TodoDate.self, forKey: .due) ?? .unknown,
            location: try container.decodeIfPresent(Location.self, forKey: .location) ?? .unknown
        )
    }

    /// Writes every field of the draft.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(title, forKey: .title)
        try container.encode(details, forKey: .details)
        try container.encode(due, forKey: .due)
        try container.encode(location, forKey: .location)
    }
}
