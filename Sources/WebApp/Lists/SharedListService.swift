import Foundation
import TodoStore
import Todos

/// The shared lists of team mode as the web app reaches them: always as
/// the signed-in account (``SignedIn/current``), so that every request is
/// checked against the list's members by the store. It adds no domain
/// logic of its own: steps are named as the local list names them, and
/// the store decides what an undo takes back.
///
/// ```swift
/// let list = try await service.create(name: "Groceries")
/// let step = try await service.add(title: "Milk", to: list.id)
/// let undo = try await service.undo(on: list.id, expecting: step.seq)
/// ```
struct SharedListService: Sendable {
    /// The store of the shared lists.
    let store: any SharedListStore
    /// The accounts, to check that a list is shared with one that exists,
    /// and their sessions.
    let accounts: any SessionStore
    /// The clock that dates items and changes.
    let now: @Sendable () -> Date
    /// Where new items get their ids.
    let makeID: @Sendable () -> UUID
    /// Team mode, whose sessions the event streams check.
    private let teamMode: TeamMode

    /// The service of `teamMode`, or `nil` in local mode.
    init?(teamMode: TeamMode?, now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID) {
        guard let teamMode else { return nil }
        store = teamMode.lists
        accounts = teamMode.sessions
        self.teamMode = teamMode
        self.now = now
        self.makeID = makeID
    }

    /// The steps a page of history shows when the request does not say.
    static let historyPage = 50

    /// The answer of every shared-list path in local mode.
    static let localMode = APIError.notFound(
        "shared lists are part of team mode: start the server with `rewind serve --accounts`")

    /// The account of the request being handled.
    ///
    /// - Throws: ``APIError`` 401 without a signed-in session (the session
    ///   gate answers that before any handler runs).
    var person: AccountName {
        get throws {
            guard let signedIn = SignedIn.current else { throw APIError(.unauthorized, "sign in first") }
            return signedIn.account
        }
    }

    /// Whether the session `id` is still signed in (not signed out, ended
    /// by `rewind users`, or expired); a store that cannot be read says no.
    func isLive(_ id: SessionID) async -> Bool {
        await teamMode.isLive(id, at: now())
    }

    // MARK: Lists

    /// The account's lists, oldest first, each with how many items it
    /// holds; see ``SharedListStore/overview(of:)``.
    func overview() async throws -> [(list: SharedListSummary, counts: SharedListCounts)] {
        try await store.overview(of: person)
    }

    /// The ids of the account's lists that start with `prefix`, at most
    /// `limit`: what the short id `rewind lists` prints names.
    func lists(startingWith prefix: IDPrefix, limit: Int) async throws -> [UUID] {
        Array(try await store.lists(of: try person).map(\.id).filter(prefix.matches).sorted().prefix(limit))
    }

    /// Makes a list the account owns.
    func create(name: String) async throws -> SharedListSummary {
        try await store.create(name: name, owner: person)
    }

    /// The list `id`, as the account sees it.
    ///
    /// - Throws: ``AccountError/listNotFound`` when the account is not a member.
    func summary(of id: UUID) async throws -> SharedListSummary {
        let person = try person
        guard let list = try await store.lists(of: person).first(where: { $0.id == id }) else {
            throw AccountError.listNotFound
        }
        return list
    }

    /// Renames the list (its owner only).
    func rename(_ id: UUID, to name: String) async throws -> SharedListSummary {
        try await store.rename(id, to: name, by: person)
    }

    /// Deletes the list (its owner only).
    func delete(_ id: UUID) async throws {
        try await store.delete(id, by: person)
    }

    /// Shares the list with the account named `name` (its owner only).
    ///
    /// - Throws: ``APIError`` 422 when the name breaks the rules or no
    ///   account has it; ``AccountError``.
    func share(_ id: UUID, with name: String) async throws -> SharedListSummary {
        let person = try person
        let account = try Self.accountName(name)
        // The owner's own check first: a member learns nothing of which accounts exist.
        let list = try await summary(of: id)
        guard list.owner == person else { throw AccountError.ownerOnly(action: "share") }
        // The name as the account was made, whatever its case here.
        guard let existing = try await accounts.list().first(where: { $0.name.key == account.key }) else {
            throw APIError.invalidField(
                "there is no account “\(account.text)”; whoever runs the server makes accounts, with the command rewind users add \(account.text).")
        }
        return try await store.share(id, with: existing.name, madeAt: existing.created, by: person)
    }

