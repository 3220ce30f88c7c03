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

    private func writeItems(touched: Set<UUID>?, state: AppState, _ db: Database) throws {
        guard let touched else { return try rewriteAllItems(state, db) }
        let list = state.todos
        var present: [(position: Int, id: UUID)] = []
        for id in touched {
            if let position = list.position(of: id) {
                present.append((position, id))
            } else if ranks.removeValue(forKey: id) != nil {
                try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [id.uuidString])
            }
        }
        present.sort { $0.position < $1.position }
        var waiting = Set(present.map(\.id))
        for (position, id) in present {
            waiting.remove(id)
            let left = position > 0 ? list.item(at: position - 1).flatMap { ranks[$0.id] } : nil
            if position > 0 && left == nil { return try rewriteAllItems(state, db) }
            var right: Double?
            var next = position + 1
            while let item = list.item(at: next) {
                if !waiting.contains(item.id) {
                    right = ranks[item.id]
                    if right == nil { return try rewriteAllItems(state, db) }
                    break
                }
                next += 1
            }
            let rank: Double
            if let old = ranks[id], left.map({ $0 < old }) ?? true, right.map({ old < $0 }) ?? true {
                rank = old
            } else if let between = Self.rank(between: left, and: right) {
                rank = between
            } else {
                return try rewriteAllItems(state, db)
            }
            guard let item = list[id: id] else { continue }
            try upsert(item, rank: rank, db)
        }
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
