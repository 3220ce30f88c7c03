import Foundation

/// The ids of a list's items in list order, each at most once, with the
/// position of an id and the id at a position found in O(log *n*).
///
/// ```swift
/// let ids = list.ids
/// ids.position(of: milk.id)   // 2
/// ids.id(at: 2)               // milk.id
/// for id in ids { … }         // list order
/// ```
///
/// A plain array of ids makes every insertion, removal and position lookup
/// in the middle of a long list cost O(*n*); here the ids live in chunks of
/// at most a few hundred, each id knows its chunk, and the chunks' counts
/// are summed by prefixes. Inserting or removing an id touches one chunk.
///
/// It is a value: copies share their chunks until one of them changes, and
/// a change then copies the chunk array and the one chunk it touches.
/// Two values are equal when they hold the same ids in the same order,
/// however their chunks are cut.
///
/// - Complexity: `position(of:)`, `id(at:)`, the subscript, inserting and
///   removing an id: O(log *n* + *b*) for chunks of at most *b* = 512 ids;
///   a chunk that fills up is split, and one that empties or shrinks to a
///   quarter is merged with a neighbour, at a cost of O(*n* / *b* + *b*)
///   once in many changes of that chunk. `count` and `contains(_:)`: O(1).
public struct OrderedIDs: Sendable {
    /// The ids in list order, cut into chunks of at most `_chunkCapacity`;
    /// no chunk is empty.
    var _chunks: [_Chunk]
    /// The number of ids of each chunk of `_chunks`, summed by prefixes.
    var _counts: _ChunkCounts
    /// The number of the chunk that holds each id.
    var _chunkNumbers: [UUID: Int]
    /// Where the chunk with each number is in `_chunks`; -1 for a number
    /// that no chunk has. Numbers stay with a chunk while chunks before it
    /// come and go, so that a split rewrites only the ids that move.
    var _chunkIndices: [Int]
    /// Numbers that no chunk has, for the next new chunks.
    var _freeNumbers: [Int]
    /// The most ids a chunk holds.
    let _chunkCapacity: Int

    /// Creates an empty sequence of ids.
    public init() {
        self.init(chunkCapacity: 512)
    }

    /// An empty sequence whose chunks hold at most `chunkCapacity` ids (at
    /// least 4): small chunks let tests split and merge them often.
    init(chunkCapacity: Int) {
        _chunks = []
        _counts = _ChunkCounts([])
        _chunkNumbers = [:]
        _chunkIndices = []
        _freeNumbers = []
        _chunkCapacity = Swift.max(4, chunkCapacity)
    }

    /// The number of ids.
    ///
    /// - Complexity: O(1).
    public var count: Int { _chunkNumbers.count }

    /// Whether `id` is one of the ids.
    ///
    /// - Complexity: O(1).
    public func contains(_ id: UUID) -> Bool {
        _chunkNumbers[id] != nil
    }

    /// The position of `id` in list order, from 0, or `nil` when it is not
    /// one of the ids.
    ///
    /// - Complexity: O(log *n* + *b*).
    public func position(of id: UUID) -> Int? {
        guard let location = _location(of: id) else { return nil }
        return _counts.start(of: location.chunk) + location.offset
    }

    /// The id at `position` in list order, or `nil` when `position` is not
    /// in `0..<count`.
    ///
    /// - Complexity: O(log *n*).
    public func id(at position: Int) -> UUID? {
        guard (0..<count).contains(position) else { return nil }
        return self[position]
    }
}

/// A run of consecutive ids and the number that the ids' lookup knows it by.
struct _Chunk: Sendable {
    /// The chunk's number in `_chunkNumbers`, unique among the chunks.
    var number: Int
    /// The ids, in list order.
    var ids: [UUID]
}

// MARK: - Changes

extension OrderedIDs {
    /// Reserves room for `capacity` ids in the lookup by id.
    mutating func reserveCapacity(_ capacity: Int) {
        _chunkNumbers.reserveCapacity(capacity)
    }

    /// Adds `id` at the end; `false`, and nothing changes, when it is
    /// already one of the ids.
    ///
    /// - Complexity: O(log *n*), amortized.
    @discardableResult
    mutating func append(_ id: UUID) -> Bool {
        insert(id, at: count)
    }

