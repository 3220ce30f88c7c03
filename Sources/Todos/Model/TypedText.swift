import Foundation

/// The rule for text that people enter (titles, details, addresses,
/// directions, list names): any character but the control characters,
/// apart from tab, line feed and carriage return.
///
/// Control characters cannot be typed, show as nothing, and U+0000 cannot
/// be stored by PostgreSQL at all; refusing them where text comes in keeps
/// every store able to save what the domain accepts. Items saved before
/// this rule keep opening: the rule is checked on new changes
/// (``AppState/Change/checkTypedText()``), not when a store restores an item.
public enum TypedText {
    /// The first control character in `text` that is not a tab or a line
    /// break, or `nil` when there is none.
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    public static func firstControlCharacter(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: false
            case 0x00...0x1F, 0x7F...0x9F: true
            default: false
            }
        }
    }

    /// `U+0000`: how a message names the character with this code.
    public static func name(of code: UInt32) -> String {
        let hex = String(code, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Throws when `text`, the value of `field` (in words that follow “in”:
    /// “the title”), holds a control character that is not allowed.
    ///
    /// - Throws: ``TodoError/controlCharacter(field:scalar:)``.
    static func check(_ text: String, field: String) throws(TodoError) {
        if let scalar = firstControlCharacter(in: text) { throw .controlCharacter(field: field, scalar: scalar.value) }
    }

    /// `text` made safe to print on a terminal: every control character
    /// (C0, DEL and C1) is shown as visible text instead of acting on the
    /// terminal, so that a title cannot retitle, recolour or clear it.
    ///
    /// C0 controls and DEL appear in caret notation (ESC as `^[`, BEL as
    /// `^G`, a lone CR as `^M`, DEL as `^?`), C1 controls as `<U+009B>`,
    /// and so do the controls that turn the direction of the text after
    /// them (embeddings, overrides and isolates, U+202A–U+202E and
    /// U+2066–U+2069, as `<U+202E>`), which would otherwise turn around
    /// what a line prints after a title, in a terminal that follows them.
    /// With `keepingLineBreaks`, line breaks (LF, and CR LF as one LF) and
    /// tabs stay; otherwise each is one space.
    ///
    /// - Complexity: O(*n*); text without control characters is returned as it is.
    public static func visible(_ text: String, keepingLineBreaks: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) || isDirectionControl($0) }) else { return text }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar.value {
            case 0x0A, 0x09:
                result.append(keepingLineBreaks ? scalar : " ")
            case 0x0D where pending == "\n":
                pending = scalars.next()
                result.append(keepingLineBreaks ? "\n" : " ")
            case 0x00..<0x20, 0x7F:
                result.append("^")
                result.append(Unicode.Scalar(UInt8(scalar.value ^ 0x40)))
            case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                result.append(contentsOf: "<\(name(of: scalar.value))>".unicodeScalars)
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `text` in quotes, “text”, with every run in another direction it
    /// opens (U+202A–U+202E, U+2066–U+2068) closed before the closing
    /// quote, so that a title in a sentence cannot turn the quote and the
    /// rest of the sentence around.
    ///
    /// ```swift
    /// TypedText.quoted("\u{202E}klim")   // "“\u{202E}klim\u{202C}”"
    /// ```
    public static func quoted(_ text: String) -> String {
        var closers: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x202A...0x202B, 0x202D...0x202E: closers.append("\u{202C}")
            case 0x2066...0x2068: closers.append("\u{2069}")
            case 0x202C: if let last = closers.lastIndex(of: "\u{202C}") { closers.remove(at: last) }
            case 0x2069: if let last = closers.lastIndex(of: "\u{2069}") { closers.remove(at: last) }
            default: break
            }
        }
        return "“" + text + String(String.UnicodeScalarView(closers.reversed())) + "”"
    }

    /// Whether `scalar` opens or closes a run of text in another direction
    /// (U+202A–U+202E, U+2066–U+2069): allowed in text, shown by
    /// ``visible(_:keepingLineBreaks:)``.
    public static func isDirectionControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// Whether `scalar` is a control character: C0 (tabs and line breaks
    /// included), DEL or C1.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}

extension TodoItem {
    /// Checks every text of the item (title, details and location) against
    /// ``TypedText``.
    ///
    /// - Throws: ``TodoError/controlCharacter(field:scalar:)`` naming the field.
    public func checkTypedText() throws(TodoError) {
        try TypedText.check(title, field: "the title")
        try TypedText.check(details, field: "the details")
        try location.checkTypedText()
    }
}

extension TodoItem.Change {
    /// Checks the text this change sets against ``TypedText``.
    ///
    /// - Throws: ``TodoError/controlCharacter(field:scalar:)`` naming the field.
    public func checkTypedText() throws(TodoError) {
        switch self {
        case .title(let title): try TypedText.check(title, field: "the title")
        case .details(let details): try TypedText.check(details, field: "the details")
        case .location(let location): try location.checkTypedText()
        case .due, .complete, .reopen, .toggle: break
        }
    }
}

extension Location {
    /// Checks the address's fields or the steps of the directions against
    /// ``TypedText``.
    ///
    /// - Throws: ``TodoError/controlCharacter(field:scalar:)`` naming the field.
    public func checkTypedText() throws(TodoError) {
        switch self {
        case .unknown, .coordinate: break
        case .address(let address):
            try TypedText.check(address.street, field: "the street")
            try TypedText.check(address.city, field: "the city")
            try TypedText.check(address.zipCode, field: "the zip code")
            try TypedText.check(address.country, field: "the country")
        case .directions(let directions):
            for (index, step) in directions.steps.enumerated() {
                try TypedText.check(step, field: "step \(index + 1) of the directions")
            }
        }
    }
}

extension TodoList.Change {
    /// Checks the text this change brings into the list (the items it adds,
    /// inserts, restores or replaces, the fields it alters) against
    /// ``TypedText``.
    ///
    /// - Throws: ``TodoError/controlCharacter(field:scalar:)`` naming the field.
    public func checkTypedText() throws(TodoError) {
        switch self {
        case .add(let item), .insert(let item, _): try item.checkTypedText()
        case .restore(let placements): for placement in placements { try placement.item.checkTypedText() }
        case .update(_, let changes, _): for change in changes { try change.checkTypedText() }
        case .replace(let items): for item in items { try item.checkTypedText() }
        case .remove, .removeItems, .move, .completeAll, .reopenAll, .removeCompleted: break
        }
    }
}

extension AppState.Change {
    /// Checks the text this change brings in against ``TypedText``: what
    /// the use cases ask of a new change before a store performs it.
    ///
    /// - Throws: ``TodoError/controlCharacter(field:scalar:)`` naming the field.
    public func checkTypedText() throws(TodoError) {
        switch self {
        case .todos(let change): try change.checkTypedText()
        case .setting(.todos(let list)): for item in list.items { try item.checkTypedText() }
        }
    }
}
