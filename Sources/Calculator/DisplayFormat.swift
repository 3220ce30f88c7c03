import Foundation

/// How the calculator writes a number on its display: rounded to 16
/// significant digits, in scientific notation beyond the range where plain
/// digits are readable.
///
/// ```swift
/// DisplayFormat.text(for: 1 / 3)                          // "0.3333333333333333"
/// DisplayFormat.text(for: Decimal(string: "1e20")!)      // "1e20"
/// DisplayFormat.text(for: Decimal(string: "0.00000001")!) // "1e-8"
/// ```
public enum DisplayFormat {
    /// The most significant digits the display shows.
    public static let significantDigits = 16

    /// The smallest order of magnitude written with plain digits (0.0000001).
    public static let smallestPlainOrder = -7

    /// The largest order of magnitude written with plain digits
    /// (9999999999999999, sixteen digits).
    public static let largestPlainOrder = significantDigits - 1

    /// `value` as the display shows it: plain digits such as `-12.5` or
    /// `0.0000001`, or scientific notation such as `1.5e20` or `1e-8`.
    ///
    /// The exponent is written without a plus sign and the mantissa without
    /// trailing zeros. A NaN (which the calculator never holds) is written `NaN`.
    public static func text(for value: Decimal) -> String {
        if value.isNaN { return "NaN" }
        guard var parts = Arithmetic.scientific(value) else { return "0" }
        var mantissa = Arithmetic.round(parts.mantissa.magnitude, toDecimalPlaces: significantDigits - 1)
        if mantissa >= 10 {
            mantissa = 1
            parts.order += 1
        }
        let digits = significantDigitsText(of: mantissa)
        let sign = value < 0 ? "-" : ""
        if (smallestPlainOrder ... largestPlainOrder).contains(parts.order) {
            return sign + plain(digits, order: parts.order)
        }
        return sign + scientific(digits, order: parts.order)
    }

    /// The digits of a mantissa in `1 ..< 10`, without the point and without
    /// trailing zeros: 1.250 gives "125".
    private static func significantDigitsText(of mantissa: Decimal) -> String {
        var digits = mantissa.significand.magnitude.description
        while digits.count > 1, digits.hasSuffix("0") {
            digits.removeLast()
        }
        return digits
    }

    /// `d.ddd × 10^order` as plain digits.
    private static func plain(_ digits: String, order: Int) -> String {
        if order < 0 {
            return "0." + String(repeating: "0", count: -order - 1) + digits
        }
        let integerCount = order + 1
        if digits.count <= integerCount {
            return digits + String(repeating: "0", count: integerCount - digits.count)
        }
        return String(digits.prefix(integerCount)) + "." + String(digits.dropFirst(integerCount))
    }

    /// `d.ddd × 10^order` as `d.ddde<order>`.
    private static func scientific(_ digits: String, order: Int) -> String {
        let mantissa = digits.count == 1 ? digits : String(digits.prefix(1)) + "." + String(digits.dropFirst())
        return mantissa + "e" + String(order)
    }
}
