import ArgumentParser
import Foundation
import Rewind
import Todos

extension RewindCommand.Todo {
    /// `rewind todo history`: the undo history, and jumps within it.
    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "Show the undo history, or jump to a step of it.",
            discussion: """
                Examples:
                  rewind todo history
                  rewind todo history jump 2
                  rewind todo history jump 0
                  rewind todo history --all
                  rewind todo history jump --all 7
                """,
            subcommands: [Steps.self, Jump.self],
            defaultSubcommand: Steps.self
        )

        /// The subcommands' options given before the subcommand's name
        /// (`rewind todo history --database URL jump 2`): the subcommand reads them as its own.
        @OptionGroup var options: TodoOptions
        /// `--as` and `--list` given before the subcommand's name.
        @OptionGroup var team: TeamOptions
    }
}

extension RewindCommand.Todo.History {
    /// `rewind todo history [show]`: the numbered steps, names, times, and the current position.
    struct Steps: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show the numbered steps with their names and times (the default).",
            discussion: """
                Step 0 is the start. The arrow marks where the list is now: the steps up to it \
                are done, the steps after it are undone and can be redone.

                With --all, every change ever made is listed, numbered in the order they were \
                made, with the branches that a change after an undo left: `history jump --all N` \
                returns to any of them.

                A long history is shown a page at a time with --limit: the N steps around \
                where the list is, then --before or --after the numbers shown for the pages \
                before and after.

                Examples:
                  rewind todo history
                  rewind todo history --json
                  rewind todo history --all
                  rewind todo history --limit 20
                  rewind todo history --limit 20 --before 181
                """
        )

        @OptionGroup var options: TodoOptions

        @OptionGroup var team: TeamOptions

        @Flag(help: "List every change, the abandoned branches included.")
        var all = false

        @Option(help: ArgumentHelp(
            "How many steps a page shows (1 to 500): on your list the steps around where it is (every step without a page option); on a shared list the newest first (default 20).",
            valueName: "n"))
        var limit: Int?

        @Option(help: ArgumentHelp("Show the steps numbered below N (the page before).", valueName: "n"))
        var before: Int?

        @Option(help: ArgumentHelp("On your list: show the steps numbered above N (the page after; with --before, the steps between).", valueName: "n"))
        var after: Int?

        @Flag(help: "Print {\"position\": n, \"steps\": [{\"number\", \"name\", \"date\", \"done\"}]} as JSON; with --all, {\"current\": n, \"steps\": [{\"number\", \"parent\", \"name\", \"date\", \"branch\"}]}.")
        var json = false

        mutating func run() async throws {
            if let target = try team.target() {
                try reportingErrors(exitCode: .validationFailure) {
                    guard after == nil else {
                        throw TodoCommandError.usage("a shared list's history is paged from the newest: use --before, not --after")
                    }
                }
                let page = try SharedHistoryPage.checked(limit: limit, before: before, all: all)
                let (options, json, repeated) = (options, json, options.repeated + team.repeated)
                return try await reportingErrors {
                    try await page.print(
                        of: SharedTodoSession.open(options: options, target: target), json: json, repeating: repeated)
                }
            }
            let page = try localPage()
            try await reportingErrors {
                let store = try await TodoSession.open(options: options, onlyReading: true).store
                if all { return try printTree(try await store.historyTree()) }
                let history = try await store.history()
                let shown = page.map(history.range(of:)) ?? history.steps.indices
                if json { return try JSONOutput.print(HistoryJSON(history, shown: shown)) }
                let terminal = TodoTerminal.standardOutput()
                let dates = DueDateFormatter(now: Date(), timeZone: .current)
                let width = String(history.steps.count).count
                // Numbered by position: 0 is the start, shown with the page
                // that reaches the first step (a page after a step starts above it).
                var rows: [(number: Int, name: String, date: String)] = []
                if shown.lowerBound == 0, !Self.isAfter(page) { rows.append((0, "Start", "")) }
                rows += shown.map { ($0 + 1, ItemText.cut(history.steps[$0].name, to: 60), dates.display(.date(history.steps[$0].date))) }
                let nameWidth = rows.map { ItemText.cells($0.name) }.max() ?? 0
                var lines = rows.map { row in
                    let marker = row.number == history.position ? terminal.styled("→", .bold) : " "
                    let padding = String(repeating: " ", count: max(0, width - String(row.number).count))
                    var line = "\(marker) \(padding)\(row.number)  " + row.name
                    if !row.date.isEmpty {
                        line += String(repeating: " ", count: nameWidth - ItemText.cells(row.name)) + "  " + terminal.styled(row.date, .dim)
                    }
                    return row.number > history.position ? terminal.styled(line, .dim) + "  (undone)" : line
                }
                if page != nil {
                    let limit = limit ?? Self.localPageSize
                    if shown.lowerBound > 0 {
                        lines.insert(terminal.styled(
                            "  … \(shown.lowerBound) earlier: rewind todo history --limit \(limit) --before \(shown.lowerBound + 1)\(options.repeated)", .dim), at: 0)
                    }
                    if shown.upperBound < history.steps.count {
                        lines.append(terminal.styled(
                            "  … \(history.steps.count - shown.upperBound) later: rewind todo history --limit \(limit) --after \(shown.upperBound)\(options.repeated)", .dim))
                    }
                }
                TodoTerminal.print(lines: lines)
            }
        }

        /// Whether `page` is a page after a step.
        static func isAfter(_ page: HistoryOverview.Page?) -> Bool {
            if case .after? = page { true } else { false }
        }

        /// How many steps a page of the local list's history shows when
        /// `--before` or `--after` is given without `--limit`.
        static let localPageSize = 20

        /// The page `--limit`, `--before` and `--after` ask for on the
        /// local list; `nil` (every step) without them.
        ///
        /// - Throws: the exit status 64, after one line saying what is allowed.
        func localPage() throws -> HistoryOverview.Page? {
            try reportingErrors(exitCode: .validationFailure) { () throws -> HistoryOverview.Page? in
                guard limit != nil || before != nil || after != nil else { return nil }
                guard !all else {
                    throw TodoCommandError.usage("--all lists every change of the tree: page the history without --all")
                }
                do throws(HistoryOverview.Page.PageError) {
                    return try HistoryOverview.Page.checked(before: before, after: after, limit: limit ?? Self.localPageSize)
                } catch {
                    let message = switch error {
                    case .limit(let size): "--limit takes 1 to \(HistoryOverview.Page.largestLimit) steps a page; \(size) is not"
                    case .before(let before): "--before takes a step number of 1 or more (0 is the start); \(before) is not"
                    case .after(let after): "--after takes a step number of 0 (the start) or more; \(after) is not"
                    case .range(let before, let after):
                        "--before must be above --after: the steps between them are listed, and none lies between \(after) and \(before)"
                    }
                    throw TodoCommandError.usage(message)
                }
            }
        }
    }
}

