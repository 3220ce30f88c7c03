import Foundation
import Testing
@testable import Calculator

@Suite("Arithmetic")
struct ArithmeticTests {
    private func decimal(_ literal: String) throws -> Decimal {
        try #require(Decimal(string: literal))
    }

    @Test func productBelowTheRangeIsZeroInsteadOfATrap() throws {
        // Foundation's own `*` traps on this product.
        #expect(try Arithmetic.multiply(decimal("1e-65"), decimal("1e-65")) == 0)
        #expect(try Arithmetic.multiply(decimal("1e-50"), decimal("1e-50")) == 0)
    }

    @Test func productsNearTheLowerEndKeepDigits() throws {
        let third = try Arithmetic.divide(1, 3)
        let product = try Arithmetic.multiply(
            Arithmetic.multiply(third, decimal("1e-48")),
            Arithmetic.multiply(third, decimal("1e-48")))
        #expect(DisplayFormat.text(for: product) == "1.111111111111111e-97")
    }

    @Test func quotientOfATinyNumberIsComputed() throws {
        // Foundation's own `/` returns NaN for this quotient.
        #expect(DisplayFormat.text(for: try Arithmetic.divide(decimal("2e-97"), 3)) == "6.666666666666667e-98")
        #expect(DisplayFormat.text(for: try Arithmetic.divide(decimal("3e-98"), 3)) == "1e-98")
    }

    @Test func resultsBelowTenToTheMinus99BecomeZero() throws {
        #expect(try Arithmetic.divide(decimal("1e-99"), 100) == 0)
        #expect(try Arithmetic.multiply(decimal("1e-60"), decimal("1e-60")) == 0)
    }

    @Test func resultsFromTenToThe100Overflow() throws {
        #expect(throws: CalculatorError.overflow) { try Arithmetic.multiply(decimal("1e50"), decimal("1e50")) }
        #expect(throws: CalculatorError.overflow) { try Arithmetic.add(decimal("9.9e99"), decimal("1e99")) }
        #expect(try Arithmetic.multiply(decimal("1e50"), decimal("9e48")) == decimal("9e98"))
    }

    @Test func roundingAMantissaUpToTenMovesToTheNextOrder() throws {
        // Near 1e-99 only 28 decimal places fit: 9.999… with 35 rounds up to 10.
        let nines = try decimal("9.99999999999999999999999999999999999")
        #expect(try Arithmetic.compose(nines, order: -99) == decimal("1e-98"))
    }

    @Test func sumOfNumbersFarApartKeepsTheLarger() throws {
        #expect(try Arithmetic.add(decimal("1e99"), decimal("1e-99")) == decimal("1e99"))
        #expect(try Arithmetic.add(decimal("1e-99"), decimal("-1e99")) == decimal("-1e99"))
        #expect(try Arithmetic.add(decimal("1e20"), decimal("1")) == decimal("100000000000000000001"))
    }

    @Test func subtractionToZero() throws {
        #expect(try Arithmetic.subtract(decimal("0.3"), decimal("0.3")) == 0)
    }

    @Test func whatIsLeftOfAnEarlierRoundingBelowTheShownDigitsIsZero() throws {
        // 1 ÷ 3 × 3 shows 1 (38 nines), and − 1 is then 0, not -1e-38.
        let nines = try Arithmetic.multiply(Arithmetic.divide(1, 3), 3)
        #expect(DisplayFormat.text(for: nines) == "1")
        #expect(try Arithmetic.subtract(nines, 1) == 0)
        #expect(try Arithmetic.add(-1, nines) == 0)
        // √2 x² shows 2, and − 2 is 0 (not 5.43462e-33).
        let root = try Arithmetic.squareRoot(2)
        let square = try Arithmetic.multiply(root, root)
        #expect(DisplayFormat.text(for: square) == "2")
        #expect(try Arithmetic.subtract(square, 2) == 0)
        // Typed numbers (16 digits at most) keep their smallest differences.
        #expect(try Arithmetic.subtract(1, decimal("0.9999999999999999")) == decimal("1e-16"))
        #expect(try Arithmetic.subtract(decimal("1234567890123456"), decimal("1234567890123455")) == 1)
        #expect(try Arithmetic.subtract(decimal("1.000000000000001"), 1) == decimal("1e-15"))
        #expect(try Arithmetic.add(decimal("1e-20"), decimal("-2e-20")) == decimal("-1e-20"))
        // A difference that the display shows is kept.
        #expect(DisplayFormat.text(for: try Arithmetic.subtract(nines, decimal("0.5"))) == "0.5")
    }

    @Test func squareRootsAreExactWhereTheyCanBe() throws {
        #expect(try Arithmetic.squareRoot(9) == 3)
        #expect(try Arithmetic.squareRoot(decimal("0.0144")) == decimal("0.12"))
        #expect(try Arithmetic.squareRoot(decimal("1e-98")) == decimal("1e-49"))
        #expect(throws: CalculatorError.squareRootOfNegative) { try Arithmetic.squareRoot(-1) }
    }

    @Test func squareRootOfTwoToThirtyTwoPlaces() throws {
        #expect(try Arithmetic.squareRoot(2) == decimal("1.4142135623730950488016887242097"))
    }

    /// Random key sequences, heavy on extremes, never trap and always leave
    /// either a number within the range or an error.
    @Test func randomKeySequencesNeverTrap() throws {
        // A fixed linear congruential sequence, so that the test repeats exactly.
        var state: UInt64 = 2024
        let labels = CommandFactory.standard.labels + ["x²", "x²", "x²", "√", "÷", "x", "="]
        let limit = try decimal("1e100")
        for _ in 0 ..< 400 {
            var calculator = Calculator()
            for _ in 0 ..< 60 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let label = labels[Int((state >> 33) % UInt64(labels.count))]
                try calculator.press(label)
                if let value = calculator.value {
                    #expect(!value.isNaN)
                    #expect(value.magnitude < limit)
                    #expect(!calculator.display.isEmpty)
                } else {
                    #expect(calculator.error != nil)
                }
            }
        }
    }

    /// Every short chain of extreme operations on extreme numbers ends in a
    /// number within the range or in an error, never in a trap.
    @Test func chainsOfExtremeOperationsNeverTrap() throws {
        let numbers = [". 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 3", "9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9", "1 ÷ 3 =", "7 ±"]
        let operations = ["x²", "x² x²", "√", "x . 0 0 0 0 0 0 0 0 0 0 0 0 0 0 7 =", "÷ . 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 3 =", "÷ 7 ="]
        let limit = try decimal("1e100")
        var chains = [""]
        for _ in 0 ..< 4 {
            chains = chains.flatMap { chain in operations.map { chain + " " + $0 } }
        }
        for number in numbers {
            for chain in chains {
                let calculator = try Calculator.after(number + chain)
                if let value = calculator.value {
                    #expect(!value.isNaN && value.magnitude < limit, "\(number + chain)")
                } else {
                    #expect(calculator.error != nil)
                }
            }
        }
    }
}
