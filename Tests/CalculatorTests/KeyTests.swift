import Foundation
import Testing
@testable import Calculator

@Suite("Keys")
struct KeyTests {
    @Test func newCalculatorShowsZero() {
        #expect(Calculator().display == "0")
        #expect(Calculator().value == 0)
        #expect(Calculator().error == nil)
    }

    @Suite("Digits")
    struct Digits {
        @Test(arguments: Digit.allCases)
        func eachDigitIsTyped(digit: Digit) throws {
            #expect(try display(after: digit.description) == digit.description)
        }

        @Test func digitsBuildANumber() throws {
            #expect(try display(after: "1 2 3") == "123")
        }

        @Test func leadingZerosCollapse() throws {
            #expect(try display(after: "0 0 7") == "7")
            #expect(try display(after: "0 0") == "0")
        }

        @Test func atMostSixteenDigitsAreTyped() throws {
            let calculator = try Calculator.after("1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9")
            #expect(calculator.display == "1234567890123456")
            #expect(calculator.value == Decimal(string: "1234567890123456"))
        }

        @Test func sixteenDigitsAfterALeadingZeroPoint() throws {
            let calculator = try Calculator.after("0 . 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 2 3")
            // "0." and fourteen zeros, then 1 and 2 make sixteen digits.
            #expect(calculator.display == "0.0000000000000012")
        }

        @Test func aDigitAfterEqualsStartsANewNumber() throws {
            #expect(try display(after: "2 + 3 = 7") == "7")
        }
    }

    @Suite("Decimal point")
    struct DecimalPoint {
        @Test func typesADecimalNumber() throws {
            let calculator = try Calculator.after("1 2 . 5")
            #expect(calculator.display == "12.5")
            #expect(calculator.value == Decimal(string: "12.5"))
        }

        @Test func leadingPointMeansZeroPoint() throws {
            #expect(try display(after: ".") == "0.")
            #expect(try display(after: ". 5") == "0.5")
        }

        @Test func secondPointIsIgnored() throws {
            #expect(try display(after: "1 . 2 . 3") == "1.23")
        }

        @Test func trailingZerosShowAsTyped() throws {
            let calculator = try Calculator.after("2 . 5 0")
            #expect(calculator.display == "2.50")
            #expect(calculator.value == Decimal(string: "2.5"))
        }

        @Test func pointAfterOperatorStartsZeroPoint() throws {
            #expect(try display(after: "3 + . 5 =") == "3.5")
        }
    }

    @Suite("Operators")
    struct Operators {
        @Test func addition() throws {
            #expect(try display(after: "1 2 + 3 =") == "15")
        }

        @Test func subtraction() throws {
            #expect(try display(after: "5 - 8 =") == "-3")
        }

        @Test func multiplication() throws {
            #expect(try display(after: "6 x 7 =") == "42")
        }

        @Test func division() throws {
            #expect(try display(after: "1 ÷ 4 =") == "0.25")
        }

        @Test func decimalArithmeticIsExact() throws {
            let calculator = try Calculator.after(". 1 + . 2 =")
            #expect(calculator.display == "0.3")
            #expect(calculator.value == Decimal(string: "0.3"))
        }

        @Test func operatorShowsTheFirstNumberUntilTheSecondIsTyped() throws {
            #expect(try display(after: "1 2 +") == "12")
            #expect(try Calculator.after("1 2 +").pendingOperation == .addition)
        }

        @Test func operatorPressedTwiceReplacesThePendingOne() throws {
            #expect(try display(after: "5 + x 2 =") == "10")
            #expect(try Calculator.after("5 + x 2 =").tape == ["5 × 2 = 10"])
        }

        @Test func operatorFirstUsesZero() throws {
            #expect(try display(after: "- 5 =") == "-5")
        }

        @Test func operatorAfterEqualsContinuesWithTheResult() throws {
            #expect(try display(after: "2 + 3 = x 4 =") == "20")
        }
    }

    @Suite("Equals")
    struct Equals {
        @Test func equalsWithoutSecondNumberUsesTheDisplayedOne() throws {
            #expect(try display(after: "5 + =") == "10")
        }

        @Test func repeatedEqualsRepeatsTheLastOperation() throws {
            #expect(try display(after: "2 + 3 = =") == "8")
            #expect(try display(after: "2 + 3 = = =") == "11")
            #expect(try display(after: "1 0 ÷ 2 = =") == "2.5")
        }

        @Test func equalsAfterANewNumberAppliesTheLastOperationToIt() throws {
            #expect(try display(after: "2 + 3 = 7 =") == "10")
        }

        @Test func equalsWithNoOperationKeepsTheNumber() throws {
            let calculator = try Calculator.after("4 2 =")
            #expect(calculator.display == "42")
            #expect(calculator.tape.isEmpty)
        }
    }

    @Suite("Functions")
    struct Functions {
        @Test func squareRoot() throws {
            #expect(try display(after: "9 √") == "3")
            #expect(try Calculator.after("9 √").value == 3)
            #expect(try display(after: "2 √") == "1.414213562373095")
        }

        @Test func squareRootOfSmallAndLargeNumbers() throws {
            #expect(try display(after: ". 0 4 √") == "0.2")
            #expect(try display(after: "1 0 0 0 0 √") == "100")
            #expect(try display(after: "1 0 √") == "3.162277660168379")
        }

