import Foundation
import GRDB
import Todos

extension SQLiteAccountStore {
    /// Records a session; see ``SessionStore/beginSession(_:for:at:lifetime:)``.
    @discardableResult
    public func beginSession(_ id: SessionID, for account: AccountName, at now: Date, lifetime: TimeInterval) throws -> Session {
        let created = now.roundedToMilliseconds
        let expires = now.addingTimeInterval(lifetime).roundedToMilliseconds
        let (hash, key) = (id.hash, account.key)
        return try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT name, created FROM account WHERE key = ?", arguments: [key])
            else { throw AccountStoreError.noSuchAccount(account.text) }
            let kept = try self.account(row)
            try db.execute(sql: "DELETE FROM session WHERE expires <= ?", arguments: [ItemRecord.milliseconds(created)])
            try db.execute(
                sql: "INSERT OR REPLACE INTO session (idHash, account, created, expires) VALUES (?, ?, ?, ?)",
                arguments: [hash, key, ItemRecord.milliseconds(created), ItemRecord.milliseconds(expires)])
            return Session(account: kept.name, created: created, expires: expires)
        }
    }

    /// The session `id` at `now`, or `nil`; see ``SessionStore/session(_:at:)``.
    public func session(_ id: SessionID, at now: Date) throws -> Session? {
        let hash = id.hash
        let row = try read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT account.name, account.created, session.created, session.expires
                    FROM session JOIN account ON account.key = session.account
                    WHERE session.idHash = ? AND session.expires > ?
                    """,
                arguments: [hash, ItemRecord.milliseconds(now)])
        }
        guard let row else { return nil }
        let account = try self.account(row)
        let created: Int64 = try row.decode(Int64.self, atIndex: 2)
        let expires: Int64 = try row.decode(Int64.self, atIndex: 3)
        return Session(
            account: account.name, created: Date(timeIntervalSince1970: Double(created) / 1000),
            expires: Date(timeIntervalSince1970: Double(expires) / 1000))
    }

    /// Ends a session; see ``SessionStore/endSession(_:)``.
    public func endSession(_ id: SessionID) throws {
        let hash = id.hash
        try write { db in try db.execute(sql: "DELETE FROM session WHERE idHash = ?", arguments: [hash]) }
    }

    /// Ends an account's sessions; see ``SessionStore/endSessions(of:)``.
    @discardableResult
    public func endSessions(of account: AccountName) throws -> Int {
        let key = account.key
        return try write { db in
            try db.execute(sql: "DELETE FROM session WHERE account = ?", arguments: [key])
            return db.changesCount
        }
    }
}
