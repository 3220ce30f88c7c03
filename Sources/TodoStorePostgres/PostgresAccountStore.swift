import Foundation
import Logging
import PostgresNIO
import TodoStore
import Todos

/// The accounts of team mode and their sign-in sessions in the PostgreSQL
/// database of the list (tables `rewind_account`, migration `accounts`, and
/// `rewind_session`, migration `sessions`), shared by every instance.
/// Every query has bind parameters, and the name's key is unique, so two
/// instances adding the same name at once cannot both succeed.
///
/// The pool (``PostgresTodoDatabase/client``) must run while the store is used.
///
/// ```swift
/// let accounts = try await PostgresAccountStore.open(database)
/// let running = Task { await database.run() }
/// try await accounts.add(name: AccountName("ann"), passwordHash: hash)
/// ```
public struct PostgresAccountStore: SessionStore {
    private let database: PostgresTodoDatabase
    private let now: @Sendable () -> Date
    private let logger: Logger

    private init(database: PostgresTodoDatabase, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.database = database
        self.now = now
        self.logger = logger
    }

    /// Opens the accounts of `database` after bringing its schema up to
    /// date, on a connection of its own (the pool need not run yet);
    /// accounts made are dated by `now`.
    ///
    /// - Throws: ``StoreError/newerSchema(path:unknownMigrations:)`` when a
    ///   newer Rewind made the database (nothing is written then), or
    ///   ``StoreError/io(path:detail:)`` when it cannot be reached or used.
    public static func open(
        _ database: PostgresTodoDatabase, now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "rewind.postgres.accounts", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> PostgresAccountStore {
        try await database.withDirectConnection { connection, logger in
            try await PostgresSchema.migrate(connection, in: database, list: PostgresStore.listID, logger: logger)
        }
        return PostgresAccountStore(database: database, now: now, logger: logger)
    }

    /// Whether the database holds at least one account, asked on a
    /// connection of its own (the pool need not run yet: `rewind serve`
    /// asks before it starts).
    public func hasAccounts() async throws -> Bool {
        do {
            return try await database.withDirectConnection { connection, logger in
                let rows = try await connection.answered("SELECT key FROM rewind_account LIMIT 1", logger: logger)
                for try await _ in rows.decode(String.self) { return true }
                return false
            }
        } catch {
            throw database.storeError(error)
        }
    }

    /// Makes an account; see ``AccountStore/add(name:passwordHash:)``.
    @discardableResult
    public func add(name: AccountName, passwordHash: String) async throws -> Account {
        let created = now().roundedToMilliseconds
        let milliseconds = Int64((created.timeIntervalSince1970 * 1000).rounded())
        let (key, text) = (name.key, name.text)
        let existing: String? = try await query { connection, logger in
            let inserted = try await connection.answered(
                """
                INSERT INTO rewind_account (key, name, password_hash, created)
                VALUES (\(key), \(text), \(passwordHash), \(milliseconds))
                ON CONFLICT (key) DO NOTHING RETURNING key
                """, logger: logger)
            if try await !Self.everyRow(inserted.decode(String.self)).isEmpty { return nil }
            let rows = try await connection.answered(
                "SELECT name, password_hash, created FROM rewind_account WHERE key = \(key)", logger: logger)
            for try await (existing, hash, made) in rows.decode((String, String, Int64).self) {
                // This very row (a hash is salted afresh for each account):
                // made by an earlier try whose answer the server's restart lost.
                if hash == passwordHash, made == milliseconds { return nil }
                return existing
            }
            // Removed again in between: taken a moment ago all the same.
            return text
        }
        if let existing { throw AccountStoreError.nameTaken(existing: existing) }
        return Account(name: name, created: created)
    }

    /// Every account, by name.
    public func list() async throws -> [Account] {
        let rows: [(String, Int64)] = try await query(writes: false) { connection, logger in
            var rows: [(String, Int64)] = []
            let found = try await connection.answered("SELECT name, created FROM rewind_account ORDER BY key", logger: logger)
            for try await row in found.decode((String, Int64).self) { rows.append(row) }
            return rows
        }
        return try rows.map { try account($0) }
    }

    /// Removes an account, (by the sessions' foreign key) its sessions and
    /// its calculator (``AccountCalculator``); see ``AccountStore/remove(name:)``.
    @discardableResult
    public func remove(name: AccountName) async throws -> Account {
        let key = name.key
        let calculator = AccountCalculator.key(of: name)
        // Not tried again when the connection ends: a second try would not
        // find the row the first removed, and would say there was none.
        let removed: (String, Int64)? = try await query(again: false) { connection, logger in
            let rows = try await connection.answered(
                """
                WITH removed AS (
                    DELETE FROM rewind_account WHERE key = \(key) RETURNING name, created
                ), calculator AS (
                    DELETE FROM rewind_calculator WHERE key = \(calculator) AND EXISTS (SELECT 1 FROM removed)
                )
                SELECT name, created FROM removed
                """, logger: logger)
            return try await Self.everyRow(rows.decode((String, Int64).self)).first
        }
        guard let removed else { throw AccountStoreError.noSuchAccount(name.text) }
        return try account(removed)
    }

    /// Replaces a password hash and ends the account's sessions, in one
    /// statement; see ``AccountStore/setPasswordHash(name:_:)``.
    public func setPasswordHash(name: AccountName, _ passwordHash: String) async throws {
        let key = name.key
        let changed: Bool = try await query { connection, logger in
            let rows = try await connection.answered(
                """
                WITH changed AS (
                    UPDATE rewind_account SET password_hash = \(passwordHash) WHERE key = \(key) RETURNING key
                ), ended AS (
                    DELETE FROM rewind_session WHERE account_key IN (SELECT key FROM changed)
                )
                SELECT key FROM changed
                """, logger: logger)
            return try await !Self.everyRow(rows.decode(String.self)).isEmpty
        }
        guard changed else { throw AccountStoreError.noSuchAccount(name.text) }
    }

    /// The password hash of an account, or `nil` when there is none.
    public func passwordHash(for name: AccountName) async throws -> String? {
        let key = name.key
        return try await query(writes: false) { connection, logger in
            let rows = try await connection.answered(
                "SELECT password_hash FROM rewind_account WHERE key = \(key)", logger: logger)
            for try await hash in rows.decode(String.self) { return hash }
            return nil
        }
    }

    /// Every row of `rows`, the answer read to its end: a statement that
    /// writes, run alone, may still fail after its first rows (a part of
    /// it that runs last), and the server sends the end of a small answer
    /// after the statement's commit.
    static func everyRow<Rows: AsyncSequence>(_ rows: Rows) async throws -> [Rows.Element] {
        var all: [Rows.Element] = []
        for try await row in rows { all.append(row) }
        return all
    }

    /// An account from a row of `name, created`; a name against the rules is damage.
    func account(_ row: (String, Int64)) throws -> Account {
        do {
            return Account(name: try AccountName(row.0), created: Date(timeIntervalSince1970: Double(row.1) / 1000))
        } catch {
            throw StoreError.corrupt(
                path: database.url.redacted, detail: "the account “\(row.0)” has a name against the rules: \(error)")
        }
    }

    /// Runs `body` on a connection of the pool; its errors become
    /// ``StoreError``s that name the database.
    ///
    /// When the server ends the connection before it answers (a restart,
    /// or the pool lending one the server had just ended), `body` runs
    /// again on a fresh one (``PostgresTodoDatabase/whenConnectionsEnd(isolation:_:)``),
    /// unless `again` is `false`: every statement here means the same run
    /// once or twice (a read; a write whose second run finds the first's
    /// work done and answers as it would have), but for the removal of an
    /// account.
    ///
    /// A statement that `writes` commits on its own, and is answered once
    /// the server confirmed its commit (``PostgresConnection/confirmCommit(logger:)``).
    func query<Result: Sendable>(
        again: Bool = true, writes: Bool = true, _ body: @Sendable (PostgresConnection, Logger) async throws -> Result
    ) async throws -> Result {
        let logger = logger
        func run(_ connection: PostgresConnection) async throws -> Result {
            let result = try await body(connection, logger)
            if writes { try await connection.confirmCommit(logger: logger) }
            return result
        }
        do {
            guard again else {
                return try await database.withPooledConnection { connection in try await run(connection) }
            }
            return try await PostgresTodoDatabase.whenConnectionsEnd {
                try await database.withPooledConnection { connection in try await run(connection) }
            }
        } catch {
            throw database.storeError(error)
        }
    }
}
