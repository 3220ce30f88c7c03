import Foundation

/// What a request body must be before it is decoded: JSON exactly as RFC 8259
/// writes it, in UTF-8. Foundation's decoder is more lenient than the RFC
/// (trailing commas, UTF-16 and UTF-32 with or without a byte order mark), so
/// the bytes are checked first; what the API documents is what it accepts.
extension JSONBody {
    /// The deepest nesting of arrays and objects a body may have.
    static let maxDepth = 64

    /// A member of a body's top-level object, as ``validate(_:)`` found it.
    struct Member: Equatable {
        /// Its name, unescaped.
        var name: String
        /// Whether its value is `null`.
        var isNull: Bool
        /// Its value as written, when it is a number (`1e400`, `-2.5`).
        var number: String? = nil
    }

    /// Checks that `bytes` are one RFC 8259 JSON text in UTF-8, without a
    /// byte order mark, and returns the members of its top-level object (none
    /// when it is not an object), found on the way: what the request body
    /// middleware needs to know of the body without building it as
    /// Foundation objects.
    ///
    /// - Throws: ``APIError`` 400 that says what was found and what is allowed.
    @discardableResult
    static func validate(_ bytes: [UInt8]) throws(APIError) -> [Member] {
        // UTF-16 and UTF-32 of ASCII text are valid UTF-8 full of NULs.
        if bytes.contains(0) {
            throw .badRequest("the request body must be JSON in UTF-8 (RFC 8259); it has NUL bytes (UTF-16 or UTF-32?)")
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw .badRequest("the request body must be JSON in UTF-8 (RFC 8259); it is not valid UTF-8")
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw .badRequest("the request body must be JSON in UTF-8 without a byte order mark (RFC 8259)")
        }
        var reader = StrictJSONReader(bytes: bytes)
        do {
            try reader.readText()
        } catch {
            throw .badRequest("malformed JSON (RFC 8259) at byte \(reader.offset): \(error.reason)")
        }
        // A name given twice in an object inside the body would be read
        // two ways, as one in the body's own object (the middleware's).
        if let repeated = reader.repeatedInnerName {
            throw .badRequest("the field “\(repeated)” is given twice in one object")
        }
        return reader.topLevelMembers.map { member in
            let name = bytes[member.name]
            let first = bytes[member.value.lowerBound]
            let isNumber = first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
            let number = isNumber ? String(decoding: bytes[member.value], as: UTF8.self) : nil
            return Member(name: memberName(name), isNull: first == UInt8(ascii: "n"), number: number)
        }
    }

    /// A member name as written between its quotes, read: one that holds
    /// escapes (rare) by Foundation.
    fileprivate static func memberName(_ name: ArraySlice<UInt8>) -> String {
        guard name.contains(UInt8(ascii: "\\")) else { return String(decoding: name, as: UTF8.self) }
        let quoted = Data([UInt8(ascii: "\"")] + name + [UInt8(ascii: "\"")])
        return (try? JSONDecoder().decode(String.self, from: quoted)) ?? String(decoding: name, as: UTF8.self)
    }
}

/// Why a body is not RFC 8259 JSON.
struct StrictJSONError: Error {
    /// What was expected, for the error message.
    let reason: String
}

/// A recursive-descent reader of RFC 8259's grammar that builds nothing: it
/// only says whether, and where, the bytes leave the grammar.
struct StrictJSONReader {
    let bytes: [UInt8]
    /// Where the reader is; on an error, where the grammar was left.
    private(set) var offset = 0
    private var depth = 0
    /// The members of the top-level object read so far: where each name
    /// lies between its quotes, and where its value lies.
    private(set) var topLevelMembers: [(name: Range<Int>, value: Range<Int>)] = []
    /// The first member name found twice in one object below the top
    /// level (the middleware checks the top level's).
    private(set) var repeatedInnerName: String?

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// One value between optional whitespace, and nothing after it.
    mutating func readText() throws(StrictJSONError) {
        skipWhitespace()
        try readValue()
        skipWhitespace()
        guard offset == bytes.count else { throw StrictJSONError(reason: "unexpected text after the JSON value") }
    }

    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(StrictJSONError) {
        guard current == byte else { throw StrictJSONError(reason: "expected \(what)") }
        offset += 1
    }

