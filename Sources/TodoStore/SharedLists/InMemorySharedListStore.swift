import Foundation
import Todos

/// Shared lists kept in memory, for tests and `--in-memory` runs: the rules
/// of every ``SharedListStore``, nothing saved.
public actor InMemorySharedListStore: SharedListStore {
    private var lists: [UUID: OpenSharedList] = [:]
    /// The ids in the order the lists were made.
    private var order: [UUID] = []
    /// The update streams of the lists (read by the tests).
    private(set) var updateStreams = SharedListUpdates()
    private var newListSignals = NewListSignals()
    /// How many streams of ``newLists(for:)`` are open (read by the tests).
    package var newListStreamCount: Int { newListSignals.count }
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    private let coalescingWindow: TimeInterval

    /// An empty store whose rows are dated by `now` (rounded to
    /// milliseconds) and whose lists get ids from `makeID`.
    public init(
        now: @escaping @Sendable () -> Date = SQLiteStore.millisecondClock, makeID: @escaping @Sendable () -> UUID = UUID.init,
        coalescingWindow: TimeInterval = 0.5
    ) {
        self.now = now
        self.makeID = makeID
        self.coalescingWindow = coalescingWindow
    }

    /// Makes a list; see ``SharedListStore/create(name:owner:)``.
    public func create(name: String, owner: AccountName) throws -> SharedListSummary {
        let list = OpenSharedList(
            id: makeID(), name: try SharedListSummary.checkedName(name), access: ListAccess(owner: owner),
            shared: SharedList(coalescingWindow: coalescingWindow))
        lists[list.id] = list
        order.append(list.id)
        newListSignals.tell(owner.key)
        return list.summary
    }

    /// Renames a list; see ``SharedListStore/rename(_:to:by:)``.
    @discardableResult
    public func rename(_ list: UUID, to name: String, by person: AccountName) throws -> SharedListSummary {
        try change(list) { open in
            try open.access.check(.rename, by: person)
            open.name = try SharedListSummary.checkedName(name)
        }
    }

    /// Deletes a list; see ``SharedListStore/delete(_:by:)``.
    public func delete(_ list: UUID, by person: AccountName) throws {
        try open(list).access.check(.delete, by: person)
        lists[list] = nil
        order.removeAll { $0 == list }
        updateStreams.end(list)
    }

    /// Shares a list; see ``SharedListStore/share(_:with:madeAt:by:)``.
    @discardableResult
    public func share(_ list: UUID, with account: AccountName, madeAt made: Date, by person: AccountName) throws
        -> SharedListSummary
    {
        let shared = try change(list) { open in
            let earlier = open.shared.lastHeldRow(by: account.key, before: made)
            try open.access.share(with: account, by: person, earlierRows: earlier)
        }
        newListSignals.tell(account.key)
        return shared
    }

    /// Stops sharing a list; see ``SharedListStore/unshare(_:with:by:)``.
    @discardableResult
    public func unshare(_ list: UUID, with account: AccountName, by person: AccountName) throws -> SharedListSummary {
        var open = try open(list)
        try open.access.unshare(with: account, by: person)
        lists[list] = open
        updateStreams.end(list, for: account)
        updateStreams.notify(list, seq: open.seq, always: true)
        return open.summary
    }

    /// The lists `person` can open, oldest first.
    public func lists(of person: AccountName) -> [SharedListSummary] {
        order.compactMap { lists[$0] }.filter { $0.access.canOpen(person) }.map(\.summary)
    }

    /// How many items each of `person`'s lists holds; see ``SharedListStore/itemCounts(of:)``.
    public func itemCounts(of person: AccountName) -> [UUID: SharedListCounts] {
        var counts: [UUID: SharedListCounts] = [:]
        for open in lists.values where open.access.canOpen(person) {
            counts[open.id] = SharedListCounts(of: open.shared.list)
        }
        return counts
    }

    /// The items of a list; see ``SharedListStore/items(of:as:)``.
    public func items(of list: UUID, as person: AccountName) throws -> SharedListItems {
        let open = try open(list)
        try open.access.check(.read, by: person)
        return SharedListItems(list: open.shared.list, seq: open.seq)
    }

    /// Applies the changes a plan makes; see ``SharedListStore/perform(on:by:answering:_:)``.
    public func perform(
        on list: UUID, by person: AccountName, answering item: UUID?, _ plan: @Sendable (TodoList) throws -> PlannedSharedChange
    ) throws -> (step: SharedStep, item: TodoItem?) {
        let date = now().roundedToMilliseconds
        var answer: TodoItem?
        let step = try PlanRefusal.unwrapping {
            try append(list) { open in
                let step = try open.perform(planning: plan, by: person, at: date)
                answer = item.flatMap { open.shared.list[id: $0] }
                return step
            }
        }
        return (step, answer)
    }

    /// Undoes a step; see ``SharedListStore/undo(on:by:expecting:)``.
    @discardableResult
    public func undo(on list: UUID, by person: AccountName, expecting step: Int?) throws -> SharedStep {
        let date = now().roundedToMilliseconds
        return try append(list) { open in try open.undo(by: person, expecting: step, at: date) }
    }

    /// Redoes a step; see ``SharedListStore/redo(on:by:expecting:)``.
    @discardableResult
    public func redo(on list: UUID, by person: AccountName, expecting step: Int?) throws -> SharedStep {
        let date = now().roundedToMilliseconds
        return try append(list) { open in try open.redo(by: person, expecting: step, at: date) }
    }

    /// A person's next undo and redo; see ``SharedListStore/nextSteps(on:of:)``.
    public func nextSteps(on list: UUID, of person: AccountName) throws -> SharedListNextSteps {
        try open(list).nextSteps(of: person)
    }

    /// A page of history; see ``SharedListStore/history(of:as:before:limit:)``.
    public func history(of list: UUID, as person: AccountName, before: Int?, limit: Int) throws -> [SharedStep.Summary] {
        try open(list).history(as: person, before: before, limit: limit)
    }

    /// The updates of a list; see ``SharedListStore/updates(of:as:)``.
    public func updates(of list: UUID, as person: AccountName) throws -> AsyncStream<SharedListUpdate> {
        let open = try open(list)
        try open.access.check(.read, by: person)
        return updateStreams.subscribe(to: list, as: person, seq: open.seq) { [weak self] id in
            Task { await self?.forgetStream(id, of: list) }
        }
    }

    /// Forgets an update stream of `list` whose reader stopped.
    private func forgetStream(_ id: UUID, of list: UUID) {
        updateStreams.forget(id, of: list)
    }

    /// The lists made for or shared with `person` from now on; see ``SharedListStore/newLists(for:)``.
    public func newLists(for person: AccountName) -> AsyncStream<Void> {
        let key = person.key
        return newListSignals.subscribe(person) { [weak self] id in
            Task { await self?.forgetNewListStream(id, of: key) }
        }
    }

    /// Forgets a stream of ``newLists(for:)`` whose reader stopped.
    private func forgetNewListStream(_ id: UUID, of key: String) {
        newListSignals.forget(id, of: key)
    }

    /// Every log row of the list, oldest first (read by the tests).
    func savedRows(of list: UUID) throws -> [SharedStep] {
        let open = try open(list)
        return try open.shared.rows(1..<(open.seq + 1))
    }

    // MARK: Helpers

    private func open(_ list: UUID) throws(AccountError) -> OpenSharedList {
        guard let open = lists[list] else { throw .listNotFound }
        return open
    }

    /// Runs `body` on a copy of the list and keeps the copy when it returns.
    private func change(_ list: UUID, _ body: (inout OpenSharedList) throws -> Void) throws -> SharedListSummary {
        var open = try open(list)
        try body(&open)
        lists[list] = open
        updateStreams.notify(list, seq: open.seq, always: true)
        return open.summary
    }

    /// Runs `body`, which appends one row, on a copy of the list and keeps the copy when it returns.
    private func append(_ list: UUID, _ body: (inout OpenSharedList) throws -> SharedStep) throws -> SharedStep {
        var open = try open(list)
        let step = try body(&open)
        lists[list] = open
        updateStreams.notify(list, seq: step.seq)
        return step
    }
}
