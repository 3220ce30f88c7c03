import Foundation

extension TodoJSON {
    /// A step's changes read back from the text a store wrote
    /// (``stepText(_:)-([AppState.Change])``): the same values, validated as
    /// `decoder` validates them.
    ///
    /// The text the stores write (keys sorted, no spaces) is read here
    /// directly, which a step over every item of a long list felt:
    /// `JSONDecoder` builds a map of every value before the first is made.
    /// Any other text (a location at a coordinate, names or shapes an
    /// earlier version wrote, a value that does not validate) goes through
    /// `decoder`, which reads it or says what is wrong.
    ///
    /// - Throws: What `decoder` throws.
    public static func storedChanges(_ text: String, orDecoding decoder: JSONDecoder) throws -> [AppState.Change] {
        if let changes = StoredJSONReader.read(text, { reader in reader.array { $0.appChange() } }) { return changes }
        return try decoder.decode([AppState.Change].self, from: Data(text.utf8))
    }

    /// A shared list's step changes read back from the text a store wrote,
    /// as ``storedChanges(_:orDecoding:)`` reads them.
    ///
    /// - Throws: What `decoder` throws.
    public static func storedListChanges(_ text: String, orDecoding decoder: JSONDecoder) throws -> [TodoList.Change] {
        if let changes = StoredJSONReader.read(text, { reader in reader.array { $0.listChange() } }) { return changes }
        return try decoder.decode([TodoList.Change].self, from: Data(text.utf8))
    }

    /// A shared list's step patch read back from the text a store wrote
    /// (``patchText(_:)``), as ``storedChanges(_:orDecoding:)`` reads changes.
    ///
    /// - Throws: What `decoder` throws.
    public static func storedPatch(_ text: String, orDecoding decoder: JSONDecoder) throws -> [StepPatch.Entry] {
        if let entries = StoredJSONReader.read(text, { reader in reader.array { $0.patchEntry() } }) { return entries }
        return try decoder.decode([StepPatch.Entry].self, from: Data(text.utf8))
    }
}

