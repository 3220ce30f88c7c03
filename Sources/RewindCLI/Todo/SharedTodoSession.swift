import ArgumentParser
import Foundation
import TodoStore
import Todos

/// `--as` and `--list`: the item commands of `rewind todo` on a shared list
/// of team mode, as one account, instead of on the local list.
struct TeamOptions: ParsableArguments {
    @Option(
        name: .customLong("as"),
        help: ArgumentHelp("Work on a shared list as this account (with --list).", valueName: "name"))
    var person: String?

    @Option(
        name: .customLong("list"),
        help: ArgumentHelp("The shared list (with --as): its name or the start of its id.", valueName: "list"))
    var list: String?

    /// `--as` and `--list` as typed again after a command the CLI suggests,
    /// quoted for a shell; empty when neither was given.
    var repeated: String {
        [("--as", person), ("--list", list)].compactMap { option, value in
            value.map { " \(option) " + TodoOptions.shellQuoted($0) }
        }.joined()
    }

    /// The account and the list asked for; `nil` for the local list.
    ///
    /// - Throws: the exit status 64, after one line, when only one of the
    ///   two options is given.
    func target() throws -> (person: String, list: String)? {
        try reportingErrors(exitCode: .validationFailure) {
            switch (person, list) {
            case (nil, nil): return nil
            case (let person?, let list?): return (person, list)
            default:
                throw TodoCommandError.usage(
                    "--as and --list go together: give both to work on a shared list as an account, or neither for the local list")
            }
        }
    }

    /// Refuses `--as` and `--list` for `command`, which works on the local list only.
    ///
    /// - Throws: the exit status 64, after one line saying what is allowed.
    func refuse(_ command: String) throws {
        try reportingErrors(exitCode: .validationFailure) {
            guard person != nil || list != nil else { return }
            throw TodoCommandError.usage(
                "`rewind todo \(command)` works on the local list only; on a shared list (--as and --list) "
                    + "use add, list, show, done, undone, edit, move, rm, clear-completed, undo, redo, history or export")
        }
    }
}

/// One `rewind todo --as NAME --list LIST` command's way to the shared
/// list, as the account: its items, the numbers of the account's last
/// listing of it, and its steps.
///
/// ```swift
/// let shared = try await SharedTodoSession.open(options: options, target: ("ann", "groceries"))
/// let items = try await shared.items()
/// try await shared.perform([.add(milk)], on: items)
/// ```
struct SharedTodoSession: Sendable {
    /// The account and its stores.
    let team: TeamSession
    /// The list.
    let list: SharedListSummary

    /// Opens the list `target` names among the account's lists.
    ///
    /// - Throws: ``TodoCommandError`` (see ``TeamSession/open(options:as:)``
    ///   and ``TeamSession/list(_:)``); ``StoreError``.
    static func open(options: TodoOptions, target: (person: String, list: String)) async throws -> SharedTodoSession {
        let team = try await TeamSession.open(options: options, as: target.person)
        return SharedTodoSession(team: team, list: try await team.list(target.list))
    }

    /// The account the command acts as.
    var person: AccountName { team.person }

    /// The list's items as they are now.
    func items() async throws -> TodoList {
        try await team.lists.items(of: list.id, as: person).list
    }

    /// The account's last listing of this list.
    var lastListing: LastListing {
        LastListing(directory: team.directory, sharedList: list.id, person: person)
    }

    /// The ids of the items `references` name among `items` (numbers of the
    /// account's last listing of the list, or id prefixes), in order, each once.
    ///
    /// - Throws: ``TodoCommandError`` naming the first unknown or ambiguous reference.
    func resolve(_ references: [String], in items: TodoList) throws -> [UUID] {
        let listing = lastListing
        return try ItemReferences(index: SortedItemIDs(items.ids), listing: { listing.load() }).resolve(references)
    }

    /// Applies `changes` to the list as one step by the account, named as
    /// the local list names its steps (from `items`, the list before).
    @discardableResult
    func perform(_ changes: [TodoList.Change], on items: TodoList) async throws -> SharedStep {
        let name = AppState(todos: items).stepName(for: changes.map { .todos($0) })
        return try await team.lists.perform(changes, named: name, on: list.id, by: person)
    }

    /// Takes back the account's own next step (or, `forward`, its latest
    /// undo), up to `count` times; `nil` in place of a step once there is
    /// nothing left to take back.
    func move(forward: Bool, count: Int) async throws -> (steps: [SharedStep], exhausted: Bool) {
        var steps: [SharedStep] = []
        for _ in 0..<count {
            do {
                steps.append(
                    forward
                        ? try await team.lists.redo(on: list.id, by: person, expecting: nil)
                        : try await team.lists.undo(on: list.id, by: person, expecting: nil))
            } catch SharingError.nothingToUndo, SharingError.nothingToRedo {
                return (steps, true)
            }
        }
        return (steps, false)
    }
}
