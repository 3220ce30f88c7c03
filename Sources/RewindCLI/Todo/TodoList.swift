import ArgumentParser
import Foundation
import TodoStore
import Todos

extension RewindCommand.Todo {
    /// `rewind todo list`: the items as a numbered table, or as JSON.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List items (the default command).",
            discussion: """
                Shows a numbered table: number, short reference, completed mark, title, due date \
                (overdue ones marked) and location. The numbers are saved, so that `done 2` \
                means the second item shown, until the next `list`.

                `--sort list` (the default) keeps the list's own order: items as they were added, \
                or where `move` put them (`created`, its earlier name, is still taken); `--sort smart` shows \
                active items first, then the most recently changed; `--sort due` shows active \
                items first, each group by due date (the earliest first, those without one last).

                `--search WORDS` shows the items whose title, details or location contain every \
                word, in any case and with or without accents; the counts stay those of the whole \
                list.

                Examples:
                  rewind todo list
                  rewind todo list --active --sort smart
                  rewind todo list --sort due
                  rewind todo list --overdue
                  rewind todo list --search "milk shop"
                  rewind todo list --json | jq '.items[].title'
                """
        )

        /// Which items to show.
        enum Filter: String, EnumerableFlag {
            case all, active, completed, overdue

            static func help(for value: Filter) -> ArgumentHelp? {
                switch value {
                case .all: "Show every item (the default)."
                case .active: "Show active items (not completed)."
                case .completed: "Show completed items."
                case .overdue: "Show active items whose due date has passed."
                }
            }

            var domainFilter: TodoFilter {
                switch self {
                case .all: .all
                case .active: .active
                case .completed: .completed
                case .overdue: .overdue
                }
            }
        }

        /// In which order to show them.
        enum Sort: String, ExpressibleByArgument, CaseIterable {
            case list, smart, due

            /// The order `argument` names; `created` is the earlier name of `list`.
            init?(argument: String) {
                self.init(rawValue: argument == "created" ? Self.list.rawValue : argument)
            }

            var domainSort: TodoSort {
                switch self {
                case .list: .list
                case .smart: .smart
                case .due: .due
                }
            }
        }

        @OptionGroup var options: TodoOptions
        @OptionGroup var team: TeamOptions

        @Flag(exclusivity: .exclusive)
        var filter: Filter = .all

        @Option(help: ArgumentHelp("The order: list (the list's own), smart or due.", valueName: "order"))
        var sort: Sort = .list

        /// The words to search for; a value that starts with a dash is a
        /// value (`--search "-5 degrees"`), as the texts of `add` and `edit`.
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Show only the items whose title, details or location contain every word (at most 200 characters and 20 different words).",
                valueName: "words"
            )
        )
        var search: String?

        @Flag(help: "Print {\"items\": [...], \"counts\": {...}} as JSON; each item has its number and ref.")
        var json = false

        /// Words after `list`, or after `rewind todo` in place of a command
        /// (a mistyped one): refused with what was probably meant.
        @Argument(help: .hidden)
        var words: [String] = []

        /// The search that `--search` asks for, `nil` for none (or no words).
        private var domainSearch: TodoSearch? {
            get throws {
                do {
                    return try search.flatMap { text throws(TodoSearchError) in try TodoSearch(text) }
                } catch {
                    throw ValidationError("invalid value for --search: \(error)")
                }
            }
        }

        func validate() throws {
            _ = try domainSearch
            // One line, as the other refusals of `rewind todo`: the usage of
            // `list` would only mislead after a word that was meant as a command.
            if let first = words.first {
                if let unknown = UnknownCommand.unknownOption(in: CommandLine.arguments.dropFirst(), help: Self.helpMessage()) {
                    TodoTerminal.warn(unknown)
                    throw ExitCode.validationFailure
                }
                TodoTerminal.warn(
                    Self.refusal(of: words, listNamed: Self.listNamed(before: first), repeating: options.repeated + team.repeated))
                throw ExitCode.validationFailure
            }
        }

        /// Whether `list` was written before `word` on the command line.
        private static func listNamed(before word: String) -> Bool {
            let arguments = CommandLine.arguments.dropFirst()
            guard let index = arguments.firstIndex(of: word) else { return false }
            return arguments[..<index].contains("list")
        }

        /// Why `words` are refused: `list` takes none (a search was
        /// probably meant), or the first is not a command of `rewind todo`
        /// (the nearest command named when one is near, else how to add
        /// the words as an item). A suggested command is quoted for a
        /// shell, and ends with `repeated`, the options to type again.
        static func refusal(of words: [String], listNamed: Bool, repeating repeated: String = "") -> String {
            let shown = TodoOptions.shellQuoted(TypedText.visible(words.joined(separator: " ")))
            if listNamed {
                return "list takes no words; to show the items that contain them: rewind todo list --search \(shown)\(repeated)"
            }
            let commands = RewindCommand.Todo.configuration.subcommands.map { $0._commandName }
            let refusal = UnknownCommand.message(for: words[0], among: commands, of: "rewind todo")
            // A word one or two letters from a command is a typo; a word that
            // other tools use for a command ("remove", "check") may also
            // start a title ("check the mail").
            guard UnknownCommand.nearest(to: words[0], among: commands) == nil
                || UnknownCommand.synonym(of: words[0], among: commands) != nil
            else { return refusal }
            return refusal + "; to add an item: rewind todo add \(shown)\(repeated)"
        }

        mutating func run() async throws {
            let target = try team.target()
            try await reportingErrors {
                let now = Date()
                let search = try domainSearch
                let items: [TodoItem]
                let references: ShortReferences
                let counts: TodoCounts
                let lastListing: LastListing
                var next: SharedListNextSteps?
                var absent: DataDirectory?
                if let target {
                    let shared = try await SharedTodoSession.open(options: options, target: target)
                    let list = try await shared.items()
                    items = list.items(filter.domainFilter, sortedBy: sort.domainSort, matching: search, now: now)
                    (references, counts, lastListing) = (ShortReferences(list: list), list.counts(now: now), shared.lastListing)
                    next = try await shared.team.lists.nextSteps(on: shared.list.id, of: shared.person)
                } else if let directory = try options.absentDataDirectory() {
                    // Nothing kept there yet: an empty list, and no folder made for it.
                    (items, references, counts) = ([], ShortReferences(allIDs: []), TodoCounts(total: 0, active: 0, completed: 0, overdue: 0))
                    (lastListing, absent) = (LastListing(directory: directory), directory)
                } else {
                    let session = try await TodoSession.open(options: options)
                    (items, references, counts) = try await listing(session, search: search, now: now)
                    lastListing = session.lastListing
                }
                // The list is shown even when its numbers cannot be kept (a full
                // disk, a read-only data directory); then no number works until
                // the next list, rather than the numbers of an older one.
                var unsavedNumbers: String?
                do {
                    if absent == nil { try lastListing.save(items.map(\.id)) }
                } catch {
                    lastListing.forget()
                    if case StoreError.io(_, let detail) = error { unsavedNumbers = detail } else { unsavedNumbers = "\(error)" }
                }
                defer {
                    if let unsavedNumbers {
                        TodoTerminal.warn("the numbers of this list could not be saved (\(unsavedNumbers)); refer to items by their ref instead")
                    }
                }
                if json {
                    let numbered = items.enumerated().map { ItemJSON(item: $1, ref: references($1.id), number: $0 + 1) }
                    return try JSONOutput.print(
                        Listing(items: numbered, counts: counts, undo: next?.undo?.name, redo: next?.redo?.name))
                }
                let terminal = TodoTerminal.standardOutput()
                var lines: [String]
                if items.isEmpty {
                    // A shared list's hint repeats --as and --list.
                    lines = [emptyLine(counts, search: search)]
                    // What a mistyped --data-dir shows: the folder named, which the first add makes.
                    if let absent { lines.append("(\(TypedText.visible(absent.url.path)) does not exist yet; the first add makes it.)") }
                } else {
                    lines = ItemText(terminal: terminal, now: now).table(items, references: references)
                    var footer = counts.summary
                    if let search { footer = "\(items.count) found for “\(search.text)” · " + footer }
                    lines.append(terminal.styled(footer, .dim))
                }
                if let next {
                    lines.append("Undo: " + (next.undo.map { TypedText.visible($0.name) } ?? "nothing of yours to undo"))
                    lines.append("Redo: " + (next.redo.map { TypedText.visible($0.name) } ?? "nothing of yours to redo"))
                }
                TodoTerminal.print(lines: lines)
            }
        }

        /// The items to show, their short references and the counts. Every
        /// item is read for `--all`; for the other filters only the rows
        /// that can be shown (by their state, and their due date for
        /// `--overdue`), the ids, and the due dates of active items for
        /// the counts.
        private func listing(
            _ session: TodoSession, search: TodoSearch?, now: Date
        ) async throws -> (items: [TodoItem], references: ShortReferences, counts: TodoCounts) {
            let (filter, sort) = (filter.domainFilter, sort.domainSort)
            let state: TodoItem.State
            switch self.filter {
            case .all:
                return try await session.read { list in
                    (list.items(filter, sortedBy: sort, matching: search, now: now), ShortReferences(list: list), list.counts(now: now))
                }
            case .active, .overdue: state = .active
            case .completed: state = .completed
            }
            let (candidates, counts) = try await session.items(in: state, dueOnly: self.filter == .overdue, now: now)
            // The list's own filter and order, over the rows that can pass it.
            let items = try TodoList(items: candidates).items(filter, sortedBy: sort, matching: search, now: now)
            let references = try await session.searchIDs { index in ShortReferences(allIDs: try index.all()) }
            return (items, references, counts)
        }

        private func emptyLine(_ counts: TodoCounts, search: TodoSearch?) -> String {
            if counts.total == 0 { return "No items yet. Add one with: rewind todo add \"Buy milk\"\(options.repeated)\(team.repeated)" }
            if let search { return search.found(0, filter: filter.domainFilter) }
            switch filter {
            case .all: return "No items."
            case .active: return "Nothing left to do: all \(counts.total) item\(counts.total == 1 ? " is" : "s are") completed."
            case .completed: return "No item is completed yet."
            case .overdue: return "Nothing is overdue."
            }
        }

        /// The JSON document of `list --json`.
        private struct Listing: Encodable {
            let items: [ItemJSON]
            let counts: TodoCounts
            /// On a shared list: the step the account's undo would take back.
            var undo: String?
            /// On a shared list: the undo the account's redo would take back.
            var redo: String?
        }
    }
}
