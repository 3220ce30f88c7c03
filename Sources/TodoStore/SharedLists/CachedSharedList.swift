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

    /// What it weighs in a store's cache: its items and the rows it holds.
    package var weight: Int { open.weight }

    /// How many of the newest log rows a store keeps in memory after an
    /// operation (``SharedList/forgetRows(keepingNewest:)``), besides those
    /// each person's next undo and redo read; others are read again when
    /// asked for.
    package static let rowsKept = 200

    /// This list holding only its newest ``rowsKept`` rows: what a store
    /// puts back in its cache after a read that held more (a page of
    /// history), so that what it keeps follows the items, not the log.
    package func keepingNewestRows() -> Self {
        var kept = self
        kept.open.shared.forgetRows(keepingNewest: Self.rowsKept)
        return kept
    }

    /// The number of the row after which the log must be read to bring
    /// `known` up to `lastSeq`: its own latest row, or 0 (the list opened
    /// afresh, ``opened(_:name:access:lastSeq:items:heads:writers:of:ranks:renumberings:coalescingWindow:location:)``)
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

    /// ``append(_:keepingRefused:)``, handing over the rows `body` asks for
    /// (``SharingError/rowsNotHeld(_:)``), which `read` reads, and the
    /// latest writers of the items it asks for
    /// (``SharingError/writersNotHeld(_:)``), which `readWriters` reads,
    /// until it runs.
    package mutating func append(
        _ body: (inout OpenSharedList) throws -> SharedStep, keepingRefused refused: inout Self?,
        reading read: ([Int]) throws -> [SharedStep],
        readingWriters readWriters: ([UUID]) throws -> [ItemPartKey: (seq: Int, author: String)], location: String
    ) throws -> SharedStep {
        var requests = RowRequests()
        while true {
            do {
                return try append(body, keepingRefused: &refused)
            } catch {
                switch try requests.asked(after: error, of: open.id, location: location) {
                case .rows(let rows)?: open.shared.hold(try read(rows))
                case .writers(let items)?: open.shared.hold(writers: try readWriters(items), of: items)
                case nil: throw error
                }
            }
        }
    }

    /// Which latest writers a store reads to open a list of `items` items
    /// and `lastSeq` log rows: those of the listed items when the list holds
    /// fewer items than half its rows (most of its writers are then of items
    /// removed since: a list used for years), else every item's (reading
    /// them all in order costs less than finding each listed item's).
    package static func writersToOpen(items: Int, lastSeq: Int) -> SharedList.WritersOpened {
        items * 2 < lastSeq ? .ofListedItems : .ofEveryItem
    }

    /// A list opened afresh from what the store saved of it: its `items`
    /// in order, the `heads` of its log rows (first row first), the latest
    /// writer of each part (of every item, or of the listed items only, as
    /// `writersOf` says: ``writersToOpen(items:lastSeq:)``), and the ranks of
    /// every item row. No row's changes are read: the rows an operation
    /// needs, and the writers of removed items an undo looks at, are read
    /// when it asks for them (``SharingError/rowsNotHeld(_:)``,
    /// ``SharingError/writersNotHeld(_:)``).
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` naming `location` when
    ///   the heads are not numbered 1 to `lastSeq`.
    package static func opened(
        _ id: UUID, name: String, access: ListAccess, lastSeq: Int, items: TodoList, heads: [SharedStep.Head],
        writers: [ItemPartKey: (seq: Int, author: String)], of writersOf: SharedList.WritersOpened, ranks: [UUID: Double],
        renumberings: Int64? = nil, coalescingWindow: TimeInterval, location: String
    ) throws -> Self {
        let shared: SharedList
        do {
            shared = try SharedList(
                opening: items, heads: heads, writers: writers, of: writersOf, coalescingWindow: coalescingWindow)
        } catch {
            throw StoreError.corrupt(path: location, detail: "the log rows of shared list \(id) are not numbered in turn: \(error)")
        }
        guard shared.seq == lastSeq else {
            throw StoreError.corrupt(
                path: location, detail: "shared list \(id) has \(shared.seq) log rows but names row \(lastSeq) its latest")
        }
        return CachedSharedList(
            open: OpenSharedList(id: id, name: name, access: access, shared: shared), ranks: ItemRanks(ranks: ranks),
            renumberings: renumberings)
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
