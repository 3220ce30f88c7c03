import Foundation
import GRDB
import Todos

/// The accounts of team mode and their sign-in sessions in the SQLite file
/// of the list (tables `account`, schema v4, and `session`, v5): opening a
/// file of an earlier schema adds the tables; a file from a newer Rewind is
/// refused and left as it is.
///
/// Its work runs on a thread of its own, never on Swift's cooperative pool,
/// each write in one immediate transaction, so that two processes adding the
/// same name take turns and the second is told the name is taken.
///
/// ```swift
/// let accounts = try await SQLiteAccountStore.open(url: DataDirectory.resolve().databaseURL)
/// try await accounts.add(name: AccountName("ann"), passwordHash: hash)
/// ```
public actor SQLiteAccountStore: SessionStore {
    private let database: TodoDatabase
    private let now: @Sendable () -> Date
    private let executor = StoreExecutor(label: "rewind.sqlite.accounts")

    /// Runs the store's work on a thread of its own, not Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Opens the database file at `url`, creating it or adding the accounts'
    /// table if needed; accounts made are dated by `now`.
    ///
    /// - Throws: ``StoreError`` when the file is not a Rewind database, is
    ///   from a newer version, or is damaged; the file is then unchanged.
    public init(url: URL, now: @escaping @Sendable () -> Date = SQLiteStore.millisecondClock) throws {
        database = try TodoDatabase(url: url, checkingEveryPage: false)
        self.now = now
    }

    /// Opens the database file at `url` as ``init(url:now:)`` does, away
    /// from Swift's cooperative pool.
    public static func open(
        url: URL, now: @escaping @Sendable () -> Date = SQLiteStore.millisecondClock
    ) async throws -> SQLiteAccountStore {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try SQLiteAccountStore(url: url, now: now) })
            }
        }
    }

    /// The database file.
    public nonisolated var url: URL { database.url }

    /// Makes an account; see ``AccountStore/add(name:passwordHash:)``.
    @discardableResult
    public func add(name: AccountName, passwordHash: String) throws -> Account {
        let account = Account(name: name, created: now().roundedToMilliseconds)
        try write { db in
            if let existing = try String.fetchOne(db, sql: "SELECT name FROM account WHERE key = ?", arguments: [name.key]) {
                throw AccountStoreError.nameTaken(existing: existing)
            }
            try db.execute(
                sql: "INSERT INTO account (key, name, passwordHash, created) VALUES (?, ?, ?, ?)",
                arguments: [name.key, name.text, passwordHash, ItemRecord.milliseconds(account.created)])
        }
        return account
    }

    /// Every account, by name.
    public func list() throws -> [Account] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT name, created FROM account ORDER BY key").map { row in
                try self.account(row)
            }
        }
    }

    /// Removes an account, ends its sessions and forgets its calculator
    /// (``AccountCalculator``); see ``AccountStore/remove(name:)``.
    @discardableResult
    public func remove(name: AccountName) throws -> Account {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT name, created FROM account WHERE key = ?", arguments: [name.key])
            else { throw AccountStoreError.noSuchAccount(name.text) }
            let account = try self.account(row)
            try db.execute(sql: "DELETE FROM session WHERE account = ?", arguments: [name.key])
            try db.execute(sql: "DELETE FROM account WHERE key = ?", arguments: [name.key])
            let calculator = AccountCalculator.key(of: name)
            try db.execute(sql: "DELETE FROM calculator_step WHERE calculator = ?", arguments: [calculator])
            try db.execute(sql: "DELETE FROM calculator WHERE key = ?", arguments: [calculator])
            return account
        }
    }

    /// Replaces a password hash and ends the account's sessions; see
    /// ``AccountStore/setPasswordHash(name:_:)``.
    public func setPasswordHash(name: AccountName, _ passwordHash: String) throws {
        try write { db in
            try db.execute(sql: "UPDATE account SET passwordHash = ? WHERE key = ?", arguments: [passwordHash, name.key])
            guard db.changesCount == 1 else { throw AccountStoreError.noSuchAccount(name.text) }
            try db.execute(sql: "DELETE FROM session WHERE account = ?", arguments: [name.key])
        }
    }

    /// The password hash of an account, or `nil` when there is none.
    public func passwordHash(for name: AccountName) throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT passwordHash FROM account WHERE key = ?", arguments: [name.key])
        }
    }

    // MARK: Transactions

    /// An account from a row of `name, created`; a name against the rules
    /// is damage.
    nonisolated func account(_ row: Row) throws -> Account {
        let text: String = try row.decode(String.self, atIndex: 0)
        let milliseconds: Int64 = try row.decode(Int64.self, atIndex: 1)
        do {
            return Account(name: try AccountName(text), created: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        } catch {
            throw StoreError.corrupt(path: database.url.path, detail: "the account “\(text)” has a name against the rules: \(error)")
        }
    }

    func read<Result>(_ body: (Database) throws -> Result) throws -> Result {
        try database.reading(body)
    }

    /// Runs `body` in one immediate transaction: committed when it returns,
    /// rolled back when it throws.
    func write<Result>(_ body: (Database) throws -> Result) throws -> Result {
        try database.writing(body)
    }
}
