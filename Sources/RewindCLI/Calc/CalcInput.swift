import Calculator

/// One thing to do, read from the command line or a line of input: press a
/// key, undo, redo, or record and play macros.
enum CalcInput: Equatable {
    /// Presses the key with this label (or alias).
    case press(String)
    /// Undoes the last step.
    case undo
    /// Redoes the last undone step.
    case redo
    /// Starts recording a macro with this name.
    case record(String)
    /// Stops recording the macro.
    case stop
    /// Plays the macro with this name, as one undo step.
    case play(String)

    /// Reads words into inputs, checking every label against `factory`
    /// before anything is done.
    ///
    /// A word made of digits and at most one decimal point (optionally after
    /// a minus sign) is typed key by key: `12.5` is `1 2 . 5`, `-5` is `5 ±`.
    /// Any other word is read as keys written together when it can be:
    /// `1+2=` is `1 + 2 =`.
    static func parse(_ words: [String], factory: CommandFactory) throws(CalcInputError) -> [CalcInput] {
        var inputs: [CalcInput] = []
        // One argument may hold several keys apart, as a line does: "5 + 2 =";
        // the one after `record` or `play` is a macro's name, spaces and all.
        var split: [String] = []
        for word in words {
            if let last = split.last, last == "record" || last == "play" {
                split.append(word)
            } else {
                split += word.split(whereSeparator: \.isWhitespace).map(String.init)
            }
        }
        var remaining = split[...]
        while let word = remaining.popFirst() {
            switch word {
            case "undo": inputs.append(.undo)
            case "redo": inputs.append(.redo)
            case "stop": inputs.append(.stop)
            case "record", "play":
                guard let name = remaining.popFirst() else { throw .missingMacroName(after: word) }
                inputs.append(word == "record" ? .record(name) : .play(name))
            default:
                inputs += try presses(for: word, factory: factory)
            }
        }
        return inputs
    }

    /// Does `inputs` in order on `session`: all of them, or, when one
    /// cannot be done, none.
    static func perform(
        _ inputs: [CalcInput],
        on session: inout CalculatorSession
    ) throws(CalcInputError) {
        var changed = session
        for input in inputs {
            switch input {
            case .press(let label):
                // A press the macro could not keep: refused, not left out of it without a word.
                if let count = changed.recordedPressCount, count >= Macro.maximumLength, let name = changed.recordingMacroName {
                    throw .macroFull(name)
                }
                do { try changed.press(label) } catch { throw .unknownLabel(error) }
            case .undo: changed.undo()
            case .redo: changed.redo()
            case .record(let name):
                if let current = changed.recordingMacroName { throw .alreadyRecording(current, asked: name) }
                changed.startRecording(named: name)
            case .stop:
                guard changed.stopRecording() != nil else { throw .notRecording }
            case .play(let name):
                do { try changed.play(named: name) } catch { throw .macro(error) }
            }
        }
        session = changed
    }

    private static func presses(for word: String, factory: CommandFactory) throws(CalcInputError) -> [CalcInput] {
        if factory.knows(word) { return [.press(word)] }
        guard let number = typedNumber(word) else {
            // Keys written together, as on paper: `1+2=`, `12x-3=`.
            guard let labels = try keys(in: word, factory: factory) else {
                // 1,5 or 1,000 (or 1,5+1=): a decimal comma, or a thousands separator? Neither is guessed.
                if word.contains(","), (try? keys(in: word.replacingOccurrences(of: ",", with: "."), factory: factory)) != nil {
                    throw .comma(word)
                }
                throw .unknownLabel(UnknownLabelError(label: word, knownLabels: factory.labels))
            }
            try checkNumbers(in: labels, of: word, factory: factory)
            return labels.map(CalcInput.press)
        }
        let labels = number.digits.map(String.init) + (number.isNegative ? ["±"] : [])
        for label in labels where !factory.knows(label) {
            if label == "±" { throw .noSignKey(word) }
            throw .unknownLabel(UnknownLabelError(label: label, knownLabels: factory.labels))
        }
        try checkNumbers(in: labels, of: word, factory: factory)
        return labels.map(CalcInput.press)
    }

    /// Refuses a number written in `word` (digits and points pressed one
    /// after another in `labels`) with more digits than the calculator
    /// takes: it would keep the first ones only, and answer for another
    /// number without a word. Key by key, the extra digits are ignored, as
    /// on a pocket calculator.
    private static func checkNumbers(in labels: [String], of word: String, factory: CommandFactory) throws(CalcInputError) {
        var number = ""
        for label in labels + [""] {
            let key = factory.canonicalLabel(for: label) ?? label
            if key.count == 1, let character = key.first, character.isASCIIDigit || character == "." {
                number.append(character)
                continue
            }
            // A leading 0 is not counted, nor zeros typed before the first other digit.
            let digits = number.drop { $0 == "0" }.filter(\.isASCIIDigit).count
            if digits > Calculator.maximumTypedDigits { throw .tooManyDigits(number: number, word: word, count: digits) }
            // The calculator would ignore the second point: "1.5.5" would be 1.55.
            let points = number.filter { $0 == "." }.count
            if points > 1 { throw .severalPoints(number: number, word: word, count: points) }
            number = ""
        }
    }

