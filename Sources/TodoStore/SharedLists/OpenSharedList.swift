import Foundation
import Todos

/// A shared list as a store holds it open: its name, who may open it, and
/// its ``SharedList`` (items, log, each person's stacks). Every store of
/// shared lists runs the same checks through it, so they agree on who may
/// do what.
package struct OpenSharedList: Sendable {
    /// The list's id.
    package let id: UUID
    /// Its name.
    package var name: String
    /// Its owner and members; its ``ListAccess/earlierRows`` are the
    /// list's (``SharedList/earlierRows``).
    package var access: ListAccess {
        didSet { shared.earlierRows = access.earlierRows }
    }
    /// Its items, log and stacks.
    package var shared: SharedList

    /// A list `id` named `name` with `access`, and its items and log.
    package init(id: UUID, name: String, access: ListAccess, shared: SharedList) {
        self.id = id
        self.name = name
        self.access = access
        self.shared = shared
        self.shared.earlierRows = access.earlierRows
    }

    /// How its members see it in their list of lists.
    package var summary: SharedListSummary {
        SharedListSummary(id: id, name: name, access: access)
    }

    /// The number of its latest row.
    package var seq: Int { shared.seq }

    /// What it weighs in a store's cache (``SharedListCache``): its items
    /// and the log rows it holds in memory.
    package var weight: Int { shared.heldWeight + shared.list.count }

    /// Applies `changes` as one step by `person`, a member; an empty list
    /// of changes is refused.
    package mutating func perform(
        _ changes: [TodoList.Change], named stepName: String, coalescingKey: String?, by person: AccountName, at date: Date
    ) throws -> SharedStep {
        try access.check(.change, by: person)
        guard !changes.isEmpty else { throw SharingError.refused(.nothingToChange("no change was given")) }
        return try shared.perform(changes, named: stepName, by: person.key, at: date, coalescingKey: coalescingKey)
    }

    /// Applies the changes `plan` makes of the items as they are now, as
    /// one step by `person`, a member; what `plan` throws is thrown as a
    /// ``PlanRefusal``, with nothing changed.
    package mutating func perform(
        planning plan: (TodoList) throws -> PlannedSharedChange, by person: AccountName, at date: Date
    ) throws -> SharedStep {
        try access.check(.change, by: person)
        let planned: PlannedSharedChange
        do {
            planned = try plan(shared.list)
        } catch {
            throw PlanRefusal(error)
        }
        return try perform(planned.changes, named: planned.name, coalescingKey: planned.coalescingKey, by: person, at: date)
    }

    /// Takes back `person`'s own latest step.
    package mutating func undo(by person: AccountName, expecting step: Int?, at date: Date) throws -> SharedStep {
        try access.check(.change, by: person)
        return try shared.undo(by: person.key, at: date, expecting: step)
    }

    /// Takes back `person`'s own latest undo.
    package mutating func redo(by person: AccountName, expecting step: Int?, at date: Date) throws -> SharedStep {
        try access.check(.change, by: person)
        return try shared.redo(by: person.key, at: date, expecting: step)
    }

    /// What `person`'s Undo and Redo would take back.
    ///
    /// - Throws: ``SharingError/summariesNotHeld(_:)`` when their rows'
    ///   summaries are not held (``SharedList/summariesNeeded(by:)`` names them).
    package func nextSteps(of person: AccountName) throws -> SharedListNextSteps {
        try access.check(.read, by: person)
        return SharedListNextSteps(undo: try shared.nextUndo(of: person.key), redo: try shared.nextRedo(of: person.key))
    }

    /// The summaries of at most `limit` rows numbered below `before`, newest first.
    ///
    /// - Throws: ``SharingError/summariesNotHeld(_:)`` when some of them are
    ///   not held (``historyRows(before:limit:)`` names them).
    package func history(as person: AccountName, before: Int?, limit: Int) throws -> [SharedStep.Summary] {
        try access.check(.read, by: person)
        try SharedListSummary.checkPageSize(limit)
        return try shared.summaries(historyRows(before: before, limit: limit)).reversed()
    }

    /// The numbers of the rows of a page of history: at most `limit` rows
    /// numbered below `before` (below none: the latest ones).
    package func historyRows(before: Int?, limit: Int) -> Range<Int> {
        let end = min(max(before ?? Int.max, 1) - 1, shared.seq)
        return (max(end - max(limit, 0), 0) + 1)..<(end + 1)
    }
}

/// The log rows and latest writers that a list's operations asked for, in
/// turn, until one runs: a store reads each request and hands what it read
/// over (``SharedList/hold(_:)``, ``SharedList/hold(writers:of:)``), and
/// stops when a request names only what it read already, which the database
/// does not have.
package struct RowRequests: Sendable {
    /// What an operation asked a store to read.
    package enum Asked: Equatable, Sendable {
        /// Log rows, whole.
        case rows([Int])
        /// The latest writers of these items.
        case writers([UUID])
    }

    private var read = Set<Int>()
    private var writersRead = Set<UUID>()

    /// Starts with none read.
    package init() {}

    /// What to read for `error`, or `nil` when it does not ask for anything
    /// (it is then the operation's own error). Rows whose summaries it asks
    /// for are read whole: an operation asks for summaries only when a
    /// store did not read those it names first (``SharedList/rowsToRead(for:by:)``).
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` naming `location` when
    ///   it asks only for what was read already: the database of `list` lacks it.
    package mutating func asked(after error: any Error, of list: UUID, location: String) throws -> Asked? {
        switch error {
        case SharingError.rowsNotHeld(let rows), SharingError.summariesNotHeld(let rows):
            let new = rows.filter { read.insert($0).inserted }
            guard !new.isEmpty else {
                throw StoreError.corrupt(
                    path: location, detail: "shared list \(list) has no log rows \(rows.map(String.init).joined(separator: ", "))")
            }
            return .rows(new)
        case SharingError.writersNotHeld(let items):
            let new = items.filter { writersRead.insert($0).inserted }
            guard !new.isEmpty else {
                throw StoreError.corrupt(
                    path: location,
                    detail: "shared list \(list) asked again for the writers of \(items.map(\.uuidString).joined(separator: ", "))")
            }
            return .writers(new)
        default:
            return nil
        }
    }
}
