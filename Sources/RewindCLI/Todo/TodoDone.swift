import ArgumentParser
import Foundation
import Todos

extension RewindCommand.Todo {
    /// `rewind todo done`: marks items as done, as one undo step.
    struct Done: ItemStateCommand {
        static let configuration = CommandConfiguration(
            commandName: "done",
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
            commandName: "undone",
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

    /// The references as given, one per item (see ``ArgumentPacking``).
    var references: [String] {
        ArgumentPacking.unpacked(packedReferences)
    }
}

/// `done` and `undone`: they mark the items they name as done or not, as
/// one step, and say which changed.
protocol ItemStateCommand: AsyncParsableCommand {
    /// Whether the command marks items as done (or as not done).
    static var marksDone: Bool { get }
    /// Where the data is.
    var options: TodoOptions { get }
    /// The items to mark.
    var items: ItemReferenceArguments { get }
}

extension ItemStateCommand {
    mutating func run() async throws {
        let (options, items) = (options, items)
        try await reportingErrors {
            try await markItems(items.references, options: options, done: Self.marksDone, json: items.json)
        }
    }
}

private func markItems(_ references: [String], options: TodoOptions, done: Bool, json: Bool) async throws {
    let session = try await TodoSession.open(options: options)
    let ids = try await session.resolve(references)
    let (current, shortReferences) = try await session.items(ids)
    let text = ItemText(terminal: .standardOutput())
    let unchanged = current.filter { $0.isFinished == done }
    for item in unchanged {
        TodoTerminal.note((done ? "Already done: " : "Not done yet: ") + text.named(item, references: shortReferences))
    }
    let toChange = current.filter { $0.isFinished != done }.map(\.id)
    var updated: [TodoItem] = []
    if !toChange.isEmpty {
        let items = try await session.app.send(done ? .finish(toChange) : .unfinish(toChange))
        // In the order the items were named, not the order the domain answers in.
        let byID = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        updated = toChange.compactMap { byID[$0] }
    }
    if json { return try JSONOutput.print(JSONOutput.items(updated, references: shortReferences)) }
    let verb = done ? "Done: " : "Not done: "
    TodoTerminal.print(lines: updated.map { verb + text.named($0, references: shortReferences) })
}
