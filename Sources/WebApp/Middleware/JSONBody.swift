import Foundation

/// What the API says about request bodies that are not what an operation
/// takes.
enum JSONBody {
    /// A sentence that says what a decoding error found wrong, and where.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let names = codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.isEmpty ? "body" : "field “\(names.joined(separator: ".").replacingOccurrences(of: ".[", with: "["))”"
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                // The body was checked to be JSON before it was decoded
                // (``validate(_:)``): what Foundation's decoder calls "not
                // valid JSON" without a field is a number that its field
                // cannot take (1.5 or 1e30 where a whole number goes, 1e400
                // anywhere).
                return "invalid number: a number too large for its field, or a fraction where a whole number goes"
            }
            return "invalid \(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "missing \(path(context.codingPath + [key]))"
        case .typeMismatch(let type, let context):
            return "invalid \(path(context.codingPath)): expected \(describe(type))"
        case .valueNotFound(let type, let context):
            return "invalid \(path(context.codingPath)): expected \(describe(type)), found null"
        @unknown default:
            return "malformed JSON"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Double.Type: "a number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "a JSON object"
        default: "a \(type)"
        }
    }
}
