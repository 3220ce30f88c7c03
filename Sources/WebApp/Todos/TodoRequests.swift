import Foundation
import Todos

/// The body of `POST /api/todos`: a new item. Only `title` is required.
struct NewItemRequest: Decodable {
    var title: String
    var details: String?
    var due: TodoDate?
    var dueText: String?
    var timeZone: String?
    var location: Location?
    var position: Int?

    private enum Key: String, CodingKey, CaseIterable {
        case title, details, due, dueText, timeZone, location, position
    }

    init(from decoder: any Decoder) throws {
        try UnknownFields.check(decoder, allowed: Key.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: Key.self)
        title = try container.decode(String.self, forKey: .title)
        details = try container.decodeIfPresent(String.self, forKey: .details)
        due = try container.decodeIfPresent(TodoDate.self, forKey: .due)
        dueText = try container.decodeIfPresent(String.self, forKey: .dueText)
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        location = try container.decodeIfPresent(Location.self, forKey: .location)
        position = try container.decodeIfPresent(Int.self, forKey: .position)
    }
}

/// The body of `PATCH /api/todos/{id}`: the fields to change; a field left
/// out stays as it is, `null` clears `due` or `location`.
struct ItemEditRequest: Decodable {
    var title: String?
    var details: String?
    var completed: Bool?
    /// `.some(nil)` when the body says `"due": null`.
    var due: TodoDate??
    var dueText: String?
    var timeZone: String?
    /// `.some(nil)` when the body says `"location": null`.
    var location: Location??

    private enum Key: String, CodingKey, CaseIterable {
        case title, details, completed, due, dueText, timeZone, location
    }

    init(from decoder: any Decoder) throws {
        try UnknownFields.check(decoder, allowed: Key.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: Key.self)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        details = try container.decodeIfPresent(String.self, forKey: .details)
        completed = try container.decodeIfPresent(Bool.self, forKey: .completed)
        if container.contains(.due) {
            due = .some(try container.decodeNil(forKey: .due) ? nil : try container.decode(TodoDate.self, forKey: .due))
        }
        dueText = try container.decodeIfPresent(String.self, forKey: .dueText)
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        if container.contains(.location) {
            location = .some(
                try container.decodeNil(forKey: .location) ? nil : try container.decode(Location.self, forKey: .location)
            )
        }
    }
}

/// The body of `POST /api/todos/toggle-all`.
struct ToggleAllRequest: Decodable {
    /// Whether every item is to be completed (`true`) or reopened (`false`).
    var completed: Bool
}

/// The body of `POST /api/history/jump`: `{"position": n}`, a position of
/// the history (0 is before the first step), or `{"step": n}`, the number
/// of a step of the history tree on any branch (0 is the start).
struct JumpRequest: Decodable {
    /// Where to move.
    enum Target: Equatable {
        /// A position of `GET /api/history`.
        case position(Int)
        /// A step number of `GET /api/history/tree`.
        case step(Int64)
    }

    /// Where to move.
    var target: Target

    private enum Key: String, CodingKey, CaseIterable {
        case position, step
    }

    /// Reads exactly one of `position` and `step`, each a whole number (not `null`).
    ///
    /// - Throws: A `DecodingError` for an unknown field or a value that is
    ///   not a whole number, ``APIError`` 400 when both or neither are given.
    init(from decoder: any Decoder) throws {
        try UnknownFields.check(decoder, allowed: Key.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: Key.self)
        switch (container.contains(.position), container.contains(.step)) {
        case (true, false): target = .position(try Self.wholeNumber(Int.self, container, .position))
        case (false, true): target = .step(try Self.wholeNumber(Int64.self, container, .step))
        case (true, true): throw APIError.badRequest("give either “position” or “step”, not both")
        case (false, false):
            throw APIError.badRequest("missing field: give “position” (of GET /api/history) or “step” (of GET /api/history/tree)")
        }
    }

    /// The whole number at `key`.
    ///
    /// - Throws: A `DecodingError` that names the field, also for a number
    ///   with a fraction or out of range, which Foundation reports without it.
    private static func wholeNumber<Number: FixedWidthInteger & Decodable>(
        _ type: Number.Type, _ container: KeyedDecodingContainer<Key>, _ key: Key
    ) throws -> Number {
        do {
            return try container.decode(Number.self, forKey: key)
        } catch let error as DecodingError {
            throw error
        } catch {
            // Foundation's own error, which it makes a path-less "corrupted data" on the way out.
            throw DecodingError.typeMismatch(Number.self, .init(codingPath: [key], debugDescription: "\(error)", underlyingError: error))
        }
    }
}

/// Refuses fields a request type does not know, so a misspelt field
/// (`"titel"`) is an error instead of being silently ignored.
enum UnknownFields {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func check(_ decoder: any Decoder, allowed: [String]) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !allowed.contains($0) }) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [AnyKey(stringValue: unknown)],
                    debugDescription: "unknown field; the allowed fields are \(allowed.joined(separator: ", "))"
                )
            )
        }
    }
}
