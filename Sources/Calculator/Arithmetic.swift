import Foundation

/// Arithmetic on `Decimal` that never traps and never returns NaN.
///
/// Foundation's `Decimal` traps (crashes) when a product's exponent falls
/// below its range (`1e-65 * 1e-65`) and returns NaN for a quotient whose
/// intermediate exponent does (`1e-99 / 3`) or for division by zero. So
/// every operation here works on mantissas scaled into `1 ..< 10`, whose
/// exponents stay small, checks the order of magnitude of the result against
/// the calculator's range first, and only then scales the result back.
///
/// The range is a pocket calculator's: a result whose magnitude reaches
/// 10^100 is an overflow, and a nonzero result smaller than 10^-99 becomes 0.
///
/// Results keep 38 digits, more than the display's 16, so that 1 ÷ 3 × 3
/// shows 1. A sum or difference whose value lies below the last digit the
/// display shows of both operands is 0: what is left there comes of an
/// earlier rounding, not of anything typed (typed numbers have at most 16
/// digits), and 1 ÷ 3 × 3 − 1 would otherwise show -1e-38 after a display
/// of 1, and a tape reading "1 − 1 = -1e-38".
enum Arithmetic {
    /// The largest order of magnitude a result may have (9.99…e99).
    static let maximumOrder = 99
    /// The smallest order of magnitude a nonzero result may have (1e-99);
    /// smaller results become 0.
    static let minimumOrder = -99

    /// The lowest exponent `Decimal` can store.
    private static let lowestExponent = -128
    /// Beyond this difference of orders, the smaller operand of a sum does
    /// not change the 38-digit mantissa of the larger one.
    private static let negligibleOrderGap = 45

    /// A nonzero finite number as `mantissa × 10^order`, with `1 ≤ |mantissa| < 10`.
    struct Scientific: Equatable {
        var mantissa: Decimal
        var order: Int
    }

    /// Splits `value` into a mantissa in `1 ..< 10` (negative for a negative
    /// value) and an order of magnitude; `nil` for zero and NaN.
    static func scientific(_ value: Decimal) -> Scientific? {
        guard !value.isNaN, !value.isZero else { return nil }
        let significand = value.significand.magnitude
        let digitCount = significand.description.count
        let mantissa = Decimal(sign: value.sign, exponent: 1 - digitCount, significand: significand)
        return Scientific(mantissa: mantissa, order: value.exponent + digitCount - 1)
    }

    /// Returns `mantissa × 10^order`, range-checked and representable.
    ///
    /// `mantissa` may be any finite value whose own exponent is small (the
    /// result of an operation on scaled mantissas).
    static func compose(_ mantissa: Decimal, order: Int) throws(CalculatorError) -> Decimal {
        guard !mantissa.isNaN else { throw .overflow }
        guard var parts = scientific(mantissa) else { return 0 }
        parts.order += order
        guard parts.order <= maximumOrder else { throw .overflow }
        guard parts.order >= minimumOrder else { return 0 }
        // The mantissa's digits after the point must keep the exponent of the
        // result at or above the lowest one Decimal can store.
        let decimalPlaces = parts.order - lowestExponent - 1
        var rounded = round(parts.mantissa, toDecimalPlaces: decimalPlaces)
        if rounded.magnitude >= 10 {
            // 9.99… rounded up to 10: one order higher, and one digit fewer.
            rounded /= 10
            parts.order += 1
            guard parts.order <= maximumOrder else { throw .overflow }
        }
        let result = Decimal(sign: rounded.sign, exponent: parts.order, significand: rounded.magnitude)
        guard !result.isNaN else { throw .overflow }
        return result
    }

    /// `value` rounded half away from zero to `places` digits after the point.
    static func round(_ value: Decimal, toDecimalPlaces places: Int) -> Decimal {
        var source = value
        var result = Decimal()
        NSDecimalRound(&result, &source, places, .plain)
        return result
    }

