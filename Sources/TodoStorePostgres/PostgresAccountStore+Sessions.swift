import Foundation
import PostgresNIO
import TodoStore
import Todos

extension PostgresAccountStore {
    /// Records a session; see ``SessionStore/beginSession(_:for:at:lifetime:)``.
    /// One statement forgets the ended sessions, checks the account and
    /// inserts the row.
    @discardableResult
    public func beginSession(_ id: SessionID, for account: AccountName, at now: Date, lifetime: TimeInterval) async throws -> Session {
        let created = now.roundedToMilliseconds
        let expires = now.addingTimeInterval(lifetime).roundedToMilliseconds
        let (hash, key) = (id.hash, account.key)
        let (from, until) = (Self.milliseconds(created), Self.milliseconds(expires))
        let kept: (String, Int64)? = try await query { connection, logger in
            let rows = try await connection.answered(
                """
                WITH ended AS (
                    DELETE FROM rewind_session WHERE expires <= \(from)
                ), added AS (
                    INSERT INTO rewind_session (id_hash, account_key, created, expires)
                    SELECT \(hash), key, \(from), \(until) FROM rewind_account WHERE key = \(key)
                    ON CONFLICT (id_hash) DO UPDATE SET account_key = EXCLUDED.account_key,
                        created = EXCLUDED.created, expires = EXCLUDED.expires
                    RETURNING account_key
                )
                SELECT name, created FROM rewind_account WHERE key IN (SELECT account_key FROM added)
                """, logger: logger)
            return try await Self.everyRow(rows.decode((String, Int64).self)).first
        }
        guard let kept else { throw AccountStoreError.noSuchAccount(account.text) }
        return Session(account: try self.account(kept).name, created: created, expires: expires)
    }

    /// The session `id` at `now`, or `nil`; see ``SessionStore/session(_:at:)``.
    public func session(_ id: SessionID, at now: Date) async throws -> Session? {
        let (hash, at) = (id.hash, Self.milliseconds(now))
        let found: (String, Int64, Int64, Int64)? = try await query(writes: false) { connection, logger in
            let rows = try await connection.answered(
                """
                SELECT rewind_account.name, rewind_account.created, rewind_session.created, rewind_session.expires
                FROM rewind_session JOIN rewind_account ON rewind_account.key = rewind_session.account_key
                WHERE rewind_session.id_hash = \(hash) AND rewind_session.expires > \(at)
                """, logger: logger)
            for try await row in rows.decode((String, Int64, Int64, Int64).self) { return row }
            return nil
        }
        guard let found else { return nil }
        return Session(
            account: try account((found.0, found.1)).name, created: Date(timeIntervalSince1970: Double(found.2) / 1000),
            expires: Date(timeIntervalSince1970: Double(found.3) / 1000))
    }

    /// Ends a session; see ``SessionStore/endSession(_:)``.
    public func endSession(_ id: SessionID) async throws {
        let hash = id.hash
        _ = try await query { connection, logger in
            try await connection.answered("DELETE FROM rewind_session WHERE id_hash = \(hash)", logger: logger)
            return true
        }
    }

    /// Ends an account's sessions; see ``SessionStore/endSessions(of:)``.
    @discardableResult
    public func endSessions(of account: AccountName) async throws -> Int {
        let key = account.key
        return try await query { connection, logger in
            let rows = try await connection.answered(
                "DELETE FROM rewind_session WHERE account_key = \(key) RETURNING id_hash", logger: logger)
            var count = 0
            for try await _ in rows.decode(String.self) { count += 1 }
            return count
        }
    }

    /// `date` in whole milliseconds since 1970.
    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
