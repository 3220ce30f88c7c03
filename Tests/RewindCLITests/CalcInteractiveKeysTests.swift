import Testing
@testable import RewindCLI

@Suite("rewind calc's typed keys")
struct CalcInteractiveKeysTests {
    private func actions(_ text: String) -> [CalcInteractive.Action] {
        CalcInteractive.actions(for: Array(text.utf8))
    }

    @Test func escapeIsAllClearAlsoWithTheKeysThatCameWithIt() {
        #expect(actions("\u{1B}") == [.press("AC")])
        // Escape then digits in one read (typed fast, pasted, Alt+9): AC, then each digit.
        #expect(actions("\u{1B}99") == [.press("AC"), .press("9"), .press("9")])
        #expect(actions("5+\u{1B}3") == [.press("5"), .press("+"), .press("AC"), .press("3")])
    }

    @Test func theSequencesOfKeysSuchAsTheArrowsAreIgnored() {
        #expect(actions("\u{1B}[A").isEmpty)
        #expect(actions("\u{1B}[1;5C7") == [.press("7")])
        #expect(actions("\u{1B}OP8") == [.press("8")])
        #expect(actions("1\u{1B}[B2") == [.press("1"), .press("2")])
    }
}
