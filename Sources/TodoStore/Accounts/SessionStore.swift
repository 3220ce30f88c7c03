import Foundation
import Todos

/// A sign-in session of team mode: whose it is and how long it lasts.
public struct Session: Equatable, Sendable {
    /// The account signed in, with its name as typed when it was made.
    public let account: AccountName
    /// When the session began (whole milliseconds).
    public let created: Date
    /// When the session ends (whole milliseconds): it is refused from then on.
    public let expires: Date

    /// A session of `account` from `created` to `expires`.
    public init(account: AccountName, created: Date, expires: Date) {
        self.account = account
        self.created = created
        self.expires = expires
    }
}

/// Where the sign-in sessions of team mode are kept: beside the accounts,
/// in the same database, so that every instance of the server accepts a
/// session another one began, and sessions survive a restart.
///
/// A store keeps the SHA-256 of each ``SessionID`` (never the id), the
/// account, and when the session began and ends. A session lasts a fixed
/// time from sign-in (``SessionLifetime/standard``, 30 days) and is not extended
/// by use. Removing an account or giving it a new password
/// (``AccountStore/remove(name:)``, ``AccountStore/setPasswordHash(name:_:)``)
/// ends all its sessions in the same transaction.
///
/// ```swift
/// let id = SessionID.random()
/// try await store.beginSession(id, for: AccountName("ann"), at: Date())
/// let session = try await store.session(id, at: Date())   // ann's, for 30 days
/// try await store.endSession(id)                          // signed out
/// ```
public protocol SessionStore: AccountStore {
    /// Records the session `id` of the account named `account`, from `now`
    /// for `lifetime` seconds, and forgets the sessions that have ended.
    ///
    /// - Returns: The session, with the account's name as kept.
    /// - Throws: ``AccountStoreError/noSuchAccount(_:)`` when there is no
    ///   such account.
    @discardableResult
    func beginSession(_ id: SessionID, for account: AccountName, at now: Date, lifetime: TimeInterval) async throws -> Session

    /// The session `id` at `now`, or `nil` when it is unknown, was ended,
    /// or has expired.
    func session(_ id: SessionID, at now: Date) async throws -> Session?

    /// Ends the session `id` (signing out); an unknown id changes nothing.
    func endSession(_ id: SessionID) async throws

    /// Ends every session of the account named `account`.
    ///
    /// - Returns: How many sessions were ended.
    @discardableResult
    func endSessions(of account: AccountName) async throws -> Int
}

/// How long a session lasts.
public enum SessionLifetime {
    /// 30 days, fixed from sign-in.
    public static let standard: TimeInterval = 30 * 24 * 60 * 60
}

extension SessionStore {
    /// Records a session that lasts ``SessionLifetime/standard``; see
    /// ``beginSession(_:for:at:lifetime:)``.
    @discardableResult
    public func beginSession(_ id: SessionID, for account: AccountName, at now: Date) async throws -> Session {
        try await beginSession(id, for: account, at: now, lifetime: SessionLifetime.standard)
    }
}
