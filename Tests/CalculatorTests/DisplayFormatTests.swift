import Foundation
import Testing
@testable import Calculator

@Suite("Display")
struct DisplayFormatTests {
    private func text(_ literal: String) throws -> String {
        DisplayFormat.text(for: try #require(Decimal(string: literal)))
    }

    @Test func wholeAndDecimalNumbersArePlain() throws {
        #expect(try text("0") == "0")
        #expect(try text("42") == "42")
        #expect(try text("-12.5") == "-12.5")
        #expect(try text("0.001") == "0.001")
        #expect(try text("1000000") == "1000000")
    }

    @Test func roundsToSixteenSignificantDigits() throws {
        #expect(try text("0.12345678901234567") == "0.1234567890123457")
        #expect(try text("1234567890.1234567") == "1234567890.123457")
        #expect(try text("0.33333333333333333333") == "0.3333333333333333")
        #expect(try text("-0.66666666666666666666") == "-0.6666666666666667")
    }

    @Test func roundingDropsTrailingZeros() throws {
        #expect(try text("2.50000000000000001") == "2.5")
        #expect(try text("0.99999999999999999") == "1")
        #expect(try text("9999999999999999.5") == "1e16")
    }

    @Test func oneThirdTimesThreeShowsOne() throws {
        let calculator = try Calculator.after("1 ÷ 3 x 3 =")
        #expect(calculator.display == "1")
        #expect(calculator.value != 1, "the full-precision value keeps the 38-digit rounding")
    }

    @Test func sixteenDigitIntegersArePlain() throws {
        #expect(try text("9999999999999999") == "9999999999999999")
    }

    @Test func largeNumbersUseScientificNotation() throws {
        #expect(try text("10000000000000000") == "1e16")
        #expect(try text("100000000000000000000") == "1e20")
        #expect(try text("123456789012345678901") == "1.234567890123457e20")
        #expect(try text("-25000000000000000000") == "-2.5e19")
    }

    @Test func smallNumbersUseScientificNotation() throws {
        #expect(try text("0.0000001") == "0.0000001")
        #expect(try text("0.00000001") == "1e-8")
        #expect(try text("-0.000000025") == "-2.5e-8")
        #expect(try text("0.000000012345678901234567") == "1.234567890123457e-8")
    }

    @Test func resultsOnTheDisplayAreFormattedButKeepFullPrecision() throws {
        let calculator = try Calculator.after("2 ÷ 3 =")
        #expect(calculator.display == "0.6666666666666667")
        let value = try #require(calculator.value)
        let lower = try #require(Decimal(string: "0.66666666666666666"))
        let upper = try #require(Decimal(string: "0.66666666666666667"))
        #expect(value > lower && value < upper)
    }

    @Test func calculatedExtremesAreFormatted() throws {
        #expect(try display(after: "1 0 0 0 0 0 0 0 0 x²") == "1e16")
        #expect(try display(after: "1 0 0 0 0 0 0 0 0 x² x² x²") == "1e64")
        #expect(try display(after: ". 0 0 0 0 1 x²") == "1e-10")
    }
}
