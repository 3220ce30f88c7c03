import Foundation
import Todos

/// How items read in the terminal: table rows, one-line summaries and the
/// full view of `show`.
struct ItemText {
    /// The longest title a table row shows before cutting it with "…".
    static let longestTitleInTable = 50
    /// The longest location a table row shows.
    static let longestLocationInTable = 30

    /// Styles for the terminal.
    let terminal: TodoTerminal
    /// Writes due dates relative to now.
    let dates: DueDateFormatter
    /// The moment overdue is judged at.
    var now: Date { dates.now }

    /// Text for `terminal`, with dates relative to `now` in the local time zone.
    init(terminal: TodoTerminal, now: Date = Date()) {
        self.terminal = terminal
        dates = DueDateFormatter(now: now, timeZone: .current)
    }

    // MARK: Table

    /// The table of `items`, numbered from 1: number, short reference,
    /// completed mark, title, due date (overdue ones marked) and location in short.
    ///
    /// - Complexity: O(*n*).
    func table(_ items: [TodoItem], references: ShortReferences) -> [String] {
        struct Row {
            var number: String
            var reference: String
            var item: TodoItem
            var title: String
            var due: String
            var location: String
        }
        // Calendar arithmetic dominates a long table; lists share few due dates.
        var dueTexts: [TodoDate: String] = [:]
        let rows = items.enumerated().map { index, item in
            let due = dueTexts[item.due] ?? {
                let text = dates.display(item.due)
                dueTexts[item.due] = text
                return text
            }()
            return Row(
                number: String(index + 1),
                reference: references(item.id),
                item: item,
                title: Self.cut(item.title, to: Self.longestTitleInTable),
                due: item.isOverdue(at: now) ? due + Self.overdueSuffix : due,
                location: Self.cut(item.location.summary, to: Self.longestLocationInTable))
        }
        let numberWidth = rows.last?.number.count ?? 1
        let referenceWidth = rows.map(\.reference.count).max() ?? ShortReferences.length
        let titleWidth = rows.map { Self.cells($0.title) }.max() ?? 0
        let dueWidth = rows.map { Self.cells($0.due) }.max() ?? 0
        return rows.map { row in
            let mark = row.item.isCompleted ? terminal.styled("[x]", .green) : "[ ]"
            let title = row.item.isCompleted ? terminal.styled(row.title, .dim) : row.title
            var line = Self.pad(row.number, to: numberWidth, left: true) + "  "
                + terminal.styled(Self.pad(row.reference, to: referenceWidth), .yellow) + "  "
                + mark + " " + title
            if dueWidth > 0 || !row.location.isEmpty {
                line += String(repeating: " ", count: titleWidth - Self.cells(row.title))
            }
            if dueWidth > 0 {
                let due = row.item.isOverdue(at: now) ? terminal.styled(row.due, .red) : row.due
                line += "  " + due + String(repeating: " ", count: dueWidth - Self.cells(row.due))
            }
            if !row.location.isEmpty { line += "  " + row.location }
            return Self.trimmingTrailingSpaces(line)
        }
    }

    /// What follows the due date of an overdue item.
    static let overdueSuffix = " (overdue)"

    /// The due date of a row: "tomorrow", "yesterday (overdue)", or "".
    func dueColumn(_ item: TodoItem) -> String {
        let text = dates.display(item.due)
        return item.isOverdue(at: now) ? text + Self.overdueSuffix : text
    }

    // MARK: Lines

    /// `3f2a9c1e “Buy milk”`: an item in a sentence.
    func named(_ item: TodoItem, references: ShortReferences) -> String {
        terminal.styled(references(item.id), .yellow) + " “" + TypedText.visible(item.title) + "”"
    }

    /// Every field of `item`, one per line, for `show`.
    func details(_ item: TodoItem, reference: String) -> [String] {
        var lines = [terminal.styled(TypedText.visible(item.title), .bold)]
        func field(_ name: String, _ value: String) {
            guard !value.isEmpty else { return }
            let label = terminal.styled(name.padding(toLength: 9, withPad: " ", startingAt: 0), .dim)
            let indent = String(repeating: " ", count: 11)
            let value = TypedText.visible(value, keepingLineBreaks: true)
            lines.append("  " + label + value.replacingOccurrences(of: "\n", with: "\n" + indent))
        }
        field("ref", reference)
        field("id", item.id.uuidString.lowercased())
        field("state", item.isCompleted ? "completed" : item.isOverdue(at: now) ? "active, overdue" : "active")
        if item.due != .unknown { field("due", dates.display(item.due) + "  (" + dates.text(item.due) + ")") }
        field("where", item.location.fullText)
        field("map", item.location.openStreetMapURL?.absoluteString ?? "")
        field("details", item.details)
        field("created", dates.text(.date(item.created)))
        field("changed", dates.text(.date(item.changed)))
        return lines
    }

    // MARK: Helpers

    /// `text` cut to `length` characters, the last one "…" when cut; line
    /// breaks and tabs become spaces, other control characters visible text.
    static func cut(_ text: String, to length: Int) -> String {
        let line = TypedText.visible(text)
        // A string has at least as many bytes as characters: most titles need no count.
        guard line.utf8.count > length, line.count > length else { return line }
        return String(line.prefix(length - 1)) + "…"
    }

    /// How many cells of a terminal `text` takes, so that the columns
    /// after it line up: two for a wide character (CJK ideographs, kana,
    /// Hangul, fullwidth forms, an emoji shown as a picture), one for any
    /// other (a letter with its combining marks is one).
    ///
    /// - Complexity: O(*n*); ASCII text is counted by its bytes.
    static func cells(_ text: String) -> Int {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.utf8.count }
        return text.reduce(0) { width, character in
            guard let first = character.unicodeScalars.first else { return width }
            return width + (isWide(first) || character.unicodeScalars.contains(where: \.properties.isEmojiPresentation) ? 2 : 1)
        }
    }

    /// Whether `scalar` is East Asian Wide or Fullwidth (the blocks that
    /// hold such characters).
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }

    private static func pad(_ text: String, to width: Int, left: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - cells(text)))
        return left ? padding + text : text + padding
    }

    private static func trimmingTrailingSpaces(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
