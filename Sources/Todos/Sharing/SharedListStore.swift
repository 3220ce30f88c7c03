import Foundation

/// Where team mode keeps its named lists, each a ``SharedList`` with its
/// owner and members: in memory for tests, in the SQLite file, or in
/// PostgreSQL.
///
/// Every call names the person who makes it, and is checked with the
/// list's ``ListAccess``: a person who is not a member of the list is told
/// ``AccountError/listNotFound``, for reading as for writing, so another
/// account's list ids give nothing away (the web app answers 404). Only the
/// owner renames, shares, unshares or deletes a list
/// (``AccountError/ownerOnly(action:)``).
///
/// Every change, undo and redo appends one row (``SharedStep``) to the
/// list's log, numbered from 1 without gaps, with the person as its author.
/// A store saves the row with the items it touched in one transaction: an
/// acknowledged row is never lost, and a failed call changes nothing.
/// Rows name people by their ``AccountName/key`` (the name in lower case).
///
/// ```swift
/// let list = try await store.create(name: "Groceries", owner: ann)
/// try await store.share(list.id, with: bob, madeAt: bobsAccount.created, by: ann)
/// try await store.perform([.add(milk)], named: "Add “Milk”", on: list.id, by: ann)
/// try await store.perform([.update(milk.id, [.complete], at: now)], named: "Complete “Milk”", on: list.id, by: bob)
/// let next = try await store.nextSteps(on: list.id, of: ann)   // next.undo?.name == "Add “Milk”"
/// let undo = try await store.undo(on: list.id, by: ann, expecting: next.undo?.seq)
/// undo.messages   // ["Kept “Milk”: bob changed it since."]
/// ```
public protocol SharedListStore: Sendable {
    /// Makes an empty list named `name` that only `owner` can open.
    ///
    /// - Throws: ``SharedListError/invalidName(_:)`` when the name breaks
    ///   ``SharedListSummary/checkedName(_:)``'s rules.
    func create(name: String, owner: AccountName) async throws -> SharedListSummary

    /// Renames the list; only its owner may.
    ///
    /// - Throws: ``AccountError``, ``SharedListError/invalidName(_:)``.
    @discardableResult
    func rename(_ list: UUID, to name: String, by person: AccountName) async throws -> SharedListSummary

    /// Deletes the list with its items and log for good; only its owner may.
    /// Every update stream of the list ends.
    ///
    /// - Throws: ``AccountError``.
    func delete(_ list: UUID, by person: AccountName) async throws

    /// Lets `account` open and change the list; only its owner may share it.
    /// The store does not know which accounts exist: the caller checks that,
    /// and says when the account was made (`made`). Rows written under its
    /// name before then are an earlier account's, removed since: they stay
    /// in the history, but are never `account`'s to undo or redo
    /// (``ListAccess/earlierRows``).
    ///
    /// - Throws: ``AccountError`` (``AccountError/alreadyMember(_:)`` when
    ///   `account` can open it already).
    @discardableResult
    func share(_ list: UUID, with account: AccountName, madeAt made: Date, by person: AccountName) async throws
        -> SharedListSummary

    /// Stops sharing the list with `account`; only its owner may. The
    /// account's update streams of the list end.
    ///
    /// - Throws: ``AccountError`` (``AccountError/notMember(_:)`` when
    ///   `account` is not a member).
    @discardableResult
    func unshare(_ list: UUID, with account: AccountName, by person: AccountName) async throws -> SharedListSummary

    /// The lists `person` owns or is a member of, oldest first.
    func lists(of person: AccountName) async throws -> [SharedListSummary]

    /// How many items each list that `person` owns or is a member of holds,
    /// and how many of them are completed, by the list's id: every such
    /// list, an empty one with zeros. Counted as the store holds the lists
    /// now (another instance's commits included).
    func itemCounts(of person: AccountName) async throws -> [UUID: SharedListCounts]

