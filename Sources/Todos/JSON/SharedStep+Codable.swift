import Foundation

/// A shared list's log row:
/// `{"seq": 3, "author": "ann", "name": "Rename “Milk”", "kind": "undo", "of": 2,
/// "date": "2026-12-01T09:30:00.000Z", "changes": [change], "patch": [entry],
/// "skipped": [skipped part]}`, where `kind` is `change`, `undo` or `redo`
/// and `of` names the row an undo or redo takes back (absent for a change).
/// A change may add `"coalescingKey"` and `"joins"` (the first row of the
/// step it joined).
extension SharedStep: Codable {
    private enum Key: String, CodingKey { case seq, author, name, kind, of, date, changes, patch, skipped, coalescingKey, joins }

    /// Reads a log row in the documented shape.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let kind: Kind =
            switch try container.decodeTag(forKey: .kind, allowed: ["change", "undo", "redo"]) {
            case "undo": .undo(of: try container.decode(Int.self, forKey: .of))
            case "redo": .redo(of: try container.decode(Int.self, forKey: .of))
            default: .change
            }
        self.init(
            seq: try container.decode(Int.self, forKey: .seq), author: try container.decode(String.self, forKey: .author),
            name: try container.decode(String.self, forKey: .name), kind: kind,
            changes: try container.decode([TodoList.Change].self, forKey: .changes),
            patch: StepPatch(entries: try container.decode([StepPatch.Entry].self, forKey: .patch)),
            skipped: try container.decode([SkippedPart].self, forKey: .skipped),
            date: try container.decodeDate(forKey: .date, checkingRange: false),
            coalescingKey: try container.decodeIfPresent(String.self, forKey: .coalescingKey),
            joins: try container.decodeIfPresent(Int.self, forKey: .joins))
    }

    /// Writes the log row in the documented shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(author, forKey: .author)
        try container.encode(name, forKey: .name)
        switch kind {
        case .change:
            try container.encode("change", forKey: .kind)
        case .undo(let row):
            try container.encode("undo", forKey: .kind)
            try container.encode(row, forKey: .of)
        case .redo(let row):
            try container.encode("redo", forKey: .kind)
            try container.encode(row, forKey: .of)
        }
        try container.encodeDate(date, forKey: .date)
        try container.encode(changes, forKey: .changes)
        try container.encode(patch.entries, forKey: .patch)
        try container.encode(skipped, forKey: .skipped)
        try container.encodeIfPresent(coalescingKey, forKey: .coalescingKey)
        try container.encodeIfPresent(joins, forKey: .joins)
    }
}

/// A touched item: `{"id": uuid, "before": placed item or null, "after":
/// placed item or null, "moved": false}`.
extension StepPatch.Entry: Codable {
    private enum Key: String, CodingKey { case id, before, after, moved }

    /// Reads a patch entry.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        self.init(
            id: try container.decode(UUID.self, forKey: .id),
            before: try container.decodeIfPresent(PlacedItem.self, forKey: .before),
            after: try container.decodeIfPresent(PlacedItem.self, forKey: .after),
            moved: try container.decodeIfPresent(Bool.self, forKey: .moved) ?? false)
    }

    /// Writes the patch entry.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(id, forKey: .id)
        try container.encode(before, forKey: .before)
        try container.encode(after, forKey: .after)
        try container.encode(moved, forKey: .moved)
    }
}

/// `{"item": item, "after": uuid or null}`: an item and the id of the item it follows.
extension PlacedItem: Codable {
    private enum Key: String, CodingKey { case item, after }

    /// Reads a placed item.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        self.init(
            try container.decode(TodoItem.self, forKey: .item), after: try container.decodeIfPresent(UUID.self, forKey: .after))
    }

    /// Writes the placed item.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(item, forKey: .item)
        try container.encode(after, forKey: .after)
    }
}

/// `{"item": uuid, "title": "Milk", "reason": "written", "part": "title",
/// "by": "bob", "completedNow": false}`; `reason` is `written` (with `part`),
/// `deleted` or `keptAdded`.
extension SkippedPart: Codable {
    private enum Key: String, CodingKey { case item, title, reason, part, by, completedNow }

    /// Reads a skipped part.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let reason: Reason =
            switch try container.decodeTag(forKey: .reason, allowed: ["written", "deleted", "keptAdded"]) {
            case "written":
                .written(
                    ItemPart(rawValue: try container.decodeTag(forKey: .part, allowed: ItemPart.allCases.map(\.rawValue)))
                        ?? .existence)
            case "deleted": .deleted
            default: .keptAdded
            }
        self.init(
            item: try container.decode(UUID.self, forKey: .item), title: try container.decode(String.self, forKey: .title),
            reason: reason, by: try container.decode(String.self, forKey: .by),
            isCompletedNow: try container.decodeIfPresent(Bool.self, forKey: .completedNow) ?? false)
    }

    /// Writes the skipped part.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(self.item, forKey: .item)
        try container.encode(title, forKey: .title)
        switch reason {
        case .written(let part):
            try container.encode("written", forKey: .reason)
            try container.encode(part.rawValue, forKey: .part)
        case .deleted:
            try container.encode("deleted", forKey: .reason)
        case .keptAdded:
            try container.encode("keptAdded", forKey: .reason)
        }
        try container.encode(by, forKey: .by)
        try container.encode(isCompletedNow, forKey: .completedNow)
    }
}
