import Foundation
import Rewind

/// A calculator in use: a keypad from a ``ButtonConfiguration``, unlimited
/// undo and redo of every key press, the tape, and macros.
///
/// ```swift
/// var session = CalculatorSession(configuration: try .shipped())
/// try session.press(["1", "2", "+", "3", "="])
/// session.display          // "15"
/// session.undo()           // back to before "=": "3"
/// session.redo()           // "15" again
/// ```
///
/// Every key press that changes the calculator is one undo step, named after
/// its label ("Press +"); a key press that changes nothing (a second `.`)
/// adds no step. Undo and redo move through error states like any other.
///
/// A macro is a recorded sequence of key presses that can be played again
/// on whatever the calculator shows; one undo reverts a whole replay.
///
/// ```swift
/// session.startRecording(named: "add tax")
/// try session.press(["x", "1", ".", "2", "="])
/// session.stopRecording()
/// try session.press(["1", "0", "0"])
/// try session.play(named: "add tax")   // "120", one undo step
/// ```
public struct CalculatorSession: Sendable {
    /// The keypad layout, whose labels are the ones this session accepts.
    public let configuration: ButtonConfiguration
    /// Makes the commands for the configuration's labels (and their aliases).
    public let factory: CommandFactory
    var history: ValueHistory<Calculator>
    private var recording: Macro?

    /// The recorded macros, by name.
    public private(set) var macros: [String: Macro] = [:]

    /// Creates a session showing 0.
    ///
    /// - Parameters:
    ///   - configuration: The keypad, usually ``ButtonConfiguration/shipped()``;
    ///     only its labels (and their aliases) are accepted.
    ///   - factory: The keys the labels map to; the standard one by default.
    ///   - undoLimit: The most undo steps kept; `nil` (the default) keeps all.
    public init(
        configuration: ButtonConfiguration,
        factory: CommandFactory = .standard,
        undoLimit: Int? = nil
    ) {
        self.configuration = configuration
        self.factory = factory.restricted(to: configuration.labels)
        history = ValueHistory(Calculator(), limit: undoLimit)
    }

    /// The calculator as it is now.
    public var calculator: Calculator {
        history.current
    }

    /// What the display shows.
    public var display: String {
        calculator.display
    }

    /// The completed calculations, oldest first.
    public var tape: [String] {
        calculator.tape
    }

    /// The name of the macro being recorded, or `nil` when none is.
    public var recordingMacroName: String? {
        recording?.name
    }

    /// How many presses the macro being recorded holds, or `nil` when none
    /// is being recorded; at ``Macro/maximumLength`` it takes no more.
    public var recordedPressCount: Int? {
        recording?.labels.count
    }

    /// Presses the button labelled `label` (or an alias of it), as one undo
    /// step. While a macro is recorded, the press is added to it.
    ///
    /// - Returns: The label of the step recorded (`x` for the alias `*`),
    ///   or `nil` when the press changed nothing and so made no step.
    /// - Throws: ``UnknownLabelError`` when the keypad has no such label;
    ///   nothing changes then.
    @discardableResult
    public mutating func press(_ label: String) throws(UnknownLabelError) -> String? {
        let command = try factory.command(for: label)
        let recorded = history.add(command.execute(with: calculator), named: "Press \(command.label)")
        if let count = recording?.labels.count, count < Macro.maximumLength { recording?.labels.append(command.label) }
        return recorded ? command.label : nil
    }

    /// Presses the buttons labelled `labels` in order, each as its own undo step.
    ///
    /// - Returns: The labels of the steps recorded, in order: those of the
    ///   presses that changed something.
    /// - Throws: ``UnknownLabelError`` for the first unknown label, before
    ///   any button is pressed.
    @discardableResult
    public mutating func press(_ labels: [String]) throws(UnknownLabelError) -> [String] {
        for label in labels { _ = try factory.key(for: label) }
        var recorded: [String] = []
        for label in labels {
            if let step = try press(label) { recorded.append(step) }
        }
        return recorded
    }
}

// MARK: - Undo and redo

extension CalculatorSession: UndoController {
    /// Whether there is a key press (or replay) to undo.
    public var canUndo: Bool { history.canUndo }

    /// Whether there is an undone key press (or replay) to redo.
    public var canRedo: Bool { history.canRedo }

    /// The name of the step ``undo()`` would revert: "Press +", "Press ×",
    /// "Play “tax”". A key is named by the sign it is drawn with (`×` for
    /// `x`, `−` for `-`), which a screen reader says as what it does.
    public var undoActionName: String? { history.undoActionName.map(shown) }

