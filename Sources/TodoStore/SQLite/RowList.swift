import Foundation
import GRDB
import Todos

/// The `item` table taken as the list, read and changed row by row inside a
/// transaction: how a store that does not keep the list in memory (the
/// CLI's) applies a change that names its items, reading and writing only
/// their rows and their neighbours' ranks.
///
/// Each change means what it means to ``TodoList``: the same errors, and the
/// same inverse, so that a step recorded here replays in memory and the
/// other way round. A position is the number of rows of a lower rank (an
/// index scan, no row read).
///
/// ```swift
/// try database.queue.inTransaction { db in
///     var rows = RowList(db, path: path)
///     let inverse = try rows.apply(all: [.add(milk)])   // one row inserted
///     return .commit
/// }
/// ```
struct RowList {
    private let db: Database
    private let path: String
    private let encoder = TodoJSON.makeEncoder()
    private let decoder = TodoJSON.makeDecoder(reading: .store)

    /// Thrown when a change needs the whole list after all: two rows share
    /// a rank, or a double has no room left between two neighbours' ranks
    /// (then the list is renumbered). The caller rolls back what this list
    /// wrote and applies the changes in memory.
    struct NeedsWholeList: Error {}

    /// The most positions that the changes of one transaction (one step,
    /// or every step of a jump) may find row by row. Finding a position (for
    /// a removal, an insertion at a place, a move) counts the rows before it,
    /// a scan of up to the whole rank index; beyond this many, reading the
    /// whole list once is cheaper.
    static let mostPositionsByRow = 64

    init(_ db: Database, path: String) {
        self.db = db
        self.path = path
    }

    /// How many positions applying `changes` row by row finds, or `nil`
    /// when they need the whole list (a change of every item, or of a
    /// setting). Additions at the end, updates and replacements find none:
    /// a step of any number of them (an import's) is applied row by row,
    /// while its undo, one removal per item, reads the list instead of
    /// counting rows once per item, which grew with the square of the step.
    static func positionsFound(by changes: [AppState.Change]) -> Int? {
        var positions = 0
        for change in changes {
            switch change {
            case .setting: return nil
            case .todos(.add), .todos(.update), .todos(.replace): continue
            case .todos(.insert), .todos(.remove), .todos(.move): positions += 1
            case .todos(.removeItems(let ids)): positions += ids.count
            case .todos(.restore(let placements)): positions += placements.count
            case .todos(.completeAll), .todos(.reopenAll), .todos(.removeCompleted): return nil
            }
        }
        return positions
    }

    /// The items with `ids` that exist, by id.
    func items(_ ids: some Sequence<UUID>) throws -> [UUID: TodoItem] {
        var found: [UUID: TodoItem] = [:]
        for id in ids where found[id] == nil {
            if let row = try row(id) { found[id] = row.item }
        }
        return found
    }

