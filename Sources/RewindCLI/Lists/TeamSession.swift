import Foundation
import TodoStore
import TodoStorePostgres
import Todos

/// One team-mode command's way to the shared lists, as one account: the
/// accounts and the shared lists of the data directory's SQLite file or of
/// the PostgreSQL database, chosen as `rewind todo` chooses.
///
/// ```swift
/// let team = try await TeamSession.open(options: options, as: "ann")
/// let groceries = try await team.list("groceries")
/// ```
struct TeamSession: Sendable {
    /// The data directory (where the numbers of the last listing are kept).
    let directory: DataDirectory
    /// The account the command acts as; it exists.
    let person: AccountName
    /// The accounts.
    let accounts: any AccountStore
    /// The shared lists.
    let lists: any SharedListStore
    /// The options that chose the stores, as a suggested command types
    /// them again (``TodoOptions/repeated``).
    var repeated = ""

    /// Opens the stores `options` choose, as the account `name`.
    ///
    /// - Throws: ``TodoCommandError`` with exit status 64 for a name against
    ///   the rules or a malformed database URL, and exit status 1 when there
    ///   is no such account; ``StoreError`` when the data cannot be opened.
    static func open(options: TodoOptions, as name: String) async throws -> TeamSession {
        let person = try UsersSession.name(name)
        // No data directory yet: no account either, and no folder made for a mistyped --data-dir.
        if try options.absentDataDirectory() != nil { throw noSuchAccount(person, repeating: options.repeated) }
        let (directory, stores) = try await options.open(
            sqlite: { url -> (any AccountStore, any SharedListStore) in
                (try await SQLiteAccountStore.open(url: url), try await SQLiteSharedListStore.open(url: url))
            },
            postgres: { database -> (any AccountStore, any SharedListStore) in
                (try await PostgresAccountStore.open(database), try await PostgresSharedListStore.open(database))
            })
        // The name as the account was made, whatever its case in --as.
        let made = try await existing(person, in: stores.0, repeating: options.repeated).name
        return TeamSession(directory: directory, person: made, accounts: stores.0, lists: stores.1, repeated: options.repeated)
    }

    /// The account named `account`, compared without case, with its name
    /// as it was made (`cat` is `Cat` when the account was made so).
    ///
    /// - Throws: ``TodoCommandError`` (exit status 1) naming the account
    ///   when there is none.
    func existing(_ account: AccountName) async throws -> Account {
        try await Self.existing(account, in: accounts, repeating: repeated)
    }

    /// There is no account `account`; the command that makes it is
    /// suggested with the options of this one (`repeated`).
    private static func noSuchAccount(_ account: AccountName, repeating repeated: String) -> TodoCommandError {
        TodoCommandError("there is no account “\(account.text)”; `rewind users add \(account.text)\(repeated)` makes it")
    }

    private static func existing(_ account: AccountName, in accounts: any AccountStore, repeating repeated: String)
        async throws -> Account
    {
        guard let found = try await accounts.list().first(where: { $0.name == account }) else {
            throw noSuchAccount(account, repeating: repeated)
        }
        return found
    }

    /// The list `reference` names among the person's lists: its name,
    /// compared without case, or its id or the start of its id (at least 4
    /// hex digits; hyphens and case do not matter).
    ///
    /// - Throws: ``TodoCommandError`` (exit status 1) when no list, or more
    ///   than one, matches. Another account's private list is answered as a
    ///   list that does not exist. An empty reference is exit status 64.
    func list(_ reference: String) async throws -> SharedListSummary {
        let wanted = reference.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !wanted.isEmpty else {
            throw TodoCommandError.usage("the list is named by its name or the start of its id, and this one is empty")
        }
        let mine = try await lists.lists(of: person)
        let named = mine.filter { $0.name.lowercased() == wanted.lowercased() }
        if named.count == 1, let list = named.first { return list }
        guard named.isEmpty else {
            throw TodoCommandError(
                "\(person.text) has \(named.count) lists named “\(wanted)”; name one by its id: "
                    + named.map(Self.shortID).joined(separator: ", "))
        }
        let hex = wanted.lowercased().filter { $0 != "-" }
        if hex.count >= 4, hex.allSatisfy(\.isHexDigit) {
            let matches = mine.filter { $0.id.uuidString.lowercased().filter { $0 != "-" }.hasPrefix(hex) }
            if matches.count == 1, let list = matches.first { return list }
            if matches.count > 1 {
                throw TodoCommandError(
                    "“\(wanted)” starts the ids of \(matches.count) of \(person.text)'s lists ("
                        + matches.prefix(3).map(Self.shortID).joined(separator: ", ") + (matches.count > 3 ? ", …" : "")
                        + "); give more of the id")
            }
        }
        // A start of an id too short to name one is said to be so.
        let tooShort = !hex.isEmpty && hex.count < 4 && hex.allSatisfy(\.isHexDigit)
        throw TodoCommandError(
            "no list “\(wanted)” among \(person.text)'s lists" + (tooShort ? " (the start of an id needs at least 4 hex digits)" : ""))
    }

    /// Throws unless the person owns `list`: only the owner may `action` it.
    ///
    /// - Throws: ``TodoCommandError`` (exit status 1) naming the owner.
    func checkOwner(of list: SharedListSummary, to action: String) throws {
        guard list.owner == person else {
            throw TodoCommandError("only \(list.owner.text), the owner of “\(list.name)”, may \(action) it")
        }
    }

    /// The first 8 hex digits of a list's id: enough to name it in commands.
    static func shortID(_ list: SharedListSummary) -> String {
        String(list.id.uuidString.lowercased().prefix(8))
    }

    /// The list as messages name it: “Groceries” (ea3339c9), or with
    /// `detail` after the id: “Groceries” (ea3339c9, shared by bob).
    static func label(_ list: SharedListSummary, _ detail: String? = nil) -> String {
        "“\(TypedText.visible(list.name))” (\(shortID(list))\(detail.map { ", " + $0 } ?? ""))"
    }
}
