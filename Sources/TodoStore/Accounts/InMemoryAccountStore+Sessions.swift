import Foundation
import Todos

extension InMemoryAccountStore {
    /// Records a session; see ``SessionStore/beginSession(_:for:at:lifetime:)``.
    @discardableResult
    public func beginSession(_ id: SessionID, for account: AccountName, at now: Date, lifetime: TimeInterval) async throws -> Session {
        let created = now.roundedToMilliseconds
        let expires = now.addingTimeInterval(lifetime).roundedToMilliseconds
        let hash = id.hash
        return try contents.withLock { contents throws(AccountStoreError) in
            guard let kept = contents.account(account) else { throw .noSuchAccount(account.text) }
            contents.sessions = contents.sessions.filter { $0.value.expires > created }
            let session = Session(account: kept.name, created: created, expires: expires)
            contents.sessions[hash] = session
            return session
        }
    }

    /// The session `id` at `now`, or `nil`; see ``SessionStore/session(_:at:)``.
    public func session(_ id: SessionID, at now: Date) async throws -> Session? {
        let hash = id.hash
        return contents.withLock { contents in
            guard let session = contents.sessions[hash], session.expires > now else { return nil }
            return session
        }
    }

    /// Ends a session; see ``SessionStore/endSession(_:)``.
    public func endSession(_ id: SessionID) async throws {
        let hash = id.hash
        contents.withLock { _ = $0.sessions.removeValue(forKey: hash) }
    }

    /// Ends an account's sessions; see ``SessionStore/endSessions(of:)``.
    @discardableResult
    public func endSessions(of account: AccountName) async throws -> Int {
        contents.withLock { $0.endSessions(ofKey: account.key) }
    }
}
