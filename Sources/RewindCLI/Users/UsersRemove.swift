import ArgumentParser
import Foundation
import TodoStore

extension RewindCommand.Users {
    /// `rewind users rm`: removes an account.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Remove an account.",
            discussion: """
                Asks for confirmation on the terminal unless --yes is given; without a terminal, \
                --yes is needed (exit status 64 without it). An unknown account, or an answer \
                other than yes, removes nothing (exit status 1).

                Examples:
                  rewind users rm bob
                  rewind users rm bob --yes
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var account: AccountNameArgument

        @Flag(name: [.customShort("y"), .long], help: "Remove without asking.")
        var yes = false

        mutating func run() async throws {
            let yes = yes
            try await UsersSession.run(options: options, name: account.name) { name, accounts in
                if !yes {
                    guard PasswordInput.isTerminal else {
                        throw TodoCommandError.usage(
                            "removing “\(name.text)” needs confirmation: run it on a terminal, or pass --yes. Nothing was removed.")
                    }
                    guard try await accounts.passwordHash(for: name) != nil else {
                        throw AccountStoreError.noSuchAccount(name.text)
                    }
                    guard try PasswordInput.confirm("Remove the account “\(name.text)”?") else {
                        throw TodoCommandError("“\(name.text)” was kept: removing needs the answer yes.")
                    }
                }
                let removed = try await accounts.remove(name: name)
                TodoTerminal.print("Removed the account “\(removed.name.text)”.")
            }
        }
    }
}
