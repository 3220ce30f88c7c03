import ArgumentParser
import Foundation
import Todos

extension RewindCommand.Todo {
    /// `rewind todo done`: marks items as completed, as one undo step.
    struct Done: ItemStateCommand {
        static let configuration = CommandConfiguration(
            commandName: "done",
            abstract: "Mark items as completed.",
            discussion: """
                Several items make one undo step. Items already completed are left as they are.

                Examples:
                  rewind todo done 1
                  rewind todo done 2 3 3f2a
                """
        )

        static let marksCompleted = true

        @OptionGroup var options: TodoOptions
        @OptionGroup var items: ItemReferenceArguments
    }

    /// `rewind todo undone`: marks items as active again, as one undo step.
    struct Undone: ItemStateCommand {
        static let configuration = CommandConfiguration(
            commandName: "undone",
            abstract: "Mark items as active again (not completed).",
            discussion: """
                Several items make one undo step. Items already active are left as they are.

                Examples:
                  rewind todo undone 1
                  rewind todo undone 2 3f2a
                """
        )

        static let marksCompleted = false

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

    /// The references as given, one per item (see ``ArgumentPacking``).
    var references: [String] {
        ArgumentPacking.unpacked(packedReferences)
    }
}

/// `done` and `undone`: they mark the items they name as completed or
/// active, as one step, and say which changed.
protocol ItemStateCommand: AsyncParsableCommand {
    /// Whether the command marks items as completed (or as active).
    static var marksCompleted: Bool { get }
    /// Where the data is.
    var options: TodoOptions { get }
    /// The items to mark.
    var items: ItemReferenceArguments { get }
}

extension ItemStateCommand {
    mutating func run() async throws {
        let (options, items) = (options, items)
        try await reportingErrors {
            try await markItems(items.references, options: options, completed: Self.marksCompleted, json: items.json)
        }
    }
}

private func markItems(_ references: [String], options: TodoOptions, completed: Bool, json: Bool) async throws {
    let session = try await TodoSession.open(options: options)
    let ids = try await session.resolve(references)
    let (current, shortReferences) = try await session.items(ids)
    let text = ItemText(terminal: .standardOutput())
    let unchanged = current.filter { $0.isCompleted == completed }
    for item in unchanged {
        TodoTerminal.note((completed ? "Already completed: " : "Already active: ") + text.named(item, references: shortReferences))
    }
    let toChange = current.filter { $0.isCompleted != completed }.map(\.id)
    var updated: [TodoItem] = []
    if !toChange.isEmpty {
        let items = try await session.app.send(completed ? .complete(toChange) : .reopen(toChange))
        // In the order the items were named, not the order the domain answers in.
        let byID = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        updated = toChange.compactMap { byID[$0] }
    }
    if json { return try JSONOutput.print(JSONOutput.items(updated, references: shortReferences)) }
    let verb = completed ? "Completed: " : "Active: "
    TodoTerminal.print(lines: updated.map { verb + text.named($0, references: shortReferences) })
}
