import ArgumentParser
import Foundation
import TodoStore

extension RewindCommand.Users {
    /// `rewind users list`: the accounts and when they were made.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the accounts (the default command).",
            discussion: """
                One line per account, by name: the name as it was typed and when the account was \
                made (local time). With --json: {"accounts": [{"name": …, "created": …}]}.

                Examples:
                  rewind users list
                  rewind users list --json | jq -r '.accounts[].name'
                """
        )

        @OptionGroup var options: TodoOptions

        @Flag(help: "Print the accounts as JSON.")
        var json = false

        mutating func run() async throws {
            try await reportingErrors(command: "users") {
                // No data directory yet: no accounts, and no folder made for a mistyped --data-dir.
                let accounts = try options.absentDataDirectory() == nil ? try await UsersSession.open(options: options).list() : []
                if json {
                    return try JSONOutput.print(AccountsJSON(accounts: accounts.map(AccountJSON.init)))
                }
                guard !accounts.isEmpty else {
                    return TodoTerminal.print("No accounts yet; make one with `rewind users add NAME\(options.repeated)`.")
                }
                let width = accounts.map(\.name.text.count).max() ?? 0
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = .current
                formatter.dateFormat = "yyyy-MM-dd HH:mm"
                TodoTerminal.print(lines: accounts.map { account in
                    let name = account.name.text
                    return name + String(repeating: " ", count: width - name.count) + "  created " + formatter.string(from: account.created)
                })
            }
        }
    }
}

/// `rewind users list --json`.
struct AccountsJSON: Encodable {
    /// The accounts, by name.
    let accounts: [AccountJSON]
}

/// One account in `rewind users list --json`.
struct AccountJSON: Encodable {
    /// The name as it was typed.
    let name: String
    /// When the account was made.
    let created: Date

    init(_ account: Account) {
        name = account.name.text
        created = account.created
    }
}