    /// The list's items as they are now, in order, and the number of its
    /// latest row.
    ///
    /// - Throws: ``AccountError/listNotFound``.
    func items(of list: UUID, as person: AccountName) async throws -> SharedListItems

    /// Applies the changes that `plan` makes of the list's items, as they
    /// are when the change's turn comes, in order as one step by `person`
    /// (see ``SharedList/perform(_:named:by:at:coalescingKey:)``), and
    /// answers with the step and the item `answering` names as it is after
    /// it. `plan` runs after the check that `person` may change the list,
    /// with no other change of the list between it and the step; it may run
    /// again when the store tries the transaction again. A store that keeps
    /// the list in memory reads none of its items for it.
    ///
    /// ```swift
    /// let (step, item) = try await store.perform(on: list.id, by: ann, answering: milk.id) { items in
    ///     guard items[id: milk.id] != nil else { throw NotFound() }
    ///     return PlannedSharedChange([.update(milk.id, [.complete], at: now)], named: "Complete “Milk”")
    /// }
    /// ```
    ///
    /// - Throws: what `plan` throws, as it is (nothing is written then);
    ///   ``AccountError/listNotFound``, ``SharingError/refused(_:)`` (also
    ///   when the plan's changes are empty).
    func perform(
        on list: UUID, by person: AccountName, answering item: UUID?,
        _ plan: @Sendable (TodoList) throws -> PlannedSharedChange
    ) async throws -> (step: SharedStep, item: TodoItem?)

    /// Takes back `person`'s own latest step on the list (see
    /// ``SharedList/undo(by:at:expecting:)``).
    ///
    /// - Parameter step: The row the person's Undo button named; when it is
    ///   no longer their next one (a double click), nothing changes and
    ///   ``SharingError/notTheNextStep(asked:next:)`` is thrown. `nil`
    ///   takes back whatever is next.
    /// - Throws: ``AccountError/listNotFound``, ``SharingError``.
    @discardableResult
    func undo(on list: UUID, by person: AccountName, expecting step: Int?) async throws -> SharedStep

    /// Takes back `person`'s own latest undo on the list (see
    /// ``SharedList/redo(by:at:expecting:)``).
    ///
    /// - Parameter step: The undo row the person's Redo button named.
    /// - Throws: ``AccountError/listNotFound``, ``SharingError``.
    @discardableResult
    func redo(on list: UUID, by person: AccountName, expecting step: Int?) async throws -> SharedStep

    /// The rows `person`'s Undo and Redo would take back now, so that the
    /// buttons can name them.
    ///
    /// - Throws: ``AccountError/listNotFound``.
    func nextSteps(on list: UUID, of person: AccountName) async throws -> SharedListNextSteps

    /// A page of the list's log for the history panel, newest first: the
    /// summaries of at most `limit` rows numbered below `before` (from the
    /// newest when `nil`), read without the rows' changes.
    ///
    /// - Throws: ``AccountError/listNotFound``;
    ///   ``SharedListError/invalidPageSize(_:)`` when `limit` is not
    ///   between 1 and ``SharedListSummary/largestHistoryPage``.
    func history(of list: UUID, as person: AccountName, before: Int?, limit: Int) async throws -> [SharedStep.Summary]

    /// A stream with an element after every row appended to the list through
    /// this store (and, for a store that hears of them, through other
    /// instances over the same database), and after a rename or a change of
    /// its members. It ends when the list is deleted or `person` loses
    /// access; stop reading (cancel the task) to unsubscribe.
    ///
    /// - Throws: ``AccountError/listNotFound``.
    func updates(of list: UUID, as person: AccountName) async throws -> AsyncStream<SharedListUpdate>

    /// A stream with an element each time a list is made for `person` or
    /// shared with them, through this store and (for a store that hears of
    /// them) through other instances or processes over the same database:
    /// what no stream of ``updates(of:as:)`` can tell, as the person could
    /// not open the list before. Several such changes close together may
    /// make one element; one heard since the call is never missed, so that
    /// a reader that reads ``lists(of:)`` after the call and after each
    /// element knows every list. The stream does not end by itself; stop
    /// reading (cancel the task) to unsubscribe.
    func newLists(for person: AccountName) async -> AsyncStream<Void>
}

