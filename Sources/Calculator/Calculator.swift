import Foundation

/// A pocket calculator as a value: keys go in, a display comes out.
///
/// Operations run in the order entered, without precedence, as on a pocket
/// calculator: `2 + 3 × 4 =` is 20. Arithmetic is decimal, so `0.1 + 0.2 =`
/// is exactly 0.3.
///
/// ```swift
/// var calculator = Calculator()
/// for key: Key in [.digit(.one), .digit(.two), .operation(.addition), .digit(.three), .equals] {
///     calculator.press(key)
/// }
/// calculator.display   // "15"
/// calculator.tape      // ["12 + 3 = 15"]
/// ```
///
/// Where people expect a pocket calculator (the iPhone's) to behave a certain
/// way, this one does:
///
/// - **Entry.** Leading zeros collapse (`0 0 7` shows `7`); a leading `.`
///   means `0.`; a second `.` in a number is ignored; at most 16 digits are
///   typed, further digits are ignored. The display shows the number as
///   typed (`0.50`, `-0`).
/// - **Operators.** An operator applies the pending operation first; an
///   operator pressed right after another replaces it (`5 + x 2 =` is 10);
///   an operator with no number typed uses the displayed one (`0` at first,
///   the result after `=`).
/// - **Equals.** `=` with no second number uses the displayed one
///   (`5 + =` is 10). Repeated `=` repeats the last operation on the result
///   (`2 + 3 = =` is 8); a number typed after `=` and then `=` applies the
///   last operation to it (`2 + 3 = 7 =` is 10).
/// - **Functions.** `√`, `x²`, `±` and `%` act on the displayed number at
///   once and leave the pending operation alone (`9 + 16 √ =` is 13). `%`
///   after `+` or `-` is a percentage of the first number (`200 + 10 % =` is
///   220); otherwise it divides by 100 (`50 x 10 % =` is 5). `±` on a
///   displayed 0 or right after an operator starts a negative number (`-0`).
/// - **Corrections.** `⌫` deletes the last typed character (nothing on a
///   result); `C` clears the number being typed and keeps the pending
///   operation (`5 + 3 C 2 =` is 7), or clears the calculation when no
///   operation is pending; `AC` clears everything but the tape.
/// - **Errors.** Division by zero, the square root of a negative number and a
///   result of 10^100 or more put the calculator in an error state that shows
///   a message ("Cannot divide by zero"). Operators, `=` and functions are
///   ignored there; a digit or `.` starts a new calculation, and `C` or `AC`
///   clears. Nonzero results smaller than 10^-99 become 0.
/// - **Display.** Results are rounded to 16 significant digits. From 1e16
///   up and below 1e-7, the display uses scientific notation with a plain
///   `e` and exponent: `1e16`, `1.234567890123457e20`, `-2.5e-8`. The
///   unrounded value stays available as ``value``.
/// - **Tape.** Each completed calculation is printed on the tape, the whole
///   chain since the last `=`: `2 + 3 × 4 = 20`. A failed one is not.
public struct Calculator: Equatable, Sendable {
    /// The number shown while no number is typed: the left operand or the
    /// last result.
    var accumulator: Decimal = 0
    /// The number being entered: typed key by key, or the result of a function.
    var input: Input?
    /// The operation waiting for its second number.
    public internal(set) var pendingOperation: ArithmeticOperation?
    /// The last operation evaluated by `=`, which another `=` repeats.
    var lastEvaluation: Evaluation?
    /// The calculation under way as it will be printed on the tape, shared
    /// with the snapshots of an undo history so that a press costs the same
    /// however long the chain. It keeps the first ``maximumPrintedTerms``
    /// terms; ``elidedTerms`` counts the ones after them.
    var expression = Tape()
    /// How many terms of a long chain are left out of its tape line.
    var elidedTerms = 0

    /// The most numbers and operators of one calculation printed on the
    /// tape; a longer chain is printed as its start, `…`, and its end.
    public static let maximumPrintedTerms = 32

