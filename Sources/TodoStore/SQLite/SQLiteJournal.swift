import Foundation
import GRDB
import Rewind
import Todos

/// Writes each store operation into the SQLite database, inside the
/// transaction that ``SQLiteStore`` opened for it: the rows of the items the
/// operation touched, the history steps it recorded, undid, redid or dropped,
/// and the position. One change writes O(1) rows.
///
/// The statements of every change are cached statements: SQLite compiles
/// them once per connection instead of once per commit, which was about half
/// the CPU time of a commit (Benchmarks, "SQLiteStore: commit one change").
///
/// Only ever used on the database queue, inside a write transaction.
final class SQLiteJournal: StoreJournal, @unchecked Sendable {
    /// The open write transaction's connection; set by ``SQLiteStore`` for
    /// the length of one operation.
    var db: Database?
    /// The rank of every item, as saved.
    private(set) var ranks: [UUID: Double]
    /// The `seq` of the oldest saved step; steps are numbered without gaps.
    private(set) var firstSeq: Int64
    private let path: String
    private let encoder = TodoJSON.makeEncoder()

    init(snapshot: TodoDatabase.Snapshot, firstSeq: Int64, path: String) {
        ranks = snapshot.ranks
        self.firstSeq = firstSeq
        self.path = path
    }

    /// Takes the ranks and numbering of a freshly loaded database.
    func reset(to snapshot: TodoDatabase.Snapshot, firstSeq: Int64) {
        ranks = snapshot.ranks
        self.firstSeq = firstSeq
    }

    func write(_ entry: JournalEntry, state: AppState) throws {
        guard let db else {
            throw StoreError.io(path: path, detail: "a change was made outside a transaction")
        }
        if entry.operation == .reset {
            try db.execute(sql: "DELETE FROM step")
            firstSeq = 1
        }
        try writeItems(touched: entry.touchedItemIDs, state: state, db)
        for event in entry.events {
            try write(event, db)
        }
        try db.cachedStatement(sql: "UPDATE meta SET value = ? WHERE key = 'position'").execute(arguments: [entry.position])
    }

    // MARK: Items

    /// Writes the rows of the `touched` items (all of them when `nil`) and
    /// deletes the rows of those no longer in the list.
    ///
    /// A kept item keeps its rank while it still lies between its
    /// neighbours'; an item placed anew gets a rank between them; a run of
    /// new neighbours shares the room between the ranks around the run.
    /// When a double has no room left, the whole list is renumbered.
    ///
    /// - Complexity: O(*k* log *k*) for *k* touched items, plus O(*n*) for a
    ///   list of *n* items when more than a few are touched (their positions
    ///   are found in one pass) or the list is renumbered.
    private func writeItems(touched: Set<UUID>?, state: AppState, _ db: Database) throws {
        guard let touched else { return try rewriteAllItems(state, db) }
        let list = state.todos
        var present: [(position: Int, id: UUID)] = []
        present.reserveCapacity(touched.count)
        for (id, position) in Self.positions(of: touched, in: list) {
            if let position {
                present.append((position, id))
            } else if ranks.removeValue(forKey: id) != nil {
                try db.cachedStatement(sql: "DELETE FROM item WHERE id = ?").execute(arguments: [id.uuidString])
            }
        }
        present.sort { $0.position < $1.position }
        // For each touched item, the rank of the first untouched item after
        // it and how many touched items up to that one, found backwards in one
        // pass: a run of touched neighbours shares the room before that rank.
        var right = [Double?](repeating: nil, count: present.count)
        var runLeft = [Int](repeating: 1, count: present.count)
        for index in present.indices.reversed() {
            let next = present[index].position + 1
            if index + 1 < present.count, present[index + 1].position == next {
                right[index] = right[index + 1]
                runLeft[index] = runLeft[index + 1] + 1
            } else if let item = list.item(at: next) {
                guard let rank = ranks[item.id] else { return try rewriteAllItems(state, db) }
                right[index] = rank
            }
        }
        for (index, (position, id)) in present.enumerated() {
            let left = position > 0 ? list.item(at: position - 1).flatMap { ranks[$0.id] } : nil
            if position > 0 && left == nil { return try rewriteAllItems(state, db) }
            let rank: Double
            if let old = ranks[id], left.map({ $0 < old }) ?? true, right[index].map({ old < $0 }) ?? true {
                rank = old
            } else if let new = Self.rank(between: left, and: right[index], leaving: runLeft[index] - 1) {
                rank = new
            } else {
                return try rewriteAllItems(state, db)
            }
            guard let item = list[id: id] else { continue }
            try upsert(item, rank: rank, db)
        }
    }