    /// Stops sharing the list with the account named `name` (its owner only).
    func unshare(_ id: UUID, with name: String) async throws -> SharedListSummary {
        try await store.unshare(id, with: try Self.accountName(name), by: person)
    }

    /// `name` as an account name.
    ///
    /// - Throws: ``APIError`` 422 saying what names are allowed.
    private static func accountName(_ name: String) throws -> AccountName {
        do {
            return try AccountName(name)
        } catch {
            throw APIError.invalidField(error.description)
        }
    }

    // MARK: Items and steps

    /// The list's items, in order, and the number of its latest step.
    func items(of id: UUID) async throws -> SharedListItems {
        try await store.items(of: id, as: person)
    }

    /// The item with `itemID` on the list, for its detail page.
    ///
    /// - Throws: ``APIError`` 404 when the list has no such item.
    func item(_ itemID: UUID, on id: UUID) async throws -> TodoItem {
        guard let item = try await store.items(of: id, as: person).list[id: itemID] else { throw Self.noItem(itemID) }
        return item
    }

    /// Adds an item titled `title` at the end of the list, as one step.
    func add(title: String, to id: UUID) async throws -> (item: TodoItem, step: SharedStep) {
        let item: TodoItem
        do {
            item = try TodoItem(TodoItem.Draft(title: title), id: makeID(), created: now())
        } catch {
            throw APIError.invalidField(error.description)
        }
        let step = try await perform(on: id) { items in PlannedSharedChange([.add(item)], on: items) }.step
        return (item, step)
    }

    /// Changes the item as `changes` says (given the item as it is), as one step.
    ///
    /// - Throws: ``APIError`` 404 when the list has no such item, 409 when
    ///   the item already has these values; what `changes` throws.
    func edit(_ itemID: UUID, on id: UUID, _ changes: @Sendable (TodoItem) throws -> [TodoItem.Change]) async throws
        -> (item: TodoItem, step: SharedStep)
    {
        let now = now()
        return try await performAnswering(itemID, on: id) { items in
            guard let item = items[id: itemID] else { throw Self.noItem(itemID) }
            let changes = try changes(item)
            guard !changes.isEmpty else { throw APIError.conflict("the item already has these values; nothing was changed") }
            return PlannedSharedChange([.update(itemID, changes, at: now)], on: items)
        }
    }

    /// Moves the item where `request` says (``ItemMover/Request``), as one step.
    ///
    /// - Throws: ``APIError`` 404 when the list has no such item, 409 when
    ///   it is already there, 422 for a neighbour the list lacks (or the
    ///   item itself) and a position past the end.
    func move(_ itemID: UUID, on id: UUID, _ request: ItemMover.Request) async throws
        -> (item: TodoItem, step: SharedStep)
    {
        try await performAnswering(itemID, on: id) { items in
            guard items[id: itemID] != nil else { throw Self.noItem(itemID) }
            let target: Int
            do throws(TodoError) {
                target = try ItemMover.position(for: request, in: items)
            } catch .nothingToChange(let reason) {
                throw APIError.conflict(reason)
            } catch {
                throw APIError.invalidField(error.description)
            }
            return PlannedSharedChange([.move(itemID, to: target)], on: items)
        }
    }

    /// Completes every item (or, `completed` false, reopens every one), as one step.
    ///
    /// - Throws: ``APIError`` 409 when every item already is so.
    func setAll(on id: UUID, completed: Bool) async throws -> SharedStep {
        let now = now()
        return try await perform(on: id) { items in
            guard completed ? items.completedCount < items.count : items.completedCount > 0 else {
                throw APIError.conflict(completed ? "every item is completed; nothing was changed" : "no item is completed; nothing was changed")
            }
            return PlannedSharedChange([completed ? .completeAll(at: now) : .reopenAll(at: now)], on: items)
        }.step
    }

    /// Deletes the completed items, as one step.
    ///
    /// - Throws: ``APIError`` 409 when no item is completed.
    func clearCompleted(on id: UUID) async throws -> SharedStep {
        try await perform(on: id) { items in
            guard items.completedCount > 0 else { throw APIError.conflict("no item is completed; nothing was deleted") }
            return PlannedSharedChange([.removeCompleted], on: items)
        }.step
    }

