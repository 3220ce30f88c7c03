import Foundation
import Todos

/// An account of team mode, as ``AccountStore/list()`` shows it: its name
/// and when it was made. The password hash is read only by
/// ``AccountStore/passwordHash(for:)``.
public struct Account: Equatable, Sendable {
    /// The name as it was typed when the account was made.
    public let name: AccountName
    /// When the account was made (whole milliseconds).
    public let created: Date

    /// An account named `name`, made at `created`.
    public init(name: AccountName, created: Date) {
        self.name = name
        self.created = created
    }
}

/// Why an account store refused an operation; nothing was changed.
public enum AccountStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An account with this name, compared without case, exists already;
    /// `existing` is its name as it was typed.
    case nameTaken(existing: String)
    /// No account has this name (compared without case).
    case noSuchAccount(String)

    /// A sentence that says what was wrong and what is allowed.
    public var description: String {
        switch self {
        case .nameTaken(let existing):
            "An account named “\(existing)” exists already (names are compared without case); choose another name."
        case .noSuchAccount(let name):
            "There is no account named “\(name)”; `rewind users list` shows the accounts there are."
        }
    }
}