extension SharedListStore {
    /// The lists `person` owns or is a member of, oldest first, each with
    /// how many items it holds (zeros for a list made between the two
    /// reads): ``lists(of:)`` beside ``itemCounts(of:)``.
    public func overview(of person: AccountName) async throws -> [(list: SharedListSummary, counts: SharedListCounts)] {
        let lists = try await lists(of: person)
        let counts = try await itemCounts(of: person)
        return lists.map { ($0, counts[$0.id] ?? SharedListCounts(items: 0, completed: 0)) }
    }

    /// Applies `changes` in order as one step by `person` (see
    /// ``SharedList/perform(_:named:by:at:coalescingKey:)``).
    ///
    /// - Throws: ``AccountError/listNotFound``, ``SharingError/refused(_:)``
    ///   (also when `changes` is empty).
    @discardableResult
    public func perform(
        _ changes: [TodoList.Change], named name: String, coalescingKey: String?, on list: UUID, by person: AccountName
    ) async throws -> SharedStep {
        try await perform(on: list, by: person, answering: nil) { _ in
            PlannedSharedChange(changes, named: name, coalescingKey: coalescingKey)
        }.step
    }

    /// Applies `changes` as one step by `person` that joins no other.
    @discardableResult
    public func perform(_ changes: [TodoList.Change], named name: String, on list: UUID, by person: AccountName)
        async throws -> SharedStep
    {
        try await perform(changes, named: name, coalescingKey: nil, on: list, by: person)
    }
}

/// How many items a list holds, and how many of them are completed.
public struct SharedListCounts: Equatable, Hashable, Sendable {
    /// Every item of the list.
    public let items: Int
    /// The completed ones among them.
    public let completed: Int

    /// The items still to do.
    public var active: Int { items - completed }

    /// Counts of `items` items, `completed` of them completed.
    public init(items: Int, completed: Int) {
        self.items = items
        self.completed = completed
    }

    /// "2 items left, 1 completed", or "No items".
    public var summary: String {
        items == 0 ? "No items" : TodoCounts.summary(active: active, completed: completed)
    }

    /// The counts of the items of `list`.
    public init(of list: TodoList) {
        self.init(items: list.count, completed: list.completedCount)
    }
}

/// A list as its members see it in their list of lists: its id, name,
/// owner and members.
public struct SharedListSummary: Equatable, Hashable, Sendable {
    /// The most characters a list's name may have.
    public static let longestName = 200
    /// The most rows one page of history may hold.
    public static let largestHistoryPage = 500

    /// The list's id.
    public let id: UUID
    /// Its name.
    public let name: String
    /// Who may open it: its owner and members.
    public let access: ListAccess

    /// Describes the list `id` named `name` with `access`.
    public init(id: UUID, name: String, access: ListAccess) {
        self.id = id
        self.name = name
        self.access = access
    }

    /// The account that made the list.
    public var owner: AccountName { access.owner }

    /// The accounts it is shared with, in the order of their names.
    public var members: [AccountName] { access.members.sorted { $0.key < $1.key } }

    /// `name` without the spaces around it, when it is a valid list name:
    /// 1 to ``longestName`` characters, not only spaces, and no control
    /// characters (see ``TypedText``).
    ///
    /// - Throws: ``SharedListError/invalidName(_:)`` saying what is allowed.
    public static func checkedName(_ name: String) throws(SharedListError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidName("A list's name must not be empty.") }
        guard trimmed.count <= longestName else {
            throw .invalidName("A list's name may have at most \(longestName) characters; this one has \(trimmed.count).")
        }
        if let control = TypedText.firstControlCharacter(in: trimmed) {
            throw .invalidName(
                "The control character \(TypedText.name(of: control.value)) is not allowed in a list's name; "
                    + "it may hold any character but control characters, apart from tabs and line breaks.")
        }
        return trimmed
    }

    /// Checks the size of a page of history.
    ///
    /// - Throws: ``SharedListError/invalidPageSize(_:)`` saying what is allowed.
    public static func checkPageSize(_ limit: Int) throws(SharedListError) {
        guard (1...largestHistoryPage).contains(limit) else {
            throw .invalidPageSize("A page of history holds 1 to \(largestHistoryPage) rows; \(limit) was asked for.")
        }
    }
}

