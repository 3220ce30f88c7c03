import ArgumentParser
import Foundation
import TodoStore
import Todos

extension RewindCommand {
    /// `rewind lists`: the shared lists of team mode, as one account.
    struct Lists: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lists",
            abstract: "Make, list, rename, delete and share the lists of team mode, as one account.",
            discussion: """
                Every command acts as the account --as names, which `rewind users add` made. The \
                lists are kept with the accounts: in the data directory's SQLite file or in the \
                PostgreSQL database of --database or $REWIND_DATABASE_URL. Their items are \
                changed with `rewind todo --as NAME --list LIST …`.

                LIST: a list's name among the account's lists (compared without case), or its id \
                or the start of its id (at least 4 hex digits). Only the owner renames, deletes, \
                shares and unshares a list; its members read and change its items, and may leave it.

                Exit status: 0 on success; 1 when the command could not be done (unknown account \
                or list, not the owner, unreadable data); 64 when the input is wrong (a name \
                against the rules, a missing confirmation without a terminal).

                Examples:
                  rewind lists create Groceries --as ann
                  rewind lists share Groceries bob --as ann
                  rewind lists --as bob
                  rewind todo add Milk --as bob --list groceries
                """,
            subcommands: [Show.self, Create.self, Rename.self, Remove.self, Share.self, Unshare.self, Leave.self],
            defaultSubcommand: Show.self
        )

        /// The subcommands' options given before the subcommand's name
        /// (`rewind lists --database URL create …`): the subcommand reads them as its own.
        @OptionGroup var options: TodoOptions
        /// `--as` given before the subcommand's name.
        @OptionGroup var account: ActingAccountOption
    }
}

/// The option that names the account a `rewind lists` command acts as.
/// Every subcommand needs it; it is optional here only so that it may
/// come before the subcommand's name too (`rewind lists --as ann create
/// Groceries`), where `rewind lists` itself reads it.
struct ActingAccountOption: ParsableArguments {
    @Option(name: .customLong("as"), help: ArgumentHelp("The account to act as (needed).", valueName: "name"))
    var given: String?

    /// The account's name.
    ///
    /// - Throws: a `ValidationError` (exit status 64, with the usage) when
    ///   `--as` was not given.
    var name: String {
        get throws {
            guard let given else { throw ValidationError("Missing expected argument '--as <name>': the account to act as") }
            return given
        }
    }
}

/// A `rewind lists` subcommand, which acts as the account of `--as`.
protocol ActingCommand: AsyncParsableCommand {
    /// `--as`, given before or after the subcommand's name.
    var account: ActingAccountOption { get }
}

extension ActingCommand {
    /// Refuses the command line without `--as`, with the subcommand's usage.
    func validate() throws {
        _ = try account.name
    }
}

extension TeamSession {
    /// Runs `body` as the account `name` over the stores `options` choose;
    /// on an error writes one line on standard error (`rewind lists: …`)
    /// and throws the exit status to leave with.
    static func run(options: TodoOptions, as name: String, _ body: (TeamSession) async throws -> Void) async throws {
        try await reportingErrors(command: "lists") {
            try await body(try await open(options: options, as: name))
        }
    }
}

extension RewindCommand.Lists {
    /// `rewind lists [show]`: the lists the account owns or is a member of.
    struct Show: ActingCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show the account's lists (the default command).",
            discussion: """
                One line per list, oldest first: its short id, name, owner and members, and how \
                many items it holds ("2 items left, 1 completed"). With --json: {"lists": [{"id", \
                "name", "owner", "members", "itemCount", "completedCount"}]}.

                Examples:
                  rewind lists --as ann
                  rewind lists --as ann --json | jq -r '.lists[].name'
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var account: ActingAccountOption

        @Flag(help: "Print the lists as JSON.")
        var json = false

        mutating func run() async throws {
            let (json, repeated) = (json, options.repeated)
            try await TeamSession.run(options: options, as: try account.name) { team in
                let lists = try await team.lists.overview(of: team.person)
                if json { return try JSONOutput.print(ListsJSON(lists: lists.map { ListJSON($0.list, counts: $0.counts) })) }
                guard !lists.isEmpty else {
                    return TodoTerminal.print(
                        "\(team.person.text) has no lists yet; make one with "
                            + "`rewind lists create NAME --as \(TodoOptions.shellQuoted(team.person.text))\(repeated)`.")
                }
                let width = lists.map { ItemText.cells(ItemText.cut($0.list.name, to: 40)) }.max() ?? 0
                TodoTerminal.print(lines: lists.map { list, counts in
                    let name = ItemText.cut(list.name, to: 40)
                    let members = list.members.isEmpty ? "not shared" : "shared with " + list.members.map(\.text).joined(separator: ", ")
                    return TeamSession.shortID(list) + "  " + TypedText.visible(name)
                        + String(repeating: " ", count: width - ItemText.cells(name)) + "  owner " + list.owner.text + ", " + members
                        + " · " + counts.summary
                })
            }
        }
    }

    /// `rewind lists create`: makes an empty list the account owns.
    struct Create: ActingCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Make a list.",
            discussion: """
                Names: 1 to \(SharedListSummary.longestName) characters, not only spaces.

