import Foundation

/// Reads and writes the documented JSON format (`docs/json-format.md`) of the
/// app state, its changes and history steps. Stores, export and import use it.
///
/// ```swift
/// let data = try TodoJSON.encode(state, pretty: true)
/// let state = try TodoJSON.decode(AppState.self, from: data)
/// let steps = try TodoJSON.decode([HistoryStep<AppState.Change>].self, from: stepData)
/// ```
///
/// Dates are ISO 8601 strings in UTC with milliseconds; decoding a malformed
/// document throws a ``TodoJSONError`` naming the path of the bad field.
public enum TodoJSON {
    /// The value of an app-state document's `format` field.
    public static let format = "rewind-todos"
    /// The version of the format this module writes and the newest it reads:
    /// 2 calls an item's states `active` and `completed` and its changes
    /// `complete`, `reopen`, `completeAll`, `reopenAll` and `removeCompleted`;
    /// version 1 wrote `unfinished`, `finished`, `finish`, `unfinish`,
    /// `finishAll`, `unfinishAll` and `removeFinished`, which are still read.
    public static let version = 2

    /// A JSON encoder set up for the format (ISO 8601 dates, sorted keys).
    public static func makeEncoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601Milliseconds.string(from: date))
        }
        return encoder
    }

    /// Where a document comes from, which decides how its dates are checked.
    public enum Source: Sendable {
        /// Input from a person or a program (the API, an import): every date
        /// must lie in ``TodoDate/validDates``.
        case input
        /// A store's own file, which an older version may have written with
        /// dates outside that range: they are read as they are, so that the
        /// file opens and nothing in it is lost.
        case store
    }

    /// A JSON decoder set up for the format (ISO 8601 dates) and for
    /// documents from `source`.
    public static func makeDecoder(reading source: Source = .input) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[.todoJSONSource] = source
        decoder.dateDecodingStrategy = .custom { decoder in
            try decoder.singleValueContainer().decodeISO8601Date(checkingRange: decoder.checksDateRange)
        }
        return decoder
    }

    /// Encodes `value` in the format.
    ///
    /// - Throws: ``TodoJSONError`` when a value cannot be written (it names the path).
    public static func encode<Value: Encodable>(_ value: Value, pretty: Bool = false) throws(TodoJSONError) -> Data {
        do {
            return try makeEncoder(pretty: pretty).encode(value)
        } catch let error as EncodingError {
            guard case .invalidValue(_, let context) = error else {
                throw TodoJSONError(path: "", message: String(describing: error))
            }
            throw TodoJSONError(path: TodoJSONError.path(context.codingPath), message: context.debugDescription)
        } catch {
            throw TodoJSONError(path: "", message: error.localizedDescription)
        }
    }

    /// Decodes a `type` from `data` in the format.
    ///
    /// - Throws: ``TodoJSONError`` that names the path of the bad field, as
    ///   `items[2].due.start: expected an ISO-8601 date like 2026-12-01T09:30:00.000Z`.
    public static func decode<Value: Decodable>(
        _ type: Value.Type, from data: Data, reading source: Source = .input
    ) throws(TodoJSONError) -> Value {
        do {
            return try makeDecoder(reading: source).decode(type, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                // Foundation says "not valid JSON" also for a number its field cannot hold (2.5 for an integer).
                if let number = wholeNumberMisfit(in: data) { throw number }
                throw TodoJSONError(path: "", message: "not valid JSON: \(Self.whereInvalid(data, context))")
            }
            throw TodoJSONError(error)
        } catch {
            throw TodoJSONError(path: "", message: error.localizedDescription)
        }
    }

    /// What the parser found wrong, and where, when it says so ("Unexpected
    /// end of file"; "around line 3, column 7"), rather than Foundation's
    /// sentence that the data is not valid JSON.
    private static func whereInvalid(_ data: Data, _ context: DecodingError.Context) -> String {
        // The decoder keeps no position; the serializer says where it stopped.
        var detail: String?
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        }
        guard let detail, !detail.isEmpty else { return context.debugDescription }
        return detail.hasSuffix(".") ? String(detail.dropLast()) : detail
    }
}

extension TodoJSON {
    /// The fields of the format that hold whole numbers.
    static let wholeNumberFields: Set<String> = ["version", "amount"]

    /// The first field of ``wholeNumberFields`` in `data` (valid JSON) whose
    /// number is not a whole one that an `Int` holds, as the error to say;
    /// `nil` when `data` is not valid JSON or has no such field.
    static func wholeNumberMisfit(in data: Data) -> TodoJSONError? {
        guard let document = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        func search(_ value: Any, _ path: String) -> TodoJSONError? {
            if let object = value as? [String: Any] {
                for key in object.keys.sorted() {
                    let inner = path.isEmpty ? key : path + "." + key
                    if wholeNumberFields.contains(key), let number = object[key] as? NSNumber, !isWholeInt(number) {
                        return TodoJSONError(path: inner, message: "expected a whole number, found \(number)")
                    }
                    if let found = search(object[key] as Any, inner) { return found }
                }
            } else if let array = value as? [Any] {
                for (index, element) in array.enumerated() {
                    if let found = search(element, "\(path)[\(index)]") { return found }
                }
            }
            return nil
        }
        return search(document, "")
    }