    private mutating func readValue() throws(StrictJSONError) {
        guard let byte = current else { throw StrictJSONError(reason: "expected a value, found the end of the body") }
        switch byte {
        case UInt8(ascii: "{"): try readContainer(close: UInt8(ascii: "}"), isObject: true)
        case UInt8(ascii: "["): try readContainer(close: UInt8(ascii: "]"), isObject: false)
        case UInt8(ascii: "\""): try readString()
        case UInt8(ascii: "t"): try readLiteral("true")
        case UInt8(ascii: "f"): try readLiteral("false")
        case UInt8(ascii: "n"): try readLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try readNumber()
        default: throw StrictJSONError(reason: "expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func readContainer(close: UInt8, isObject: Bool) throws(StrictJSONError) {
        depth += 1
        guard depth <= JSONBody.maxDepth else {
            throw StrictJSONError(reason: "nested deeper than \(JSONBody.maxDepth) arrays and objects")
        }
        offset += 1
        skipWhitespace()
        if current == close {
            offset += 1
            depth -= 1
            return
        }
        let isTopLevelObject = isObject && depth == 1
        var names = Set<String>()
        while true {
            var name = 0..<0
            if isObject {
                guard current == UInt8(ascii: "\"") else {
                    throw StrictJSONError(reason: "expected a member name in double quotes (no trailing comma)")
                }
                let start = offset
                try readString()
                name = (start + 1)..<(offset - 1)
                if !isTopLevelObject, repeatedInnerName == nil, !names.insert(JSONBody.memberName(bytes[name])).inserted {
                    repeatedInnerName = JSONBody.memberName(bytes[name])
                }
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "“:” after a member name")
                skipWhitespace()
            }
            let value = offset
            try readValue()
            if isTopLevelObject { topLevelMembers.append((name, value..<offset)) }
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                offset += 1
                skipWhitespace()
                if current == close { throw StrictJSONError(reason: "expected a value after “,” (trailing commas are not JSON)") }
                continue
            }
            try expect(close, isObject ? "“,” or “}”" : "“,” or “]”")
            depth -= 1
            return
        }
    }

    private mutating func readString() throws(StrictJSONError) {
        offset += 1
        while let byte = current {
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                return
            case UInt8(ascii: "\\"):
                switch current {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    offset += 1
                case UInt8(ascii: "u"):
                    offset += 1
                    let start = offset - 2
                    let unit = try readCodeUnit()
                    if (0xDC00...0xDFFF).contains(unit) {
                        offset = start
                        throw StrictJSONError(reason: Self.loneSurrogate(unit))
                    }
                    if (0xD800...0xDBFF).contains(unit) {
                        // A character beyond U+FFFF: a high surrogate, then a low one.
                        guard current == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u")
                        else {
                            offset = start
                            throw StrictJSONError(reason: Self.loneSurrogate(unit))
                        }
                        offset += 2
                        guard (0xDC00...0xDFFF).contains(try readCodeUnit()) else {
                            offset = start
                            throw StrictJSONError(reason: Self.loneSurrogate(unit))
                        }
                    }
                default:
                    throw StrictJSONError(reason: "expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)")
                }
            case 0x00..<0x20:
                offset -= 1
                throw StrictJSONError(reason: "no control characters inside a string (escape them)")
            default:
                continue
            }
        }
        throw StrictJSONError(reason: "expected a closing double quote")
    }

    /// The four hexadecimal digits of a `\\u` escape, as a UTF-16 code unit.
    private mutating func readCodeUnit() throws(StrictJSONError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let digit = current, let value = Character(Unicode.Scalar(digit)).hexDigitValue else {
                throw StrictJSONError(reason: "expected four hexadecimal digits after \\u")
            }
            unit = unit << 4 | UInt16(value)
            offset += 1
        }
        return unit
    }

    /// Why the surrogate `unit` cannot stand where it is.
    private static func loneSurrogate(_ unit: UInt16) -> String {
        let hex = String(unit, radix: 16, uppercase: true)
        return "\\u\(hex) is half of a character (a UTF-16 surrogate) with no other half: a string holds whole characters; "
            + "write one beyond U+FFFF as a pair, \\uD800–\\uDBFF then \\uDC00–\\uDFFF, or as itself in UTF-8"
    }

    private mutating func readLiteral(_ literal: String) throws(StrictJSONError) {
        for byte in literal.utf8 {
            guard current == byte else { throw StrictJSONError(reason: "expected “\(literal)”") }
            offset += 1
        }
    }

    private mutating func readNumber() throws(StrictJSONError) {
        if current == UInt8(ascii: "-") { offset += 1 }
        if current == UInt8(ascii: "0") {
            offset += 1
        } else {
            try readDigits("a digit")
        }
        if current == UInt8(ascii: ".") {
            offset += 1
            try readDigits("a digit after the decimal point")
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            try readDigits("a digit in the exponent")
        }
    }

    private mutating func readDigits(_ what: String) throws(StrictJSONError) {
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw StrictJSONError(reason: "expected \(what)")
        }
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { offset += 1 }
    }
}
