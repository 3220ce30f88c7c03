import Foundation
import Testing
import Rewind
import TestSupport

/// A running total whose changes can be refused from outside the history,
/// to make a revert fail as a broken model's inverse would.
struct Ledger: Reversible {
    enum Change: Equatable, CustomStringConvertible {
        case add(Int), subtract(Int)

        var description: String {
            switch self {
            case .add(let amount): "add \(amount)"
            case .subtract(let amount): "subtract \(amount)"
            }
        }
    }

    struct Refused: Error, CustomStringConvertible {
        let change: Change
        var description: String { "\(change) was refused." }
    }

    /// The changes that are refused, shared with the test.
    final class Refusals {
        var changes: Set<String> = []
    }

    var total = 0
    let refusals: Refusals

    mutating func apply(_ change: Change) throws -> Change {
        guard !refusals.changes.contains(change.description) else { throw Refused(change: change) }
        switch change {
        case .add(let amount):
            total += amount
            return .subtract(amount)
        case .subtract(let amount):
            total -= amount
            return .add(amount)
        }
    }
}

@Suite("A revert that fails is reported, not dropped")
struct RevertFailureTests {
    let clock = TestClock()
    let refusals = Ledger.Refusals()

    func makeHistory() -> History<Ledger> {
        History(Ledger(refusals: refusals), now: clock.now)
    }

    func isRevertFailure(_ error: any Error, of original: String, by revert: String) -> Bool {
        guard case .revertFailed(let error, let failedRevert) = error as? HistoryError else { return false }
        return error == original && failedRevert == revert
    }

    @Test func aFailedChangeIsRevertedAndItsOwnErrorThrownWhenTheRevertWorks() throws {
        let history = makeHistory()
        refusals.changes = ["add 2"]
        #expect(throws: Ledger.Refused.self) { try history.perform([.add(1), .add(2)]) }
        #expect(history.model.total == 0)
        #expect(history.stepCount == 0)
    }

    @Test func performThrowsRevertFailedWhenUndoingTheAppliedPartFails() throws {
        let history = makeHistory()
        refusals.changes = ["add 2", "subtract 1"]
        #expect {
            try history.perform([.add(1), .add(2)])
        } throws: { error in
            isRevertFailure(error, of: "add 2 was refused.", by: "subtract 1 was refused.")
        }
        #expect(history.stepCount == 0, "nothing is recorded")
    }

    @Test func aGroupThrowsRevertFailedWhenItsChangesCannotBeTakenBack() throws {
        let history = makeHistory()
        struct Stop: Error, CustomStringConvertible { var description: String { "stopped" } }
        refusals.changes = ["subtract 5"]
        #expect {
            try history.group(named: "Two") { history in
                try history.perform(.add(5))
                throw Stop()
            }
        } throws: { error in
            isRevertFailure(error, of: "stopped", by: "subtract 5 was refused.")
        }
        #expect(history.stepCount == 0)
        #expect(throws: Never.self) { try history.undo() }
    }

    @Test func aJumpThrowsRevertFailedWhenItCannotGoBackToWhereItStarted() throws {
        let history = makeHistory()
        try history.perform(.add(1), named: "One")
        try history.perform(.add(2), named: "Two")
        try history.jump(to: 0)
        refusals.changes = ["add 2", "subtract 1"]
        #expect {
            try history.jump(to: 2)
        } throws: { error in
            isRevertFailure(error, of: "add 2 was refused.", by: "subtract 1 was refused.")
        }
        #expect(history.model.total == 1, "the model holds the part that could not be taken back")
    }
}