extension RewindCommand.Todo.History.Steps {
    /// Prints every change: its number, its name indented by its depth in
    /// the tree, its time, whether it is undone or on another branch, and
    /// the step it was made after when that is not the row above it.
    func printTree(_ tree: HistoryTree) throws {
        if json { return try JSONOutput.print(tree) }
        let terminal = TodoTerminal.standardOutput()
        let dates = DueDateFormatter(now: Date(), timeZone: .current)
        let width = String(tree.steps.last?.number ?? 0).count
        var rows: [(marker: Bool, number: Int64, name: String, date: String, note: String, dim: Bool)] =
            [(tree.current == 0, 0, "Start", "", "", false)]
        var above: Int64 = 0
        for (step, indent) in zip(tree.steps, tree.levels()) {
            let name = String(repeating: "  ", count: min(indent, 20)) + ItemText.cut(step.name, to: 60)
            // Undone or abandoned, and the step it was made after when that is not the row above it.
            let state: String? = switch step.branch {
            case .done: nil
            case .undone: "undone"
            case .abandoned: "abandoned"
            }
            let parts = [state, step.parent == above ? nil : "after \(step.parent)"].compactMap { $0 }
            let note = parts.isEmpty ? "" : "(" + parts.joined(separator: ", ") + ")"
            rows.append((tree.current == step.number, step.number, name, dates.display(.date(step.date)), note, state != nil))
            above = step.number
        }
        let nameWidth = rows.map { ItemText.cells($0.name) }.max() ?? 0
        let lines = rows.map { row in
            let marker = row.marker ? terminal.styled("→", .bold) : " "
            let padding = String(repeating: " ", count: width - String(row.number).count)
            var line = "\(marker) \(padding)\(row.number)  " + row.name
            if !row.date.isEmpty {
                line += String(repeating: " ", count: nameWidth - ItemText.cells(row.name)) + "  " + terminal.styled(row.date, .dim)
            }
            return (row.dim ? terminal.styled(line, .dim) : line) + (row.note.isEmpty ? "" : "  " + row.note)
        }
        TodoTerminal.print(lines: lines)
    }
}

