import ArgumentParser
import Foundation
import Todos

extension RewindCommand.Todo {
    /// `rewind todo edit`: changes fields of one item as one undo step.
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change an item's title, details, due date or location.",
            discussion: """
                All the changes given make one undo step.

                Examples:
                  rewind todo edit 2 --title "Buy oat milk"
                  rewind todo edit 3f2a --due "2026-12-01 for 3 days" --details "Bring boots"
                  rewind todo edit 1 --due none --no-location
                  rewind todo edit 1 --coordinate -33.92,18.42
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var team: TeamOptions

        @Argument(help: ArgumentHelp("The item: its number in the last list, or the start of its id.", valueName: "ref"))
        var reference: String

        @Option(parsing: .unconditional, help: ArgumentHelp("A new title.", valueName: "title"))
        var title: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("New details (\"\" clears them).", valueName: "text"))
        var details: String?

        @OptionGroup var item: ItemOptions

        @Flag(help: "Remove the location.")
        var noLocation = false

        @Flag(help: "Print the changed item as JSON.")
        var json = false

        /// Checks the values given before anything is opened: a bad one is a
        /// one-line error with exit status 64 and changes nothing. (Not in
        /// `validate()`, which ArgumentParser also runs for `--help`, and
        /// whose errors it prints with the usage.)
        private func checkInput() throws {
            try reportingErrors(exitCode: .validationFailure) {
                if let title {
                    _ = try TodoItem.validatedTitle(title)
                    try TodoItem.Change.title(to: title).checkTypedText()
                }
                if let details { try TodoItem.Change.details(to: details).checkTypedText() }
                try item.check()
                let location = try item.location()
                if noLocation, location != nil {
                    throw TodoCommandError.usage("give either a location or --no-location, not both")
                }
                guard title != nil || details != nil || item.due != nil || noLocation || location != nil else {
                    throw TodoCommandError.usage("nothing to change: give --title, --details, --due, --address, --coordinate, --step or --no-location")
                }
            }
        }

        /// The changes the options ask for, in the order of the fields.
        private func changes(now: Date) throws -> [TodoItem.Change] {
            var changes: [TodoItem.Change] = []
            if let title { changes.append(.title(to: title)) }
            if let details { changes.append(.details(to: details)) }
            if let due = try item.dueDate(now: now) { changes.append(.due(to: due)) }
            if noLocation {
                changes.append(.location(to: .unknown))
            } else if let location = try item.location() {
                changes.append(.location(to: location))
            }
            return changes
        }

        mutating func run() async throws {
            let target = try team.target()
            try checkInput()
            try await reportingErrors {
                let now = Date()
                let asked = try changes(now: now)
                let updated: [TodoItem]
                let references: ShortReferences
                var unchanged: TodoItem?
                if let target {
                    let shared = try await SharedTodoSession.open(options: options, target: target)
                    let items = try await shared.items()
                    guard let id = try shared.resolve([reference], in: items).first, let item = items[id: id] else {
                        throw TodoCommandError("no item matches “\(reference)”")
                    }
                    let changes = item.effective(asked)
                    if changes.isEmpty {
                        (unchanged, updated, references) = (item, [item], ShortReferences(list: items))
                    } else {
                        try await shared.perform([.update(id, changes, at: now)], on: items)
                        let after = try await shared.items()
                        updated = after[id: id].map { [$0] } ?? []
                        references = ShortReferences(list: after)
                    }
                } else {
                    let session = try await TodoSession.open(options: options)
                    guard let id = try await session.resolve([reference]).first else {
                        throw TodoCommandError("no item matches “\(reference)”")
                    }
                    let (current, currentReferences) = try await session.items([id])
                    guard let item = current.first else { throw TodoCommandError("no item matches “\(reference)”") }
                    let changes = item.effective(asked)
                    if changes.isEmpty {
                        (unchanged, updated, references) = (item, [item], currentReferences)
                    } else {
                        updated = try await session.app.send(.alter(id, changes))
                        references = try await session.references(for: [id])
                    }
                }
                if json { return try JSONOutput.print(JSONOutput.items(updated, references: references).first) }
                let text = ItemText(terminal: .standardOutput(), now: now)
                if let unchanged {
                    // Said, and not a failure (as `done` of a completed item): no step is made.
                    return TodoTerminal.note("Nothing to change: " + text.named(unchanged, references: references) + " already has these values.")
                }
                TodoTerminal.print(lines: updated.map { "Changed " + text.named($0, references: references) })
            }
        }
    }
}
