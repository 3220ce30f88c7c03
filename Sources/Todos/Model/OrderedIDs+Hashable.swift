import Foundation

/// Two sequences of ids are equal when they hold the same ids in the same
/// order, however their chunks are cut.
extension OrderedIDs: Equatable {
    /// Whether `lhs` and `rhs` hold the same ids in the same order.
    ///
    /// - Complexity: O(*n*); O(*n* / *b*) for the chunks that a copy and
    ///   its original still share.
    public static func == (lhs: OrderedIDs, rhs: OrderedIDs) -> Bool {
        guard lhs.count == rhs.count else { return false }
        let sameCuts = lhs._chunks.count == rhs._chunks.count
            && zip(lhs._chunks, rhs._chunks).allSatisfy { $0.ids.count == $1.ids.count }
        if sameCuts {
            // Array equality answers at once for chunks that share storage.
            return zip(lhs._chunks, rhs._chunks).allSatisfy { $0.ids == $1.ids }
        }
        return lhs.elementsEqual(rhs)
    }
}

/// Hashes the ids in order, as equality compares them.
extension OrderedIDs: Hashable {
    /// Feeds the count and the ids in list order to `hasher`.
    ///
    /// - Complexity: O(*n*).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for id in self { hasher.combine(id) }
    }
}
