import ArgumentParser
import Foundation
import Todos

extension RewindCommand.Todo {
    /// `rewind todo undo`: reverts the newest steps, even those of an earlier run.
    struct Undo: HistoryMoveCommand {
        static let configuration = CommandConfiguration(
            commandName: "undo",
            abstract: "Undo the last change, or the last N changes.",
            discussion: """
                Prints the name of each step it undid ("Undid: Delete “Buy milk”"). The history \
                is saved with the items, so this works after a restart and on changes made by \
                other processes on the same data directory.

                Examples:
                  rewind todo undo
                  rewind todo undo 3
                """
        )

        static let movesForward = false

        @OptionGroup var options: TodoOptions
        @OptionGroup var team: TeamOptions
        @OptionGroup var steps: StepCount
    }

    /// `rewind todo redo`: repeats the newest undone steps.
    struct Redo: HistoryMoveCommand {
        static let configuration = CommandConfiguration(
            commandName: "redo",
            abstract: "Redo the last undone change, or the last N.",
            discussion: """
                Prints the name of each step it redid. A new change after an undo clears what \
                could be redone.

                Examples:
                  rewind todo redo
                  rewind todo redo 2
                """
        )

        static let movesForward = true

        @OptionGroup var options: TodoOptions
        @OptionGroup var team: TeamOptions
        @OptionGroup var steps: StepCount
    }
}

/// How many steps `undo` or `redo` take, and whether to answer in JSON.
struct StepCount: ParsableArguments {
    @Argument(help: ArgumentHelp("How many steps (default 1).", valueName: "n"))
    var count: Int = 1

    @Flag(help: "Print {\"undone\" or \"redone\": [step names], \"position\": n} as JSON.")
    var json = false

    /// Checks the count: 1 or more (exit status 64 otherwise).
    func checkInput() throws {
        try reportingErrors(exitCode: .validationFailure) {
            guard count >= 1 else { throw TodoCommandError.usage("the number of steps must be 1 or more; \(count) is not") }
        }
    }
}

/// `undo` and `redo`: they move back or forward through the history by a
/// number of steps and name each step they crossed.
protocol HistoryMoveCommand: AsyncParsableCommand {
    /// Whether the command redoes (or undoes).
    static var movesForward: Bool { get }
    /// Where the data is.
    var options: TodoOptions { get }
    /// The shared list and account, if any.
    var team: TeamOptions { get }
    /// How many steps, and whether to answer in JSON.
    var steps: StepCount { get }
}

extension HistoryMoveCommand {
    mutating func run() async throws {
        let target = try team.target()
        try steps.checkInput()
        let (options, steps) = (options, steps)
        try await reportingErrors {
            if let target {
                let shared = try await SharedTodoSession.open(options: options, target: target)
                return try await move(steps, on: shared, forward: Self.movesForward)
            }
            try await move(steps, options: options, forward: Self.movesForward)
        }
    }
}

/// Undoes (or redoes) up to `steps.count` steps, one message each, and names them.
private func move(_ steps: StepCount, options: TodoOptions, forward: Bool) async throws {
    // With nothing kept yet there is nothing to undo or redo: no folder is made for it.
    let session = try await TodoSession.open(options: options, onlyReading: true)
    var names: [String] = []
    var exhausted = false
    for _ in 0..<steps.count {
        switch try await session.app.send(forward ? .redo : .undo) {
        case .undone(let name), .redone(let name): names.append(name)
        default: exhausted = true
        }
        if exhausted { break }
    }
    if steps.json {
        let position = try await session.store.history().position
        return try JSONOutput.print(forward ? MoveJSON(redone: names, position: position) : MoveJSON(undone: names, position: position))
    }
    let verb = forward ? "Redid: " : "Undid: "
    TodoTerminal.print(lines: names.map { verb + TypedText.visible($0) })
    if exhausted {
        let what = forward ? "redo" : "undo"
        TodoTerminal.print(names.isEmpty ? "Nothing to \(what)." : "Nothing more to \(what).")
    }
}

/// Takes back up to `steps.count` of the account's own steps on a shared
/// list (or its undos), and names each with the sentences of what it left
/// alone; with nothing to take back, says so and succeeds, as on a list of
/// one's own.
private func move(_ steps: StepCount, on shared: SharedTodoSession, forward: Bool) async throws {
    let (moved, exhausted) = try await shared.move(forward: forward, count: steps.count)
    let what = forward ? "redo" : "undo"
    if steps.json {
        let rows = moved.map(SharedMoveJSON.Row.init)
        return try JSONOutput.print(forward ? SharedMoveJSON(redone: rows) : SharedMoveJSON(undone: rows))
    }
    let verb = forward ? "Redid: " : "Undid: "
    TodoTerminal.print(lines: moved.flatMap { [verb + TypedText.visible($0.name)] + $0.messages.map { TypedText.visible($0) } })
    if moved.isEmpty {
        TodoTerminal.print("Nothing to \(what): \(shared.person.text) has no \(forward ? "undone change" : "change") of their own to \(what) on “\(TypedText.visible(shared.list.name))”.")
    } else if exhausted {
        TodoTerminal.print("Nothing more to \(what).")
    }
}

/// What `undo --json` and `redo --json` print on a shared list.
private struct SharedMoveJSON: Encodable {
    /// One row appended: the step's name and what it left alone.
    struct Row: Encodable {
        var seq: Int
        var name: String
        var messages: [String]

        init(_ step: SharedStep) {
            seq = step.seq
            name = step.name
            messages = step.messages
        }
    }

    var undone: [Row]?
    var redone: [Row]?

    init(undone: [Row]) {
        self.undone = undone
    }

    init(redone: [Row]) {
        self.redone = redone
    }
}

/// What `undo --json` and `redo --json` print.
private struct MoveJSON: Encodable {
    var undone: [String]?
    var redone: [String]?
    var position: Int

    init(undone: [String], position: Int) {
        self.undone = undone
        self.position = position
    }

    init(redone: [String], position: Int) {
        self.redone = redone
        self.position = position
    }
}