    /// Inserts `id` so that it ends up at `position`; `false`, and nothing
    /// changes, when it is already one of the ids or `position` is not in
    /// `0...count`.
    ///
    /// - Complexity: O(log *n* + *b*), amortized.
    @discardableResult
    mutating func insert(_ id: UUID, at position: Int) -> Bool {
        guard (0...count).contains(position) else { return false }
        guard let lastChunk = _chunks.indices.last else {
            _insertChunk([id], at: 0)
            return true
        }
        var (chunk, offset) = position == count ? (lastChunk, _chunks[lastChunk].ids.count) : _counts.locate(position)
        // Between two chunks, the end of the first may have room.
        if offset == 0, chunk > 0, _chunks[chunk - 1].ids.count < _chunkCapacity {
            chunk -= 1
            offset = _chunks[chunk].ids.count
        }
        if _chunks[chunk].ids.count < _chunkCapacity {
            // The usual case, with one lookup by id that also refuses a duplicate.
            if let old = _chunkNumbers.updateValue(_chunks[chunk].number, forKey: id) {
                _chunkNumbers[id] = old
                return false
            }
            _chunks[chunk].ids.insert(id, at: offset)
            _counts.add(1, to: chunk)
            return true
        }
        // A full chunk: an id at either end starts a chunk of its own
        // (appending never moves ids); one inside splits it in halves.
        guard _chunkNumbers[id] == nil else { return false }
        if offset == _chunks[chunk].ids.count {
            _insertChunk([id], at: chunk + 1)
        } else if offset == 0 {
            _insertChunk([id], at: chunk)
        } else {
            let half = _chunks[chunk].ids.count / 2
            _split(chunk, at: half)
            if offset > half {
                chunk += 1
                offset -= half
            }
            _chunks[chunk].ids.insert(id, at: offset)
            _chunkNumbers[id] = _chunks[chunk].number
            _counts.add(1, to: chunk)
        }
        return true
    }

    /// Removes `id` and returns the position it had, or `nil`, and nothing
    /// changes, when it is not one of the ids.
    ///
    /// - Complexity: O(log *n* + *b*), amortized.
    @discardableResult
    mutating func remove(_ id: UUID) -> Int? {
        guard let number = _chunkNumbers.removeValue(forKey: id) else { return nil }
        let chunk = _chunkIndices[number]
        guard let offset = _chunks[chunk].ids.lastIndex(of: id) else {
            _chunkNumbers[id] = number
            return nil
        }
        let position = _counts.start(of: chunk) + offset
        _chunks[chunk].ids.remove(at: offset)
        _counts.add(-1, to: chunk)
        _mergeIfSmall(chunk)
        return position
    }

    /// Moves `id` so that it ends up at `position` and returns the position
    /// it had, or `nil`, and nothing changes, when it is not one of the ids
    /// or `position` is not in `0..<count`.
    ///
    /// - Complexity: O(log *n* + *b*), amortized.
    @discardableResult
    mutating func move(_ id: UUID, to position: Int) -> Int? {
        guard (0..<count).contains(position), let old = remove(id) else { return nil }
        insert(id, at: position)
        return old
    }

    /// Removes the ids in `doomed` and returns each removed id with the
    /// position it had, in list order; ids that are not here are ignored.
    ///
    /// - Complexity: O(*k* log *k* + *t* *b* + *n* / *b*) for *k* ids in
    ///   *t* chunks: at most O(*n*), never an O(*n*) shift per id.
    mutating func remove(_ doomed: Set<UUID>) -> [(id: UUID, position: Int)] {
        var touched = Set<Int>()
        for id in doomed {
            if let number = _chunkNumbers[id] { touched.insert(_chunkIndices[number]) }
        }
        var removed: [(id: UUID, position: Int)] = []
        removed.reserveCapacity(doomed.count)
        // Chunks in list order, each start read before anything changes.
        for chunk in touched.sorted() {
            let start = _counts.start(of: chunk)
            var kept: [UUID] = []
            kept.reserveCapacity(_chunks[chunk].ids.count)
            for (offset, id) in _chunks[chunk].ids.enumerated() {
                if doomed.contains(id) {
                    removed.append((id, start + offset))
                    _chunkNumbers[id] = nil
                } else {
                    kept.append(id)
                }
            }
            _chunks[chunk].ids = kept
        }
        if !removed.isEmpty { _compact() }
        return removed
    }
}

// MARK: - Chunks

