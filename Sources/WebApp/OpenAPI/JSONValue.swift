/// A JSON value whose objects keep their keys in the order written, so that
/// a document built in Swift reads the same as JSON and as YAML.
indirect enum JSONValue: Sendable, Equatable {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.json() == rhs.json()
    }

    /// The value of `key` in an object, or `nil`.
    subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    /// The keys of an object in order; empty for other values.
    var keys: [String] {
        guard case .object(let pairs) = self else { return [] }
        return pairs.map(\.0)
    }

    // MARK: JSON

    /// The value as JSON text, indented by two spaces.
    func json(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .string(let text): return Self.quoted(text)
        case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .integer(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array(let values):
            guard !values.isEmpty else { return "[]" }
            return "[\n" + values.map { inner + $0.json(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let pairs):
            guard !pairs.isEmpty else { return "{}" }
            return "{\n"
                + pairs.map { inner + Self.quoted($0.0) + ": " + $0.1.json(indent: inner) }.joined(separator: ",\n")
                + "\n\(indent)}"
        }
    }

    /// `text` as a JSON string literal; it is also a valid YAML scalar.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    // MARK: YAML

    /// The value as a YAML document (block style; strings double-quoted, so
    /// no value is misread).
    func yaml() -> String {
        switch self {
        case .object, .array: yamlBlock(indent: "") + "\n"
        default: yamlScalar + "\n"
        }
    }

    private var isNonEmptyCollection: Bool {
        switch self {
        case .array(let values): !values.isEmpty
        case .object(let pairs): !pairs.isEmpty
        default: false
        }
    }

    private var yamlScalar: String {
        switch self {
        case .array: "[]"
        case .object: "{}"
        default: json()
        }
    }

    private func yamlBlock(indent: String) -> String {
        switch self {
        case .object(let pairs):
            return pairs.map { key, value in
                let name = Self.yamlKey(key)
                guard value.isNonEmptyCollection else { return indent + name + ": " + value.yamlScalar }
                return indent + name + ":\n" + value.yamlBlock(indent: indent + "  ")
            }.joined(separator: "\n")
        case .array(let values):
            return values.map { value in
                guard value.isNonEmptyCollection else { return indent + "- " + value.yamlScalar }
                let block = value.yamlBlock(indent: indent + "  ")
                return indent + "- " + block.dropFirst(indent.count + 2)
            }.joined(separator: "\n")
        default:
            return indent + yamlScalar
        }
    }

    private static func yamlKey(_ key: String) -> String {
        let plain = key.unicodeScalars.allSatisfy { scalar in
            (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
                || scalar == "_" || scalar == "-" || scalar == "/" || scalar == "." || scalar == "{" || scalar == "}"
        }
        return plain && !key.isEmpty && !key.hasPrefix("{") && key.first?.isNumber == false ? key : quoted(key)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .integer(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
}
