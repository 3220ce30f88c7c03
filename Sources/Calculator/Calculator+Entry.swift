import Foundation

extension Calculator {
    /// A number as it is typed: an optional minus sign, digits and at most
    /// one decimal point, with leading zeros collapsed and at most
    /// ``Calculator/maximumTypedDigits`` digits.
    struct Entry: Equatable, Sendable {
        /// Whether `±` made the number negative.
        var isNegative = false
        /// The digits and decimal point typed, never empty: "0", "0.", "12.50".
        private(set) var digits: String

        /// An entry that starts with `digit`.
        init(digit: Digit) {
            digits = digit.description
        }

        /// An entry showing `text`, which must be a valid typed number
        /// ("0", "0.", "-0").
        init(text: String) {
            isNegative = text.hasPrefix("-")
            let unsigned = String(text.drop(while: { $0 == "-" }))
            digits = unsigned.isEmpty ? "0" : unsigned
        }

        /// The entry as the display shows it.
        var text: String {
            isNegative ? "-" + digits : digits
        }

        /// The typed number.
        var value: Decimal {
            // At most 16 digits and a point always parse; 0 is a safe fallback.
            let magnitude = Decimal(string: digits, locale: Locale(identifier: "en_US_POSIX")) ?? 0
            return isNegative ? Arithmetic.negate(magnitude) : magnitude
        }

        /// How many digits count toward the limit: all but a lone leading 0.
        private var digitCount: Int {
            let count = digits.filter(\.isNumber).count
            return digits.hasPrefix("0") ? count - 1 : count
        }

        /// Appends `digit`, replacing a lone leading zero, unless the entry is full.
        mutating func append(_ digit: Digit) {
            if digits == "0" {
                digits = digit.description
            } else if digitCount < Calculator.maximumTypedDigits {
                digits += digit.description
            }
        }

        /// Appends a decimal point unless there is one already.
        mutating func appendDecimalPoint() {
            guard !digits.contains(".") else { return }
            digits += "."
        }

        /// Deletes the last character typed; deleting the last digit leaves 0.
        mutating func deleteLast() {
            digits.removeLast()
            if digits.isEmpty {
                digits = "0"
                isNegative = false
            }
        }
    }
}
