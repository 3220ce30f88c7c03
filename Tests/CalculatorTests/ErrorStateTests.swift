import Foundation
import Testing
@testable import Calculator

@Suite("Error states")
struct ErrorStateTests {
    @Suite("Division by zero")
    struct DivisionByZero {
        @Test func showsAMessage() throws {
            let calculator = try Calculator.after("1 ÷ 0 =")
            #expect(calculator.error == .divisionByZero)
            #expect(calculator.display == "Cannot divide by zero")
            #expect(calculator.value == nil)
        }

        @Test func zeroDividedByZeroIsAlsoAnError() throws {
            #expect(try Calculator.after("0 ÷ 0 =").error == .divisionByZero)
        }

        @Test func aChainedOperatorDetectsItToo() throws {
            #expect(try Calculator.after("8 ÷ 0 +").error == .divisionByZero)
        }

        @Test func equalsWithoutSecondNumberDividesByTheDisplayedZero() throws {
            #expect(try Calculator.after("0 ÷ =").error == .divisionByZero)
        }
    }

    @Test func squareRootOfANegativeNumber() throws {
        let calculator = try Calculator.after("4 ± √")
        #expect(calculator.error == .squareRootOfNegative)
        #expect(calculator.display == "Invalid input: square root of a negative number")
    }

    @Suite("Overflow")
    struct Overflow {
        /// 10^60, typed as 10^15 squared twice.
        static let tenToThe60 = "1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 x² x²"

        @Test func squaringPastTheRangeOverflows() throws {
            let calculator = try Calculator.after("\(Self.tenToThe60) x²")
            #expect(calculator.error == .overflow)
            #expect(calculator.display == "Overflow: result too large")
        }

        @Test func multiplyingPastTheRangeOverflows() throws {
            #expect(try Calculator.after("\(Self.tenToThe60) x 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 =").error == nil)
            #expect(try Calculator.after("\(Self.tenToThe60) x \(Self.tenToThe60) =").error == .overflow)
        }

        @Test func repeatedMultiplicationOverflowsAtTenToTheHundred() throws {
            var calculator = try Calculator.after("1 0 0 0 0 0 0 0 0 0 x 1 0 =")
            var presses = 0
            while calculator.error == nil, presses < 200 {
                try calculator.press("=")
                presses += 1
            }
            // 10^9 × 10 reaches 10^99 after 89 more presses, 10^100 after 90.
            #expect(presses == 90)
            #expect(calculator.error == .overflow)
        }

        @Test func dividingByATinyNumberOverflows() throws {
            #expect(try Calculator.after("\(Self.tenToThe60) ÷ . 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 x² x² =").error == .overflow)
        }
    }

    @Suite("Recovery")
    struct Recovery {
        @Test(arguments: ["1 ÷ 0 =", "4 ± √"])
        func aDigitStartsANewCalculation(keys: String) throws {
            var calculator = try Calculator.after(keys)
            try calculator.press("7")
            #expect(calculator.error == nil)
            #expect(calculator.display == "7")
            try calculator.press("+ 1 =")
            #expect(calculator.display == "8")
        }

        @Test func aDecimalPointStartsANewNumber() throws {
            #expect(try display(after: "1 ÷ 0 = . 5") == "0.5")
        }

        @Test(arguments: ["AC", "C"])
        func clearingRecovers(label: String) throws {
            var calculator = try Calculator.after("1 ÷ 0 =")
            try calculator.press(label)
            #expect(calculator.error == nil)
            #expect(calculator.display == "0")
        }

        @Test(arguments: ["+", "=", "√", "x²", "%", "±", "⌫"])
        func otherKeysAreIgnored(label: String) throws {
            let failed = try Calculator.after("1 ÷ 0 =")
            var calculator = failed
            try calculator.press(label)
            #expect(calculator == failed)
        }

        @Test func anErrorKeepsTheTapeAndIsNotPrintedOnIt() throws {
            let calculator = try Calculator.after("1 + 1 = 1 ÷ 0 = 2")
            #expect(calculator.tape == ["1 + 1 = 2"])
        }
    }
}
