import Foundation
import Todos

/// An item as `--json` prints it: the documented item fields
/// (`docs/json-format.md`) plus its short reference `ref` and, in a listing,
/// its `number`.
struct ItemJSON: Encodable {
    /// The item.
    let item: TodoItem
    /// Its short reference.
    let ref: String
    /// Its number in the listing, from 1; `nil` outside a listing.
    var number: Int?

    private enum Key: String, CodingKey { case ref, number }

    /// Writes the item's fields and `ref` (and `number`) in one object.
    func encode(to encoder: any Encoder) throws {
        try item.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(ref, forKey: .ref)
        try container.encodeIfPresent(number, forKey: .number)
    }
}

/// Prints values as JSON on standard output, in the to-do format's encoding
/// (ISO 8601 dates with milliseconds, sorted keys).
enum JSONOutput {
    /// Prints `value` as one JSON document followed by a line break.
    static func print(_ value: some Encodable) throws {
        let data = try TodoJSON.encode(value, pretty: true)
        TodoTerminal.print(String(decoding: data, as: UTF8.self))
    }

    /// The items `items` as `--json` prints them, without numbers.
    static func items(_ items: [TodoItem], references: ShortReferences) -> [ItemJSON] {
        items.map { ItemJSON(item: $0, ref: references($0.id)) }
    }
}
