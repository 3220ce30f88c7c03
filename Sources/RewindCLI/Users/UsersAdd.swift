import ArgumentParser
import Foundation
import TodoStore
import Todos

extension RewindCommand.Users {
    /// `rewind users add`: makes an account.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Make an account.",
            discussion: """
                Asks for the password twice on the terminal (not echoed), or reads it as one line \
                of standard input with --password-stdin. A name taken already (compared without \
                case), a name against the rules, a weak password or two passwords that differ are \
                refused (exit status 64) and nothing is saved. Shared lists that an earlier account \
                of the same name left behind (removed by a version before `users rm` took its lists \
                along) are named, with how to delete those not meant for the new account.

                Examples:
                  rewind users add ann
                  printf '%s\\n' "$PASSWORD" | rewind users add bob --password-stdin
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var account: NewPasswordArguments

        mutating func run() async throws {
            let password = account
            try await UsersSession.run(options: options, name: account.name) { name, accounts, lists in
                // Said before the password is typed in vain.
                if try await accounts.passwordHash(for: name) != nil {
                    let existing = try await UsersSession.made(name, in: accounts).text
                    throw AccountStoreError.nameTaken(existing: existing)
                }
                let added = try await accounts.add(name: name, passwordHash: try await password.passwordHash(for: name))
                TodoTerminal.print("Added the account “\(added.name.text)”.")
                // Lists that an account of this name removed by an older
                // version left behind, which the new account can open.
                let left = try await lists.lists(of: name)
                guard !left.isEmpty else { return }
                let described = left.map { list in
                    TeamSession.label(list, list.owner == name ? "its own" : "shared by \(list.owner.text)")
                }
                TodoTerminal.print(
                    "“\(added.name.text)” can open \(left.count == 1 ? "1 list" : "\(left.count) lists") kept from an earlier "
                        + "account of that name: \(described.joined(separator: ", ")). Delete what is not meant for it: "
                        + "`rewind lists rm LIST --as \(name.text)` for its own, `rewind lists unshare LIST \(name.text) --as OWNER` for the others.")
            }
        }
    }

    /// `rewind users passwd`: gives an account a new password.
    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passwd",
            abstract: "Give an account a new password.",
            discussion: """
                Asks for the new password twice on the terminal (not echoed), or reads it as one \
                line of standard input with --password-stdin; the old one stops working. An \
                unknown account (exit status 1), a weak password or two passwords that differ \
                (exit status 64) change nothing.

                Examples:
                  rewind users passwd ann
                  printf '%s\\n' "$PASSWORD" | rewind users passwd ann --password-stdin
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var account: NewPasswordArguments

        mutating func run() async throws {
            let password = account
            try await UsersSession.run(options: options, name: account.name, existing: true) { name, accounts in
                guard try await accounts.passwordHash(for: name) != nil else {
                    throw AccountStoreError.noSuchAccount(name.text)
                }
                try await accounts.setPasswordHash(name: name, try await password.passwordHash(for: name))
                // The account as it was made, whatever case it was typed in.
                let made = try await UsersSession.made(name, in: accounts)
                TodoTerminal.print("Changed the password of “\(made.text)”.")
            }
        }
    }
}

/// The arguments of a command that sets a password: the account's name,
/// and where the password comes from.
struct NewPasswordArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The account's name (compared without case).", valueName: "name"))
    var name: String

    @Flag(help: "Read the password as one line of standard input (for scripts).")
    var passwordStdin = false

    /// The bcrypt hash (cost 12) of the password read for `name`: one line
    /// of standard input, or typed twice on the terminal.
    ///
    /// - Throws: ``TodoCommandError`` (exit status 64) as
    ///   ``PasswordInput/newPassword(for:fromStandardInput:)`` says.
    func passwordHash(for name: AccountName) async throws -> String {
        let password = try PasswordInput.newPassword(for: name, fromStandardInput: passwordStdin)
        return try await PasswordHasher.standard.hash(password)
    }
}
