/// Lines of text kept so that copies share them: a calculator's tape, and
/// the chain of the calculation under way.
///
/// An undo history keeps a snapshot of the calculator after every key press.
/// With arrays, every press copied all the lines (or operands) before it, so
/// a long session's or a long chain's history grew with the square of its
/// length. Here each line is a node that points to the lines before it:
/// appending to a copy adds one node and shares the rest.
///
/// - Complexity: ``append(_:)``, ``removeLast()`` and ``count`` are O(1);
///   ``lines`` is O(*n*).
struct Tape: Equatable, Sendable {
    private var last: Line?

    /// One printed line and the lines before it. Never changed once made,
    /// except that a node being freed detaches its predecessor (see `deinit`).
    private final class Line: @unchecked Sendable {
        let text: String
        let count: Int
        var previous: Line?

        init(_ text: String, after previous: Line?) {
            self.text = text
            self.previous = previous
            count = (previous?.count ?? 0) + 1
        }

        deinit {
            // Free a long chain in a loop, not by recursion that could
            // overflow the stack: take each uniquely held predecessor apart.
            var next = previous
            previous = nil
            while var line = next {
                next = nil
                guard isKnownUniquelyReferenced(&line) else { break }
                next = line.previous
                line.previous = nil
            }
        }
    }

    /// How many lines the tape has.
    var count: Int { last?.count ?? 0 }

    /// Whether the tape has no line.
    var isEmpty: Bool { last == nil }

    /// Takes the newest line off, if there is one.
    mutating func removeLast() {
        last = last?.previous
    }

    /// The lines, oldest first.
    var lines: [String] {
        var lines: [String] = []
        lines.reserveCapacity(count)
        var line = last
        while let current = line {
            lines.append(current.text)
            line = current.previous
        }
        return lines.reversed()
    }

    /// Prints `text` as the newest line.
    mutating func append(_ text: String) {
        last = Line(text, after: last)
    }

    /// Prints `text` as the newest line and keeps about the newest `limit`
    /// lines: once there are twice as many, the older ones go.
    ///
    /// - Complexity: O(1) amortized.
    mutating func append(_ text: String, keepingAbout limit: Int) {
        append(text)
        guard limit > 0, count > 2 * limit else { return }
        var kept = Tape()
        for line in lines.suffix(limit) { kept.append(line) }
        self = kept
    }

    static func == (lhs: Tape, rhs: Tape) -> Bool {
        var left = lhs.last
        var right = rhs.last
        guard lhs.count == rhs.count else { return false }
        while let l = left, let r = right {
            if l === r { return true }  // shared from here on
            guard l.text == r.text else { return false }
            left = l.previous
            right = r.previous
        }
        return true
    }
}