extension RewindCommand.Todo.History {
    /// `rewind todo history jump N`: moves to step N in one go.
    struct Jump: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "jump",
            abstract: "Move to step N of the history: undo or redo every step in between, as one move.",
            discussion: """
                N is a number `rewind todo history` shows; 0 is the start, before every step. \
                With --all, N is a number `rewind todo history --all` shows, on any branch.

                Examples:
                  rewind todo history jump 2
                  rewind todo history jump 0
                  rewind todo history jump --all 7
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var team: TeamOptions

        @Flag(help: "N is a number of `history --all`: any change, on any branch.")
        var all = false

        @Argument(help: ArgumentHelp("The step to move to.", valueName: "n"))
        var step: Int

        mutating func run() async throws {
            try team.refuse("history jump")
            let step = step
            // A wrong command line, as `undo -1` is: not a step the history lacks.
            try reportingErrors(exitCode: .validationFailure) {
                guard step >= 0 else { throw TodoCommandError.usage("steps are numbered from 0 (the start); \(step) names none") }
            }
            try await reportingErrors {
                let session = try await TodoSession.open(options: options)
                if all {
                    do {
                        try await session.app.send(.jumpToStep(Int64(step)))
                    } catch TodoFailure.history(.stepNotFound) {
                        throw TodoCommandError(
                            "there is no step \(step): `rewind todo history --all\(options.repeated)` lists the steps")
                    }
                    let name = try await session.store.historyTree().steps.first { $0.number == Int64(step) }?.name
                    return TodoTerminal.print("At " + (name.map { "step \(step): " + TypedText.visible($0) } ?? "the start"))
                }
                do {
                    try await session.app.send(.jump(to: step))
                } catch TodoFailure.history {
                    let count = try await session.store.history().steps.count
                    throw TodoCommandError("there is no step \(step): the history has steps 0 (the start) to \(count)")
                }
                let steps = try await session.store.history().steps
                let name = steps.indices.contains(step - 1) ? "step \(step): " + TypedText.visible(steps[step - 1].name) : "the start"
                TodoTerminal.print("At " + name)
            }
        }
    }
}

/// What `history --json` prints.
private struct HistoryJSON: Encodable {
    struct Step: Encodable {
        let number: Int
        let name: String
        let date: Date
        let done: Bool
    }

    let position: Int
    let total: Int
    let steps: [Step]

    /// The steps of `history` at the indices `shown` (all of them by default).
    init(_ history: HistoryOverview, shown: Range<Int>) {
        position = history.position
        total = history.steps.count
        steps = shown.map { index in
            let step = history.steps[index]
            return Step(number: index + 1, name: step.name, date: step.date, done: index < history.position)
        }
    }
}
