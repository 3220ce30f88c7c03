import Foundation
import Synchronization
import Todos

/// Accounts and their sign-in sessions kept in memory, for tests: the
/// rules of every ``AccountStore`` and ``SessionStore``, nothing saved.
public final class InMemoryAccountStore: SessionStore {
    fileprivate struct Entry {
        var account: Account
        var passwordHash: String
    }

    /// The accounts by key and the sessions by the hash of their ids,
    /// under one lock so that removing an account ends its sessions at once.
    struct Contents {
        fileprivate var entries: [String: Entry] = [:]
        var sessions: [String: Session] = [:]

        /// The account of `name`, if any.
        func account(_ name: AccountName) -> Account? { entries[name.key]?.account }

        /// Ends every session of the account whose key is `key`; returns how many.
        mutating func endSessions(ofKey key: String) -> Int {
            let ended = sessions.filter { $0.value.account.key == key }.map(\.key)
            for hash in ended { sessions[hash] = nil }
            return ended.count
        }
    }

    let contents = Mutex(Contents())
    private let now: @Sendable () -> Date

    /// An empty store whose accounts are dated by `now`.
    public init(now: @escaping @Sendable () -> Date = SQLiteStore.millisecondClock) {
        self.now = now
    }

    /// Makes an account; see ``AccountStore/add(name:passwordHash:)``.
    @discardableResult
    public func add(name: AccountName, passwordHash: String) async throws -> Account {
        let account = Account(name: name, created: now().roundedToMilliseconds)
        try contents.withLock { contents throws(AccountStoreError) in
            if let existing = contents.entries[name.key] { throw .nameTaken(existing: existing.account.name.text) }
            contents.entries[name.key] = Entry(account: account, passwordHash: passwordHash)
        }
        return account
    }

    /// Every account, by name.
    public func list() async throws -> [Account] {
        contents.withLock { contents in contents.entries.keys.sorted().compactMap { contents.entries[$0]?.account } }
    }

    /// Removes an account and ends its sessions; see ``AccountStore/remove(name:)``.
    @discardableResult
    public func remove(name: AccountName) async throws -> Account {
        try contents.withLock { contents throws(AccountStoreError) in
            guard let removed = contents.entries.removeValue(forKey: name.key) else { throw .noSuchAccount(name.text) }
            _ = contents.endSessions(ofKey: name.key)
            return removed.account
        }
    }

    /// Replaces a password hash and ends the account's sessions; see
    /// ``AccountStore/setPasswordHash(name:_:)``.
    public func setPasswordHash(name: AccountName, _ passwordHash: String) async throws {
        try contents.withLock { contents throws(AccountStoreError) in
            guard contents.entries[name.key] != nil else { throw .noSuchAccount(name.text) }
            contents.entries[name.key]?.passwordHash = passwordHash
            _ = contents.endSessions(ofKey: name.key)
        }
    }

    /// The password hash of an account, or `nil` when there is none.
    public func passwordHash(for name: AccountName) async throws -> String? {
        contents.withLock { $0.entries[name.key]?.passwordHash }
    }
}