                Examples:
                  rewind lists create Groceries --as ann
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var account: ActingAccountOption

        @Argument(help: ArgumentHelp("The list's name.", valueName: "name"))
        var name: String

        mutating func run() async throws {
            let name = try ListName.checked(name)
            try await TeamSession.run(options: options, as: try account.name) { team in
                let list = try await team.lists.create(name: name, owner: team.person)
                TodoTerminal.print("Made the list \(TeamSession.label(list)).")
                try await team.noteOtherLists(named: list)
            }
        }
    }

    /// `rewind lists rename`: gives one of the account's own lists a new name.
    struct Rename: ActingCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename",
            abstract: "Rename a list (its owner only).",
            discussion: """
                Examples:
                  rewind lists rename groceries "Weekly shop" --as ann
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var account: ActingAccountOption

        @Argument(help: ArgumentHelp("The list: its name or the start of its id.", valueName: "list"))
        var list: String

        @Argument(help: ArgumentHelp("Its new name.", valueName: "new-name"))
        var newName: String

        mutating func run() async throws {
            let (reference, name) = (list, try ListName.checked(newName))
            try await TeamSession.run(options: options, as: try account.name) { team in
                let list = try await team.list(reference)
                try team.checkOwner(of: list, to: "rename")
                guard list.name != name else {
                    return TodoTerminal.note("Nothing to change: the list is already named “\(TypedText.visible(name))”.")
                }
                let renamed = try await team.lists.rename(list.id, to: name, by: team.person)
                TodoTerminal.print("Renamed “\(TypedText.visible(list.name))” to “\(TypedText.visible(renamed.name))”.")
                try await team.noteOtherLists(named: renamed)
            }
        }
    }

    /// `rewind lists rm`: deletes one of the account's own lists with its items and history.
    struct Remove: ActingCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Delete a list with its items and history (its owner only).",
            discussion: """
                Asks for confirmation on the terminal unless --yes is given; without a terminal, \
                --yes is needed (exit status 64 without it). An answer other than yes deletes \
                nothing (exit status 1).

                Examples:
                  rewind lists rm groceries --as ann
                  rewind lists rm groceries --as ann --yes
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var account: ActingAccountOption

        @Argument(help: ArgumentHelp("The list: its name or the start of its id.", valueName: "list"))
        var list: String

        @Flag(name: [.customShort("y"), .long], help: "Delete without asking.")
        var yes = false

        mutating func run() async throws {
            let (reference, yes) = (list, yes)
            try await TeamSession.run(options: options, as: try account.name) { team in
                let list = try await team.list(reference)
                try team.checkOwner(of: list, to: "delete")
                let name = TypedText.visible(list.name)
                if !yes {
                    guard PasswordInput.isTerminal else {
                        throw TodoCommandError.usage(
                            "deleting “\(name)” needs confirmation: run it on a terminal, or pass --yes. Nothing was deleted.")
                    }
                    guard try PasswordInput.confirm("Delete the list “\(name)” with its items and history?") else {
                        throw TodoCommandError("“\(name)” was kept: deleting needs the answer yes.")
                    }
                }
                try await team.lists.delete(list.id, by: team.person)
                TodoTerminal.print("Deleted the list “\(name)”.")
            }
        }
    }

    /// `rewind lists share`: lets another account open and change one of the account's own lists.
    struct Share: ActingCommand {
        static let configuration = CommandConfiguration(
            commandName: "share",
            abstract: "Share a list with another account (its owner only).",
            discussion: """
                The account must exist. Its members read and change the items; only the owner \
                renames, deletes, shares and unshares the list.

                Examples:
                  rewind lists share groceries bob --as ann
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var account: ActingAccountOption
        @OptionGroup var membership: MembershipArguments

        mutating func run() async throws {
            try await membership.change(options: options, as: try account.name, sharing: true)
        }
    }

    /// `rewind lists unshare`: stops sharing one of the account's own lists with an account.
    struct Unshare: ActingCommand {
        static let configuration = CommandConfiguration(
            commandName: "unshare",
            abstract: "Stop sharing a list with an account (its owner only; a member may name itself, as leave does).",
            discussion: """
                Examples:
                  rewind lists unshare groceries bob --as ann
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var account: ActingAccountOption
        @OptionGroup var membership: MembershipArguments

        mutating func run() async throws {
            try await membership.change(options: options, as: try account.name, sharing: false)
        }
    }

    /// `rewind lists leave`: a member stops being one.
    struct Leave: ActingCommand {
        static let configuration = CommandConfiguration(
            commandName: "leave",
            abstract: "Leave a list another account shared with this one.",
            discussion: """
                The list and its items stay with its owner and its other members; the owner may \
                share it again. An owner does not leave a list: `rewind lists rm` deletes it.

                Examples:
                  rewind lists leave groceries --as bob
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var account: ActingAccountOption

        @Argument(help: ArgumentHelp("The list: its name or the start of its id.", valueName: "list"))
        var list: String

        mutating func run() async throws {
            let reference = list
            try await TeamSession.run(options: options, as: try account.name) { team in
                try await team.leave(try await team.list(reference))
            }
        }
    }
}

/// The list and the account of `share` and `unshare`.
struct MembershipArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The list: its name or the start of its id.", valueName: "list"))
    var list: String

    @Argument(help: ArgumentHelp("The account to share it with, or to stop sharing it with.", valueName: "with"))
    var account: String

    /// Shares the list with the account, or stops sharing it, as `person`.
    func change(options: TodoOptions, as person: String, sharing: Bool) async throws {
        let (reference, text) = (list, account)
        let account = try reportingErrors(exitCode: .validationFailure, command: "lists") { try UsersSession.name(text) }
        try await TeamSession.run(options: options, as: person) { team in
            let list = try await team.list(reference)
            // A member who names itself leaves the list, as the API allows.
            if !sharing, account == team.person, list.owner != team.person { return try await team.leave(list) }
            try team.checkOwner(of: list, to: sharing ? "share" : "unshare")
            let name = TypedText.visible(list.name)
            if sharing {
                let account = try await team.existing(account)
                do {
                    try await team.lists.share(list.id, with: account.name, madeAt: account.created, by: team.person)
                } catch AccountError.alreadyMember {
                    // As a rename to the name it has: run again, the command changes nothing and succeeds.
                    return TodoTerminal.print("Nothing to change: “\(name)” is shared with \(account.name.text) already.")
                }
                TodoTerminal.print("Shared “\(name)” with \(account.name.text).")
            } else {
                try await team.lists.unshare(list.id, with: account, by: team.person)
                // The member as the account was made, whatever case it was typed in.
                TodoTerminal.print("Stopped sharing “\(name)” with \(list.access.name(of: account.key)).")
            }
        }
    }
}

extension TeamSession {
    /// Leaves `list`, which another account shared with the person.
    ///
    /// - Throws: ``AccountError/owner(_:sharing:)`` when the person owns it.
    func leave(_ list: SharedListSummary) async throws {
        try await lists.unshare(list.id, with: person, by: person)
        TodoTerminal.print("Left \(list.owner.text)'s list “\(TypedText.visible(list.name))”; it is no longer shared with \(person.text).")
    }

    /// Says on standard error which other lists of the person have the
    /// name of `list` (compared without case): a name then no longer
    /// names one list in commands, its id does.
    func noteOtherLists(named list: SharedListSummary) async throws {
        let others = try await lists.lists(of: person).filter { $0.id != list.id && $0.name.lowercased() == list.name.lowercased() }
        guard !others.isEmpty else { return }
        TodoTerminal.note(
            "\(person.text) has \(others.count == 1 ? "another list" : "\(others.count) other lists") named so: "
                + others.map { Self.label($0) }.joined(separator: ", ")
                + "; name them by id in commands (this one is \(Self.shortID(list))).")
    }
}

/// Checks a list's name before anything is opened.
enum ListName {
    /// `name` without the spaces around it.
    ///
    /// - Throws: the exit status 64 after one line saying what is allowed.
    static func checked(_ name: String) throws -> String {
        try reportingErrors(exitCode: .validationFailure, command: "lists") {
            do {
                return try SharedListSummary.checkedName(name)
            } catch let error as SharedListError {
                throw TodoCommandError.usage(error.description)
            }
        }
    }
}

/// `rewind lists --json`.
struct ListsJSON: Encodable {
    /// The lists, oldest first.
    let lists: [ListJSON]
}

/// One list in `rewind lists --json`.
struct ListJSON: Encodable {
    /// Its id.
    let id: UUID
    /// Its name.
    let name: String
    /// The account that owns it.
    let owner: String
    /// The accounts it is shared with.
    let members: [String]
    /// How many items it holds.
    let itemCount: Int
    /// How many of them are completed.
    let completedCount: Int

    init(_ list: SharedListSummary, counts: SharedListCounts) {
        id = list.id
        name = list.name
        owner = list.owner.text
        members = list.members.map(\.text)
        itemCount = counts.items
        completedCount = counts.completed
    }
}