extension OrderedIDs {
    /// The chunk that holds `id` and the offset of `id` in it.
    func _location(of id: UUID) -> (chunk: Int, offset: Int)? {
        guard let number = _chunkNumbers[id] else { return nil }
        let chunk = _chunkIndices[number]
        // From the end, where recently added ids are.
        guard let offset = _chunks[chunk].ids.lastIndex(of: id) else { return nil }
        return (chunk, offset)
    }

    /// Inserts a chunk of `ids` at `index` in `_chunks`.
    mutating func _insertChunk(_ ids: [UUID], at index: Int) {
        let number: Int
        if let free = _freeNumbers.popLast() {
            number = free
        } else {
            number = _chunkIndices.count
            _chunkIndices.append(-1)
        }
        _chunks.insert(_Chunk(number: number, ids: ids), at: index)
        for id in ids { _chunkNumbers[id] = number }
        if index == _chunks.count - 1 {
            _chunkIndices[number] = index
            _counts.append(ids.count)
        } else {
            _reindexChunks(from: index)
        }
    }

    /// Removes the chunk at `index` in `_chunks`, whose ids have gone
    /// elsewhere or away.
    mutating func _removeChunk(at index: Int) {
        let number = _chunks[index].number
        _chunkIndices[number] = -1
        _freeNumbers.append(number)
        _chunks.remove(at: index)
        _reindexChunks(from: index)
    }

    /// Moves the ids of `chunk` from `offset` on into a new chunk after it.
    mutating func _split(_ chunk: Int, at offset: Int) {
        let upper = Array(_chunks[chunk].ids[offset...])
        _chunks[chunk].ids.removeSubrange(offset...)
        _counts.add(-upper.count, to: chunk)
        _insertChunk(upper, at: chunk + 1)
    }

    /// Merges `chunk`, if it has emptied or shrunk to a quarter, into the
    /// smaller neighbour when the two together fill at most half a chunk,
    /// so that no two neighbours are both that small: the chunks stay
    /// fewer than 8 *n* / *b* + 1.
    mutating func _mergeIfSmall(_ chunk: Int) {
        let size = _chunks[chunk].ids.count
        if size == 0 {
            _removeChunk(at: chunk)
            return
        }
        guard size <= _chunkCapacity / 4 else { return }
        let room = _chunkCapacity / 2 - size
        let left = chunk > 0 ? _chunks[chunk - 1].ids.count : Int.max
        let right = chunk + 1 < _chunks.count ? _chunks[chunk + 1].ids.count : Int.max
        if left <= right, left <= room {
            _mergeWithNext(chunk - 1)
        } else if right <= room {
            _mergeWithNext(chunk)
        }
    }

    /// Appends the ids of the chunk after `chunk` to it and drops that one.
    mutating func _mergeWithNext(_ chunk: Int) {
        let moved = _chunks[chunk + 1].ids
        let number = _chunks[chunk].number
        for id in moved { _chunkNumbers[id] = number }
        _chunks[chunk].ids.append(contentsOf: moved)
        _removeChunk(at: chunk + 1)
    }

    /// Drops empty chunks and merges neighbours that together fill at most
    /// half a chunk, after a removal of many ids.
    mutating func _compact() {
        var chunks: [_Chunk] = []
        chunks.reserveCapacity(_chunks.count)
        swap(&chunks, &_chunks)
        for chunk in chunks {
            if chunk.ids.isEmpty {
                _release(chunk.number)
            } else if let last = _chunks.indices.last,
                      _chunks[last].ids.count + chunk.ids.count <= _chunkCapacity / 2 {
                let number = _chunks[last].number
                for id in chunk.ids { _chunkNumbers[id] = number }
                _chunks[last].ids.append(contentsOf: chunk.ids)
                _release(chunk.number)
            } else {
                _chunks.append(chunk)
            }
        }
        _reindexChunks(from: 0)
    }

    /// Makes a chunk number free for a new chunk.
    private mutating func _release(_ number: Int) {
        _chunkIndices[number] = -1
        _freeNumbers.append(number)
    }

    /// Records where the chunks from `index` on now are, and recounts.
    mutating func _reindexChunks(from index: Int) {
        for chunk in index..<_chunks.count {
            _chunkIndices[_chunks[chunk].number] = chunk
        }
        _counts = _ChunkCounts(_chunks.lazy.map(\.ids.count))
    }
}
