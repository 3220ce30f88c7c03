import Foundation

extension TodoJSON {
    /// The JSON array of `changes`, as the stores write a step's changes and
    /// their inverse into the history log: byte for byte what
    /// ``makeEncoder(pretty:)`` writes.
    ///
    /// Every change is written here directly; `JSONEncoder`'s generic path
    /// was most of the processor time a store spent planning an add, and
    /// built a tree of every value before writing a step over the whole
    /// list. A step that holds an item or a location at a coordinate (whose
    /// numbers are left to the encoder's own formatting) goes through the
    /// encoder.
    ///
    /// - Throws: ``TodoJSONError`` when the encoder cannot write a value.
    public static func stepText(_ changes: [AppState.Change]) throws(TodoJSONError) -> String {
        var json = JSONBytes()
        json.append("[")
        for (index, change) in changes.enumerated() {
            if index > 0 { json.append(",") }
            guard change.writeJSON(into: &json) else { return String(decoding: try encode(changes), as: UTF8.self) }
        }
        json.append("]")
        return json.text
    }
}

extension AppState.Change {
    /// Appends the change's JSON object, keys sorted, as the encoder writes
    /// it; `false`, with `json` left part written, when the change holds
    /// what only the encoder writes (``TodoItem/isWrittenDirectly``).
    fileprivate func writeJSON(into json: inout JSONBytes) -> Bool {
        switch self {
        case .todos(let change):
            return change.writeJSON(into: &json)
        case .setting(.todos(let list)):
            json.append(#"{"items":"#)
            guard list.items.writeJSON(into: &json) else { return false }
            json.append(#","op":"setTodos"}"#)
            return true
        }
    }
}

extension TodoList.Change {
    /// Appends the change's JSON object, keys sorted, as the encoder writes
    /// it; `false` when it holds what only the encoder writes.
    fileprivate func writeJSON(into json: inout JSONBytes) -> Bool {
        switch self {
        case .add(let item):
            guard item.isWrittenDirectly else { return false }
            json.append(#"{"item":"#)
            item.writeJSON(into: &json)
            json.append(#","op":"add"}"#)
        case .insert(let item, let position):
            guard item.isWrittenDirectly else { return false }
            json.append(#"{"at":"#)
            json.append(String(position))
            json.append(#","item":"#)
            item.writeJSON(into: &json)
            json.append(#","op":"insert"}"#)
        case .remove(let id):
            json.append(#"{"id":"#)
            json.appendID(id)
            json.append(#","op":"remove"}"#)
        case .removeItems(let ids):
            json.append(#"{"ids":["#)
            for (index, id) in ids.enumerated() {
                if index > 0 { json.append(",") }
                json.appendID(id)
            }
            json.append(#"],"op":"removeItems"}"#)
        case .restore(let placements):
            json.append(#"{"op":"restore","placements":["#)
            for (index, placement) in placements.enumerated() {
                guard placement.item.isWrittenDirectly else { return false }
                if index > 0 { json.append(",") }
                json.append(#"{"item":"#)
                placement.item.writeJSON(into: &json)
                json.append(#","position":"#)
                json.append(String(placement.position))
                json.append("}")
            }
            json.append("]}")
        case .update(let id, let changes, let date):
            json.append(#"{"at":"#)
            json.appendDate(date)
            json.append(#","changes":["#)
            for (index, change) in changes.enumerated() {
                if index > 0 { json.append(",") }
                guard change.writeJSON(into: &json) else { return false }
            }
            json.append(#"],"id":"#)
            json.appendID(id)
            json.append(#","op":"update"}"#)
        case .replace(let items):
            json.append(#"{"items":"#)
            guard items.writeJSON(into: &json) else { return false }
            json.append(#","op":"replace"}"#)
        case .move(let id, let position):
            json.append(#"{"id":"#)
            json.appendID(id)
            json.append(#","op":"move","to":"#)
            json.append(String(position))
            json.append("}")
        case .completeAll(let date):
            json.append(#"{"at":"#)
            json.appendDate(date)
            json.append(#","op":"completeAll"}"#)
        case .reopenAll(let date):
            json.append(#"{"at":"#)
            json.appendDate(date)
            json.append(#","op":"reopenAll"}"#)
        case .removeCompleted:
            json.append(#"{"op":"removeCompleted"}"#)
        }
        return true
    }
}

extension TodoItem.Change {
    /// Appends the item change's JSON object, keys sorted, as the encoder
    /// writes it; `false` for a location at a coordinate.
    fileprivate func writeJSON(into json: inout JSONBytes) -> Bool {
        switch self {
        case .title(let title):
            json.append(#"{"op":"title","to":"#)
            json.appendString(title)
        case .details(let details):
            json.append(#"{"op":"details","to":"#)
            json.appendString(details)
        case .due(let due):
            json.append(#"{"op":"due","to":"#)
            due.writeJSON(into: &json)
        case .location(let location):
            if case .coordinate = location { return false }
            json.append(#"{"op":"location","to":"#)
            location.writeJSON(into: &json)
        case .complete:
            json.append(#"{"op":"complete""#)
        case .reopen:
            json.append(#"{"op":"reopen""#)
        case .toggle:
            json.append(#"{"op":"toggle""#)
        }
        json.append("}")
        return true
    }
}

extension [TodoItem] {
    /// Appends the items' JSON array; `false` when one is at a coordinate.
    fileprivate func writeJSON(into json: inout JSONBytes) -> Bool {
        json.append("[")
        for (index, item) in enumerated() {
            guard item.isWrittenDirectly else { return false }
            if index > 0 { json.append(",") }
            item.writeJSON(into: &json)
        }
        json.append("]")
        return true
    }
}

extension TodoJSON {
    /// The JSON array of a shared list's step changes, as the stores write
    /// a row's `changes`: byte for byte what ``makeEncoder(pretty:)``
    /// writes, the adds and removes written directly.
    ///
    /// - Throws: ``TodoJSONError`` when the encoder cannot write a value.
    public static func stepText(_ changes: [TodoList.Change]) throws(TodoJSONError) -> String {
        // A list change is written as the app-state change that holds it.
        try stepText(changes.map(AppState.Change.todos))
    }

    /// The JSON array of a shared list's step patch, as the stores write a
    /// row's `patch`: byte for byte what ``makeEncoder(pretty:)`` writes.
    /// Entries whose items are written directly (every item but one at a
    /// coordinate) are written here; a patch with any other goes through
    /// the encoder.
    ///
    /// - Throws: ``TodoJSONError`` when the encoder cannot write a value.
    public static func patchText(_ entries: [StepPatch.Entry]) throws(TodoJSONError) -> String {
        var json = JSONBytes()
        json.append("[")
        for (index, entry) in entries.enumerated() {
            guard entry.before?.item.isWrittenDirectly ?? true, entry.after?.item.isWrittenDirectly ?? true else {
                return String(decoding: try encode(entries), as: UTF8.self)
            }
            if index > 0 { json.append(",") }
            json.append(#"{"after":"#)
            entry.after.writeJSON(into: &json)
            json.append(#","before":"#)
            entry.before.writeJSON(into: &json)
            json.append(#","id":"#)
            json.appendID(entry.id)
            json.append(#","moved":"#)
            json.append(entry.moved ? "true" : "false")
            json.append("}")
        }
        json.append("]")
        return json.text
    }
}

extension PlacedItem? {
    /// Appends the placed item's JSON object, keys sorted, or `null`.
    fileprivate func writeJSON(into json: inout JSONBytes) {
        guard let placed = self else { return json.append("null") }
        json.append(#"{"after":"#)
        if let after = placed.after {
            json.appendID(after)
        } else {
            json.append("null")
        }
        json.append(#","item":"#)
        placed.item.writeJSON(into: &json)
        json.append("}")
    }
}

extension TodoItem {
    /// Whether ``TodoJSON/stepText(_:)`` writes the item itself.
    fileprivate var isWrittenDirectly: Bool {
        if case .coordinate = location { return false }
        return true
    }

    /// Appends the item's JSON object, keys sorted, as the encoder writes it.
    fileprivate func writeJSON(into json: inout JSONBytes) {
        json.append(#"{"changed":"#)
        json.appendDate(changed)
        json.append(#","created":"#)
        json.appendDate(created)
        json.append(#","details":"#)
        json.appendString(details)
        json.append(#","due":"#)
        due.writeJSON(into: &json)
        json.append(#","id":"#)
        json.appendID(id)
        json.append(#","location":"#)
        location.writeJSON(into: &json)
        json.append(#","state":""#)
        json.append(state.rawValue)
        json.append(#"","title":"#)
        json.appendString(title)
        json.append("}")
    }
}

extension TodoDate {
    /// Appends the due date's JSON object, keys sorted.
    fileprivate func writeJSON(into json: inout JSONBytes) {
        switch self {
        case .unknown:
            json.append(#"{"kind":"unknown"}"#)
        case .date(let date):
            json.append(#"{"date":"#)
            json.appendDate(date)
            json.append(#","kind":"date"}"#)
        case .timeSpan(.start(.from(let start), let end)):
            json.append(#"{"end":"#)
            if case .to(let end) = end {
                json.appendDate(end)
            } else {
                json.append("null")
            }
            json.append(#","kind":"span","start":"#)
            json.appendDate(start)
            json.append("}")
        case .timeSpan(.duration(.from(let start), let amount, let unit)):
            json.append(#"{"amount":"#)
            json.append(String(amount))
            json.append(#","kind":"duration","start":"#)
            json.appendDate(start)
            json.append(#","unit":""#)
            json.append(unit.rawValue)
            json.append("\"}")
        }
    }
}

extension Location {
    /// Appends the location's JSON object, keys sorted (not for a
    /// coordinate: see ``TodoItem/isWrittenDirectly``).
    fileprivate func writeJSON(into json: inout JSONBytes) {
        switch self {
        case .unknown, .coordinate:
            json.append(#"{"kind":"unknown"}"#)
        case .address(let address):
            json.append(#"{"city":"#)
            json.appendString(address.city)
            json.append(#","country":"#)
            json.appendString(address.country)
            json.append(#","kind":"address","street":"#)
            json.appendString(address.street)
            json.append(#","zipCode":"#)
            json.appendString(address.zipCode)
            json.append("}")
        case .directions(let directions):
            json.append(#"{"kind":"directions","steps":["#)
            for (index, step) in directions.steps.enumerated() {
                if index > 0 { json.append(",") }
                json.appendString(step)
            }
            json.append("]}")
        }
    }
}

/// JSON text gathered as UTF-8 bytes, its strings written as Foundation's
/// `JSONEncoder` writes them without `.withoutEscapingSlashes`.
struct JSONBytes {
    private var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(512)
    }

    /// The text written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `literal` as it is.
    mutating func append(_ literal: String) {
        bytes.append(contentsOf: literal.utf8)
    }

    /// Appends an id as the encoder writes it: its upper-case text
    /// (`uuidString`), in quotes. Written from its bytes here: `uuidString`
    /// formats through `snprintf`, which a step over every item of a long
    /// list felt.
    mutating func appendID(_ id: UUID) {
        let digits: StaticString = "0123456789ABCDEF"
        bytes.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: id.uuid) { uuid in
            digits.withUTF8Buffer { hex in
                for (index, byte) in uuid.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0x0F)])
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a date as the format writes it, in quotes.
    mutating func appendDate(_ date: Date) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: ISO8601Milliseconds.string(from: date).utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `string` in quotes: `"` `\` and `/` escaped with a
    /// backslash, the control characters below U+0020 as `\b` `\f` `\n`
    /// `\r` `\t` or `\u00xx`, every other byte of its UTF-8 as it is.
    mutating func appendString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
