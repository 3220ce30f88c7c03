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
    /// Each word's bytes in lower case when it is ASCII, `nil` otherwise:
    /// most texts are ASCII, and comparing their bytes is many times faster
    /// than Foundation's comparison, which is needed only for the others.
    private let asciiWords: [[UInt8]?]
    /// The longest text a search takes, in characters (Unicode scalars,
    /// as JSON Schema's `maxLength` counts them).
    public static let longestText = 200
    /// The most words a search takes, each counted once: every word is
    /// looked for in every item, so a search of many words that every item
    /// contains would take seconds on a long list.
    public static let mostWords = 20

    /// A search for the words of `text`, each once (a word repeated, in
    /// another case or with other accents, finds nothing more); `nil` when
    /// it has none.
    ///
    /// - Throws: ``TodoSearchError/tooLong(_:)`` for a text longer than
    ///   ``longestText`` characters, ``TodoSearchError/tooManyWords(_:)``
    ///   for more than ``mostWords`` different words,
    ///   ``TodoSearchError/controlCharacter(_:)`` for a control character
    ///   other than a tab or a line break (no text of an item holds one:
    ///   ``TypedText``).
    public init?(_ text: String) throws(TodoSearchError) {
        let length = text.unicodeScalars.count
        guard length <= Self.longestText else { throw .tooLong(length) }
        if let scalar = TypedText.firstControlCharacter(in: text) { throw .controlCharacter(scalar.value) }
        var seen: Set<String> = []
        let words = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).map(String.init).filter { word in
            seen.insert(word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)).inserted
        }
        guard !words.isEmpty else { return nil }
        guard words.count <= Self.mostWords else { throw .tooManyWords(words.count) }
        self.words = words
        asciiWords = words.map { word in
            word.utf8.allSatisfy { $0 < 0x80 } ? word.utf8.map(Self.lowercased) : nil
        }
    }

    /// The words as one text, separated by spaces: what to show in a search
    /// field.
    public var text: String { words.joined(separator: " ") }

    /// What the search found, in a sentence: "2 items contain “milk”",
    /// "No active item contains every word of “milk tea”" (`filter` names
    /// the kind of item unless it is `.all`).
    public func found(_ count: Int, filter: TodoFilter = .all) -> String {
        let kind = filter == .all ? "" : filter.rawValue + " "
        let words = words.count == 1 ? "“\(text)”" : "every word of “\(text)”"
        switch count {
        case 0: return "No \(kind)item contains \(words)."
        case 1: return "1 \(kind)item contains \(words)."
        default: return "\(count) \(kind)items contain \(words)."
        }
    }

    /// Whether every word occurs in `item`'s title, details or location.
    public func matches(_ item: TodoItem) -> Bool {
        words.indices.allSatisfy { index in
            Self.anyText(of: item) { Self.contains($0, words[index], asciiLowercased: asciiWords[index]) }
        }
    }

    /// Whether `text` contains `word` in any case, with or without accents.
    private static func contains(_ text: String, _ word: String, asciiLowercased: [UInt8]?) -> Bool {
        if let asciiLowercased, let found = containsASCII(text, asciiLowercased) { return found }
        return text.range(of: word, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }

    /// Whether the ASCII `text` contains `word` (lower-case ASCII bytes),
    /// ignoring case; `nil` when `text` is not ASCII, which only Foundation
    /// compares right ("cafe" in "Café").
    private static func containsASCII(_ text: String, _ word: [UInt8]) -> Bool? {
        var text = text
        return text.withUTF8 { bytes -> Bool? in
            var found = word.isEmpty
            var index = 0
            while index < bytes.count {
                if bytes[index] >= 0x80 { return nil }
                if !found, index + word.count <= bytes.count {
                    var offset = 0
                    while offset < word.count, lowercased(bytes[index + offset]) == word[offset] { offset += 1 }
                    found = offset == word.count
                }
                index += 1
            }
            return found
        }
    }

    /// `byte` in lower case, when it is an ASCII capital.
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// Whether `test` holds for one of the texts of `item` that a search
    /// looks in, without gathering them first (no allocation per item).
    private static func anyText(of item: TodoItem, _ test: (String) -> Bool) -> Bool {
        if test(item.title) || (!item.details.isEmpty && test(item.details)) { return true }
        switch item.location {
        case .unknown, .coordinate: return false
        case .address(let address): return [address.street, address.zipCode, address.city, address.country].contains(where: test)
        case .directions(let directions): return directions.steps.contains(where: test)
        }
    }
}

/// Why a search was refused.
public enum TodoSearchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is longer than ``TodoSearch/longestText`` characters.
    case tooLong(Int)
    /// The text has more than ``TodoSearch/mostWords`` different words.
    case tooManyWords(Int)
    /// The text holds this control character, which is neither a tab nor
    /// a line break.
    case controlCharacter(UInt32)

    /// What was wrong and what is allowed, in a sentence without a full stop.
    public var description: String {
        switch self {
        case .tooLong(let count): "a search is at most \(TodoSearch.longestText) characters long, not \(count)"
        case .tooManyWords(let count): "a search has at most \(TodoSearch.mostWords) different words, not \(count)"
        case .controlCharacter(let code):
            "a search holds no control characters but tabs and line breaks, and this one holds \(TypedText.name(of: code))"
        }
    }
}