    /// The items in `state` (every item when `nil`), in list order; with
    /// `dueOnly`, only those with a due date.
    ///
    /// - Complexity: O(*k*) rows read for *k* items in `state`, by a scan of
    ///   the rank index.
    func items(in state: TodoItem.State?, dueOnly: Bool = false) throws -> [TodoItem] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let state {
            conditions.append("state = ?")
            arguments += [state.rawValue]
        }
        if dueOnly { conditions.append("due IS NOT NULL") }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT \(ItemRecord.selection) FROM item \(filter) ORDER BY rank, id"), arguments: arguments)
        var items: [TodoItem] = []
        while let row = try rows.next() { items.append(try record(row).item(decoder: decoder, path: path)) }
        return items
    }

    /// How many items there are of each kind at `now`: counted by SQLite,
    /// with the due dates of the active items that have one read to
    /// find the overdue ones.
    func counts(now: Date) throws -> TodoCounts {
        let total = try count()
        let completed = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM item WHERE state = ?"), arguments: [TodoItem.State.completed.rawValue]) ?? 0
        let overdue = try items(in: .active, dueOnly: true).count { $0.isOverdue(at: now) }
        return TodoCounts(total: total, active: total - completed, completed: completed, overdue: overdue)
    }

    /// Applies `changes` in order and returns the changes that revert them,
    /// newest first (as ``Reversible/apply(all:)`` does). The rows are
    /// written as it goes: when a change throws, the caller rolls back.
    mutating func apply(all changes: [AppState.Change]) throws -> [AppState.Change] {
        var inverses: [AppState.Change] = []
        inverses.reserveCapacity(changes.count)
        for change in changes {
            guard case .todos(let change) = change else { throw NeedsWholeList() }
            inverses.append(.todos(try apply(change)))
        }
        return inverses.reversed()
    }

    private mutating func apply(_ change: TodoList.Change) throws -> TodoList.Change {
        switch change {
        case .add(let item):
            return try insert(item, at: nil)
        case .insert(let item, let position):
            return try insert(item, at: position)
        case .remove(let id):
            guard let row = try row(id) else { throw TodoError.itemNotFound(id) }
            let position = try position(of: row)
            try delete(id)
            return .insert(row.item, at: position)
        case .removeItems(let ids):
            return try removeItems(ids)
        case .restore(let placements):
            return try restore(placements)
        case .update, .replace:
            return try alter(change)
        case .move(let id, let target):
            return try move(id, to: target)
        case .completeAll, .reopenAll, .removeCompleted:
            throw NeedsWholeList()
        }
    }

    // MARK: Changes

    /// Inserts `item` so that it ends up at `position` (at the end when `nil`).
    private func insert(_ item: TodoItem, at position: Int?) throws -> TodoList.Change {
        guard try row(item.id) == nil else { throw TodoError.duplicateItem(item.id) }
        let placed: Double?
        if let position {
            let count = try self.count()
            guard (0...count).contains(position) else { throw TodoError.positionOutOfRange(position, valid: 0...count) }
            placed = ItemRanks.rank(
                between: position > 0 ? try rank(at: position - 1) : nil, and: position < count ? try rank(at: position) : nil)
        } else {
            placed = ItemRanks.rank(between: try Double.fetchOne(db.cachedStatement(sql: "SELECT max(rank) FROM item")), and: nil)
        }
        guard let placed else { throw NeedsWholeList() }
        try ItemRecord(item, rank: placed, encoder: encoder).insertRow(db)
        return .remove(item.id)
    }

    private func removeItems(_ ids: [UUID]) throws -> TodoList.Change {
        guard !ids.isEmpty else { throw TodoError.nothingToChange("no item to remove") }
        var placements: [TodoList.Placement] = []
        var seen = Set<UUID>()
        for id in ids where seen.insert(id).inserted {
            guard let row = try row(id) else { throw TodoError.itemNotFound(id) }
            placements.append(TodoList.Placement(row.item, at: try position(of: row)))
        }
        for placement in placements { try delete(placement.item.id) }
        return .restore(placements.sorted { $0.position < $1.position })
    }

    /// Inserts the items in ascending order of position, each straight at
    /// its final position (the ones after it are not there yet), with the
    /// checks of ``TodoList``.
    private func restore(_ placements: [TodoList.Placement]) throws -> TodoList.Change {
        guard !placements.isEmpty else { throw TodoError.nothingToChange("no item to restore") }
        let finalCount = try count() + placements.count
        var seen = Set<UUID>()
        var previous = -1
        for placement in placements {
            let id = placement.item.id
            guard seen.insert(id).inserted, try row(id) == nil else { throw TodoError.duplicateItem(id) }
            guard placement.position > previous, placement.position < finalCount else {
                let first = min(previous + 1, finalCount - 1)
                throw TodoError.positionOutOfRange(placement.position, valid: first...(finalCount - 1))
            }
            previous = placement.position
        }
        for placement in placements { _ = try insert(placement.item, at: placement.position) }
        return .removeItems(placements.map(\.item.id))
    }

    /// An update or a replacement: applied by ``TodoList`` to a list of the
    /// items it names, whose new versions are written in place (same ranks).
    private func alter(_ change: TodoList.Change) throws -> TodoList.Change {
        let ids: [UUID]
        switch change {
        case .update(let id, _, _): ids = [id]
        case .replace(let items): ids = items.map(\.id)
        default: throw NeedsWholeList()
        }
        var rows: [UUID: (item: TodoItem, rank: Double)] = [:]
        var found: [TodoItem] = []
        for id in ids where rows[id] == nil {
            guard let row = try row(id) else { continue }
            rows[id] = row
            found.append(row.item)
        }
        // A missing item is not in this list: the list's change says so.
        var named = try TodoList(items: found)
        let inverse = try named.apply(change)
        for item in named.items {
            guard let rank = rows[item.id]?.rank else { continue }
            try ItemRecord(item, rank: rank, encoder: encoder).updateRow(db)
        }
        return inverse
    }

    /// Moves the item so that it ends up at `target`: a new rank between the
    /// neighbours it will have.
    private func move(_ id: UUID, to target: Int) throws -> TodoList.Change {
        guard let row = try row(id) else { throw TodoError.itemNotFound(id) }
        let count = try count()
        guard (0..<count).contains(target) else { throw TodoError.positionOutOfRange(target, valid: 0...(count - 1)) }
        let position = try position(of: row)
        guard position != target else { return .move(id, to: position) }
        // Without the item, the neighbours at `target` are those at
        // `target - 1` and `target` before it, or one further on after it.
        let (left, right) = target < position ? (target - 1, target) : (target, target + 1)
        let placed = ItemRanks.rank(
            between: left >= 0 ? try rank(at: left) : nil, and: right < count ? try rank(at: right) : nil)
        guard let placed else { throw NeedsWholeList() }
        try db.cachedStatement(sql: "UPDATE item SET rank = ? WHERE id = ?").execute(arguments: [placed, id.uuidString])
        return .move(id, to: position)
    }

    // MARK: Rows

    /// The item with `id` and its rank, or `nil` when there is no such row.
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` naming the item when
    ///   its row does not decode.
    func row(_ id: UUID) throws -> (item: TodoItem, rank: Double)? {
        let statement = try db.cachedStatement(sql: "SELECT \(ItemRecord.selection) FROM item WHERE id = ?")
        guard let row = try Row.fetchOne(statement, arguments: [id.uuidString]) else { return nil }
        let record = try record(row)
        return (try record.item(decoder: decoder, path: path), record.rank)
    }

    /// The record `row` holds.
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` naming the item.
    private func record(_ row: Row) throws -> ItemRecord {
        do {
            return try ItemRecord(row: row)
        } catch {
            let id = (try? row.decode(String?.self, atIndex: 0)) ?? nil
            throw StoreError.corrupt(path: path, detail: "item \(id ?? "?") has a missing or malformed field: \(error)")
        }
    }

    /// The number of items.
    /// Where those of `ids` that have rows stand, and the number of rows;
    /// `nil` when one of them shares its rank with another row (only the
    /// whole list orders those).
    func positions(of ids: [UUID]) throws -> ListPositions? {
        var positions: [UUID: Int] = [:]
        for id in ids {
            guard let row = try row(id) else { continue }
            do {
                positions[id] = try position(of: row)
            } catch is NeedsWholeList {
                return nil
            }
        }
        return ListPositions(positions: positions, count: try count())
    }

    func count() throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM item")) ?? 0
    }

    /// The position of the item in `row`: how many rows have a lower rank.
    private func position(of row: (item: TodoItem, rank: Double)) throws -> Int {
        let sharing = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM item WHERE rank = ?"), arguments: [row.rank])
        // Rows sharing a rank are ordered by id, which only the whole list knows.
        guard sharing == 1 else { throw NeedsWholeList() }
        return try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM item WHERE rank < ?"), arguments: [row.rank]) ?? 0
    }

    /// The rank of the item at `position`.
    private func rank(at position: Int) throws -> Double? {
        try Double.fetchOne(db.cachedStatement(sql: "SELECT rank FROM item ORDER BY rank LIMIT 1 OFFSET ?"), arguments: [position])
    }

    private func delete(_ id: UUID) throws {
        try db.cachedStatement(sql: "DELETE FROM item WHERE id = ?").execute(arguments: [id.uuidString])
    }
}
