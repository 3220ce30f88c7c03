import Foundation
import Todos

/// The ranks that order the item rows of a database (SQLite's `item`,
/// PostgreSQL's `rewind_item`), and what an operation must write to keep the
/// rows equal to the list in memory: the rows of the items it touched, placed
/// between their neighbours' ranks, and the deletions of those no longer in
/// the list. One change writes O(1) rows. Each store carries out the plan in
/// its own SQL.
///
/// A kept item keeps its rank while it still lies between its neighbours';
/// an item placed anew gets a rank between them, a run of new neighbours
/// sharing the room evenly; when a double has no room left, the whole list
/// is numbered again.
package struct ItemRanks: Sendable {
    /// What to write.
    package struct Writes {
        /// Rows to insert or update, with their ranks; `isNew` when the item
        /// had no row (or every row is deleted first).
        package var rows: [(item: TodoItem, rank: Double, isNew: Bool)] = []
        /// Rows to delete.
        package var deletions: [UUID] = []
        /// Whether every row is deleted first (the list numbered again).
        package var replacesAll = false
    }

    /// The rank of every item, as saved.
    package private(set) var ranks: [UUID: Double]

    /// Plans for rows saved with `ranks`.
    package init(ranks: [UUID: Double] = [:]) {
        self.ranks = ranks
    }

    /// Takes the ranks another writer saved for `touched` items: `saved`
    /// holds those still in the list; the others are gone.
    package mutating func adopt(_ saved: [UUID: Double], touched: Set<UUID>) {
        for id in touched { ranks[id] = saved[id] }
    }

    /// The writes that make the rows of the `touched` items (all of them
    /// when `nil`) match `list`, the ranks updated as if they were done.
    ///
    /// - Complexity: O(*k* log *n*) for *k* touched items of a list of *n*
    ///   items, at most O(*n*); O(*n*) when the list is numbered again.
    package mutating func writes(touched: Set<UUID>?, list: TodoList) -> Writes {
        guard let touched else { return renumbered(list) }
        var writes = Writes()
        var present: [(position: Int, id: UUID)] = []
        present.reserveCapacity(touched.count)
        for (id, position) in Self.positions(of: touched, in: list) {
            if let position {
                present.append((position, id))
            } else if ranks.removeValue(forKey: id) != nil {
                writes.deletions.append(id)
            }
        }
        present.sort { $0.position < $1.position }
        // For each touched item, the rank of the first untouched item after
        // it and how many touched items up to that one, found backwards in
        // one pass: a run of touched neighbours shares the room before it.
        var right = [Double?](repeating: nil, count: present.count)
        var runLeft = [Int](repeating: 1, count: present.count)
        for index in present.indices.reversed() {
            let next = present[index].position + 1
            if index + 1 < present.count, present[index + 1].position == next {
                right[index] = right[index + 1]
                runLeft[index] = runLeft[index + 1] + 1
            } else if let item = list.item(at: next) {
                guard let rank = ranks[item.id] else { return renumbered(list) }
                right[index] = rank
            }
        }
        // Ranks change in place (a list's worth of ranks is not copied per
        // change); numbering again below replaces them all anyway.
        for (index, (position, id)) in present.enumerated() {
            let left = position > 0 ? list.item(at: position - 1).flatMap { ranks[$0.id] } : nil
            if position > 0 && left == nil { return renumbered(list) }
            let rank: Double
            if let old = ranks[id], left.map({ $0 < old }) ?? true, right[index].map({ old < $0 }) ?? true {
                rank = old
            } else if let new = Self.rank(between: left, and: right[index], leaving: runLeft[index] - 1) {
                rank = new
            } else {
                return renumbered(list)
            }
            guard let item = list[id: id] else { continue }
            let isNew = ranks.updateValue(rank, forKey: id) == nil
            writes.rows.append((item, rank, isNew))
        }
        return writes
    }

    /// Every row written again, ranked 0, 1, 2, …
    package mutating func renumbered(_ list: TodoList) -> Writes {
        ranks.removeAll(keepingCapacity: true)
        var writes = Writes(replacesAll: true)
        writes.rows.reserveCapacity(list.count)
        for (position, item) in list.items.enumerated() {
            ranks[item.id] = Double(position)
            writes.rows.append((item, Double(position), true))
        }
        return writes
    }

    /// The positions of the `ids` in `list`, `nil` for an id not in it: a
    /// lookup of O(log *n*) for each, or one pass over the list when that
    /// costs less (more than about *n* / log *n* ids).
    private static func positions(of ids: Set<UUID>, in list: TodoList) -> [(UUID, Int?)] {
        let logarithm = Int.bitWidth - list.count.leadingZeroBitCount
        guard ids.count * logarithm >= list.count else { return ids.map { ($0, list.position(of: $0)) } }
        var found: [UUID: Int] = [:]
        found.reserveCapacity(ids.count)
        for (position, id) in list.ids.enumerated() where ids.contains(id) { found[id] = position }
        return ids.map { ($0, found[$0]) }
    }

    /// A rank strictly between two neighbours' that leaves room for
    /// `following` more ranks after it before `right`; `nil` when a double
    /// has no room left.
    package static func rank(between left: Double?, and right: Double?, leaving following: Int = 0) -> Double? {
        let rank: Double
        switch (left, right) {
        case (nil, nil): rank = 0
        case (let left?, nil): rank = (left + 1).rounded(.down)
        case (nil, let right?): rank = (right - Double(following) - 1).rounded(following > 0 ? .down : .up)
        case (let left?, let right?): rank = left + (right - left) / Double(following + 2)
        }
        return (left.map { $0 < rank } ?? true) && (right.map { rank < $0 } ?? true) ? rank : nil
    }
}
