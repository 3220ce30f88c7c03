import Testing
@testable import Calculator

@Suite("Order of entry")
struct OrderOfEntryTests {
    @Test func operationsRunInTheOrderEnteredWithoutPrecedence() throws {
        #expect(try display(after: "2 + 3 x 4 =") == "20")
        #expect(try display(after: "2 x 3 + 4 =") == "10")
        #expect(try display(after: "1 0 - 4 ÷ 2 =") == "3")
    }

    @Test func eachOperatorShowsTheRunningResult() throws {
        #expect(try display(after: "2 + 3 x") == "5")
        #expect(try display(after: "2 + 3 x 4 -") == "20")
    }

    @Test func theTapeShowsTheWholeChain() throws {
        #expect(try Calculator.after("2 + 3 x 4 =").tape == ["2 + 3 × 4 = 20"])
    }
}

@Suite("The operation that waits for its second number")
struct AwaitsSecondNumberTests {
    @Test func onlyUntilTheSecondNumberIsThereTypedOrMadeByAFunction() throws {
        #expect(try Calculator.after("9 +").awaitsSecondNumber)
        #expect(try !Calculator.after("9 + 4").awaitsSecondNumber)
        // 9 + 4 x²: the second number is 16, made by the function key.
        #expect(try !Calculator.after("9 + 4 x²").awaitsSecondNumber)
        #expect(try !Calculator.after("9 + 4 √").awaitsSecondNumber)
        #expect(try !Calculator.after("9 + 4 =").awaitsSecondNumber)
        #expect(try !Calculator.after("9").awaitsSecondNumber)
        #expect(try Calculator.after("9 + 4 x").awaitsSecondNumber)
    }
}
