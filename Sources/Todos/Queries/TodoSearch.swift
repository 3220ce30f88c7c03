import Foundation

/// Which items a search for words finds: those whose title, details or
/// location (an address's fields, the steps of directions) contain every
/// word, wherever it is, in any case and with or without accents ("cafe"
/// finds "Café"). Words are separated by white space.
///
/// ```swift
/// let search = TodoSearch("milk shop")   // nil for "" or "   "
/// list.items(.active, sortedBy: .list, matching: search, now: now())
/// ```
public struct TodoSearch: Equatable, Hashable, Sendable {
    /// The words, as given.
    public let words: [String]
    /// The longest text a search takes, in characters (Unicode scalars,
    /// as JSON Schema's `maxLength` counts them).
    public static let longestText = 200

    /// A search for the words of `text`; `nil` when it has none.
    ///
    /// - Throws: ``TodoSearchError/tooLong(_:)`` for a text longer than
    ///   ``longestText`` characters.
    public init?(_ text: String) throws(TodoSearchError) {
        let length = text.unicodeScalars.count
        guard length <= Self.longestText else { throw .tooLong(length) }
        let words = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).map(String.init)
        guard !words.isEmpty else { return nil }
        self.words = words
    }

    /// The words as one text, separated by spaces: what to show in a search
    /// field.
    public var text: String { words.joined(separator: " ") }

    /// Whether every word occurs in `item`'s title, details or location.
    public func matches(_ item: TodoItem) -> Bool {
        words.allSatisfy { word in
            Self.texts(of: item).contains { $0.range(of: word, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
        }
    }

    /// The texts of `item` that a search looks in.
    private static func texts(of item: TodoItem) -> [String] {
        var texts = [item.title]
        if !item.details.isEmpty { texts.append(item.details) }
        switch item.location {
        case .unknown, .coordinate: break
        case .address(let address): texts += [address.street, address.zipCode, address.city, address.country]
        case .directions(let directions): texts += directions.steps
        }
        return texts
    }
}

/// Why a search was refused.
public enum TodoSearchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is longer than ``TodoSearch/longestText`` characters.
    case tooLong(Int)

    /// What was wrong and what is allowed, in a sentence without a full stop.
    public var description: String {
        switch self {
        case .tooLong(let count): "a search is at most \(TodoSearch.longestText) characters long, not \(count)"
        }
    }
}