/// Reads the JSON that ``TodoJSON/stepText(_:)-([AppState.Change])`` and
/// ``TodoJSON/patchText(_:)`` write, byte for byte: every method answers
/// `nil` at the first byte it does not expect, and the caller then leaves
/// the text to `JSONDecoder`. Values are validated by the same initializers
/// as the format's `Decodable` conformances use, for a store's own file
/// (dates are not checked against ``TodoDate/validDates``).
struct StoredJSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// What `body` reads from the whole of `text`, or `nil` when it stops
    /// early or leaves bytes unread.
    static func read<Value>(_ text: String, _ body: (inout StoredJSONReader) -> Value?) -> Value? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = StoredJSONReader(bytes)
            guard let value = body(&reader), reader.index == bytes.count else { return nil }
            return value
        }
    }

    // MARK: Changes

    /// An app-state change: a list change, or `setTodos`.
    mutating func appChange() -> AppState.Change? {
        // `{"items": …}` begins a replace and a setTodos alike: the items are read once.
        guard skip(#"{"items":"#) else { return listChange().map(AppState.Change.todos) }
        guard let items = array({ $0.item() }) else { return nil }
        if skip(#","op":"replace"}"#) { return .todos(.replace(items)) }
        guard skip(#","op":"setTodos"}"#), let list = try? TodoList(items: items) else { return nil }
        return .setting(.todos(list))
    }

    /// A list change, its keys in the order the encoder sorts them.
    mutating func listChange() -> TodoList.Change? {
        if skip(#"{"at":"#) {
            if let position = int() {
                guard skip(#","item":"#), let item = item(), skip(#","op":"insert"}"#) else { return nil }
                return .insert(item, at: position)
            }
            guard let date = date() else { return nil }
            if skip(#","changes":"#) {
                guard let changes = array({ $0.itemChange() }), skip(#","id":"#), let id = id(), skip(#","op":"update"}"#)
                else { return nil }
                return .update(id, changes, at: date)
            }
            if skip(#","op":"completeAll"}"#) { return .completeAll(at: date) }
            if skip(#","op":"reopenAll"}"#) { return .reopenAll(at: date) }
            return nil
        }
        if skip(#"{"id":"#) {
            guard let id = id() else { return nil }
            if skip(#","op":"remove"}"#) { return .remove(id) }
            guard skip(#","op":"move","to":"#), let position = int(), skip("}") else { return nil }
            return .move(id, to: position)
        }
        if skip(#"{"ids":"#) {
            guard let ids = array({ $0.id() }), skip(#","op":"removeItems"}"#) else { return nil }
            return .removeItems(ids)
        }
        if skip(#"{"item":"#) {
            guard let item = item(), skip(#","op":"add"}"#) else { return nil }
            return .add(item)
        }
        if skip(#"{"items":"#) {
            guard let items = array({ $0.item() }), skip(#","op":"replace"}"#) else { return nil }
            return .replace(items)
        }
        if skip(#"{"op":"restore","placements":"#) {
            let placements = array { reader -> TodoList.Placement? in
                guard reader.skip(#"{"item":"#), let item = reader.item(), reader.skip(#","position":"#),
                      let position = reader.int(), reader.skip("}")
                else { return nil }
                return TodoList.Placement(item, at: position)
            }
            guard let placements, skip("}") else { return nil }
            return .restore(placements)
        }
        if skip(#"{"op":"removeCompleted"}"#) { return .removeCompleted }
        return nil
    }

    /// An item change.
    mutating func itemChange() -> TodoItem.Change? {
        guard skip(#"{"op":""#) else { return nil }
        if skip(#"complete"}"#) { return .complete }
        if skip(#"reopen"}"#) { return .reopen }
        if skip(#"toggle"}"#) { return .toggle }
        let change: TodoItem.Change
        if skip(#"title","to":"#), let title = string() {
            change = .title(to: title)
        } else if skip(#"details","to":"#), let details = string() {
            change = .details(to: details)
        } else if skip(#"due","to":"#), let due = due() {
            change = .due(to: due)
        } else if skip(#"location","to":"#), let location = location() {
            change = .location(to: location)
        } else {
            return nil
        }
        return skip("}") ? change : nil
    }

    // MARK: Patches

    /// A patch entry.
    mutating func patchEntry() -> StepPatch.Entry? {
        guard skip(#"{"after":"#), let after = placedItem(), skip(#","before":"#), let before = placedItem(),
              skip(#","id":"#), let id = id(), skip(#","moved":"#)
        else { return nil }
        let moved: Bool
        if skip("true}") {
            moved = true
        } else if skip("false}") {
            moved = false
        } else {
            return nil
        }
        return StepPatch.Entry(id: id, before: before, after: after, moved: moved)
    }

    /// A placed item or `null`: `.some(nil)` for `null`, `nil` when neither.
    private mutating func placedItem() -> PlacedItem?? {
        if skip("null") { return .some(nil) }
        guard skip(#"{"after":"#), let after = optionalID(), skip(#","item":"#), let item = item(), skip("}") else { return nil }
        return .some(PlacedItem(item, after: after))
    }

    // MARK: Items

    /// An item, validated as a store's own is when read
    /// (``TodoItem/init(restoring:title:details:state:due:location:created:changed:)``).
    mutating func item() -> TodoItem? {
        guard skip(#"{"changed":"#), let changed = date(), skip(#","created":"#), let created = date(),
              skip(#","details":"#), let details = string(), skip(#","due":"#), let due = due(),
              skip(#","id":"#), let id = id(), skip(#","location":"#), let location = location(),
              skip(#","state":"#), let stateName = string(), let state = TodoItem.State(reading: stateName),
              skip(#","title":"#), let title = string(), skip("}")
        else { return nil }
        return try? TodoItem(
            restoring: id, title: title, details: details, state: state, due: due, location: location,
            created: created, changed: changed)
    }

    /// A due date, validated as one read from a store's own file.
    private mutating func due() -> TodoDate? {
        let due: TodoDate
        if skip(#"{"kind":"unknown"}"#) {
            return .unknown
        } else if skip(#"{"date":"#) {
            guard let date = date(), skip(#","kind":"date"}"#) else { return nil }
            due = .date(date)
        } else if skip(#"{"end":"#) {
            let end: Date?
            if skip("null") { end = nil } else if let date = date() { end = date } else { return nil }
            guard skip(#","kind":"span","start":"#), let start = date(), skip("}") else { return nil }
            due = .timeSpan(.start(.from(start), end.map { .to($0) } ?? .unknown))
        } else if skip(#"{"amount":"#) {
            guard let amount = int(), skip(#","kind":"duration","start":"#), let start = date(), skip(#","unit":"#),
                  let name = string(), let unit = TodoDate.TimeSpan.Unit(rawValue: name), skip("}")
            else { return nil }
            due = .timeSpan(.duration(.from(start), for: amount, unit))
        } else {
            return nil
        }
        return try? due.validated(checkingRange: false)
    }

    /// A location, validated; `nil` for one at a coordinate, whose numbers
    /// are the encoder's to read.
    private mutating func location() -> Location? {
        let location: Location
        if skip(#"{"kind":"unknown"}"#) {
            return .unknown
        } else if skip(#"{"city":"#) {
            guard let city = string(), skip(#","country":"#), let country = string(), skip(#","kind":"address","street":"#),
                  let street = string(), skip(#","zipCode":"#), let zipCode = string(), skip("}")
            else { return nil }
            location = .address(Location.Address(street: street, city: city, zipCode: zipCode, country: country))
        } else if skip(#"{"kind":"directions","steps":"#) {
            guard let steps = array({ $0.string() }), skip("}") else { return nil }
            location = .directions(Location.Directions(steps: steps))
        } else {
            return nil
        }
        return try? location.validated()
    }

    // MARK: Values

    /// A JSON array whose elements `element` reads.
    mutating func array<Element>(_ element: (inout StoredJSONReader) -> Element?) -> [Element]? {
        guard skip("[") else { return nil }
        var elements: [Element] = []
        if skip("]") { return elements }
        repeat {
            guard let next = element(&self) else { return nil }
            elements.append(next)
        } while skip(",")
        return skip("]") ? elements : nil
    }

    /// Moves past `literal` when the bytes at hand are it.
    private mutating func skip(_ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { literal in
            guard bytes.count - index >= literal.count else { return false }
            for offset in 0..<literal.count where bytes[index + offset] != literal[offset] { return false }
            index += literal.count
            return true
        }
    }

    /// An integer: an optional minus and decimal digits, within `Int`.
    private mutating func int() -> Int? {
        let negative = skip("-")
        var value = 0
        let start = index
        while index < bytes.count, (48...57).contains(bytes[index]) {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowed) = times.addingReportingOverflow(Int(bytes[index] - 48))
            guard !overflow, !overflowed else { return nil }
            value = sum
            index += 1
        }
        // No digits, or a leading zero (which JSON does not allow), or a fraction or exponent after them.
        guard index > start, bytes[start] != 48 || index == start + 1,
              index == bytes.count || ![UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index])
        else { return nil }
        return negative ? -value : value
    }

    /// A date in the format's text (``ISO8601Milliseconds``).
    private mutating func date() -> Date? {
        string().flatMap(ISO8601Milliseconds.date(from:))
    }

    /// An id as its text in quotes, upper- or lower-case hex digits.
    private mutating func id() -> UUID? {
        guard bytes.count - index >= 38, bytes[index] == UInt8(ascii: "\""), bytes[index + 37] == UInt8(ascii: "\"") else {
            return nil
        }
        // Zeros to fill in (not `UUID().uuid`: a random id reads the system's random source each time).
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &uuid) { out -> Bool in
            var position = index + 1
            for byteIndex in 0..<16 {
                if byteIndex == 4 || byteIndex == 6 || byteIndex == 8 || byteIndex == 10 {
                    guard bytes[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = Self.hexValue(bytes[position]), let low = Self.hexValue(bytes[position + 1]) else { return false }
                out[byteIndex] = high << 4 | low
                position += 2
            }
            return true
        }
        guard parsed else { return nil }
        index += 38
        return UUID(uuid: uuid)
    }

    /// An id or `null`: `.some(nil)` for `null`, `nil` when neither.
    private mutating func optionalID() -> UUID?? {
        if skip("null") { return .some(nil) }
        return id().map { .some($0) }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }

    /// A string in quotes, its escapes read as JSON's; `nil` for a raw
    /// control character, a lone surrogate or bytes that are not UTF-8.
    private mutating func string() -> String? {
        guard skip("\"") else { return nil }
        let start = index
        // Most strings have no escape: taken as they are.
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self)
            case UInt8(ascii: "\\"):
                return escapedString(from: start)
            case 0..<0x20:
                return nil
            default:
                index += 1
            }
        }
        return nil
    }

    /// The rest of a string with escapes in it, from `start` (after its quote).
    private mutating func escapedString(from start: Int) -> String? {
        var text = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    text.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            case 0..<0x20:
                return nil
            default:
                text.append(byte)
            }
        }
        return nil
    }

    /// The scalar of a `\uXXXX` escape (the `\u` read), with the second
    /// half of a surrogate pair.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let first = hexQuad() else { return nil }
        switch first {
        case 0xD800...0xDBFF:
            guard skip("\\u"), let second = hexQuad(), (0xDC00...0xDFFF).contains(second) else { return nil }
            return Unicode.Scalar(0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00))
        case 0xDC00...0xDFFF:
            return nil
        default:
            return Unicode.Scalar(UInt32(first))
        }
    }

    private mutating func hexQuad() -> UInt16? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt16 = 0
        for offset in 0..<4 {
            guard let digit = Self.hexValue(bytes[index + offset]) else { return nil }
            value = value << 4 | UInt16(digit)
        }
        index += 4
        return value
    }
}