    /// Why the last calculation failed, or `nil` when the calculator shows a
    /// number.
    public internal(set) var error: CalculatorError?

    /// The completed calculations, oldest first: `"12 + 3 = 15"`; at least
    /// the newest ``maximumTapeLines`` of them, at most twice as many.
    ///
    /// - Complexity: O(*n*) in the number of lines.
    public var tape: [String] { printed.lines }

    /// The tape's lines, shared with the snapshots of an undo history.
    var printed = Tape()

    /// How many of the newest calculations the tape keeps at least.
    public static let maximumTapeLines = 200

    /// The most digits a typed number can have.
    public static let maximumTypedDigits = 16

    /// Creates a calculator that shows 0.
    public init() {}

    /// The text of the display: the number being typed as typed, a result
    /// rounded for display, or the message of an error.
    public var display: String {
        if let error { return error.message }
        switch input {
        case .typed(let entry): return entry.text
        case .value(let value): return DisplayFormat.text(for: value)
        case nil: return DisplayFormat.text(for: accumulator)
        }
    }

    /// The displayed number at full precision, or `nil` in the error state.
    public var value: Decimal? {
        error == nil ? displayedValue : nil
    }

    /// Whether the operation that waits (``pendingOperation``) has no second
    /// number yet: `9 +` waits for one; `9 + 4`, and `9 + 4 x²`, have it.
    public var awaitsSecondNumber: Bool {
        error == nil && pendingOperation != nil && input == nil
    }

    /// Whether a number is being typed (as opposed to a result being shown).
    public var isTyping: Bool {
        if case .typed = input { return true }
        return false
    }

    /// Presses `key`. Never fails: a calculation that cannot be done puts
    /// the calculator in the error state (see ``error``).
    public mutating func press(_ key: Key) {
        if error != nil {
            switch key {
            case .digit, .decimalPoint, .clear, .allClear:
                self = Calculator(printed: printed)
            default:
                return
            }
        }
        switch key {
        case .digit(let digit): type(digit)
        case .decimalPoint: typeDecimalPoint()
        case .operation(let operation): choose(operation)
        case .function(let function): apply { value throws(CalculatorError) in try function.apply(to: value) }
        case .equals: evaluate()
        case .percent: applyPercent()
        case .toggleSign: toggleSign()
        case .clear: clear()
        case .backspace: deleteLastCharacter()
        case .allClear: self = Calculator(printed: printed)
        }
    }

    private init(printed: Tape) {
        self.printed = printed
    }
}

// MARK: - Keys

extension Calculator {
    private var displayedValue: Decimal {
        switch input {
        case .typed(let entry): entry.value
        case .value(let value): value
        case nil: accumulator
        }
    }

    private mutating func type(_ digit: Digit) {
        if case .typed(var entry) = input {
            entry.append(digit)
            input = .typed(entry)
        } else {
            startTyping(Entry(digit: digit))
        }
    }

    private mutating func typeDecimalPoint() {
        if case .typed(var entry) = input {
            entry.appendDecimalPoint()
            input = .typed(entry)
        } else {
            startTyping(Entry(text: "0."))
        }
    }

    /// A new number replaces a shown result; with no pending operation it
    /// starts a new calculation.
    private mutating func startTyping(_ entry: Entry) {
        if pendingOperation == nil { startExpression() }
        input = .typed(entry)
    }

    private mutating func choose(_ operation: ArithmeticOperation) {
        defer { lastEvaluation = nil }
        guard input != nil || pendingOperation == nil else {
            // An operator right after another one replaces it.
            pendingOperation = operation
            if elidedTerms == 0 {
                if !expression.isEmpty { expression.removeLast() }
                expression.append(operation.symbol)
            }
            return
        }
        let operand = displayedValue
        if let pending = pendingOperation {
            let lhs = accumulator
            guard let result = attempt({ () throws(CalculatorError) in try pending.apply(lhs, operand) }) else { return }
            print(DisplayFormat.text(for: operand), operation.symbol)
            accumulator = result
        } else {
            startExpression()
            print(DisplayFormat.text(for: operand), operation.symbol)
            accumulator = operand
        }
        pendingOperation = operation
        input = nil
    }

