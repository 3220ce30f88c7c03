import Foundation

/// The layout of a calculator's keypad: its button labels, row by row, and
/// how many buttons fit in a row.
///
/// It is decoded from JSON such as
///
/// ```json
/// {"labels": ["7", "8", "9", "÷", "4", "5", "6", "x"], "columnCount": 4}
/// ```
///
/// and every label must name a key of the ``CommandFactory`` it is checked
/// against.
public struct ButtonConfiguration: Equatable, Hashable, Sendable, Encodable {
    /// The button labels, row by row.
    public let labels: [String]
    /// How many buttons make a row; at least 1.
    public let columnCount: Int

    /// Creates a configuration, checking it against `factory`.
    ///
    /// - Parameter source: Names the configuration in errors (a file path).
    /// - Throws: ``ConfigurationError`` for no labels, an empty or unknown
    ///   label, or a column count below 1.
    public init(
        labels: [String],
        columnCount: Int,
        factory: CommandFactory = .standard,
        source: String = "button configuration"
    ) throws(ConfigurationError) {
        if let problem = Self.problem(labels: labels, columnCount: columnCount, factory: factory) {
            throw ConfigurationError(source: source, problem: problem)
        }
        self.labels = labels
        self.columnCount = columnCount
    }

    /// The labels in rows of ``columnCount``; the last row may be shorter.
    public var rows: [[String]] {
        stride(from: 0, to: labels.count, by: columnCount).map { start in
            Array(labels[start ..< min(start + columnCount, labels.count)])
        }
    }

    /// Decodes and checks a configuration from JSON.
    ///
    /// - Parameters:
    ///   - data: The JSON text: `{"labels": [...], "columnCount": 4}`.
    ///   - source: Names the configuration in errors, usually its file path.
    ///   - factory: The keys the labels must name.
    /// - Throws: ``ConfigurationError`` naming `source` and the problem.
    public static func decode(
        from data: Data,
        source: String,
        factory: CommandFactory = .standard
    ) throws(ConfigurationError) -> ButtonConfiguration {
        let raw: Raw
        do {
            raw = try JSONDecoder().decode(Raw.self, from: data)
        } catch let error as DecodingError {
            throw ConfigurationError(source: source, problem: columnCountMisfit(in: data) ?? .init(error))
        } catch {
            throw ConfigurationError(source: source, problem: .invalidJSON)
        }
        // A field the decoder would leave unread, such as "colums": a mistake, not a wish.
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let unknown = object.keys.sorted().first(where: { !["labels", "columnCount"].contains($0) })
        {
            throw ConfigurationError(source: source, problem: .unknownField(unknown))
        }
        return try ButtonConfiguration(labels: raw.labels, columnCount: raw.columnCount, factory: factory, source: source)
    }

    /// The most columns a keypad may have.
    public static let maximumColumnCount = 12
    /// The most buttons a keypad may have.
    public static let maximumLabelCount = 100
    /// The most characters a label may have.
    public static let maximumLabelLength = 16

    private static func problem(labels: [String], columnCount: Int, factory: CommandFactory) -> ConfigurationError.Problem? {
        if columnCount < 1 { return .columnCountTooSmall(columnCount) }
        if columnCount > maximumColumnCount { return .columnCountTooLarge(columnCount) }
        if labels.isEmpty { return .noLabels }
        if labels.count > maximumLabelCount { return .tooManyLabels(labels.count) }
        if let index = labels.firstIndex(where: { $0.count > maximumLabelLength }) {
            return .labelTooLong(position: index + 1)
        }
        if let index = labels.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            return .emptyLabel(position: index + 1)
        }
        if let unknown = labels.first(where: { !factory.knows($0) }) {
            return .unknownLabel(unknown, knownLabels: factory.labels)
        }
        return nil
    }

    /// The JSON shape, before it is checked.
    /// A `columnCount` that is a JSON number but no whole number an `Int`
    /// holds (`2.5`, `1e30`): Foundation's decoder calls that a document
    /// that is not JSON.
    private static func columnCountMisfit(in data: Data) -> ConfigurationError.Problem? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let number = object["columnCount"] as? NSNumber, !(number is Bool)
        else { return nil }
        let value = number.doubleValue
        let whole = value.rounded() == value && abs(value) < 9.2e18 && number.int64Value == Int64(value)
        return whole ? nil : .wrongType(field: "columnCount", expected: "a whole number")
    }

    private struct Raw: Decodable {
        var labels: [String]
        var columnCount: Int
    }
}

