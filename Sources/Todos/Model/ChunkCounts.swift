/// The number of ids in each chunk of an ``OrderedIDs``, summed by prefixes
/// (a Fenwick tree), so that where a chunk starts and which chunk holds a
/// position take O(log *c*) for *c* chunks instead of a walk over them.
struct _ChunkCounts: Sendable {
    /// One-based: `tree[i]` is the sum of the counts of the chunks numbered
    /// `i - lowestBit(i) + 1 ... i`; `tree[0]` is unused.
    private var tree: [Int]

    /// The counts of the chunks, in chunk order.
    ///
    /// - Complexity: O(*c*).
    init(_ counts: some Sequence<Int>) {
        tree = [0]
        tree.append(contentsOf: counts)
        let last = tree.count - 1
        guard last > 0 else { return }
        for index in 1...last {
            let parent = index + (index & -index)
            if parent <= last { tree[parent] += tree[index] }
        }
    }

    /// How many chunks there are.
    var chunkCount: Int { tree.count - 1 }

    /// The sum of the counts of the chunks before `chunk`: the position of
    /// its first id.
    ///
    /// - Complexity: O(log *c*).
    func start(of chunk: Int) -> Int {
        var sum = 0
        var index = chunk
        while index > 0 {
            sum += tree[index]
            index &= index - 1
        }
        return sum
    }

    /// Adds `delta` to the count of `chunk`.
    ///
    /// - Complexity: O(log *c*).
    mutating func add(_ delta: Int, to chunk: Int) {
        var index = chunk + 1
        while index < tree.count {
            tree[index] += delta
            index += index & -index
        }
    }

    /// Adds a chunk of `count` ids after the last one.
    ///
    /// - Complexity: O(log *c*).
    mutating func append(_ count: Int) {
        let index = tree.count
        tree.append(count + start(of: index - 1) - start(of: index - (index & -index)))
    }

    /// The chunk that holds `position` and the offset of the position in it,
    /// when every count is positive and `position` is below their sum.
    ///
    /// - Complexity: O(log *c*).
    func locate(_ position: Int) -> (chunk: Int, offset: Int) {
        var index = 0
        var remaining = position
        var step = 1
        while step * 2 <= chunkCount { step *= 2 }
        while step > 0 {
            let next = index + step
            if next <= chunkCount, tree[next] <= remaining {
                index = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return (index, remaining)
    }
}
