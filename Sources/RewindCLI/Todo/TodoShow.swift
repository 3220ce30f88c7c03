import ArgumentParser
import Foundation
import Todos

extension RewindCommand.Todo {
    /// `rewind todo show`: every field of one item.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show every field of an item.",
            discussion: """
                Examples:
                  rewind todo show 2
                  rewind todo show 3f2a --json
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var team: TeamOptions

        @Argument(help: ArgumentHelp("The item: its number in the last list, or the start of its id.", valueName: "ref"))
        var reference: String

        @Flag(help: "Print the item as JSON.")
        var json = false

        mutating func run() async throws {
            let target = try team.target()
            try await reportingErrors {
                let item: TodoItem?
                let references: ShortReferences
                if let target {
                    let shared = try await SharedTodoSession.open(options: options, target: target)
                    let list = try await shared.items()
                    item = try shared.resolve([reference], in: list).first.flatMap { list[id: $0] }
                    references = ShortReferences(list: list)
                } else {
                    let session = try await TodoSession.open(options: options, onlyReading: true)
                    let found = try await session.items(session.resolve([reference]))
                    (item, references) = (found.items.first, found.references)
                }
                guard let item else { throw TodoCommandError("no item matches “\(reference)”") }
                if json { return try JSONOutput.print(ItemJSON(item: item, ref: references(item.id))) }
                TodoTerminal.print(lines: ItemText(terminal: .standardOutput()).details(item, reference: references(item.id)))
            }
        }
    }
}
