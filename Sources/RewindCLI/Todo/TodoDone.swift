import ArgumentParser
import Foundation
import Todos

extension RewindCommand.Todo {
    /// `rewind todo done`: marks items as done, as one undo step.
    struct Done: ItemStateCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark items as done.",
            discussion: """
                Several items make one undo step. Items already done are left as they are.

                Examples:
                  rewind todo done 1
                  rewind todo done 2 3 3f2a
                """
        )

        static let marksDone = true

        @OptionGroup var options: TodoOptions
        @OptionGroup var items: ItemReferenceArguments
    }

    /// `rewind todo undone`: marks items as not done, as one undo step.
    struct Undone: ItemStateCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark items as not done.",
            discussion: """
                Several items make one undo step. Items not done are left as they are.

                Examples:
                  rewind todo undone 1
                  rewind todo undone 2 3f2a
                """
        )

        static let marksDone = false

        @OptionGroup var options: TodoOptions
        @OptionGroup var items: ItemReferenceArguments
    }
}

/// The items a command acts on, named as the last list numbered them or by
/// the start of their ids, and whether to answer in JSON.
struct ItemReferenceArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("Items: numbers from the last list, or starts of ids.", valueName: "ref"))
    var packedReferences: [String]

    @Flag(help: "Print the changed items as JSON.")
    var json = false

    /// The references as given, one per item (see ``packed(_:)``).
    var references: [String] {
        packedReferences.flatMap { $0.split(separator: Self.separator).map(String.init) }
    }

    /// Separates the references that ``packed(_:)`` joined; no reference
    /// holds one (they are numbers and hex digits).
    private static let separator: Character = "\n"

    /// The subcommands of `rewind todo` that take item references.
    private static let commands: Set<String> = ["rm", "done", "undone"]
    /// Their options that take a value.
    private static let optionsWithValue: Set<String> = ["--data-dir"]
    /// Up to this many references are passed on one by one.
    private static let packingThreshold = 32

    /// `arguments` (without the program name) with the item references of
    /// `rewind todo rm|done|undone` joined into one argument when there are
    /// many, so that the parser stores them at once: O(*k*) instead of
    /// O(*k*²) for *k* references.
    static func packed(_ arguments: [String]) -> [String] {
        guard arguments.count > packingThreshold + 2, arguments[0] == "todo", commands.contains(arguments[1]) else {
            return arguments
        }
        var kept = Array(arguments.prefix(2))
        var references: [String] = []
        var index = 2
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                references += arguments[(index + 1)...]
                break
            }
            if argument.hasPrefix("-") {
                kept.append(argument)
                if optionsWithValue.contains(argument), index + 1 < arguments.count {
                    kept.append(arguments[index + 1])
                    index += 1
                }
            } else {
                references.append(argument)
            }
            index += 1
        }
        guard references.count > packingThreshold, !references.contains(where: { $0.contains(separator) }) else {
            return arguments
        }
        return kept + ["--", references.joined(separator: String(separator))]
    }
}

/// `done` and `undone`: they mark the items they name as done or not, as
/// one step, and say which changed.
protocol ItemStateCommand: ParsableCommand {
    /// Whether the command marks items as done (or as not done).
    static var marksDone: Bool { get }
    /// Where the data is.
    var options: TodoOptions { get }
    /// The items to mark.
    var items: ItemReferenceArguments { get }
}

extension ItemStateCommand {
    mutating func run() throws {
        let (options, items) = (options, items)
        try reportingErrors { try markItems(items.references, options: options, done: Self.marksDone, json: items.json) }
    }
}

private func markItems(_ references: [String], options: TodoOptions, done: Bool, json: Bool) throws {
    let session = try TodoSession(options: options)
    let ids = try session.resolve(references)
    let (current, shortReferences) = session.items(ids)
    let text = ItemText(terminal: .standardOutput())
    let unchanged = current.filter { $0.isFinished == done }
    for item in unchanged {
        TodoTerminal.note((done ? "Already done: " : "Not done yet: ") + text.named(item, references: shortReferences))
    }
    let toChange = current.filter { $0.isFinished != done }.map(\.id)
    var updated: [TodoItem] = []
    if !toChange.isEmpty {
        let ack = try session.send(done ? .finish(ids: toChange) : .unfinish(ids: toChange))
        // In the order the items were named, not the order the domain answers in.
        if case .updated(let items) = ack {
            let byID = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            updated = toChange.compactMap { byID[$0] }
        }
    }
    if json { return try JSONOutput.print(JSONOutput.items(updated, references: shortReferences)) }
    let verb = done ? "Done: " : "Not done: "
    TodoTerminal.print(lines: updated.map { verb + text.named($0, references: shortReferences) })
}
