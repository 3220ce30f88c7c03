import ArgumentParser
import Foundation
import TodoStore
import Todos

extension RewindCommand.Users {
    /// `rewind users rm`: removes an account, with its place on the lists
    /// shared with it, and with the lists it owns when asked to.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Remove an account.",
            discussion: """
                The account's sessions end, and the lists shared with it stop being shared with \
                it, so that an account made later with the same name gets none of them. An \
                account that owns lists is kept, and the lists are named, unless --delete-lists \
                is given: then those lists are deleted with their items and history (for \
                everyone they were shared with). Nothing is handed over to another account.

                Asks for confirmation on the terminal unless --yes is given; without a terminal, \
                --yes is needed (exit status 64 without it). An unknown account, an account that \
                owns lists without --delete-lists, or an answer other than yes removes nothing \
                (exit status 1).

                Examples:
                  rewind users rm bob
                  rewind users rm bob --yes
                  rewind users rm ann --delete-lists --yes
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var account: AccountNameArgument

        @Flag(help: "Delete the lists the account owns, with their items and history, for everyone.")
        var deleteLists = false

        @Flag(name: [.customShort("y"), .long], help: "Remove without asking.")
        var yes = false

        mutating func run() async throws {
            let (yes, deleteLists) = (yes, deleteLists)
            try await UsersSession.run(options: options, name: account.name, existing: true) { typed, accounts, lists in
                guard try await accounts.passwordHash(for: typed) != nil else {
                    throw AccountStoreError.noSuchAccount(typed.text)
                }
                // Named as the account was made ("Ann"), whatever case it was typed in.
                let name = try await UsersSession.made(typed, in: accounts)
                let all = try await lists.lists(of: name)
                let owned = all.filter { $0.owner == name }
                let joined = all.filter { $0.owner != name }
                if !owned.isEmpty, !deleteLists {
                    throw TodoCommandError(
                        "“\(name.text)” owns \(Self.count(owned)): \(Self.describe(owned)). Delete "
                            + (owned.count == 1 ? "it" : "them")
                            + " first (`rewind lists rm LIST --as \(name.text)`), or pass --delete-lists to delete "
                            + (owned.count == 1 ? "it" : "them") + " with the account. Nothing was removed.")
                }
                if !yes {
                    guard PasswordInput.isTerminal else {
                        throw TodoCommandError.usage(
                            "removing “\(name.text)” needs confirmation: run it on a terminal, or pass --yes. Nothing was removed.")
                    }
                    let question = owned.isEmpty
                        ? "Remove the account “\(name.text)”?"
                        : "Remove the account “\(name.text)” and delete \(Self.count(owned)) with their items and history (\(Self.describe(owned)))?"
                    guard try PasswordInput.confirm(question) else {
                        throw TodoCommandError("“\(name.text)” was kept: removing needs the answer yes.")
                    }
                }
                // The lists first: should this stop half way, the account
                // is still there, and running the command again finishes it.
                for list in owned { try await lists.delete(list.id, by: name) }
                for list in joined { try await lists.unshare(list.id, with: name, by: list.owner) }
                let removed = try await accounts.remove(name: name)
                var report = ["Removed the account “\(removed.name.text)”."]
                if !owned.isEmpty { report.append("Deleted \(Self.count(owned)): \(Self.describe(owned)).") }
                if !joined.isEmpty { report.append("Stopped sharing \(Self.count(joined)) with it: \(Self.describe(joined)).") }
                TodoTerminal.print(lines: report)
            }
        }

        /// “1 list” or “3 lists”.
        private static func count(_ lists: [SharedListSummary]) -> String {
            lists.count == 1 ? "1 list" : "\(lists.count) lists"
        }

        /// The lists by name and short id, e.g. “Groceries” (ea3339c9): the
        /// first ten, and how many more (`rewind lists --as NAME` shows them all).
        private static func describe(_ lists: [SharedListSummary]) -> String {
            let shown = lists.prefix(10).map { TeamSession.label($0) }.joined(separator: ", ")
            return lists.count > 10 ? shown + " and \(lists.count - 10) more" : shown
        }
    }
}