/// A list's items and the number of its latest row (0 before any).
public struct SharedListItems: Equatable, Sendable {
    /// The items, in order.
    public let list: TodoList
    /// The number of the latest row of the list's log.
    public let seq: Int

    /// Pairs `list` with the number of the row that made it.
    public init(list: TodoList, seq: Int) {
        self.list = list
        self.seq = seq
    }
}

/// The changes a person asked for, made of a shared list's items as they
/// are when the change's turn comes (``SharedListStore/perform(on:by:answering:_:)``).
public struct PlannedSharedChange: Sendable {
    /// The changes, applied in order as one step.
    public var changes: [TodoList.Change]
    /// The step's name, as history and Undo show it.
    public var name: String
    /// The key that lets the step join the person's previous one, if any.
    public var coalescingKey: String?

    /// Plans `changes` as one step named `name`.
    public init(_ changes: [TodoList.Change], named name: String, coalescingKey: String? = nil) {
        self.changes = changes
        self.name = name
        self.coalescingKey = coalescingKey
    }

    /// Plans `changes` as one step named as the to-do list names them
    /// (``AppState/stepName(for:)``) on `items`, the list they change.
    public init(_ changes: [TodoList.Change], on items: TodoList, coalescingKey: String? = nil) {
        self.init(changes, named: AppState(todos: items).stepName(for: changes.map { .todos($0) }), coalescingKey: coalescingKey)
    }
}

/// An error a plan of ``SharedListStore/perform(on:by:answering:_:)``
/// threw, carried through a store's transaction, which passes it on as it is.
package struct PlanRefusal: Error {
    /// What the plan threw.
    package let error: any Error

    /// Carries `error`.
    package init(_ error: any Error) { self.error = error }

    /// Runs `body`, throwing what a plan threw as the plan threw it.
    package static func unwrapping<Value>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Value
    ) async throws -> Value {
        do {
            return try await body()
        } catch let refusal as PlanRefusal {
            throw refusal.error
        }
    }

    /// Runs `body`, throwing what a plan threw as the plan threw it.
    package static func unwrapping<Value>(_ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch let refusal as PlanRefusal {
            throw refusal.error
        }
    }
}

/// What a person's Undo and Redo buttons would take back on one list.
public struct SharedListNextSteps: Equatable, Sendable {
    /// The step their Undo takes back (its first row's summary), if any.
    public let undo: SharedStep.Summary?
    /// The undo row their Redo takes back (its summary), if any.
    public let redo: SharedStep.Summary?

    /// Pairs the next undo and redo.
    public init(undo: SharedStep.Summary?, redo: SharedStep.Summary?) {
        self.undo = undo
        self.redo = redo
    }
}

/// Tells the pages of a list that it changed: its latest row number, so a
/// page reads what it has not seen.
public struct SharedListUpdate: Equatable, Hashable, Sendable {
    /// The list.
    public let list: UUID
    /// The number of its latest row.
    public let seq: Int

    /// An update of `list`, whose latest row is `seq`.
    public init(list: UUID, seq: Int) {
        self.list = list
        self.seq = seq
    }
}

/// Why a store of shared lists refused a list's name or a page size.
public enum SharedListError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The name breaks the rules; the sentence says which.
    case invalidName(String)
    /// The page of history asked for is too small or too large; the sentence says which sizes are allowed.
    case invalidPageSize(String)

    /// The sentence.
    public var description: String {
        switch self {
        case .invalidName(let sentence), .invalidPageSize(let sentence): sentence
        }
    }
}