    /// The positions of the `ids` in `list`, `nil` for an id not in it.
    ///
    /// - Complexity: O(*k*) lookups from the end of the list for a few ids,
    ///   one O(*n*) pass over the list for more.
    private static func positions(of ids: Set<UUID>, in list: TodoList) -> [(UUID, Int?)] {
        guard ids.count > 8 else { return ids.map { ($0, list.position(of: $0)) } }
        var found: [UUID: Int] = [:]
        found.reserveCapacity(ids.count)
        for (position, id) in list.ids.enumerated() where ids.contains(id) { found[id] = position }
        return ids.map { ($0, found[$0]) }
    }

    /// A rank strictly between two neighbours' that leaves room for
    /// `following` more ranks after it before `right`: a run of new items
    /// is spaced evenly instead of each halving what the previous one left.
    /// `nil` when a double has no room left (the whole list is renumbered).
    static func rank(between left: Double?, and right: Double?, leaving following: Int) -> Double? {
        guard following > 0 else { return rank(between: left, and: right) }
        let rank: Double
        switch (left, right) {
        case (nil, nil): rank = 0
        case (let left?, nil): rank = (left + 1).rounded(.down)
        case (nil, let right?): rank = (right - Double(following) - 1).rounded(.down)
        case (let left?, let right?): rank = left + (right - left) / Double(following + 2)
        }
        return (left.map { $0 < rank } ?? true) && (right.map { rank < $0 } ?? true) ? rank : nil
    }

    /// A rank strictly between two neighbours', or `nil` when a double has no
    /// room left between them (then the whole list is renumbered).
    static func rank(between left: Double?, and right: Double?) -> Double? {
        switch (left, right) {
        case (nil, nil): return 0
        case (let left?, nil): return (left + 1).rounded(.down)
        case (nil, let right?): return (right - 1).rounded(.up)
        case (let left?, let right?):
            let middle = left + (right - left) / 2
            return left < middle && middle < right ? middle : nil
        }
    }

    private func rewriteAllItems(_ state: AppState, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM item")
        ranks.removeAll(keepingCapacity: true)
        for (position, item) in state.todos.items.enumerated() {
            try upsert(item, rank: Double(position), db)
        }
    }

    private func upsert(_ item: TodoItem, rank: Double, _ db: Database) throws {
        let body = String(decoding: try encoder.encode(item), as: UTF8.self)
        try db.cachedStatement(
            sql: "INSERT INTO item (id, rank, body) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET rank = excluded.rank, body = excluded.body"
        ).execute(arguments: [item.id.uuidString, rank, body])
        ranks[item.id] = rank
    }

    // MARK: Steps

    private func write(_ event: HistoryEvent<AppState.Change>, _ db: Database) throws {
        switch event {
        case .performed(let step, let index, let coalesced, _):
            let seq = firstSeq + Int64(index)
            if coalesced {
                try updateChanges(of: step, seq: seq, db)
            } else {
                try db.cachedStatement(sql: "DELETE FROM step WHERE seq >= ?").execute(arguments: [seq])
                try db.cachedStatement(
                    sql: "INSERT INTO step (seq, name, date, lastChangeDate, coalescingKey, changes) VALUES (?, ?, ?, ?, ?, ?)"
                ).execute(arguments: [
                    seq, step.name, step.date.timeIntervalSinceReferenceDate,
                    step.lastChangeDate.timeIntervalSinceReferenceDate, step.coalescingKey,
                    try encode(step.changes),
                ])
            }
        case .undone(let step, let index), .redone(let step, let index):
            try updateChanges(of: step, seq: firstSeq + Int64(index), db)
        case .trimmed(let count):
            try db.execute(sql: "DELETE FROM step WHERE seq < ?", arguments: [firstSeq + Int64(count)])
            firstSeq += Int64(count)
        case .jumped:
            break
        }
    }

    private func updateChanges(of step: HistoryStep<AppState.Change>, seq: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE step SET changes = ?, lastChangeDate = ? WHERE seq = ?").execute(
            arguments: [try encode(step.changes), step.lastChangeDate.timeIntervalSinceReferenceDate, seq])
        guard db.changesCount == 1 else {
            throw StoreError.corrupt(path: path, detail: "history step \(seq) is missing")
        }
    }

    private func encode(_ changes: [AppState.Change]) throws -> String {
        String(decoding: try encoder.encode(changes), as: UTF8.self)
    }
}
