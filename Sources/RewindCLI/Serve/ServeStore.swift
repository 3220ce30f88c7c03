import Foundation
import ServiceLifecycle
import TodoStore
import TodoStorePostgres
import Todos
import WebApp

/// The to-do store `rewind serve` works on, and how to close it.
struct ServeStore: Sendable {
    /// The store, through the domain's interface.
    let store: any AppStore
    /// Where the to-dos are, for the start-up line: a database path or
    /// URL (without its password), or "memory".
    let location: String
    /// Why changes will be refused (the file or its folder cannot be
    /// written), said when the server starts rather than at the first
    /// change; `nil` when they can be made.
    var readOnly: String? = nil
    /// What must run with the server: the PostgreSQL connection pool.
    var services: [any Service] = []
    /// Opens the accounts and sessions of team mode, in the same database
    /// as the list (only when team mode is on), and says whether there is
    /// an account; `nil` for `--in-memory`.
    var sessions: @Sendable () async throws -> (store: any SessionStore, hasAccounts: Bool)? = { nil }
    /// Opens the shared lists of team mode, in the same database as the
    /// list (only when team mode is on); `nil` for `--in-memory`.
    var sharedLists: @Sendable () async throws -> (any SharedListStore)? = { nil }
    /// Whether team mode is on without `--accounts` (PostgreSQL).
    var alwaysTeamMode = false
    /// Where the calculators of the browser page are kept, in the same
    /// database as the list; `nil` for `--in-memory` (in the server's memory).
    var calculators: (any CalculatorStore)? = nil
    /// What `rewind users add NAME` needs after it to make an account here
    /// (` --data-dir DIR` when one was given), for the message of ``NoAccount``.
    var usersOption = ""
    /// Closes the store after the server stopped.
    let close: @Sendable () -> Void
    /// Returns once the file is known to be whole (the check of every page
    /// runs after the server started); throws ``StoreError`` when it is
    /// damaged.
    let checked: @Sendable () async throws -> Void

    /// Opens the store of `--database` (or `REWIND_DATABASE_URL`) /
    /// `--data-dir` / `--in-memory`: the one place where `rewind serve`
    /// chooses its store.
    ///
    /// The SQLite store polls for changes made by other processes (`rewind
    /// todo` on the same data directory) and tells the server, which tells
    /// the open pages. It opens without reading the list or every page of
    /// the file, so that the server answers at once; both are read right
    /// after, in the background (``SQLiteStore/Items/inMemoryAfterOpen``).
    ///
    /// The PostgreSQL store's connection pool runs as a service of the
    /// application; the store is opened (and its schema brought up to date)
    /// on a connection of its own first, so that a database that cannot be
    /// used stops the server before it starts.
    ///
    /// - Throws: ``StoreError`` when the data directory cannot be made or the
    ///   database cannot be reached or is not one this version can use;
    ///   nothing is changed then.
    static func open(database: DatabaseURL?, dataDirectory: String?, inMemory: Bool) async throws -> ServeStore {
        var store = try await opening(database: database, dataDirectory: dataDirectory, inMemory: inMemory)
        // The command that makes an account names the same data directory.
        store.usersOption = dataDirectory.map { " --data-dir " + TodoOptions.shellQuoted($0) } ?? ""
        return store
    }

    private static func opening(database: DatabaseURL?, dataDirectory: String?, inMemory: Bool) async throws -> ServeStore {
        if let database {
            let postgres = try PostgresTodoDatabase(url: database)
            let store = try await PostgresStore.open(postgres)
            let calculators = try await PostgresCalculatorStore.open(postgres)
            return ServeStore(
                store: store, location: database.redacted, services: [postgres.client],
                sessions: {
                    let accounts = try await PostgresAccountStore.open(postgres)
                    return (accounts, try await accounts.hasAccounts())
                },
                sharedLists: { try await PostgresSharedListStore.open(postgres) },
                alwaysTeamMode: true, calculators: calculators, close: {}, checked: {})
        }
        if inMemory {
            return ServeStore(store: InMemoryStore(now: { Date() }), location: "memory", close: {}, checked: {})
        }
        let directory = DataDirectory.resolve(explicitPath: dataDirectory)
        try directory.create()
        let store = try await SQLiteStore.open(url: directory.databaseURL, items: .inMemoryAfterOpen)
        let url = directory.databaseURL
        let calculators = try await SQLiteCalculatorStore.open(url: url)
        return ServeStore(
            store: store, location: url.path, readOnly: store.readOnlyReason.map { "\($0)" }, sessions: {
                let accounts = try await SQLiteAccountStore.open(url: url)
                return (accounts, try await !accounts.list().isEmpty)
            },
            sharedLists: { try await SQLiteSharedListStore.open(url: url) },
            calculators: calculators,
            close: { store.close() },
            checked: { try await store.checkedForDamage() })
    }

    /// Team mode is on and there is no account to sign in with.
    struct NoAccount: Error, CustomStringConvertible {
        /// Where the accounts were looked for.
        let location: String

        /// Whether the accounts are in a PostgreSQL database (team mode is
        /// then always on), not a data directory.
        var isDatabase = false
        /// The options of the data directory, for the command to suggest.
        var option = ""

        var description: String {
            guard isDatabase else {
                return "team mode needs an account to sign in with, and \(location) has none; "
                    + "make one first with `rewind users add NAME\(option)`"
            }
            return "with PostgreSQL, team mode is always on and needs an account to sign in with, and \(location) "
                + "has none; make one first with `rewind users add NAME --database URL` (or REWIND_DATABASE_URL set)"
        }
    }

    /// Team mode over this store's accounts when `asked` (`--accounts`)
    /// and always with PostgreSQL, whose database several instances and
    /// so several people share; `nil` (local mode) otherwise.
    ///
    /// - Throws: ``NoAccount`` when team mode is on and there is no
    ///   account; ``StoreError`` when the accounts cannot be read.
    func teamMode(asked: Bool) async throws -> TeamMode? {
        guard asked || alwaysTeamMode else { return nil }
        let missing = NoAccount(location: location, isDatabase: alwaysTeamMode, option: usersOption)
        guard let sessions = try await sessions(), sessions.hasAccounts else { throw missing }
        guard let lists = try await sharedLists() else { throw missing }
        return TeamMode(sessions: sessions.store, lists: lists)
    }
}