    /// The sum `lhs + rhs`.
    static func add(_ lhs: Decimal, _ rhs: Decimal) throws(CalculatorError) -> Decimal {
        guard let left = scientific(lhs) else { return try checked(rhs) }
        guard let right = scientific(rhs) else { return try checked(lhs) }
        let order = max(left.order, right.order)
        if order - min(left.order, right.order) > negligibleOrderGap {
            return left.order > right.order ? lhs : rhs
        }
        let sum = scaled(left, by: left.order - order) + scaled(right, by: right.order - order)
        // Below the last digit the display shows of either operand: nothing
        // but an earlier rounding is left (two typed numbers of at most 16
        // digits never differ by less than that).
        let lastShownOrder = min(left.order, right.order) - (DisplayFormat.significantDigits - 1)
        if let parts = scientific(sum), parts.order + order < lastShownOrder { return 0 }
        return try compose(sum, order: order)
    }

    /// The difference `lhs - rhs`.
    static func subtract(_ lhs: Decimal, _ rhs: Decimal) throws(CalculatorError) -> Decimal {
        try add(lhs, negate(rhs))
    }

    /// The product `lhs × rhs`.
    static func multiply(_ lhs: Decimal, _ rhs: Decimal) throws(CalculatorError) -> Decimal {
        guard let left = scientific(lhs), let right = scientific(rhs) else { return 0 }
        let order = left.order + right.order
        // The product of the mantissas lies in 1 ..< 100: its order is 0 or 1.
        guard order <= maximumOrder else { throw .overflow }
        guard order + 1 >= minimumOrder else { return 0 }
        return try compose(left.mantissa * right.mantissa, order: order)
    }

    /// The quotient `lhs ÷ rhs`.
    static func divide(_ lhs: Decimal, _ rhs: Decimal) throws(CalculatorError) -> Decimal {
        guard let right = scientific(rhs) else { throw .divisionByZero }
        guard let left = scientific(lhs) else { return 0 }
        let order = left.order - right.order
        // The quotient of the mantissas lies in 0.1 ..< 10: its order is -1 or 0.
        guard order - 1 <= maximumOrder else { throw .overflow }
        guard order >= minimumOrder else { return 0 }
        return try compose(left.mantissa / right.mantissa, order: order)
    }

    /// The square root of `value`, exact to 32 digits after the first.
    static func squareRoot(_ value: Decimal) throws(CalculatorError) -> Decimal {
        guard var parts = scientific(value) else { return 0 }
        guard parts.mantissa > 0 else { throw .squareRootOfNegative }
        if !parts.order.isMultiple(of: 2) {
            parts.mantissa *= 10
            parts.order -= 1
        }
        // Newton's method on a mantissa in 1 ..< 100; the root lies in 1 ..< 10.
        var root: Decimal = 5
        for _ in 0 ..< 64 {
            let next = (root + parts.mantissa / root) / 2
            if next == root { break }
            root = next
        }
        // The last digits of Newton's iteration may oscillate: 32 places make
        // √9 exactly 3.
        return try compose(round(root, toDecimalPlaces: 32), order: parts.order / 2)
    }

    /// `-value`; zero stays zero.
    static func negate(_ value: Decimal) -> Decimal {
        value.isZero ? 0 : -value
    }

    /// `value` itself if it is within the calculator's range.
    static func checked(_ value: Decimal) throws(CalculatorError) -> Decimal {
        guard let parts = scientific(value) else {
            if value.isNaN { throw .overflow }
            return 0
        }
        return try compose(parts.mantissa, order: parts.order)
    }

    /// `parts.mantissa × 10^shift`, for a small non-positive `shift`.
    private static func scaled(_ parts: Scientific, by shift: Int) -> Decimal {
        Decimal(sign: parts.mantissa.sign, exponent: shift, significand: parts.mantissa.magnitude)
    }
}
