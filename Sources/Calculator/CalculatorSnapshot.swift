import Foundation

/// What a front end shows of a session, ready to encode as JSON:
///
/// ```json
/// {"display": "20", "value": "20", "error": null,
///  "canUndo": true, "canRedo": false, "tape": ["2 + 3 × 4 = 20"]}
/// ```
///
/// Every field is always present; `value` and `error` are `null` when absent.
public struct CalculatorSnapshot: Equatable, Sendable, Encodable {
    /// The text of the display.
    public let display: String
    /// The displayed number at full precision, or `nil` in the error state.
    public let value: String?
    /// The message of the error state, or `nil` when a number is shown.
    public let error: String?
    /// Whether there is a step to undo.
    public let canUndo: Bool
    /// Whether there is a step to redo.
    public let canRedo: Bool
    /// The completed calculations, oldest first.
    public let tape: [String]

    /// The snapshot of `session` now.
    public init(_ session: CalculatorSession) {
        let calculator = session.calculator
        display = calculator.display
        value = calculator.value.map { "\($0)" }
        error = calculator.error?.message
        canUndo = session.canUndo
        canRedo = session.canRedo
        tape = calculator.tape
    }

    private enum CodingKeys: String, CodingKey {
        case display, value, error, canUndo, canRedo, tape
    }

    /// Encodes every field, writing `null` for a missing value or error.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(display, forKey: .display)
        try container.encode(value, forKey: .value)
        try container.encode(error, forKey: .error)
        try container.encode(canUndo, forKey: .canUndo)
        try container.encode(canRedo, forKey: .canRedo)
        try container.encode(tape, forKey: .tape)
    }
}

extension CalculatorSession {
    /// What a front end shows of the session now.
    public var snapshot: CalculatorSnapshot {
        CalculatorSnapshot(self)
    }
}