        @Test func squareRootOfZeroIsZero() throws {
            #expect(try display(after: "0 √") == "0")
        }

        @Test func square() throws {
            #expect(try display(after: "1 2 x²") == "144")
            #expect(try display(after: "1 . 5 x²") == "2.25")
            #expect(try display(after: "3 ± x²") == "9")
        }

        @Test func functionActsOnTheSecondNumberAndKeepsThePendingOperation() throws {
            #expect(try display(after: "9 + 1 6 √ =") == "13")
            #expect(try Calculator.after("9 + 1 6 √ =").tape == ["9 + 4 = 13"])
        }

        @Test func functionOnAResult() throws {
            #expect(try display(after: "2 + 2 = √") == "2")
        }

        @Test func aDigitAfterAFunctionStartsANewNumber() throws {
            #expect(try display(after: "9 √ 5") == "5")
        }
    }

    @Suite("Percent")
    struct Percent {
        @Test func percentDividesByAHundred() throws {
            #expect(try display(after: "5 %") == "0.05")
        }

        @Test func percentAfterPlusIsAPercentageOfTheFirstNumber() throws {
            #expect(try display(after: "2 0 0 + 1 0 %") == "20")
            #expect(try display(after: "2 0 0 + 1 0 % =") == "220")
            #expect(try display(after: "2 0 0 - 1 0 % =") == "180")
        }

        @Test func percentAfterTimesIsAFraction() throws {
            #expect(try display(after: "5 0 x 1 0 % =") == "5")
            #expect(try display(after: "5 0 ÷ 5 0 % =") == "100")
        }
    }

    @Suite("Sign")
    struct Sign {
        @Test func toggleSignWhileTyping() throws {
            #expect(try display(after: "5 ±") == "-5")
            #expect(try display(after: "5 ± ±") == "5")
            #expect(try display(after: "5 ± 3") == "-53")
        }

        @Test func toggleSignOfZeroShowsMinusZero() throws {
            let calculator = try Calculator.after("±")
            #expect(calculator.display == "-0")
            #expect(calculator.value == 0)
            #expect(try display(after: "± 4") == "-4")
        }

        @Test func toggleSignAfterOperatorStartsANegativeNumber() throws {
            #expect(try display(after: "7 - ±") == "-0")
            #expect(try display(after: "7 - ± 2 =") == "9")
        }

        @Test func toggleSignOfAResult() throws {
            #expect(try display(after: "2 + 3 = ±") == "-5")
        }
    }

    @Suite("Corrections")
    struct Corrections {
        @Test func backspaceDeletesTheLastTypedCharacter() throws {
            #expect(try display(after: "1 2 3 ⌫") == "12")
            #expect(try display(after: "1 . ⌫") == "1")
            #expect(try display(after: "1 . 5 ⌫ ⌫ 2") == "12")
        }

        @Test func backspaceOfTheLastDigitLeavesZero() throws {
            #expect(try display(after: "7 ⌫") == "0")
            #expect(try display(after: "7 ± ⌫") == "0")
        }

        @Test func backspaceDoesNothingToAResult() throws {
            #expect(try display(after: "1 2 + 3 = ⌫") == "15")
        }

        @Test func clearClearsTheNumberBeingTypedAndKeepsTheOperation() throws {
            #expect(try display(after: "5 + 3 C") == "0")
            #expect(try display(after: "5 + 3 C 2 =") == "7")
        }

        @Test func clearWithNoPendingOperationClearsTheCalculation() throws {
            let calculator = try Calculator.after("2 + 3 = C =")
            #expect(calculator.display == "0")
        }

        @Test func allClearClearsEverythingButTheTape() throws {
            var calculator = try Calculator.after("2 + 3 = 4 x")
            try calculator.press("AC")
            #expect(calculator.display == "0")
            #expect(calculator.pendingOperation == nil)
            #expect(calculator.tape == ["2 + 3 = 5"])
            try calculator.press("=")
            #expect(calculator.display == "0")
        }
    }

    @Test func everyKeySaysWhatItDoesInWordsOfItsOwn() throws {
        let keys = CommandFactory.standardEntries.map(\.key)
        let names = keys.map(\.spokenName)
        #expect(Set(names).count == keys.count, "two keys share a name: \(names)")
        #expect(names.allSatisfy { !$0.isEmpty && !$0.contains { $0.isSymbol } })
        #expect(Key.operation(.multiplication).spokenName == "times")
        #expect(Key.backspace.spokenName == "delete last digit")
        #expect(Key.digit(.seven).spokenName == "7")
    }

    @Test func onlyTimesAndMinusHaveABetterSignThanTheirLabel() {
        let faces = CommandFactory.standardEntries.compactMap { entry in
            entry.key.typographicFace.flatMap { $0 == entry.label ? nil : "\(entry.label)→\($0)" }
        }
        #expect(faces == ["-→−", "x→×"])
    }

    /// A keypad file may spell a key as a terminal types it; the key is
    /// drawn with its sign all the same.
    @Test func everyOtherSpellingOfAKeyIsDrawnWithTheKeysSign() throws {
        let faces = try CommandFactory.standardAliases.keys.sorted().map { alias in
            "\(alias)→" + (try CommandFactory.standard.key(for: alias).typographicFace ?? alias)
        }
        #expect(faces == ["*→×", "+/-→±", "/→÷", "sqrt→√", "x^2→x²", "×→×", "−→−"])
    }
}