    /// The labels of `word` read as keys written together: at each place
    /// the longest label or alias that starts there. A minus sign at the
    /// start, or right after an operator, and followed by a digit or a
    /// point, makes the number after it negative (`2x-3=` is 2 × −3, as
    /// `2 x -3 =` is). `nil` when a part of `word` is no key; a negative
    /// number on a keypad without ± is refused as such.
    private static func keys(in word: String, factory: CommandFactory) throws(CalcInputError) -> [String]? {
        let characters = Array(word)
        let longest = (factory.labels + factory.aliases.keys).map(\.count).max() ?? 1
        var labels: [String] = []
        var index = 0
        while index < characters.count {
            // By the key, whatever the keypad calls it (`*` or `x`).
            let afterOperator = labels.last.map { label in
                if case .operation = try? factory.key(for: label) { true } else { false }
            } ?? true
            if afterOperator, characters[index] == "-" || characters[index] == "−", index + 1 < characters.count,
                characters[index + 1].isASCIIDigit || characters[index + 1] == "."
            {
                var end = index + 1
                while end < characters.count, characters[end].isASCIIDigit || characters[end] == "." { end += 1 }
                guard factory.knows("±") else { throw .noSignKey(word, among: true) }
                labels += characters[(index + 1)..<end].map { String($0) } + ["±"]
                index = end
                continue
            }
            let lengths = stride(from: min(longest, characters.count - index), through: 1, by: -1)
            guard let length = lengths.first(where: { factory.knows(String(characters[index..<(index + $0)])) }) else {
                return nil
            }
            labels.append(String(characters[index..<(index + length)]))
            index += length
        }
        return labels
    }

    /// The digits of a word such as `12.5` or `-0.5`, or `nil` when it is not one.
    private static func typedNumber(_ word: String) -> (digits: Substring, isNegative: Bool)? {
        let isNegative = word.hasPrefix("-")
        let digits = isNegative ? word.dropFirst() : word[...]
        let isNumber = digits.contains(where: \.isASCIIDigit)
            && digits.allSatisfy { $0.isASCIIDigit || $0 == "." }
            && digits.filter { $0 == "." }.count <= 1
        return isNumber ? (digits, isNegative) : nil
    }
}

/// Why a word or line of `rewind calc` input could not be done.
enum CalcInputError: Error, CustomStringConvertible {
    /// A word is neither a label, an alias, a number nor a pseudo-key.
    case unknownLabel(UnknownLabelError)
    /// `record` or `play` came last, without a name.
    case missingMacroName(after: String)
    /// `play` named a macro that was not recorded.
    case macro(MacroError)
    /// `stop` came while no macro was being recorded.
    case notRecording
    /// A number written in `word` has more digits than the calculator takes.
    case tooManyDigits(number: String, word: String, count: Int)
    /// A number written in `word` has more than one decimal point.
    case severalPoints(number: String, word: String, count: Int)
    /// `record` came while the macro named first was being recorded.
    case alreadyRecording(String, asked: String)
    /// A negative number, on a keypad without the ± key that makes one:
    /// the word, or (`among`) a word of keys written together that holds one.
    case noSignKey(String, among: Bool = false)
    /// A press while the macro being recorded holds as many as a macro keeps.
    case macroFull(String)
    /// A number written with a comma (`1,5`, `1,000`), which could be a
    /// decimal comma or a thousands separator.
    case comma(String)

    var description: String {
        switch self {
        case .unknownLabel(let error): error.description
        case .missingMacroName(let word): "\"\(word)\" needs a macro name after it"
        case .macro(let error): error.description
        case .notRecording: "\"stop\" ends the recording of a macro, and none is being recorded; start one with \"record NAME\""
        case .tooManyDigits(let number, let word, let count):
            "\(Self.naming(number, in: word)) has \(count) digits;"
                + " the calculator takes numbers of at most \(Calculator.maximumTypedDigits) digits"
        case .severalPoints(let number, let word, let count):
            "\(Self.naming(number, in: word)) has \(count) decimal points; a number has at most one"
        case .noSignKey(let word, let among):
            "\"\(Self.cut(word))\" \(among ? "holds" : "is") a negative number, and this keypad has no ± key to make one"
        case .alreadyRecording(let current, let asked):
            "\"record \(asked)\" came while the macro \"\(current)\" is being recorded; end it with \"stop\" first"
        case .comma(let word):
            "\"\(Self.cut(word))\" holds a comma; write a decimal point as a point and a number without thousands separators (1.5, 1000)"
        case .macroFull(let name):
            "the macro \"\(name)\" holds \(Macro.maximumLength) presses, the most a macro keeps; end it with \"stop\" before pressing more"
        }
    }

    /// `"12.5.5"`, or `"1.5.5" in "2x1.5.5="` when the number is part of a longer word.
    private static func naming(_ number: String, in word: String) -> String {
        [number, "-" + number].contains(word) ? "\"\(cut(word))\"" : "\"\(cut(number))\" in \"\(cut(word))\""
    }

    /// `text`, or its first 40 characters and "…" when it is longer: an
    /// error stays one readable line however long the number typed.
    private static func cut(_ text: String) -> String {
        text.count > 40 ? text.prefix(40) + "…" : text
    }
}

extension Character {
    /// Whether this is one of the digits 0-9.
    fileprivate var isASCIIDigit: Bool {
        isASCII && isNumber
    }
}
