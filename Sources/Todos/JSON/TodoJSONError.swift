import Foundation

/// Why a JSON document could not be read: the path of the bad field and
/// what was expected there.
///
/// ```swift
/// // items[2].due.start: expected an ISO-8601 date like 2026-12-01T09:30:00.000Z
/// ```
public struct TodoJSONError: Error, Equatable, Hashable, Sendable {
    /// Where the problem is, as `items[2].due.start`; empty for the document itself.
    public let path: String
    /// What was wrong and what is allowed.
    public let message: String

    /// Creates an error at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// Turns a decoding error into a message that names its path.
    init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context):
            self.init(path: Self.path(context.codingPath), message: "expected \(Self.describe(type))")
        case .valueNotFound(let type, let context):
            self.init(path: Self.path(context.codingPath), message: "expected \(Self.describe(type)), found null")
        case .keyNotFound(let key, let context):
            self.init(path: Self.path(context.codingPath + [key]), message: "is missing")
        case .dataCorrupted(let context):
            // A refusal of the domain is already the message; another cause is added to it.
            let underlying = context.underlyingError.flatMap { $0 is TodoError ? nil : " (\($0.localizedDescription))" } ?? ""
            // Foundation's words for a bad id, in the format's.
            let message = context.debugDescription == "Attempted to decode UUID from invalid UUID string."
                ? "expected an id, a UUID such as 0B7E4C1A-0000-4000-8000-000000000000"
                : context.debugDescription + underlying
            self.init(path: Self.path(context.codingPath), message: message)
        @unknown default:
            self.init(path: "", message: String(describing: error))
        }
    }

    /// Writes a coding path the way a person reads it: `items[2].due.start`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue.hasPrefix("Index") || key.stringValue == "\(index)" {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Double.Type: "a number"
        case is [Any].Type: "an array"
        default: type == [String: Any].self ? "an object" : "a value of type \(type)"
        }
    }
}

extension TodoJSONError: CustomStringConvertible {
    /// `path: message`, or the message alone for the whole document.
    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}

extension TodoJSONError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
