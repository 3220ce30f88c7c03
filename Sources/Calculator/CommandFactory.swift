import Rewind

/// A command that presses one key of a calculator, named by its button label.
///
/// Built on the engine's ``Rewind/ValueCommand``: executing it returns a new
/// calculator value and leaves the given one untouched, so an undo history
/// can keep both.
public struct CalculatorCommand {
    /// The button label the command was made for ("7", "+", "√").
    public let label: String
    /// The key the command presses.
    public let key: Key
    private let command: ValueCommand<Calculator>

    /// Creates a command that presses `key`, for the button labelled `label`.
    public init(label: String, key: Key) {
        self.label = label
        self.key = key
        command = ValueCommand { (calculator: inout Calculator) in calculator.press(key) }
    }

    /// Returns `calculator` after the key press.
    public func execute(with calculator: Calculator) -> Calculator {
        command.execute(with: calculator)
    }
}

/// Makes the command for a button label: the one place that knows which
/// label means which key.
///
/// Adding a key means one new case (of ``UnaryFunction`` for a function such
/// as `sin`) and one entry in ``standardEntries``.
///
/// ```swift
/// let command = try CommandFactory.standard.command(for: "√")
/// var calculator = Calculator()
/// calculator.press(.digit(.nine))
/// command.execute(with: calculator).display   // "3"
/// ```
public struct CommandFactory: Equatable, Sendable {
    /// A button label and the key it presses.
    public struct Entry: Equatable, Sendable {
        /// The text on the button.
        public let label: String
        /// What the button does.
        public let key: Key

        /// Creates an entry that maps `label` to `key`.
        public init(_ label: String, _ key: Key) {
            self.label = label
            self.key = key
        }
    }

    /// Every label the calculator knows, in the order they are listed in
    /// error messages.
    public static let standardEntries: [Entry] = [
        Entry("0", .digit(.zero)), Entry("1", .digit(.one)), Entry("2", .digit(.two)),
        Entry("3", .digit(.three)), Entry("4", .digit(.four)), Entry("5", .digit(.five)),
        Entry("6", .digit(.six)), Entry("7", .digit(.seven)), Entry("8", .digit(.eight)),
        Entry("9", .digit(.nine)),
        Entry(".", .decimalPoint),
        Entry("+", .operation(.addition)),
        Entry("-", .operation(.subtraction)),
        Entry("x", .operation(.multiplication)),
        Entry("÷", .operation(.division)),
        Entry("=", .equals),
        Entry("%", .percent),
        Entry("±", .toggleSign),
        Entry("√", .function(.squareRoot)),
        Entry("x²", .function(.square)),
        Entry("C", .clear),
        Entry("⌫", .backspace),
        Entry("AC", .allClear),
    ]

    /// Other ways to write a label, easier to type in a terminal: `*`, `×`
    /// and `/` for `x` and `÷`, `−` (the minus sign) for `-`, `sqrt` for `√`,
    /// `x^2` for `x²`, `+/-` for `±`.
    public static let standardAliases: [String: String] = [
        "*": "x", "×": "x", "/": "÷", "−": "-",
        "sqrt": "√", "x^2": "x²", "+/-": "±",
    ]

    /// The factory for every key the calculator knows.
    public static let standard = CommandFactory(entries: standardEntries, aliases: standardAliases)

    /// The labels and their keys, in order.
    public let entries: [Entry]
    /// Alternative spellings, each mapped to one of the labels.
    public let aliases: [String: String]
    private let keysByLabel: [String: Key]

    /// Creates a factory for `entries`; the first entry wins when a label
    /// appears twice. Aliases of labels that are not among the entries are
    /// dropped.
    public init(entries: [Entry], aliases: [String: String] = [:]) {
        self.entries = entries
        keysByLabel = Dictionary(entries.map { ($0.label, $0.key) }, uniquingKeysWith: { first, _ in first })
        self.aliases = aliases.filter { [keysByLabel] in keysByLabel[$0.value] != nil }
    }

    /// The labels this factory knows, in order (aliases not included).
    public var labels: [String] {
        entries.map(\.label)
    }

    /// Whether `label` (or an alias of one) names a key.
    public func knows(_ label: String) -> Bool {
        canonicalLabel(for: label) != nil
    }

    /// The label that `labelOrAlias` stands for, or `nil` for an unknown one.
    public func canonicalLabel(for labelOrAlias: String) -> String? {
        if keysByLabel[labelOrAlias] != nil { return labelOrAlias }
        return aliases[labelOrAlias]
    }

    /// The key a label (or an alias) presses.
    ///
    /// - Throws: ``UnknownLabelError``, which lists the known labels.
    public func key(for label: String) throws(UnknownLabelError) -> Key {
        guard let canonical = canonicalLabel(for: label), let key = keysByLabel[canonical] else {
            throw UnknownLabelError(label: label, knownLabels: labels)
        }
        return key
    }

    /// The command for a label (or an alias), named with the label.
    ///
    /// - Throws: ``UnknownLabelError``, which lists the known labels.
    public func command(for label: String) throws(UnknownLabelError) -> CalculatorCommand {
        let key = try key(for: label)
        return CalculatorCommand(label: canonicalLabel(for: label) ?? label, key: key)
    }

    /// A factory that knows only `labels` (and the aliases of those), in that
    /// order: the keypad of a ``ButtonConfiguration``. A label that is an
    /// alias presses its key; labels this factory does not know are left out.
    /// Every spelling of a kept key stands for the keypad's label: on a
    /// keypad labelled `*`, `x` and `×` press it too, and the steps are named
    /// "Press *", as the key is drawn.
    public func restricted(to labels: [String]) -> CommandFactory {
        let kept = labels.compactMap { label in
            canonicalLabel(for: label).flatMap { keysByLabel[$0] }.map { Entry(label, $0) }
        }
        // The keypad's label of each key it has (the first, when it has one twice).
        let drawn = Dictionary(kept.map { ($0.key, $0.label) }, uniquingKeysWith: { first, _ in first })
        let keypadLabels = Set(kept.map(\.label))
        var spellings: [String: String] = [:]
        // Every label and alias this factory knows, with the label it stands for.
        for (spelling, label) in entries.map({ ($0.label, $0.label) }) + aliases.map({ ($0.key, $0.value) })
        where !keypadLabels.contains(spelling) {
            if let key = keysByLabel[label], let label = drawn[key] { spellings[spelling] = label }
        }
        return CommandFactory(entries: kept, aliases: spellings)
    }

    /// Factories are equal when they map the same labels and aliases to the same keys.
    public static func == (lhs: CommandFactory, rhs: CommandFactory) -> Bool {
        lhs.entries == rhs.entries && lhs.aliases == rhs.aliases
    }
}

/// A button label that no key has.
public struct UnknownLabelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The label that was not found.
    public let label: String
    /// The labels that would have been accepted.
    public let knownLabels: [String]

    /// Creates the error for `label`, listing `knownLabels`.
    public init(label: String, knownLabels: [String]) {
        self.label = label
        self.knownLabels = knownLabels
    }

    /// One line: "Unknown label "y"; known labels: 0 1 2 …".
    public var description: String {
        "Unknown label \"\(label)\"; known labels: \(knownLabels.joined(separator: " "))"
    }
}
