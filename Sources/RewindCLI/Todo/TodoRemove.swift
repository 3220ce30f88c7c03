import ArgumentParser
import Foundation
import Todos

extension RewindCommand.Todo {
    /// `rewind todo rm`: deletes items, as one undo step.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Delete items.",
            discussion: """
                Several items make one undo step; `rewind todo undo` brings them back where they were.

                Examples:
                  rewind todo rm 2
                  rewind todo rm 1 4 3f2a
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var team: TeamOptions
        @OptionGroup var items: ItemReferenceArguments

        mutating func run() async throws {
            let target = try team.target()
            try await reportingErrors {
                if let target {
                    let shared = try await SharedTodoSession.open(options: options, target: target)
                    let list = try await shared.items()
                    let ids = try shared.resolve(items.references, in: list)
                    let removed = ids.compactMap { list[id: $0] }
                    try await shared.perform([.removeItems(ids)], on: list)
                    return try printRemoved(removed, references: ShortReferences(list: list), json: items.json)
                }
                let session = try await TodoSession.open(options: options)
                let ids = try await session.resolve(items.references)
                let references = try await session.references(for: ids)
                let removed = try await session.app.send(.removeItems(ids))
                try printRemoved(removed, references: references, json: items.json)
            }
        }
    }

    /// `rewind todo clear-completed`: deletes every completed item, as one undo step.
    struct ClearCompleted: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear-completed",
            abstract: "Delete every completed item.",
            discussion: """
                One undo step. With no item completed, says so and changes nothing.

                Examples:
                  rewind todo clear-completed
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var team: TeamOptions

        @Flag(help: "Print the deleted items as JSON.")
        var json = false

        mutating func run() async throws {
            let target = try team.target()
            try await reportingErrors {
                if let target {
                    let shared = try await SharedTodoSession.open(options: options, target: target)
                    let list = try await shared.items()
                    let removed = list.items.filter(\.isCompleted)
                    guard !removed.isEmpty else { return try nothingToClear() }
                    try await shared.perform([.removeCompleted], on: list)
                    return try printRemoved(removed, references: ShortReferences(list: list), json: json)
                }
                let session = try await TodoSession.open(options: options)
                let references = try await session.references()
                let removed: [TodoItem]
                do {
                    removed = try await session.app.send(.removeCompleted)
                } catch TodoFailure.nothingToChange {
                    return try nothingToClear()
                }
                try printRemoved(removed, references: references, json: json)
            }
        }

        /// Says that no item is completed (an empty array with `--json`).
        private func nothingToClear() throws {
            if json { return try JSONOutput.print([ItemJSON]()) }
            TodoTerminal.note("Nothing to clear: no item is completed.")
        }
    }
}

/// Says which items were deleted.
private func printRemoved(_ removed: [TodoItem], references: ShortReferences, json: Bool) throws {
    if json { return try JSONOutput.print(JSONOutput.items(removed, references: references)) }
    let text = ItemText(terminal: .standardOutput())
    TodoTerminal.print(lines: removed.map { "Deleted " + text.named($0, references: references) })
}
