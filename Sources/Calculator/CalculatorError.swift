/// Why a calculation failed. The calculator shows it instead of a number
/// until a digit, the decimal point, `C` or `AC` is pressed.
public enum CalculatorError: Error, Equatable, Hashable, Sendable, Codable {
    /// A division whose divisor is zero (`1 ÷ 0`, `0 ÷ 0`).
    case divisionByZero
    /// The square root of a negative number.
    case squareRootOfNegative
    /// A result whose magnitude reaches 10^100, beyond the calculator's range.
    case overflow

    /// The message the display shows.
    public var message: String {
        switch self {
        case .divisionByZero: "Cannot divide by zero"
        case .squareRootOfNegative: "Invalid input: square root of a negative number"
        case .overflow: "Overflow: result too large"
        }
    }
}

extension CalculatorError: CustomStringConvertible {
    /// The message the display shows.
    public var description: String { message }
}