    private mutating func evaluate() {
        let evaluation: Evaluation
        let lhs: Decimal
        if let pending = pendingOperation {
            evaluation = Evaluation(operation: pending, operand: displayedValue)
            lhs = accumulator
        } else if let last = lastEvaluation {
            evaluation = last
            lhs = displayedValue
            startExpression()
            print(DisplayFormat.text(for: lhs), last.operation.symbol)
        } else {
            accumulator = displayedValue
            input = nil
            return
        }
        guard let result = attempt({ () throws(CalculatorError) in try evaluation.operation.apply(lhs, evaluation.operand) }) else { return }
        let elision = elidedTerms > 0 ? ["…", evaluation.operation.symbol] : []
        let line = expression.lines + elision
            + [DisplayFormat.text(for: evaluation.operand), "=", DisplayFormat.text(for: result)]
        printed.append(line.joined(separator: " "), keepingAbout: Self.maximumTapeLines)
        accumulator = result
        input = nil
        pendingOperation = nil
        lastEvaluation = evaluation
        startExpression()
    }

    private mutating func startExpression() {
        expression = Tape()
        elidedTerms = 0
    }

    /// Adds an operand and its operator to the calculation's tape line, or
    /// counts them once the line has ``maximumPrintedTerms`` terms.
    private mutating func print(_ operand: String, _ symbol: String) {
        guard elidedTerms == 0, expression.count + 2 <= Self.maximumPrintedTerms else {
            elidedTerms += 2
            return
        }
        expression.append(operand)
        expression.append(symbol)
    }

    private mutating func applyPercent() {
        let base = accumulator
        let isPercentageOfBase = pendingOperation == .addition || pendingOperation == .subtraction
        apply { value throws(CalculatorError) in
            let fraction = try Arithmetic.divide(value, 100)
            return isPercentageOfBase ? try Arithmetic.multiply(base, fraction) : fraction
        }
    }

    private mutating func toggleSign() {
        switch input {
        case .typed(var entry):
            entry.isNegative.toggle()
            input = .typed(entry)
        case .value(let value):
            input = .value(Arithmetic.negate(value))
        case nil where pendingOperation != nil || accumulator.isZero:
            startTyping(Entry(text: "-0"))
        case nil:
            input = .value(Arithmetic.negate(accumulator))
        }
    }

    private mutating func clear() {
        if pendingOperation != nil {
            input = .typed(Entry(text: "0"))
        } else {
            self = Calculator(printed: printed)
        }
    }

    private mutating func deleteLastCharacter() {
        guard case .typed(var entry) = input else { return }
        entry.deleteLast()
        input = .typed(entry)
    }

    /// Replaces the displayed number with `function` of it.
    private mutating func apply(_ function: (Decimal) throws(CalculatorError) -> Decimal) {
        let operand = displayedValue
        guard let result = attempt({ () throws(CalculatorError) in try function(operand) }) else { return }
        input = .value(result)
    }

    /// The result of `operation`, or `nil` after entering the error state.
    private mutating func attempt(_ operation: () throws(CalculatorError) -> Decimal) -> Decimal? {
        do {
            return try operation()
        } catch {
            self = Calculator(printed: printed)
            self.error = error
            return nil
        }
    }
}

// MARK: - State

extension Calculator {
    /// The number being entered.
    enum Input: Equatable, Sendable {
        /// Typed key by key, shown as typed.
        case typed(Entry)
        /// Computed by a function key (`√`, `%`, `±` on a result).
        case value(Decimal)
    }

    /// An operation with its second number, kept so that `=` can repeat it.
    struct Evaluation: Equatable, Sendable {
        var operation: ArithmeticOperation
        var operand: Decimal
    }
}
