import Foundation

/// A calculator written as JSON and read back, so that a store can keep the
/// state an undo history starts from:
///
/// ```json
/// {"accumulator": "12", "input": {"typed": "-0.5"}, "pending": "addition",
///  "last": null, "expression": ["12", "+"], "elided": 0, "error": null,
///  "tape": ["2 + 3 = 5"]}
/// ```
///
/// Numbers are written as decimal text at full precision, so a calculator
/// read back is equal to the one written. Reading checks every field: a
/// number that does not parse or a typed entry that could not have been
/// typed is refused with a `DecodingError` that names it.
extension Calculator: Codable {
    private enum CodingKeys: String, CodingKey {
        case accumulator, input, pending, last, expression, elided, error, tape
    }

    private enum InputKeys: String, CodingKey {
        case typed, value
    }

    private enum EvaluationKeys: String, CodingKey {
        case operation, operand
    }

    /// Reads a calculator written by ``encode(to:)``.
    ///
    /// - Throws: `DecodingError` naming the field that is missing or wrong.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        accumulator = try Self.number(container, .accumulator)
        if container.contains(.input), try !container.decodeNil(forKey: .input) {
            let input = try container.nestedContainer(keyedBy: InputKeys.self, forKey: .input)
            if let text = try input.decodeIfPresent(String.self, forKey: .typed) {
                guard let entry = Entry(validText: text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .typed, in: input,
                        debugDescription: "“\(text)” is no number as typed: an optional -, digits and at most one .")
                }
                self.input = .typed(entry)
            } else {
                self.input = .value(try Self.number(input, .value))
            }
        }
        pendingOperation = try container.decodeIfPresent(ArithmeticOperation.self, forKey: .pending)
        if container.contains(.last), try !container.decodeNil(forKey: .last) {
            let last = try container.nestedContainer(keyedBy: EvaluationKeys.self, forKey: .last)
            lastEvaluation = Evaluation(
                operation: try last.decode(ArithmeticOperation.self, forKey: .operation),
                operand: try Self.number(last, .operand))
        }
        for term in try container.decode([String].self, forKey: .expression) { expression.append(term) }
        elidedTerms = try container.decode(Int.self, forKey: .elided)
        guard elidedTerms >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .elided, in: container, debugDescription: "a count of terms cannot be negative")
        }
        error = try container.decodeIfPresent(CalculatorError.self, forKey: .error)
        for line in try container.decode([String].self, forKey: .tape) { printed.append(line) }
    }

    /// Writes every field; numbers as decimal text at full precision.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.text(accumulator), forKey: .accumulator)
        switch input {
        case .typed(let entry):
            var nested = container.nestedContainer(keyedBy: InputKeys.self, forKey: .input)
            try nested.encode(entry.text, forKey: .typed)
        case .value(let value):
            var nested = container.nestedContainer(keyedBy: InputKeys.self, forKey: .input)
            try nested.encode(Self.text(value), forKey: .value)
        case nil:
            try container.encodeNil(forKey: .input)
        }
        try container.encode(pendingOperation, forKey: .pending)
        if let lastEvaluation {
            var nested = container.nestedContainer(keyedBy: EvaluationKeys.self, forKey: .last)
            try nested.encode(lastEvaluation.operation, forKey: .operation)
            try nested.encode(Self.text(lastEvaluation.operand), forKey: .operand)
        } else {
            try container.encodeNil(forKey: .last)
        }
        try container.encode(expression.lines, forKey: .expression)
        try container.encode(elidedTerms, forKey: .elided)
        try container.encode(error, forKey: .error)
        try container.encode(printed.lines, forKey: .tape)
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    /// `value` as decimal text that reads back as the same value.
    private static func text(_ value: Decimal) -> String {
        value.description
    }

    /// The number written as text under `key`.
    private static func number<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Decimal {
        let text = try container.decode(String.self, forKey: key)
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) || $0 == 45 || $0 == 46 || $0 == 69 || $0 == 101 }),
            let value = Decimal(string: text, locale: posix), !value.isNaN
        else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "“\(text)” is no decimal number")
        }
        return value
    }
}

extension Calculator.Entry {
    /// The entry showing `text` when it could have been typed: an optional
    /// `-`, then at most ``Calculator/maximumTypedDigits`` digits and at most
    /// one `.`, without a superfluous leading zero; `nil` otherwise.
    init?(validText text: String) {
        let unsigned = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let digits = unsigned.filter(\.isASCII).filter(\.isNumber)
        let points = unsigned.filter { $0 == "." }
        guard !unsigned.isEmpty, digits.count + points.count == unsigned.count, points.count <= 1,
            digits.count <= Calculator.maximumTypedDigits + 1,
            !(unsigned.hasPrefix("0") && unsigned.count > 1 && !unsigned.hasPrefix("0."))
        else { return nil }
        self.init(text: text)
    }
}
