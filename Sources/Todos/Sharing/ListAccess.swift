import Foundation

/// Who may open a shared list and what each of them may do: its owner, and
/// the accounts it is shared with.
///
/// Every member may read and change the list, and undo and redo their own
/// steps; only the owner may share, unshare, rename or delete it (a member
/// may leave it: ``unshare(with:by:)`` of themselves). Anyone
/// else is told the list does not exist (``AccountError/listNotFound``), so
/// another account's list ids give nothing away.
///
/// ```swift
/// var access = ListAccess(owner: ann)
/// try access.share(with: bob, by: ann)
/// try access.check(.change, by: bob)      // passes
/// try access.check(.delete, by: bob)      // AccountError.ownerOnly(action: "delete")
/// ```
public struct ListAccess: Equatable, Hashable, Sendable {
    /// What a person asks to do with a list.
    public enum Action: String, Sendable, CaseIterable {
        /// Open the list, its items, its history and its event stream.
        case read
        /// Change items, undo or redo their own steps.
        case change
        /// Rename the list.
        case rename
        /// Share it with another account or stop sharing it.
        case share
        /// Delete it.
        case delete

        /// Whether only the owner may do it.
        var isOwnersOnly: Bool { self == .rename || self == .share || self == .delete }
    }

    /// The account that made the list.
    public let owner: AccountName
    /// The accounts the owner shared it with (never the owner).
    public private(set) var members: Set<AccountName>
    /// For a member's key, the last log row written under that name by an
    /// earlier account, removed since (only members with such rows are
    /// named). Those rows stay in the history, but they are not the
    /// member's: their Undo and Redo never take them back, and the history
    /// does not call them “you”.
    public private(set) var earlierRows: [String: Int]

    /// A list that only `owner` can open, shared with `members`;
    /// `earlierRows` as ``earlierRows`` (entries for others are dropped).
    public init(owner: AccountName, members: Set<AccountName> = [], earlierRows: [String: Int] = [:]) {
        self.owner = owner
        self.members = members.subtracting([owner])
        let keys = Set(self.members.map(\.key))
        self.earlierRows = earlierRows.filter { keys.contains($0.key) && $0.value > 0 }
    }

    /// Whether the log row numbered `seq`, written under the account key
    /// `author`, is `person`'s own, not an earlier account's of that name.
    public func isOwn(row seq: Int, author: String, by person: AccountName) -> Bool {
        author == person.key && seq > earlierRows[person.key, default: 0]
    }

    /// The account with the key `key` (a history row's author, say) as it
    /// was made, “Bob”, when it owns or shares the list; else the key, as the
    /// log keeps it (an account that left, or was removed).
    public func name(of key: String) -> String {
        if owner.key == key { return owner.text }
        return members.first { $0.key == key }?.text ?? key
    }

    /// The author of the log row numbered `seq`, written under the account
    /// key `key`, as a history shows it: ``name(of:)``, or “bob (a removed
    /// account)” for a row of an earlier account of a member's name
    /// (``earlierRows``).
    public func author(ofRow seq: Int, key: String) -> String {
        seq <= earlierRows[key, default: 0] ? "\(key) (a removed account)" : name(of: key)
    }

    /// Whether `person` can open the list.
    public func canOpen(_ person: AccountName) -> Bool {
        person == owner || members.contains(person)
    }

    /// Checks that `person` may do `action`.
    ///
    /// - Throws: ``AccountError/listNotFound`` when `person` cannot open the
    ///   list at all; ``AccountError/ownerOnly(action:)`` when only the owner may.
    public func check(_ action: Action, by person: AccountName) throws(AccountError) {
        guard canOpen(person) else { throw .listNotFound }
        if action.isOwnersOnly, person != owner { throw .ownerOnly(action: action.rawValue) }
    }

    /// Shares the list with `account`, asked by `person`. `earlierRows`
    /// is the last log row written under the account's name by an earlier
    /// account, removed since (0: none); see ``earlierRows``.
    ///
    /// - Throws: ``AccountError``: only the owner may share; the owner
    ///   (``AccountError/owner(_:sharing:)``) and an account that can open
    ///   the list already are refused.
    public mutating func share(with account: AccountName, by person: AccountName, earlierRows: Int = 0)
        throws(AccountError)
    {
        try check(.share, by: person)
        guard account != owner else { throw .owner(owner.text, sharing: true) }
        guard !canOpen(account) else { throw .alreadyMember(account.text) }
        members.insert(account)
        if earlierRows > 0 { self.earlierRows[account.key] = earlierRows }
    }

    /// Stops sharing the list with `account`, asked by `person`: its owner,
    /// or a member who leaves it (`account` is `person`).
    ///
    /// - Throws: ``AccountError``: only the owner may stop sharing it with
    ///   someone else (``AccountError/ownerOnly(action:)`` “stop sharing”);
    ///   the owner (``AccountError/owner(_:sharing:)``) and an account that
    ///   is not a member are refused.
    public mutating func unshare(with account: AccountName, by person: AccountName) throws(AccountError) {
        guard canOpen(person) else { throw .listNotFound }
        guard person == owner || person == account else { throw .ownerOnly(action: "stop sharing") }
        guard account != owner else { throw .owner(owner.text, sharing: false) }
        guard members.remove(account) != nil else { throw .notMember(account.text) }
        earlierRows[account.key] = nil
    }
}
