import Foundation
import Synchronization
import Todos

/// Accounts kept in memory, for tests and `--in-memory` runs: the rules of
/// every ``AccountStore``, nothing saved.
public final class InMemoryAccountStore: AccountStore {
    private struct Entry {
        var account: Account
        var passwordHash: String
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let now: @Sendable () -> Date

    /// An empty store whose accounts are dated by `now`.
    public init(now: @escaping @Sendable () -> Date = SQLiteStore.millisecondClock) {
        self.now = now
    }

    /// Makes an account; see ``AccountStore/add(name:passwordHash:)``.
    @discardableResult
    public func add(name: AccountName, passwordHash: String) async throws -> Account {
        let account = Account(name: name, created: now().roundedToMilliseconds)
        try entries.withLock { entries throws(AccountStoreError) in
            if let existing = entries[name.key] { throw .nameTaken(existing: existing.account.name.text) }
            entries[name.key] = Entry(account: account, passwordHash: passwordHash)
        }
        return account
    }

    /// Every account, by name.
    public func list() async throws -> [Account] {
        entries.withLock { entries in entries.keys.sorted().compactMap { entries[$0]?.account } }
    }

    /// Removes an account; see ``AccountStore/remove(name:)``.
    @discardableResult
    public func remove(name: AccountName) async throws -> Account {
        try entries.withLock { entries throws(AccountStoreError) in
            guard let removed = entries.removeValue(forKey: name.key) else { throw .noSuchAccount(name.text) }
            return removed.account
        }
    }

    /// Replaces a password hash; see ``AccountStore/setPasswordHash(name:_:)``.
    public func setPasswordHash(name: AccountName, _ passwordHash: String) async throws {
        try entries.withLock { entries throws(AccountStoreError) in
            guard entries[name.key] != nil else { throw .noSuchAccount(name.text) }
            entries[name.key]?.passwordHash = passwordHash
        }
    }

    /// The password hash of an account, or `nil` when there is none.
    public func passwordHash(for name: AccountName) async throws -> String? {
        entries.withLock { $0[name.key]?.passwordHash }
    }
}
