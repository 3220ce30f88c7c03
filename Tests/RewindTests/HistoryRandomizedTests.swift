import Testing
import Rewind
import TestSupport

/// The plain approach, kept naively as the reference: a full snapshot of the
/// model per step.
private struct SnapshotHistory {
    var snapshots: [[Int]]
    var names: [String] = []
    var position = 0
    let limit: Int?

    init(_ initial: [Int], limit: Int?) {
        snapshots = [initial]
        self.limit = limit
    }

    var current: [Int] { snapshots[position] }

    mutating func record(_ state: [Int], named name: String) {
        snapshots.removeSubrange((position + 1)...)
        names.removeSubrange(position...)
        snapshots.append(state)
        names.append(name)
        position += 1
        if let limit, names.count > limit {
            let excess = names.count - limit
            snapshots.removeFirst(excess)
            names.removeFirst(excess)
            position -= excess
        }
    }
}

@Suite("History agrees with a snapshot per step")
struct HistoryRandomizedTests {
    private static func randomChange(_ generator: inout SeededGenerator, count: Int) -> NumberList.Change {
        // Indexes go one past the valid range now and then, so that some changes fail.
        let index = Int.random(in: 0...(max(count, 0) + 1), using: &generator)
        let number = Int.random(in: 0..<100, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: return .insert(number, at: index)
        case 1: return .remove(at: index)
        default: return .replace(at: index, with: number)
        }
    }

    private static func applied(_ changes: [NumberList.Change], to numbers: [Int]) -> [Int]? {
        var list = NumberList(numbers)
        for change in changes {
            guard (try? list.apply(change)) != nil else { return nil }
        }
        return list.numbers
    }

    @Test(arguments: [(1 as UInt64, nil as Int?), (2, nil), (3, 7), (4, 1), (5, 25)])
    func randomPerformUndoRedoJumpSequencesMatchSnapshots(seed: UInt64, limit: Int?) throws {
        var generator = SeededGenerator(seed: seed)
        let history = History(NumberList([1, 2, 3]), limit: limit)
        var reference = SnapshotHistory([1, 2, 3], limit: limit)

        for operation in 0..<3_000 {
            let name = "step \(operation)"
            switch Int.random(in: 0..<10, using: &generator) {
            case 0...3:
                let change = Self.randomChange(&generator, count: history.model.numbers.count)
                if let next = Self.applied([change], to: reference.current) {
                    try history.perform(change, named: name)
                    reference.record(next, named: name)
                } else {
                    #expect(throws: NumberList.OutOfRange.self) { try history.perform(change, named: name) }
                }
            case 4:
                var changes: [NumberList.Change] = []
                var count = history.model.numbers.count
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    let change = Self.randomChange(&generator, count: count)
                    changes.append(change)
                    if case .insert = change { count += 1 } else if case .remove = change { count -= 1 }
                }
                if let next = Self.applied(changes, to: reference.current) {
                    try history.group(named: name) { history in
                        for change in changes { try history.perform(change) }
                    }
                    reference.record(next, named: name)
                } else {
                    #expect(throws: NumberList.OutOfRange.self) { try history.perform(changes, named: name) }
                }
            case 5...6:
                let undone = try history.undo()
                #expect(undone == (reference.position > 0 ? reference.names[reference.position - 1] : nil))
                if reference.position > 0 { reference.position -= 1 }
            case 7...8:
                let redone = try history.redo()
                #expect(redone == (reference.position < reference.names.count ? reference.names[reference.position] : nil))
                if reference.position < reference.names.count { reference.position += 1 }
            default:
                let target = Int.random(in: 0...reference.names.count, using: &generator)
                try history.jump(to: target)
                reference.position = target
            }

            #expect(history.model.numbers == reference.current, "after operation \(operation)")
            #expect(history.position == reference.position)
            #expect(history.steps.map(\.name) == reference.names)
            #expect(history.canUndo == (reference.position > 0))
            #expect(history.canRedo == (reference.position < reference.names.count))
            if history.model.numbers != reference.current { return }
        }
    }
}
