import Foundation
import Todos

/// `rewind todo history --as NAME --list LIST`: one page of a shared list's
/// log, newest first, each row with its number, author, kind and name, and
/// the sentences of what an undo or redo left alone.
struct SharedHistoryPage {
    /// How many rows the page shows.
    let limit: Int
    /// The rows shown are numbered below this one (from the newest when `nil`).
    let before: Int?

    /// The page `--limit` and `--before` ask for.
    ///
    /// - Throws: the exit status 64, after one line saying what is allowed.
    static func checked(limit: Int?, before: Int?, all: Bool) throws -> SharedHistoryPage {
        try reportingErrors(exitCode: .validationFailure) {
            guard !all else {
                throw TodoCommandError.usage("a shared list's history has no branches: leave out --all, and page it with --limit and --before")
            }
            let limit = limit ?? 20
            do {
                try SharedListSummary.checkPageSize(limit)
            } catch let error as SharedListError {
                throw TodoCommandError.usage(error.description)
            }
            if let before, before < 2 {
                throw TodoCommandError.usage("--before takes a row number of 2 or more (rows are numbered from 1); \(before) is not")
            }
            return SharedHistoryPage(limit: limit, before: before)
        }
    }

    /// Prints the page of `shared`'s list, as lines or as JSON; the line
    /// that leads to older rows ends with `repeated`, the options to type
    /// again.
    func print(of shared: SharedTodoSession, json: Bool, repeating repeated: String = "") async throws {
        let rows = try await shared.team.lists.history(of: shared.list.id, as: shared.person, before: before, limit: limit)
        let more = rows.count == limit ? rows.last.map(\.seq).flatMap { $0 > 1 ? $0 : nil } : nil
        if json { return try JSONOutput.print(SharedHistoryJSON(steps: rows.map(SharedHistoryJSON.Row.init), before: more)) }
        guard !rows.isEmpty else {
            return TodoTerminal.print("No changes on “\(TypedText.visible(shared.list.name))” yet.")
        }
        let terminal = TodoTerminal.standardOutput()
        let dates = DueDateFormatter(now: Date(), timeZone: .current)
        let width = String(rows.first?.seq ?? 0).count
        // The columns lined up: authors and kinds padded to the widest shown.
        let authors = rows.map { shared.list.access.author(ofRow: $0.seq, key: $0.author) }
        let authorWidth = authors.map(\.count).max() ?? 0
        let kindWidth = rows.map { Self.kind($0.kind).count }.max() ?? 0
        // Names by the cells they take on a terminal (wide characters, emoji), so that the dates line up too.
        let names = rows.map { TypedText.visible(ItemText.cut($0.name, to: 60)) }
        let nameWidth = names.map(ItemText.cells).max() ?? 0
        func padded(_ text: String, to width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        var lines: [String] = []
        for ((row, author), name) in zip(zip(rows, authors), names) {
            let padding = String(repeating: " ", count: width - String(row.seq).count)
            lines.append(
                "\(padding)\(row.seq)  \(padded(author, to: authorWidth))  \(padded(Self.kind(row.kind), to: kindWidth))  "
                    + name + String(repeating: " ", count: max(0, nameWidth - ItemText.cells(name))) + "  "
                    + terminal.styled(dates.display(.date(row.date)), .dim))
            lines += row.messages(for: shared.person.key, naming: shared.list.access.name).map { String(repeating: " ", count: width + 2) + TypedText.visible($0) }
        }
        if let more {
            lines.append(
                terminal.styled("Older rows: rewind todo history --limit \(limit) --before \(more)\(repeated)", .dim))
        }
        TodoTerminal.print(lines: lines)
    }

    /// The kind of a row in words: "change", "undo of 3", "redo of 5".
    static func kind(_ kind: SharedStep.Kind) -> String {
        switch kind {
        case .change: "change"
        case .undo(let seq): "undo of \(seq)"
        case .redo(let seq): "redo of \(seq)"
        }
    }
}

/// What `history --json` prints on a shared list.
private struct SharedHistoryJSON: Encodable {
    /// One row of the log.
    struct Row: Encodable {
        let seq: Int
        let author: String
        let kind: String
        let name: String
        let date: Date
        let messages: [String]

        init(_ step: SharedStep.Summary) {
            seq = step.seq
            author = step.author
            kind = SharedHistoryPage.kind(step.kind)
            name = step.name
            date = step.date
            messages = step.messages
        }
    }

    /// The rows, newest first.
    let steps: [Row]
    /// The `--before` of the next page, when there may be one.
    let before: Int?
}
