import Testing
@testable import Calculator

@Suite("Tape")
struct TapeTests {
    @Test func linesComeOutOldestFirst() {
        var tape = Tape()
        #expect(tape.lines.isEmpty)
        tape.append("1 + 1 = 2")
        tape.append("2 × 3 = 6")
        #expect(tape.lines == ["1 + 1 = 2", "2 × 3 = 6"])
        #expect(tape.count == 2)
    }

    @Test func appendingToACopyLeavesTheOriginalAsItWas() {
        var original = Tape()
        original.append("a")
        var copy = original
        copy.append("b")
        #expect(original.lines == ["a"])
        #expect(copy.lines == ["a", "b"])
        #expect(original != copy)
    }

    @Test func tapesWithTheSameLinesAreEqualWhetherSharedOrNot() {
        var first = Tape()
        var second = Tape()
        for line in ["x", "y", "z"] {
            first.append(line)
            second.append(line)
        }
        #expect(first == second)
        var third = first
        #expect(third == first)
        third.append("w")
        second.append("v")
        #expect(third != second)
    }

    @Test func aVeryLongTapeIsFreedWithoutExhaustingTheStack() {
        var tape: Tape? = Tape()
        for index in 0..<300_000 { tape?.append("\(index)") }
        #expect(tape?.count == 300_000)
        tape = nil  // recursion here would overflow the stack
    }

    @Test func undoOfEqualsTakesTheLineOffTheTapeAndRedoPutsItBack() throws {
        var session = try CalculatorSession(configuration: .shipped())
        try session.press(["1", "2", "+", "3", "="])
        try session.press(["x", "2", "="])
        #expect(session.tape == ["12 + 3 = 15", "15 × 2 = 30"])
        session.undo()
        #expect(session.tape == ["12 + 3 = 15"])
        session.redo()
        #expect(session.tape == ["12 + 3 = 15", "15 × 2 = 30"])
    }
}