    /// Whether `number` is a whole number within `Int`'s range.
    private static func isWholeInt(_ number: NSNumber) -> Bool {
        let value = number.doubleValue
        guard value.rounded() == value, abs(value) < 9.2e18 else { return false }
        return number.int64Value == Int64(value)
    }
}

extension CodingUserInfoKey {
    /// The ``TodoJSON/Source`` of the document being decoded.
    static let todoJSONSource = CodingUserInfoKey(rawValue: "rewind.todoJSONSource")!
}

extension Decoder {
    /// Whether dates must lie in ``TodoDate/validDates``: for every document
    /// but a store's own (``TodoJSON/Source/store``).
    var checksDateRange: Bool {
        userInfo[.todoJSONSource] as? TodoJSON.Source != .store
    }

    /// Refuses a field of the object being read that is not one of
    /// `allowed`, in every document but a store's own
    /// (``TodoJSON/Source/store``): in a document a person or a program
    /// wrote, such a field is a misspelt or made-up one (`"completed": true`
    /// for `"state": "completed"`), whose value would otherwise be lost
    /// without a word. A store's own file may hold a field that a newer
    /// version wrote; it is read without it.
    func refuseUnknownFields(allowing allowed: [String]) throws {
        guard userInfo[.todoJSONSource] as? TodoJSON.Source != .store else { return }
        let fields = try container(keyedBy: JSONIndex.self)
        guard let unknown = fields.allKeys.map(\.stringValue).filter({ !allowed.contains($0) }).min() else { return }
        throw DecodingError.dataCorrupted(.init(
            codingPath: codingPath + [JSONIndex(name: unknown)],
            debugDescription: "unknown field; the allowed fields are \(allowed.joined(separator: ", "))"
        ))
    }
}

extension SingleValueDecodingContainer {
    /// Decodes an ISO 8601 date string or throws an error naming what is expected.
    func decodeISO8601Date(checkingRange: Bool) throws -> Date {
        let text = try decode(String.self)
        guard let date = ISO8601Milliseconds.date(from: text) else {
            throw DecodingError.dataCorruptedError(in: self, debugDescription: ISO8601Messages.expected)
        }
        if checkingRange, !TodoDate.validDates.contains(date) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath, debugDescription: TodoError.dateOutOfRange(date).description,
                underlyingError: TodoError.dateOutOfRange(date)
            ))
        }
        return date
    }
}

enum ISO8601Messages {
    static let expected = "expected an ISO-8601 date like 2026-12-01T09:30:00.000Z"
}

extension KeyedDecodingContainer {
    /// Decodes the ISO 8601 date at `key`, naming the key when it is not one
    /// or, when `checkingRange`, when it lies outside ``TodoDate/validDates``.
    func decodeDate(forKey key: Key, checkingRange: Bool) throws -> Date {
        let text: String
        do {
            text = try decode(String.self, forKey: key)
        } catch DecodingError.typeMismatch {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: ISO8601Messages.expected)
        }
        guard let date = ISO8601Milliseconds.date(from: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: ISO8601Messages.expected)
        }
        if checkingRange, !TodoDate.validDates.contains(date) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath + [key], debugDescription: TodoError.dateOutOfRange(date).description,
                underlyingError: TodoError.dateOutOfRange(date)
            ))
        }
        return date
    }

    /// Decodes the discriminator at `key` and checks it is one of `allowed`;
    /// a name in `renamed` (what an earlier version wrote) is read as the
    /// name it maps to.
    func decodeTag(forKey key: Key, allowed: [String], renamed: [String: String] = [:]) throws -> String {
        let tag = try decode(String.self, forKey: key)
        if let current = renamed[tag] { return current }
        guard allowed.contains(tag) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "“\(tag)” is not one of \(allowed.joined(separator: ", "))"
            )
        }
        return tag
    }

    /// Runs `validate` and reports a ``TodoError`` it throws at `key`.
    func validating<T>(_ key: Key, _ validate: () throws(TodoError) -> T) throws -> T {
        do {
            return try validate()
        } catch {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath + [key], debugDescription: error.description, underlyingError: error
            ))
        }
    }
}

extension KeyedEncodingContainer {
    /// Encodes `date` at `key` as an ISO 8601 string, whatever the encoder's strategy.
    mutating func encodeDate(_ date: Date, forKey key: Key) throws {
        try encode(ISO8601Milliseconds.string(from: date), forKey: key)
    }
}
