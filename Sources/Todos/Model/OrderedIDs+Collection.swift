import Foundation

/// The ids in list order, indexed by position: `ids[0]` is the first.
extension OrderedIDs: RandomAccessCollection {
    /// The position of the first id: 0.
    public var startIndex: Int { 0 }

    /// The position after the last id: `count`.
    public var endIndex: Int { count }

    /// The id at `position`, which must be in `0..<count`; ``id(at:)``
    /// answers `nil` instead for any other position.
    ///
    /// - Complexity: O(log *n*): iterate with `for id in ids` rather than
    ///   by positions to visit every id.
    public subscript(position: Int) -> UUID {
        let location = _counts.locate(position)
        return _chunks[location.chunk].ids[location.offset]
    }

    /// Returns an iterator over the ids in list order.
    ///
    /// - Complexity: O(1); each step O(1).
    public func makeIterator() -> Iterator {
        Iterator(chunks: _chunks)
    }

    /// Visits the ids in list order, chunk by chunk.
    public struct Iterator: IteratorProtocol, Sendable {
        /// The chunks to visit.
        let chunks: [_Chunk]
        /// The index of the next chunk to visit.
        var nextChunk = 0
        /// The ids of the chunk being visited.
        var current: [UUID] = []
        /// The offset in `current` of the next id.
        var offset = 0

        init(chunks: [_Chunk]) {
            self.chunks = chunks
        }

        /// The next id, or `nil` after the last.
        public mutating func next() -> UUID? {
            while offset == current.count {
                guard nextChunk < chunks.count else { return nil }
                current = chunks[nextChunk].ids
                nextChunk += 1
                offset = 0
            }
            defer { offset += 1 }
            return current[offset]
        }
    }

    /// The results of `transform` on each id, in list order.
    ///
    /// - Complexity: O(*n*): it visits the chunks in turn, where the
    ///   collection's own `map` would find each position anew.
    public func map<T, E: Error>(_ transform: (UUID) throws(E) -> T) throws(E) -> [T] {
        var results: [T] = []
        results.reserveCapacity(count)
        for id in self { results.append(try transform(id)) }
        return results
    }

    /// The number of ids: `Sequence` algorithms reserve room with it.
    public var underestimatedCount: Int { count }

    /// Answers `contains(_:)` from the lookup by id, in O(1).
    public func _customContainsEquatableElement(_ element: UUID) -> Bool? {
        contains(element)
    }

    /// Answers `firstIndex(of:)` with ``position(of:)``, in O(log *n* + *b*).
    public func _customIndexOfEquatableElement(_ element: UUID) -> Int?? {
        .some(position(of: element))
    }

    /// Answers `lastIndex(of:)` with ``position(of:)``: an id is there once.
    public func _customLastIndexOfEquatableElement(_ element: UUID) -> Int?? {
        .some(position(of: element))
    }
}
