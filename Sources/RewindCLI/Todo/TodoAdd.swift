import ArgumentParser
import Foundation
import Todos

extension RewindCommand.Todo {
    /// `rewind todo add`: creates an item and prints it with its short reference.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add an item.",
            discussion: """
                The words of the title may be given unquoted. Prints the new item's short \
                reference, which names it in later commands.

                Examples:
                  rewind todo add Buy milk
                  rewind todo add "Call Anna" --due "fri 14:30" --details "About the trip"
                  rewind todo add "Post office" --address "1 Main St, Springfield, 12345, US"
                  rewind todo add "Picnic" --coordinate 53.93,9.10 --due tomorrow
                  rewind todo add "Find the hut" --step "Leave by the main gate" --step "Turn right"
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var team: TeamOptions

        @Argument(help: ArgumentHelp("The title; several words are joined with spaces.", valueName: "title"))
        var title: [String] = []

        @Option(parsing: .unconditional, help: ArgumentHelp("Free text about the item.", valueName: "text"))
        var details: String?

        @OptionGroup var item: ItemOptions

        @Flag(help: "Print the new item as JSON.")
        var json = false

        var joinedTitle: String { title.joined(separator: " ") }

        /// Checks the values given before anything is opened: a bad one is a
        /// one-line error with exit status 64 and changes nothing. (Not in
        /// `validate()`, which ArgumentParser also runs for `--help`, and
        /// whose errors it prints with the usage.)
        private func checkInput() throws {
            try reportingErrors(exitCode: .validationFailure) {
                guard !title.isEmpty else {
                    throw TodoCommandError.usage("a title is missing: rewind todo add TITLE [options]")
                }
                _ = try TodoItem.validatedTitle(joinedTitle)
                try TodoItem.Change.title(to: joinedTitle).checkTypedText()
                if let details { try TodoItem.Change.details(to: details).checkTypedText() }
                try item.check()
            }
        }

        mutating func run() async throws {
            let target = try team.target()
            try checkInput()
            try await reportingErrors {
                let now = Date()
                let draft = TodoItem.Draft(
                    title: joinedTitle, details: details ?? "",
                    due: try item.dueDate(now: now) ?? .unknown, location: try item.location() ?? .unknown)
                let added: TodoItem
                let references: ShortReferences
                if let target {
                    let shared = try await SharedTodoSession.open(options: options, target: target)
                    let items = try await shared.items()
                    added = try TodoItem(draft, id: .random(), created: now)
                    try await shared.perform([.add(added)], on: items)
                    references = ShortReferences(allIDs: Array(items.ids) + [added.id])
                } else {
                    let session = try await TodoSession.open(options: options)
                    added = try await session.app.send(.create(draft, at: nil))
                    references = try await session.references(for: [added.id])
                }
                if json { return try JSONOutput.print(ItemJSON(item: added, ref: references(added.id))) }
                let text = ItemText(terminal: .standardOutput(), now: now)
                let due = text.dueColumn(added)
                TodoTerminal.print("Added " + text.named(added, references: references) + (due.isEmpty ? "" : ", due " + due))
            }
        }
    }
}
