import Foundation
import Todos

/// A fast reader of the item bodies (and of the most common step changes)
/// that the store writes, for opening a database.
///
/// `JSONDecoder` costs about 10 µs an item through `Codable` (containers,
/// coding paths, keys looked up by string), which for 100,000 items was most
/// of an open. This reader takes the common shape of an item body, an object
/// of strings whose `due` is unknown or a date and whose `location` is
/// unknown, straight from the bytes, and builds the item with the same
/// validating initializer.
///
/// It never decides that a body is bad: anything it does not take exactly
/// (another shape of due date or location, an unknown or repeated key, a
/// `\u` escape, text that is not UTF-8, an id not in the 8-4-4-4-12 form, a
/// title the item refuses, …) makes it return `nil`, and the caller decodes
/// that body with `JSONDecoder`, which gives the item or the error as before.
enum RowBodyReader {
    /// The item in `body`, or `nil` when the body is not in the shape this
    /// reader takes (then `JSONDecoder` must decode it).
    static func item(_ body: UnsafeRawBufferPointer) -> TodoItem? {
        var scanner = Scanner(bytes: body)
        return scanner.item()
    }

    /// The changes in `changes` when they are the one change that undoes an
    /// add, `[{"id":ID,"op":"remove"}]` (keys in any order), or `nil` for
    /// anything else (then `JSONDecoder` must decode them).
    static func changes(_ changes: UnsafeRawBufferPointer) -> [AppState.Change]? {
        var scanner = Scanner(bytes: changes)
        return scanner.removal()
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        mutating func item() -> TodoItem? {
            var id: UUID?
            var title: String?
            var details: String?
            var state: TodoItem.State?
            var due: TodoDate?
            var location: Location?
            var created: Date?
            var changed: Date?
            let complete = object { scanner, key in
                switch key {
                case "id": Self.once(&id, scanner.string().flatMap(Self.uuid))
                case "title": Self.once(&title, scanner.string())
                case "details": Self.once(&details, scanner.string())
                case "state": Self.once(&state, scanner.string().flatMap(TodoItem.State.init(rawValue:)))
                case "created": Self.once(&created, scanner.date())
                case "changed": Self.once(&changed, scanner.date())
                case "due": Self.once(&due, scanner.dueDate())
                case "location": Self.once(&location, scanner.unknownLocation())
                default: false
                }
            }
            skipWhitespace()
            guard complete, index == bytes.count, let id, let title, let created else { return nil }
            return try? TodoItem(
                id: id, title: title, details: details ?? "", state: state ?? .unfinished,
                due: due ?? .unknown, location: location ?? .unknown, created: created, changed: changed ?? created)
        }

        mutating func removal() -> [AppState.Change]? {
            skipWhitespace()
            guard take(UInt8(ascii: "[")) else { return nil }
            var id: UUID?
            var op: String?
            let complete = object { scanner, key in
                switch key {
                case "id": Self.once(&id, scanner.string().flatMap(Self.uuid))
                case "op": Self.once(&op, scanner.string())
                default: false
                }
            }
            skipWhitespace()
            guard complete, take(UInt8(ascii: "]")) else { return nil }
            skipWhitespace()
            guard index == bytes.count, op == "remove", let id else { return nil }
            return [.remove(id)]
        }

        /// `{"kind":"unknown"}` or `{"date":DATE,"kind":"date"}`, in any order.
        mutating func dueDate() -> TodoDate? {
            var kind: String?
            var date: Date?
            let complete = object { scanner, key in
                switch key {
                case "kind": Self.once(&kind, scanner.string())
                case "date": Self.once(&date, scanner.date())
                default: false
                }
            }
            guard complete else { return nil }
            switch (kind, date) {
            case ("unknown", nil): return .unknown
            case ("date", let date?): return .date(date)
            default: return nil
            }
        }

        /// `{"kind":"unknown"}`.
        mutating func unknownLocation() -> Location? {
            var kind: String?
            let complete = object { scanner, key in
                key == "kind" && Self.once(&kind, scanner.string())
            }
            return complete && kind == "unknown" ? .unknown : nil
        }

        /// Keeps `value` in `slot` when the slot is still empty and there is a
        /// value; returns whether it did (a repeated key or a value of the
        /// wrong kind ends the fast reading).
        static func once<Value>(_ slot: inout Value?, _ value: Value?) -> Bool {
            guard slot == nil, let value else { return false }
            slot = value
            return true
        }

        /// Reads an object, calling `member` with each key once the scanner
        /// stands on its value; `member` reads the value and returns whether
        /// it took it. Returns whether the whole object was read.
        mutating func object(_ member: (inout Scanner, String) -> Bool) -> Bool {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return false }
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return true }
            while true {
                skipWhitespace()
                guard let key = string() else { return false }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
                guard member(&self, key) else { return false }
                skipWhitespace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}"))
            }
        }

        /// A string value; `nil` for anything else, a `\u` escape or bytes
        /// that are not UTF-8.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte < 0x20 { return nil }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    index += 1
                }
                index += 1
            }
            guard index < bytes.count else { return nil }
            let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
            index += 1
            guard escaped else { return Self.text(raw) }
            var unescaped: [UInt8] = []
            unescaped.reserveCapacity(raw.count)
            var position = 0
            while position < raw.count {
                let byte = raw[position]
                position += 1
                guard byte == UInt8(ascii: "\\") else {
                    unescaped.append(byte)
                    continue
                }
                guard position < raw.count else { return nil }
                let escape = raw[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(escape)
                case UInt8(ascii: "b"): unescaped.append(0x08)
                case UInt8(ascii: "f"): unescaped.append(0x0C)
                case UInt8(ascii: "n"): unescaped.append(0x0A)
                case UInt8(ascii: "r"): unescaped.append(0x0D)
                case UInt8(ascii: "t"): unescaped.append(0x09)
                default: return nil
                }
            }
            return unescaped.withUnsafeBytes(Self.text)
        }

        /// The text of UTF-8 `bytes`, or `nil` when they are not UTF-8. ASCII,
        /// the common case, is copied without `String(validating:)`, whose
        /// generic path was a tenth of an open.
        static func text(_ bytes: UnsafeRawBufferPointer) -> String? {
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return String(validating: bytes, as: UTF8.self) }
            return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                _ = buffer.initialize(fromContentsOf: bytes)
                return bytes.count
            }
        }

        mutating func date() -> Date? {
            string().flatMap(ISO8601Milliseconds.date(from:))
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
                default: return
                }
            }
        }

        /// The UUID of `text` in the form `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX`
        /// (hexadecimal digits of either case), or `nil`.
        static func uuid(_ text: String) -> UUID? {
            let utf8 = text.utf8
            return utf8.withContiguousStorageIfAvailable { characters -> UUID? in
                guard characters.count == 36 else { return nil }
                var bytes: [UInt8] = []
                bytes.reserveCapacity(16)
                var position = 0
                while position < 36 {
                    if position == 8 || position == 13 || position == 18 || position == 23 {
                        guard characters[position] == UInt8(ascii: "-") else { return nil }
                        position += 1
                        continue
                    }
                    guard let high = hexValue(characters[position]), let low = hexValue(characters[position + 1]) else {
                        return nil
                    }
                    bytes.append(high << 4 | low)
                    position += 2
                }
                return UUID(uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            } ?? nil
        }

        private static func hexValue(_ character: UInt8) -> UInt8? {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
            default: nil
            }
        }
    }
}
