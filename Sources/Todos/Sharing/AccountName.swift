import Foundation

/// The name of an account in team mode: what a person signs in with, what
/// others share a list with, and what the history shows beside each step.
///
/// A name has 1 to 64 characters: letters a–z, digits, `.`, `-` and `_`,
/// starting with a letter or digit. Names are compared without case: “Ann”
/// and “ann” are one account, kept as typed the first time.
///
/// ```swift
/// let ann = try AccountName("Ann")   // ann.key == "ann"
/// ```
public struct AccountName: Hashable, Sendable, CustomStringConvertible {
    /// The name as it was typed when the account was made.
    public let text: String
    /// The name in lower case: the key accounts are found and compared by.
    public let key: String

    /// The longest name allowed.
    public static let maximumLength = 64

    /// Checks `text` and makes a name of it.
    ///
    /// - Throws: ``AccountError/invalidName(_:)`` with a sentence that says
    ///   what is allowed.
    public init(_ text: String) throws(AccountError) {
        guard !text.isEmpty else { throw .invalidName("An account name must not be empty.") }
        guard text.count <= Self.maximumLength else {
            throw .invalidName("An account name may have at most \(Self.maximumLength) characters; this one has \(text.count).")
        }
        // Checked scalar by scalar, as typed: U+212A KELVIN SIGN is "k" in
        // lower case, and equal to "K" as a Character, but not a letter a–z.
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_".unicodeScalars)
        if let wrong = text.unicodeScalars.first(where: { !allowed.contains($0) }) {
            throw .invalidName(
                "An account name may hold only letters a–z, digits, “.”, “-” and “_”; “\(wrong)” is not allowed.")
        }
        guard let first = text.lowercased().first, first.isLetter || first.isNumber else {
            throw .invalidName("An account name must start with a letter or a digit.")
        }
        self.text = text
        key = text.lowercased()
    }

    /// Two names are the same account when their keys are equal.
    public static func == (a: AccountName, b: AccountName) -> Bool { a.key == b.key }

    /// Hashes the key.
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// The name as typed.
    public var description: String { text }
}

/// A password's rules, checked before it is hashed.
public enum PasswordRule {
    /// The fewest characters a password may have.
    public static let minimumLength = 10
    /// The most bytes (UTF-8) a password may have: bcrypt reads no more than 72.
    public static let maximumBytes = 72

    /// Checks `password` against the rules.
    ///
    /// - Throws: ``AccountError/weakPassword(_:)`` that says what is allowed.
    public static func check(_ password: String) throws(AccountError) {
        guard password.count >= minimumLength else {
            throw .weakPassword("A password needs at least \(minimumLength) characters; this one has \(password.count).")
        }
        guard password.utf8.count <= maximumBytes else {
            throw .weakPassword(
                "A password may have at most \(maximumBytes) bytes (UTF-8); this one has \(password.utf8.count).")
        }
        // Ten spaces, or ten of one character, count as ten characters and guard nothing.
        guard Set(password.filter { !$0.isWhitespace }).count >= 2 else {
            throw .weakPassword("A password needs at least two different characters besides spaces; this one has not.")
        }
    }
}

/// Why an account name, a password or an access to a list was refused.
public enum AccountError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The name breaks the rules; the sentence says which.
    case invalidName(String)
    /// The password breaks the rules; the sentence says which.
    case weakPassword(String)
    /// The list does not exist, or the person may not see it: the two look
    /// the same from outside, so another account's ids reveal nothing.
    case listNotFound
    /// The person is a member of the list, but only its owner may do this.
    case ownerOnly(action: String)
    /// The list is already shared with this account.
    case alreadyMember(String)
    /// The account is not a member of the list.
    case notMember(String)
    /// The account owns the list: it is shared with no owner, and an owner
    /// does not leave a list (``ListAccess/share(with:by:)``,
    /// ``ListAccess/unshare(with:by:)``).
    case owner(String, sharing: Bool)

    /// A sentence that says what was wrong and what is allowed.
    public var description: String {
        switch self {
        case .invalidName(let sentence), .weakPassword(let sentence): sentence
        case .listNotFound: "No such list."
        case .ownerOnly(let action): "Only the list's owner may \(action) it."
        case .alreadyMember(let name): "This list is shared with \(name) already."
        case .notMember(let name): "This list is not shared with \(name)."
        case .owner(let name, sharing: true): "This list is \(name)'s, and its owner can open it already."
        case .owner(let name, sharing: false):
            "This list is \(name)'s, and its owner does not leave it: delete it instead, or keep it."
        }
    }
}
