import Foundation
import GRDB
import Todos

/// Keeps the `item` rows equal to the list in memory: after an operation it
/// writes the rows of the items the operation touched, and deletes the rows
/// of those no longer in the list. One change writes O(1) rows.
///
/// A kept item keeps its rank while it still lies between its neighbours';
/// an item placed anew gets a rank between them; a run of new neighbours
/// shares the room between the ranks around the run. When a double has no
/// room left, the whole list is renumbered.
struct ItemRows {
    /// The rank of every item, as saved.
    var ranks: [UUID: Double]
    private let encoder = TodoJSON.makeEncoder()

    init(ranks: [UUID: Double]) {
        self.ranks = ranks
    }

    /// Writes the rows of the `touched` items (all of them when `nil`).
    ///
    /// - Complexity: O(*k* log *k*) for *k* touched items, plus O(*n*) for a
    ///   list of *n* items when more than a few are touched (their positions
    ///   are found in one pass) or the list is renumbered.
    mutating func write(touched: Set<UUID>?, list: TodoList, _ db: Database) throws {
        guard let touched else { return try rewriteAll(list, db) }
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
                guard let rank = ranks[item.id] else { return try rewriteAll(list, db) }
                right[index] = rank
            }
        }
        for (index, (position, id)) in present.enumerated() {
            let left = position > 0 ? list.item(at: position - 1).flatMap { ranks[$0.id] } : nil
            if position > 0 && left == nil { return try rewriteAll(list, db) }
            let rank: Double
            if let old = ranks[id], left.map({ $0 < old }) ?? true, right[index].map({ old < $0 }) ?? true {
                rank = old
            } else if let new = Self.rank(between: left, and: right[index], leaving: runLeft[index] - 1) {
                rank = new
            } else {
                return try rewriteAll(list, db)
            }
            guard let item = list[id: id] else { continue }
            try upsert(item, rank: rank, db)
        }
    }

    /// Deletes every row and writes the whole list again, ranked 0, 1, 2, …
    mutating func rewriteAll(_ list: TodoList, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM item")
        ranks.removeAll(keepingCapacity: true)
        for (position, item) in list.items.enumerated() {
            try upsert(item, rank: Double(position), db)
        }
    }

    /// The positions of the `ids` in `list`, `nil` for an id not in it.
    ///
    /// - Complexity: O(*k*) lookups for a few ids, one O(*n*) pass over the
    ///   list for more.
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

    /// Writes the row of `item`: an `UPDATE` when it has one (its rank is
    /// known), else an `INSERT`. (GRDB's `upsert` asks for the row back,
    /// a tenth of the CPU of a `POST /api/todos`.)
    private mutating func upsert(_ item: TodoItem, rank: Double, _ db: Database) throws {
        let record = try ItemRecord(item, rank: rank, encoder: encoder)
        if ranks.updateValue(rank, forKey: item.id) == nil {
            try record.insertRow(db)
        } else {
            try record.updateRow(db)
        }
    }
}
