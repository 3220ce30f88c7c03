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

                Examples:
                  rewind todo history
                  rewind todo history --json
                  rewind todo history --all
                """
        )

        @OptionGroup var options: TodoOptions

        @OptionGroup var team: TeamOptions

        @Flag(help: "List every change, the abandoned branches included.")
        var all = false

        @Option(help: ArgumentHelp("On a shared list: how many rows a page shows, newest first (default 20).", valueName: "n"))
        var limit: Int?

        @Option(help: ArgumentHelp("On a shared list: show the rows numbered below N (the next page).", valueName: "n"))
        var before: Int?

        @Flag(help: "Print {\"position\": n, \"steps\": [{\"number\", \"name\", \"date\", \"done\"}]} as JSON; with --all, {\"current\": n, \"steps\": [{\"number\", \"parent\", \"name\", \"date\", \"branch\"}]}.")
        var json = false

        mutating func run() async throws {
            if let target = try team.target() {
                let page = try SharedHistoryPage.checked(limit: limit, before: before, all: all)
                let (options, json) = (options, json)
                return try await reportingErrors {
                    try await page.print(of: SharedTodoSession.open(options: options, target: target), json: json)
                }
            }
            try reportingErrors(exitCode: .validationFailure) {
                guard limit == nil, before == nil else {
                    throw TodoCommandError.usage("--limit and --before page the history of a shared list: give them with --as and --list")
                }
            }
            try await reportingErrors {
                let store = try await TodoSession.open(options: options).store
                if all { return try printTree(try await store.historyTree()) }
                let history = try await store.history()
                if json { return try JSONOutput.print(HistoryJSON(history)) }
                let terminal = TodoTerminal.standardOutput()
                let dates = DueDateFormatter(now: Date(), timeZone: .current)
                let width = String(history.steps.count).count
                let names = [("Start", "")] + history.steps.map { (ItemText.cut($0.name, to: 60), dates.display(.date($0.date))) }
                let nameWidth = names.map(\.0.count).max() ?? 0
                let lines = names.enumerated().map { number, step in
                    let marker = number == history.position ? terminal.styled("→", .bold) : " "
                    let padding = String(repeating: " ", count: width - String(number).count)
                    var row = "\(marker) \(padding)\(number)  " + step.0
                    if !step.1.isEmpty {
                        row += String(repeating: " ", count: nameWidth - step.0.count) + "  " + terminal.styled(step.1, .dim)
                    }
                    return number > history.position ? terminal.styled(row, .dim) + "  (undone)" : row
                }
                TodoTerminal.print(lines: lines)
            }
        }
    }
}

extension RewindCommand.Todo.History.Steps {
    /// Prints every change: its number, its name indented by its depth in
    /// the tree, its time, and whether it is undone or on another branch.
    func printTree(_ tree: HistoryTree) throws {
        if json { return try JSONOutput.print(tree) }
        let terminal = TodoTerminal.standardOutput()
        let dates = DueDateFormatter(now: Date(), timeZone: .current)
        let width = String(tree.steps.last?.number ?? 0).count
        var rows: [(marker: Bool, number: Int64, name: String, date: String, note: String)] = [(tree.current == 0, 0, "Start", "", "")]
        for (step, indent) in zip(tree.steps, tree.levels()) {
            let name = String(repeating: "  ", count: min(indent, 20)) + ItemText.cut(step.name, to: 60)
            let note = switch step.branch {
            case .done: ""
            case .undone: "(undone)"
            case .abandoned: "(branch after \(step.parent))"
            }
            rows.append((tree.current == step.number, step.number, name, dates.display(.date(step.date)), note))
        }
        let nameWidth = rows.map(\.name.count).max() ?? 0
        let lines = rows.map { row in
            let marker = row.marker ? terminal.styled("→", .bold) : " "
            let padding = String(repeating: " ", count: width - String(row.number).count)
            var line = "\(marker) \(padding)\(row.number)  " + row.name
            if !row.date.isEmpty {
                line += String(repeating: " ", count: nameWidth - row.name.count) + "  " + terminal.styled(row.date, .dim)
            }
            return row.note.isEmpty ? line : terminal.styled(line, .dim) + "  " + row.note
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
            try await reportingErrors {
                let session = try await TodoSession.open(options: options)
                if all {
                    do {
                        try await session.app.send(.jumpToStep(Int64(step)))
                    } catch TodoFailure.history(.stepNotFound) {
                        throw TodoCommandError("there is no step \(step): `rewind todo history --all` lists the steps")
                    }
                    let name = try await session.store.historyTree().steps.first { $0.number == Int64(step) }?.name
                    return TodoTerminal.print("At " + (name.map { "step \(step): " + TodoTerminal.visible($0) } ?? "the start"))
                }
                do {
                    try await session.app.send(.jump(to: step))
                } catch TodoFailure.history {
                    let count = try await session.store.history().steps.count
                    throw TodoCommandError("there is no step \(step): the history has steps 0 (the start) to \(count)")
                }
                let steps = try await session.store.history().steps
                let name = steps.indices.contains(step - 1) ? "step \(step): " + TodoTerminal.visible(steps[step - 1].name) : "the start"
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
    let steps: [Step]

    init(_ history: HistoryOverview) {
        position = history.position
        steps = history.steps.enumerated().map { index, step in
            Step(number: index + 1, name: step.name, date: step.date, done: index < history.position)
        }
    }
}