    /// The name of the step ``redo()`` would repeat, as ``undoActionName``
    /// names it.
    public var redoActionName: String? { history.redoActionName.map(shown) }

    /// A step's name with its key drawn as on the keypad.
    private func shown(_ name: String) -> String {
        guard name.hasPrefix("Press ") else { return name }
        let label = String(name.dropFirst("Press ".count))
        guard let face = (try? factory.key(for: label))?.typographicFace else { return name }
        return "Press " + face
    }

    /// How many steps can be undone from the newest one back: the key
    /// presses (and replays) the history holds.
    public var stepCount: Int { history.count - 1 }

    /// How many of the oldest steps were dropped (by the undo limit or a
    /// memory budget) and can no longer be undone.
    public var droppedStepCount: Int { history.droppedCount }

    /// Drops the `count` oldest steps, never the current state: what a
    /// memory budget does when the session holds too much.
    ///
    /// - Returns: How many steps were dropped.
    @discardableResult
    public mutating func dropOldestSteps(_ count: Int) -> Int {
        history.dropOldest(count)
    }

    /// Reverts the last key press (or replay) and returns its name, or `nil`
    /// when there is nothing to undo. Undo is not recorded in macros.
    @discardableResult
    public mutating func undo() -> String? {
        history.undo()
    }

    /// Repeats the last undone key press (or replay) and returns its name,
    /// or `nil` when there is nothing to redo.
    @discardableResult
    public mutating func redo() -> String? {
        history.redo()
    }
}

// MARK: - Macros

/// A named sequence of key presses that can be played again.
public struct Macro: Equatable, Hashable, Sendable, Codable {
    /// The most presses a recorded macro keeps; presses past it are not
    /// recorded.
    public static let maximumLength = 10_000

    /// What the macro is called.
    public let name: String
    /// The labels of the keys it presses, in order.
    public var labels: [String]

    /// Creates a macro that presses `labels` in order.
    public init(name: String, labels: [String]) {
        self.name = name
        self.labels = labels
    }
}

/// Why a macro could not be recorded or played.
public enum MacroError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No macro has this name.
    case unknownMacro(String, knownNames: [String])
    /// The macro presses a label this session's keypad does not have.
    case unknownLabel(UnknownLabelError)
    /// Playing the macro would make the macro being recorded longer than
    /// ``Macro/maximumLength`` presses.
    case tooLong(String)

    /// One line, for people.
    public var description: String {
        switch self {
        case .unknownMacro(let name, let known):
            known.isEmpty
                ? "Unknown macro \"\(name)\"; no macros are recorded"
                : "Unknown macro \"\(name)\"; recorded macros: \(known.joined(separator: ", "))"
        case .unknownLabel(let error):
            error.description
        case .tooLong(let name):
            "Playing \"\(name)\" while recording would make a macro of more than \(Macro.maximumLength) presses"
        }
    }
}

extension CalculatorSession {
    /// Starts recording the key presses that follow as a macro named `name`,
    /// dropping a recording under way.
    public mutating func startRecording(named name: String) {
        recording = Macro(name: name, labels: [])
    }

    /// Stops recording and keeps the macro (replacing one of the same name).
    ///
    /// - Returns: The recorded macro, or `nil` when none was being recorded.
    @discardableResult
    public mutating func stopRecording() -> Macro? {
        guard let macro = recording else { return nil }
        recording = nil
        macros[macro.name] = macro
        return macro
    }

    /// Plays the macro named `name` on the current value, as one undo step.
    ///
    /// - Throws: ``MacroError/unknownMacro(_:knownNames:)`` when there is none.
    public mutating func play(named name: String) throws(MacroError) {
        guard let macro = macros[name] else {
            throw .unknownMacro(name, knownNames: macros.keys.sorted())
        }
        try play(macro)
    }

    /// Presses the keys of `macro` on the current value, as one undo step
    /// named "Play “name”". While another macro is recorded, the presses
    /// are added to it.
    ///
    /// - Throws: ``MacroError/unknownLabel(_:)`` when the keypad lacks one of
    ///   its labels; nothing changes then.
    public mutating func play(_ macro: Macro) throws(MacroError) {
        // Recording a macro that plays itself doubles it each round: keep it bounded.
        if let recording, recording.labels.count + macro.labels.count > Macro.maximumLength {
            throw .tooLong(macro.name)
        }
        var commands: [CalculatorCommand] = []
        for label in macro.labels {
            do {
                commands.append(try factory.command(for: label))
            } catch {
                throw .unknownLabel(error)
            }
        }
        let result = commands.reduce(calculator) { $1.execute(with: $0) }
        history.add(result, named: "Play “\(macro.name)”")
        recording?.labels += commands.map(\.label)
    }
}
