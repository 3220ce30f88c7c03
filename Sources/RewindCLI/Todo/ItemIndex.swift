import Foundation
import TodoStore

/// What finds items by their ids for references: SQLite's index of its rows
/// (``ItemIDs``), or the ids of a list in memory (``SortedItemIDs``). Ids
/// are ordered by their canonical text (upper-case hex digits).
protocol ItemIndex {
    /// Whether an item has the id `id`.
    func contains(_ id: UUID) throws -> Bool
    /// The ids that start with `hexDigits` (hex digits only, either case),
    /// in order, at most `limit`.
    func ids(startingWith hexDigits: String, limit: Int) throws -> [UUID]
    /// Every id, in order.
    func all() throws -> [UUID]
    /// The ids just before and just after `id` (which need not be an item's).
    func neighbours(of id: UUID) throws -> (before: UUID?, after: UUID?)
}

extension ItemIDs: ItemIndex {}

/// The ids of a list in memory, sorted once: each search is a binary search.
struct SortedItemIDs: ItemIndex {
    /// The ids' hex digits (upper case, no hyphens) and the ids, in that order.
    private let sorted: [(digits: String, id: UUID)]

    /// The index of `ids`.
    ///
    /// - Complexity: O(*n* log *n*) for *n* ids.
    init<IDs: Sequence<UUID>>(_ ids: IDs) {
        sorted = ids.map { (Self.digits($0), $0) }.sorted { $0.digits < $1.digits }
    }

    private static func digits(_ id: UUID) -> String {
        id.uuidString.uppercased().replacingOccurrences(of: "-", with: "")
    }

    /// The position of the first id whose digits are not below `digits`.
    private func lowerBound(_ digits: String) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle].digits < digits { low = middle + 1 } else { high = middle }
        }
        return low
    }

    func contains(_ id: UUID) -> Bool {
        let digits = Self.digits(id)
        let position = lowerBound(digits)
        return position < sorted.count && sorted[position].digits == digits
    }

    func ids(startingWith hexDigits: String, limit: Int) -> [UUID] {
        let prefix = hexDigits.uppercased()
        guard prefix.allSatisfy(\.isHexDigit) else { return [] }
        return sorted[lowerBound(prefix)...].prefix { $0.digits.hasPrefix(prefix) }.prefix(limit).map(\.id)
    }

    func all() -> [UUID] {
        sorted.map(\.id)
    }

    func neighbours(of id: UUID) -> (before: UUID?, after: UUID?) {
        let digits = Self.digits(id)
        let position = lowerBound(digits)
        let after = position < sorted.count && sorted[position].digits == digits ? position + 1 : position
        return (position > 0 ? sorted[position - 1].id : nil, after < sorted.count ? sorted[after].id : nil)
    }
}
