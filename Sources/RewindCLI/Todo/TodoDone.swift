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
        @OptionGroup var team: TeamOptions
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
        @OptionGroup var team: TeamOptions
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
    /// The shared list and account, if any.
    var team: TeamOptions { get }
    /// The items to mark.
    var items: ItemReferenceArguments { get }
}

extension ItemStateCommand {
    mutating func run() async throws {
        let (options, items) = (options, items)
        let target = try team.target()
        try await reportingErrors {
            if let target {
                let shared = try await SharedTodoSession.open(options: options, target: target)
                return try await markItems(items.references, on: shared, completed: Self.marksCompleted, json: items.json)
            }
            try await markItems(items.references, options: options, completed: Self.marksCompleted, json: items.json)
        }
    }
}

private func markItems(_ references: [String], options: TodoOptions, completed: Bool, json: Bool) async throws {
    let session = try await TodoSession.open(options: options)
    let ids = try await session.resolve(references)
    let (current, shortReferences) = try await session.items(ids)
    let toChange = noteUnchanged(current, completed: completed, references: shortReferences)
    var updated: [TodoItem] = []
    if !toChange.isEmpty {
        let items = try await session.app.send(completed ? .complete(toChange) : .reopen(toChange))
        // In the order the items were named, not the order the domain answers in.
        let byID = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        updated = toChange.compactMap { byID[$0] }
    }
    try printMarked(updated, completed: completed, references: shortReferences, json: json)
}

/// Marks the items `references` name on a shared list, as one step by the account.
private func markItems(_ references: [String], on shared: SharedTodoSession, completed: Bool, json: Bool) async throws {
    let items = try await shared.items()
    let ids = try shared.resolve(references, in: items)
    let shortReferences = ShortReferences(list: items)
    let toChange = noteUnchanged(ids.compactMap { items[id: $0] }, completed: completed, references: shortReferences)
    var updated: [TodoItem] = []
    if !toChange.isEmpty {
        let now = Date()
        try await shared.perform(toChange.map { .update($0, [completed ? .complete : .reopen], at: now) }, on: items)
        let after = try await shared.items()
        updated = toChange.compactMap { after[id: $0] }
    }
    try printMarked(updated, completed: completed, references: shortReferences, json: json)
}

/// Notes the items of `current` already marked so, and returns the ids of the others.
private func noteUnchanged(_ current: [TodoItem], completed: Bool, references: ShortReferences) -> [UUID] {
    let text = ItemText(terminal: .standardOutput())
    for item in current where item.isCompleted == completed {
        TodoTerminal.note((completed ? "Already completed: " : "Already active: ") + text.named(item, references: references))
    }
    return current.filter { $0.isCompleted != completed }.map(\.id)
}

/// Says which items were marked.
private func printMarked(_ updated: [TodoItem], completed: Bool, references shortReferences: ShortReferences, json: Bool) throws {
    if json { return try JSONOutput.print(JSONOutput.items(updated, references: shortReferences)) }
    let text = ItemText(terminal: .standardOutput())
    let verb = completed ? "Completed: " : "Active: "
    TodoTerminal.print(lines: updated.map { verb + text.named($0, references: shortReferences) })
}
