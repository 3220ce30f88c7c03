import Foundation
import GRDB
import Todos

/// Keeps the `item` rows equal to the list in memory: after an operation it
/// writes the rows that ``ItemRanks`` plans for the items the operation
/// touched, and deletes the rows of those no longer in the list. One change
/// writes O(1) rows.
struct ItemRows {
    /// Where each saved row lies, and the plan of what to write.
    private var ranks: ItemRanks
    private let encoder = TodoJSON.makeEncoder()
    /// How many times every row was numbered again, as `meta` counts them
    /// (this store's renumberings included).
    private(set) var renumberings: Int64

    init(ranks: [UUID: Double], renumberings: Int64) {
        self.ranks = ItemRanks(ranks: ranks)
        self.renumberings = renumberings
    }

    /// Takes the ranks another process saved for the `touched` items:
    /// `saved` holds those still in the list.
    mutating func adopt(_ saved: [UUID: Double], touched: Set<UUID>) {
        ranks.adopt(saved, touched: touched)
    }

    /// Writes the rows of the `touched` items (all of them when `nil`).
    ///
    /// - Complexity: That of ``ItemRanks/writes(touched:list:)``, plus one
    ///   statement per row written or deleted.
    mutating func write(touched: Set<UUID>?, list: TodoList, _ db: Database) throws {
        let writes = ranks.writes(touched: touched, list: list)
        if writes.replacesAll {
            try db.execute(sql: "DELETE FROM item")
            // Counted, so that other processes read every rank again.
            try TodoDatabase.countOnce(.renumberings, db)
            renumberings += 1
        }
        for id in writes.deletions {
            try db.cachedStatement(sql: "DELETE FROM item WHERE id = ?").execute(arguments: [id.uuidString])
        }
        for row in writes.rows {
            // An `UPDATE` when the item has a row, else an `INSERT`. (GRDB's
            // `upsert` asks for the row back, a tenth of the CPU of a
            // `POST /api/todos`.)
            let record = try ItemRecord(row.item, rank: row.rank, encoder: encoder)
            if row.isNew {
                try record.insertRow(db)
            } else {
                try record.updateRow(db)
            }
        }
    }
}
