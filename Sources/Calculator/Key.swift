import Foundation

/// One of the ten digit keys.
public enum Digit: Int, CaseIterable, Sendable, Codable, CustomStringConvertible {
    /// The digits 0 through 9, in order; the raw value is the digit's value.
    case zero, one, two, three, four, five, six, seven, eight, nine

    /// The digit as it is written: "0" … "9".
    public var description: String { String(rawValue) }
}

/// An operation between two numbers, run in the order entered (no precedence).
public enum ArithmeticOperation: String, CaseIterable, Sendable, Codable {
    /// `+`
    case addition
    /// `-` (`−`, the minus sign, on the tape)
    case subtraction
    /// `x` (`×` on the tape)
    case multiplication
    /// `÷`; a zero divisor is an error.
    case division

    /// The sign printed on the tape: `+`, `−` (the minus sign), `×`, `÷`.
    public var symbol: String {
        switch self {
        case .addition: "+"
        case .subtraction: "−"
        case .multiplication: "×"
        case .division: "÷"
        }
    }

    /// The result of `lhs` and `rhs` under this operation.
    func apply(_ lhs: Decimal, _ rhs: Decimal) throws(CalculatorError) -> Decimal {
        switch self {
        case .addition: try Arithmetic.add(lhs, rhs)
        case .subtraction: try Arithmetic.subtract(lhs, rhs)
        case .multiplication: try Arithmetic.multiply(lhs, rhs)
        case .division: try Arithmetic.divide(lhs, rhs)
        }
    }
}

/// A function of the displayed number, applied at once (`√`, `x²`).
///
/// This is the extension point for new keys: a new function (say `sin`) is
/// one new case here with its arm in ``apply(to:)``, and one entry in
/// ``CommandFactory/standardEntries``.
public enum UnaryFunction: String, CaseIterable, Sendable, Codable {
    /// `√`: the square root; a negative number is an error.
    case squareRoot
    /// `x²`: the number times itself.
    case square

    /// The result of the function on `value`.
    public func apply(to value: Decimal) throws(CalculatorError) -> Decimal {
        switch self {
        case .squareRoot: try Arithmetic.squareRoot(value)
        case .square: try Arithmetic.multiply(value, value)
        }
    }
}

/// What a key on the keypad does. Button labels map to keys through a
/// ``CommandFactory``.
public enum Key: Equatable, Hashable, Sendable {
    /// Types a digit into the number being entered.
    case digit(Digit)
    /// Types the decimal point.
    case decimalPoint
    /// Applies the pending operation, then waits for the next number.
    case operation(ArithmeticOperation)
    /// Applies a function to the displayed number.
    case function(UnaryFunction)
    /// `=`: evaluates the pending operation, or repeats the last one.
    case equals
    /// `%`: percent of the displayed number.
    case percent
    /// `±`: changes the sign of the displayed number.
    case toggleSign
    /// `C`: clears the number being entered, keeping the pending operation.
    case clear
    /// `⌫`: deletes the last digit typed.
    case backspace
    /// `AC`: clears everything.
    case allClear
}

extension Key {
    /// What the key does, in words a screen reader can say: "times",
    /// "square root", "delete last digit" (a digit is itself, "7"). A keypad
    /// gives it as the accessible name of a key drawn with a sign, since a
    /// reader says `x` as the letter and `⌫` or `±` not at all.
    public var spokenName: String {
        switch self {
        case .digit(let digit): digit.description
        case .decimalPoint: "decimal point"
        case .operation(.addition): "plus"
        case .operation(.subtraction): "minus"
        case .operation(.multiplication): "times"
        case .operation(.division): "divided by"
        case .function(.squareRoot): "square root"
        case .function(.square): "square"
        case .equals: "equals"
        case .percent: "percent"
        case .toggleSign: "change sign"
        case .clear: "clear entry"
        case .backspace: "delete last digit"
        case .allClear: "all clear"
        }
    }

    /// The sign a keypad shows on the key, whichever way its label is
    /// written: the one the tape prints for an operation (`×` for `x` and
    /// `*`, `−`, the minus sign, for `-`, `÷` for `/`), `√` for `sqrt`, `x²`
    /// for `x^2`, `±` for `+/-`. `nil` for every other key, whose label is
    /// its face.
    public var typographicFace: String? {
        switch self {
        case .operation(let operation): operation.symbol
        case .function(.squareRoot): "√"
        case .function(.square): "x²"
        case .toggleSign: "±"
        default: nil
        }
    }
}