/// Why a button configuration was rejected, and which one.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with a configuration.
    public enum Problem: Equatable, Sendable {
        /// The file could not be read.
        case unreadable(reason: String)
        /// The file holds more bytes than a layout takes (the limit).
        case tooLarge(Int)
        /// The configuration has a field it does not take (its name).
        case unknownField(String)
        /// The text is not JSON.
        case invalidJSON
        /// A field the configuration needs is missing.
        case missingField(String)
        /// A field holds the wrong kind of value (at a path such as `labels[2]`).
        case wrongType(field: String, expected: String)
        /// The configuration has no labels at all.
        case noLabels
        /// `columnCount` is below 1.
        case columnCountTooSmall(Int)
        /// `columnCount` is above ``ButtonConfiguration/maximumColumnCount``.
        case columnCountTooLarge(Int)
        /// There are more labels than ``ButtonConfiguration/maximumLabelCount``.
        case tooManyLabels(Int)
        /// A label is longer than ``ButtonConfiguration/maximumLabelLength`` (positions count from 1).
        case labelTooLong(position: Int)
        /// A label is empty or only spaces (positions count from 1).
        case emptyLabel(position: Int)
        /// A label names no key.
        case unknownLabel(String, knownLabels: [String])
        /// The shipped layout's resource bundle is not beside the program;
        /// the text says which folder belongs where.
        case resourceMissing(String)

        /// The problem in words.
        public var message: String {
            switch self {
            case .unreadable(let reason): "cannot be read (\(reason))"
            case .tooLarge(let limit): "larger than \(limit / 1024) KiB, which is more than a keypad needs"
            case .unknownField(let field): "unknown field \"\(Self.shown(field))\"; a keypad has \"labels\" and \"columnCount\""
            case .invalidJSON: "not valid JSON"
            case .missingField(let field): "missing \"\(field)\""
            case .wrongType(let field, let expected):
                field.isEmpty ? "expected \(expected)" : "\"\(field)\" must be \(expected)"
            case .noLabels: "\"labels\" is empty; a keypad needs at least one label"
            case .columnCountTooSmall(let count): "\"columnCount\" must be at least 1, got \(count)"
            case .columnCountTooLarge(let count):
                "\"columnCount\" must be at most \(ButtonConfiguration.maximumColumnCount), got \(count)"
            case .tooManyLabels(let count):
                "\"labels\" may hold at most \(ButtonConfiguration.maximumLabelCount) labels, got \(count)"
            case .labelTooLong(let position):
                "label \(position) is longer than \(ButtonConfiguration.maximumLabelLength) characters"
            case .emptyLabel(let position): "label \(position) is empty"
            case .unknownLabel(let label, let known):
                "unknown label \"\(Self.shown(label))\"; known labels: \(known.joined(separator: " "))"
            case .resourceMissing(let text): text
            }
        }

        /// What a file wrote, safe on a terminal: a control character as
        /// `\u{1B}`, and at most 40 characters, the rest as "…".
        private static func shown(_ text: String) -> String {
            let visible = text.unicodeScalars.map { scalar in
                scalar.properties.generalCategory == .control ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
            }.joined()
            return visible.count > 40 ? visible.prefix(39) + "…" : visible
        }
    }

    /// Names the configuration: a file path, or "button configuration".
    public let source: String
    /// What is wrong with it.
    public let problem: Problem

    /// Creates the error for `problem` in the configuration named `source`.
    public init(source: String, problem: Problem) {
        self.source = source
        self.problem = problem
    }

    /// One line: "Invalid button configuration keys.json: columnCount must be at least 1, got 0".
    public var description: String {
        if case .resourceMissing = problem {
            return "The calculator's keypad cannot be loaded: \(problem.message)"
        }
        return "Invalid button configuration \(source): \(problem.message)"
    }
}

extension ConfigurationError.Problem {
    /// The problem a JSON decoding error stands for.
    init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, _):
            self = .missingField(key.stringValue)
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            self = .wrongType(field: Self.path(context.codingPath), expected: Self.kind(of: type))
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            self = .wrongType(field: Self.path(context.codingPath), expected: "a valid value")
        default:
            self = .invalidJSON
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(into: "") { path, key in
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
    }

    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is Int.Type: "a whole number"
        case is String.Type: "a string"
        case is [String].Type: "a list of strings"
        // What the decoder names when it meets something else where a list should be.
        case _ where String(describing: type).hasPrefix("Array"): "a list of strings"
        default: "a JSON object {\"labels\": [...], \"columnCount\": 4}"
        }
    }
}