    /// Deletes the item, as one step.
    ///
    /// - Throws: ``APIError`` 404 when the list has no such item.
    func remove(_ itemID: UUID, from id: UUID) async throws -> SharedStep {
        try await perform(on: id) { items in
            guard items[id: itemID] != nil else { throw Self.noItem(itemID) }
            return PlannedSharedChange([.removeItems([itemID])], on: items)
        }.step
    }

    /// Takes back the account's own next step; with `step`, only when it is that one.
    func undo(on id: UUID, expecting step: Int?) async throws -> SharedStep {
        try await store.undo(on: id, by: person, expecting: step)
    }

    /// Takes back the account's own latest undo; with `step`, only when it is that one.
    func redo(on id: UUID, expecting step: Int?) async throws -> SharedStep {
        try await store.redo(on: id, by: person, expecting: step)
    }

    /// The steps the account's Undo and Redo would take back now.
    func nextSteps(on id: UUID) async throws -> SharedListNextSteps {
        try await store.nextSteps(on: id, of: person)
    }

    /// A page of the list's history, newest first.
    func history(of id: UUID, before: Int?, limit: Int) async throws -> [SharedStep.Summary] {
        try await store.history(of: id, as: person, before: before, limit: limit)
    }

    /// The list's updates, for the account's event stream.
    func updates(of id: UUID) async throws -> AsyncStream<SharedListUpdate> {
        try await store.updates(of: id, as: person)
    }

    /// Applies what `plan` makes of the list's items as the store holds
    /// them when the change's turn comes, as one step of the account.
    private func perform(
        on id: UUID, answering item: UUID? = nil, _ plan: @Sendable (TodoList) throws -> PlannedSharedChange
    ) async throws -> (step: SharedStep, item: TodoItem?) {
        try await store.perform(on: id, by: person, answering: item, plan)
    }

    /// ``perform(on:answering:_:)``, answering with the item `itemID` as the step left it.
    ///
    /// - Throws: ``APIError`` 404 when the step left no such item.
    private func performAnswering(
        _ itemID: UUID, on id: UUID, _ plan: @Sendable (TodoList) throws -> PlannedSharedChange
    ) async throws -> (item: TodoItem, step: SharedStep) {
        let (step, item) = try await perform(on: id, answering: itemID, plan)
        guard let item else { throw Self.noItem(itemID) }
        return (item, step)
    }

    private static func noItem(_ id: UUID) -> APIError {
        APIError.notFound("there is no item with id \(id.uuidString) on this list")
    }
}

extension APIError {
    /// The answer for what a store of shared lists refused, or `nil` for
    /// any other error: 404 for a list the account cannot see (as for one
    /// that does not exist) or an item the list lacks, 403 for what only
    /// the owner may do, 409 when there is nothing to undo or redo, the
    /// step is no longer the next one, or the membership is already so,
    /// 422 for a name or value against the rules.
    static func sharedLists(_ error: any Error) -> APIError? {
        switch error {
        case let error as AccountError:
            switch error {
            case .listNotFound:
                // The same for a list deleted, unshared, or never shared: nothing said of another's lists.
                return .notFound("there is no such list among yours: it was deleted, or it is not shared with you (its owner can share it)")
            case .ownerOnly: return APIError(.forbidden, error.description)
            case .alreadyMember, .notMember, .owner: return .conflict(error.description)
            case .invalidName, .weakPassword: return .invalidField(error.description)
            }
        case let error as SharedListError:
            return .invalidField(error.description)
        case let error as SharingError:
            switch error {
            // Asked by the author: said to them, not by their account's key.
            case .nothingToUndo: return .conflict("You have no change of your own to undo on this list.")
            case .nothingToRedo: return .conflict("You have no undone change of your own to redo on this list.")
            case .notTheNextStep: return .conflict(error.description)
            case .refused(.itemNotFound), .refused(.positionOutOfRange): return .notFound(error.description)
            case .refused(.nothingToChange): return .conflict(error.description)
            case .refused: return .invalidField(error.description)
            case .notTheNextRow, .rowsNotHeld, .summariesNotHeld, .writersNotHeld: return nil
            }
        default:
            return nil
        }
    }
}
