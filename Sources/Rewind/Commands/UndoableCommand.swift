/// A command that knows how to undo itself, for receivers that cannot be
/// copied: a database, a file, a connection.
///
/// This is the classic command with `execute` and `undo`. Its
/// ``reversed`` command swaps the two, which makes it a reversible change of
/// a ``CommandReceiver``, so that such commands are recorded in the same
/// ``History`` as changes of value types, with names, groups, undo, redo and
/// jumps:
///
/// ```swift
/// let create = UndoableCommand<Database>(
///     name: "Create “Buy milk”",
///     execute: { try $0.insert(item) },
///     undo: { try $0.delete(id: item.id) })
/// let history = History(CommandReceiver(database))
/// try history.perform(create, named: create.name)
/// try history.undo()
/// ```
public struct UndoableCommand<Receiver> {
    /// An action on the receiver that may fail.
    public typealias Action = (Receiver) throws -> Void

    /// What the command does, in words a person reads ("Create “Buy milk”").
    public let name: String
    private let executeAction: Action
    private let undoAction: Action

    /// Creates a command from an action and the action that reverts it.
    public init(name: String = "", execute: @escaping Action, undo: @escaping Action) {
        self.name = name
        self.executeAction = execute
        self.undoAction = undo
    }

    /// Performs the command on `receiver`.
    public func execute(on receiver: Receiver) throws {
        try executeAction(receiver)
    }

    /// Reverts the command's effect on `receiver`.
    public func undo(on receiver: Receiver) throws {
        try undoAction(receiver)
    }

    /// The command that undoes this one: executing it runs this command's undo.
    public var reversed: UndoableCommand<Receiver> {
        UndoableCommand(name: name, execute: undoAction, undo: executeAction)
    }
}

/// Adapts a receiver that cannot be copied to the ``Reversible`` protocol, so
/// that ``UndoableCommand``s on it are recorded in a ``History``.
///
/// Applying a command executes it on the receiver and returns its
/// ``UndoableCommand/reversed`` command as the inverse.
public struct CommandReceiver<Receiver>: Reversible {
    /// The object the commands act on.
    public let receiver: Receiver

    /// Wraps `receiver`.
    public init(_ receiver: Receiver) {
        self.receiver = receiver
    }

    /// Executes `command` on the receiver and returns the command that undoes it.
    public mutating func apply(_ command: UndoableCommand<Receiver>) throws -> UndoableCommand<Receiver> {
        try command.execute(on: receiver)
        return command.reversed
    }
}
