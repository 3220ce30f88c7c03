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

/// The body of `POST /api/history/jump`.
struct JumpRequest: Decodable {
    /// The position to move to: 0 is before the first step.
    var position: Int
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
