import ArgumentParser
import Foundation
import TodoStore
import TodoStorePostgres
import Todos

extension RewindCommand {
    /// `rewind users`: the accounts of team mode, made by an administrator
    /// in the terminal (there is no sign-up). They are kept in the same
    /// database as the list.
    struct Users: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "users",
            abstract: "Make, list, remove and change the accounts of team mode.",
            discussion: """
                Accounts are kept with the list: in the data directory's SQLite file (--data-dir, \
                else $REWIND_DATA_DIR, else $XDG_DATA_HOME/rewind, else ~/.local/share/rewind), or \
                in the PostgreSQL database of --database or $REWIND_DATABASE_URL. People sign in \
                with them on the pages of `rewind serve` (team mode) and act as them here with \
                `rewind lists --as NAME` and `rewind todo --as NAME --list LIST`.

                Names: 1 to 64 characters, letters a-z, digits, ".", "-" and "_", starting with a \
                letter or digit; compared without case ("Ann" and "ann" are one account). \
                Passwords: at least 10 characters and at most 72 bytes; they are asked for on the \
                terminal, not echoed, or read as one line of standard input with --password-stdin, \
                never taken from the command line. Only their bcrypt hash (cost 12) is kept.

                Exit status: 0 on success; 1 when the command could not be done (unknown account, \
                unreadable data, a removal not confirmed); 64 when the input is wrong (a name \
                against the rules or taken, a weak password, passwords that differ, no terminal \
                to ask on).

                Examples:
                  rewind users add ann
                  printf '%s\\n' "$PASSWORD" | rewind users add bob --password-stdin
                  rewind users list
                  rewind users passwd ann
                  rewind users rm bob --yes
                """,
            subcommands: [List.self, Add.self, Passwd.self, Remove.self],
            defaultSubcommand: List.self
        )

        /// The subcommands' options given before the subcommand's name
        /// (`rewind users --database URL add …`): the subcommand reads them as its own.
        @OptionGroup var options: TodoOptions
    }
}

/// One `rewind users` command's way to the accounts: the store of the
/// data directory's SQLite file or of the PostgreSQL database, chosen as
/// `rewind todo` chooses.
enum UsersSession {
    /// The account `typed` names as it was made ("Ann" for "ANN"), or
    /// `typed` when there is none.
    static func made(_ typed: AccountName, in accounts: any AccountStore) async throws -> AccountName {
        try await accounts.list().first { $0.name == typed }?.name ?? typed
    }

    /// The accounts of the store `options` choose.
    ///
    /// - Throws: ``StoreError`` when the directory cannot be made or the
    ///   database cannot be reached or is not one this version can use
    ///   (nothing is changed then); ``TodoCommandError`` (exit status 64)
    ///   for a malformed database URL.
    static func open(options: TodoOptions) async throws -> any AccountStore {
        try await options.open(
            sqlite: { url -> any AccountStore in try await SQLiteAccountStore.open(url: url) },
            postgres: { database -> any AccountStore in try await PostgresAccountStore.open(database) }
        ).opened
    }

    /// The account name `text`, checked against the rules.
    ///
    /// - Throws: ``TodoCommandError`` (exit status 64) saying what is allowed.
    static func name(_ text: String) throws -> AccountName {
        do {
            return try AccountName(text)
        } catch {
            throw TodoCommandError.usage(error.description)
        }
    }

    /// Runs `body` with the account name `text`, checked, and the accounts
    /// `options` choose; on an error writes one line on standard error
    /// (`rewind users: …`) and throws the exit status to leave with: 64 for
    /// a name against the rules or taken, 1 for an unknown account. With
    /// `existing` (the account must exist), a data directory that does not
    /// exist has no such account, and is not made.
    static func run(
        options: TodoOptions, name text: String, existing: Bool = false,
        _ body: (AccountName, any AccountStore) async throws -> Void
    ) async throws {
        try await reportingErrors(command: "users") {
            let name = try name(text)
            try await explaining { try refuseWhereNothingIsKept(name, options: options, existing: existing) }
            let accounts = try await open(options: options)
            try await explaining { try await body(name, accounts) }
        }
    }

    /// Runs `body` as ``run(options:name:_:)`` does, with the shared lists
    /// of the same data directory or database as well.
    static func run(
        options: TodoOptions, name text: String, existing: Bool = false,
        _ body: (AccountName, any AccountStore, any SharedListStore) async throws -> Void
    ) async throws {
        try await reportingErrors(command: "users") {
            let name = try name(text)
            try await explaining { try refuseWhereNothingIsKept(name, options: options, existing: existing) }
            let (accounts, lists) = try await options.open(
                sqlite: { url -> (any AccountStore, any SharedListStore) in
                    (try await SQLiteAccountStore.open(url: url), try await SQLiteSharedListStore.open(url: url))
                },
                postgres: { database -> (any AccountStore, any SharedListStore) in
                    (try await PostgresAccountStore.open(database), try await PostgresSharedListStore.open(database))
                }
            ).opened
            try await explaining { try await body(name, accounts, lists) }
        }
    }

    /// Throws ``AccountStoreError/noSuchAccount(_:)`` for an account that
    /// must exist (`existing`) in a data directory that does not: a
    /// mistyped `--data-dir` is not made.
    private static func refuseWhereNothingIsKept(_ name: AccountName, options: TodoOptions, existing: Bool) throws {
        if existing, try options.absentDataDirectory() != nil { throw AccountStoreError.noSuchAccount(name.text) }
    }

    /// Throws ``AccountStoreError/noSuchAccount(_:)`` as a could-not-do
    /// error (exit status 1), and ``AccountStoreError/nameTaken(existing:)``
    /// as a wrong input (exit status 64).
    private static func explaining<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as AccountStoreError {
            switch error {
            case .nameTaken: throw TodoCommandError.usage(error.description)
            case .noSuchAccount: throw TodoCommandError(error.description)
            }
        }
    }
}

/// The argument that names an account.
struct AccountNameArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The account's name (compared without case).", valueName: "name"))
    var name: String
}
