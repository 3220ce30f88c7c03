import Foundation

/// The shared lists a store keeps in memory between calls, up to about
/// ``rowLimit`` items in all, counting the items on the lists and those
/// that the log rows held touched (``OpenSharedList/weight``,
/// ``SharedStep/weight``): when a list put back takes the cache over that,
/// the lists used longest ago are let go, and read again (their items, and
/// each row's head) when next asked for. The list put back last is kept
/// whatever its size.
///
/// A list held costs about 1 KB of memory per item, and a log row held
/// (a step with its changes and patch; the stores hold the newest ones and
/// those asked for) about 1 to 2 KB per item it touched: without a bound, a
/// server that many lists pass through would keep every one of them for as
/// long as it runs, and a row counted as one would let a list emptied by
/// one step over many items weigh nothing.
package struct SharedListCache: Sendable {
    private struct Entry: Sendable {
        var cached: CachedSharedList
        var lastUse: UInt64
    }

    private var entries: [UUID: Entry] = [:]
    private var uses: UInt64 = 0
    /// What the lists held weigh: their items and the items their rows touched.
    package private(set) var rows = 0
    /// What the lists held may weigh in all, about.
    package let rowLimit: Int

    /// An empty cache that holds up to about `rowLimit` items, on the lists
    /// and in their rows (the stores' default, 100,000, is at most about 200 MB).
    package init(rowLimit: Int) {
        self.rowLimit = max(rowLimit, 0)
    }

    /// The ids of the lists held, in no order.
    package var keys: [UUID] { Array(entries.keys) }

    /// The list `id` as held, or `nil`; setting it puts it back as the one
    /// used last (letting go of others beyond the bound), `nil` lets it go.
    package subscript(id: UUID) -> CachedSharedList? {
        get { entries[id]?.cached }
        set {
            if let old = entries.removeValue(forKey: id) { rows -= old.cached.weight }
            guard let newValue else { return }
            uses += 1
            entries[id] = Entry(cached: newValue, lastUse: uses)
            rows += newValue.weight
            trim(keeping: id)
        }
    }

    /// Takes the list `id` out (so that it changes in place, nothing else
    /// holding it), or `nil` when it is not held.
    package mutating func removeValue(forKey id: UUID) -> CachedSharedList? {
        guard let entry = entries.removeValue(forKey: id) else { return nil }
        rows -= entry.cached.weight
        return entry.cached
    }

    /// Lets go of the lists used longest ago, but `kept`, while the items
    /// and rows held are over the bound.
    private mutating func trim(keeping kept: UUID) {
        guard rows > rowLimit else { return }
        let oldestFirst = entries.filter { $0.key != kept }.sorted { $0.value.lastUse < $1.value.lastUse }
        for (id, entry) in oldestFirst {
            guard rows > rowLimit else { return }
            entries[id] = nil
            rows -= entry.cached.weight
        }
    }
}
