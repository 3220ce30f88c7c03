import Foundation
import Todos

/// A shared list a process has read from a database, and the ranks of its
/// item rows: what the SQLite and PostgreSQL stores keep between calls, and
/// bring up to date from the log rows other processes appended since.
package struct CachedSharedList: Sendable {
    /// The list, its log and stacks.
    package var open: OpenSharedList
    /// The ranks of its item rows.
    package var ranks: ItemRanks

    /// The number of the row after which the log must be read to bring
    /// `known` up to `lastSeq`: its own latest row, or 0 (the whole log)
    /// when there is no `known` list or it is ahead of the saved one.
    package static func rowsToRead(after known: Self?, lastSeq: Int) -> Int {
        guard let known, known.open.seq <= lastSeq else { return 0 }
        return known.open.seq
    }

    /// Whether the item rows' ranks must be read too: for a list read
    /// whole, or when another process wrote rows (it may have numbered the
    /// list again).
    package static func needsRanks(_ known: Self?, lastSeq: Int, rows: [SharedStep]) -> Bool {
        rowsToRead(after: known, lastSeq: lastSeq) == 0 || !rows.isEmpty
    }

    /// `known` brought up to date with `rows`, those after
    /// ``rowsToRead(after:lastSeq:)``, or the list made from them when it is
    /// read whole; with the saved `ranks` when they were read.
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` naming `location` when
    ///   a row does not replay or the rows do not reach `lastSeq`.
    package static func loaded(
        _ id: UUID, name: String, access: ListAccess, lastSeq: Int, known: Self?, rows: [SharedStep], ranks: [UUID: Double]?,
        coalescingWindow: TimeInterval, location: String
    ) throws -> Self {
        var cached =
            if let known, rowsToRead(after: known, lastSeq: lastSeq) > 0 {
                known
            } else {
                CachedSharedList(
                    open: OpenSharedList(id: id, name: name, access: access, shared: SharedList(coalescingWindow: coalescingWindow)),
                    ranks: ItemRanks())
            }
        for step in rows {
            do {
                try cached.open.shared.replay(step)
            } catch {
                throw StoreError.corrupt(path: location, detail: "row \(step.seq) of shared list \(id) does not replay: \(error)")
            }
        }
        guard cached.open.seq == lastSeq else {
            throw StoreError.corrupt(
                path: location, detail: "shared list \(id) has \(cached.open.seq) log rows but names row \(lastSeq) its latest")
        }
        if let ranks { cached.ranks = ItemRanks(ranks: ranks) }
        cached.open.name = name
        cached.open.access = access
        return cached
    }
}

extension AccountName {
    /// The owner or member name `text` as a store read it back from the
    /// database at `location`.
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` when it breaks the rules.
    package static func saved(_ text: String, in location: String) throws -> AccountName {
        do {
            return try AccountName(text)
        } catch {
            throw StoreError.corrupt(path: location, detail: "the account “\(text)” of a shared list has a name against the rules: \(error)")
        }
    }
}
