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
    /// How many times every item row of the list had been numbered again
    /// when it was read, for a store that counts it (PostgreSQL); `nil` for
    /// one that does not.
    package var renumberings: Int64?

    /// Which saved ranks a store reads to bring a list up to date.
    package enum RanksToRead: Equatable {
        /// None: no other writer wrote since.
        case none
        /// Every item row's.
        case all
        /// Those of the items the rows of other writers touched: no other
        /// item's rank moved, since the list was not numbered again.
        case touched(Set<UUID>)
    }

    /// The number of the row after which the log must be read to bring
    /// `known` up to `lastSeq`: its own latest row, or 0 (the whole log)
    /// when there is no `known` list or it is ahead of the saved one.
    package static func rowsToRead(after known: Self?, lastSeq: Int) -> Int {
        guard let known, known.open.seq <= lastSeq else { return 0 }
        return known.open.seq
    }

    /// Runs `body`, which appends one row, on the list. When it throws (a
    /// refusal leaves the list as it was), the list is kept in `refused`,
    /// for the store to hold again.
    package mutating func append(
        _ body: (inout OpenSharedList) throws -> SharedStep, keepingRefused refused: inout Self?
    ) throws -> SharedStep {
        do {
            return try body(&open)
        } catch {
            refused = self
            throw error
        }
    }

    /// Which item rows' ranks must be read too: all for a list read whole,
    /// or when another writer wrote rows and may have numbered the list
    /// again (always, for a store that does not count `renumberings`);
    /// else those of the items the other writers' rows touched.
    package static func ranksToRead(_ known: Self?, lastSeq: Int, rows: [SharedStep], renumberings: Int64?) -> RanksToRead {
        guard let known, rowsToRead(after: known, lastSeq: lastSeq) > 0 else { return .all }
        if rows.isEmpty { return .none }
        guard let renumberings, known.renumberings == renumberings else { return .all }
        return .touched(Set(rows.flatMap { $0.patch.entries.map(\.id) }))
    }

    /// `known` brought up to date with `rows`, those after
    /// ``rowsToRead(after:lastSeq:)``, or the list made from them when it is
    /// read whole; with the saved `ranks` when they were read (every
    /// row's, or those of the touched items, ``RanksToRead``).
    ///
    /// `known` is taken (left `nil`): the list is changed in place, not
    /// copied, when nothing else holds it.
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` naming `location` when
    ///   a row does not replay or the rows do not reach `lastSeq`.
    package static func loaded(
        _ id: UUID, name: String, access: ListAccess, lastSeq: Int, known: inout Self?, rows: [SharedStep],
        ranks: (read: RanksToRead, saved: [UUID: Double]), renumberings: Int64? = nil, coalescingWindow: TimeInterval,
        location: String
    ) throws -> Self {
        let keeps = rowsToRead(after: known, lastSeq: lastSeq) > 0
        var cached =
            if keeps, let known = known.take() {
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
        switch ranks.read {
        case .none: break
        case .all: cached.ranks = ItemRanks(ranks: ranks.saved)
        case .touched(let touched): cached.ranks.adopt(ranks.saved, touched: touched)
        }
        cached.renumberings = renumberings
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
