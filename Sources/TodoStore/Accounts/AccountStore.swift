import Foundation
import Todos

/// Where the accounts of team mode are kept: in the same database as the
/// list (SQLite's file or PostgreSQL), or in memory for tests.
///
/// Names are found without case (by ``AccountName/key``) and kept as typed.
/// The store keeps password hashes only, made by ``PasswordHasher``; it
/// never sees a password. Every operation that throws changes nothing.
///
/// ```swift
/// let hash = try await PasswordHasher.standard.hash(password)
/// try await accounts.add(name: AccountName("Ann"), passwordHash: hash)
/// let saved = try await accounts.passwordHash(for: AccountName("ann"))   // the same hash
/// ```
public protocol AccountStore: Sendable {
    /// Makes an account named `name` whose password has `passwordHash`.
    ///
    /// - Returns: The account as it is kept.
    /// - Throws: ``AccountStoreError/nameTaken(existing:)`` when an account
    ///   of that name, compared without case, exists already.
    @discardableResult
    func add(name: AccountName, passwordHash: String) async throws -> Account

    /// Every account, in the order of their names (compared without case).
    func list() async throws -> [Account]

    /// Removes the account named `name`.
    ///
    /// - Returns: The account that was removed.
    /// - Throws: ``AccountStoreError/noSuchAccount(_:)`` when there is none.
    @discardableResult
    func remove(name: AccountName) async throws -> Account

    /// Replaces the password hash of the account named `name`.
    ///
    /// - Throws: ``AccountStoreError/noSuchAccount(_:)`` when there is none.
    func setPasswordHash(name: AccountName, _ passwordHash: String) async throws

    /// The password hash of the account named `name`, or `nil` when there is none.
    func passwordHash(for name: AccountName) async throws -> String?
}
