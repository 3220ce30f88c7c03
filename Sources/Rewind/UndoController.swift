/// What a user interface needs from an undo history, whichever kind it is:
/// a ``ValueHistory`` of snapshots or a ``History`` of reversible changes.
///
/// A view binds its Undo and Redo buttons to this protocol: enabled when
/// ``canUndo`` or ``canRedo``, titled with ``undoTitle`` or ``redoTitle``.
public protocol UndoController {
    /// Whether there is a step to undo.
    var canUndo: Bool { get }
    /// Whether there is an undone step to redo.
    var canRedo: Bool { get }
    /// The name of the step that ``undo()`` would revert, or `nil` when there
    /// is none or it has no name.
    var undoActionName: String? { get }
    /// The name of the step that ``redo()`` would repeat, or `nil` when there
    /// is none or it has no name.
    var redoActionName: String? { get }

    /// Reverts the newest step and returns its name ("" for an unnamed step),
    /// or returns `nil` when there is nothing to undo.
    @discardableResult
    mutating func undo() throws -> String?

    /// Repeats the newest undone step and returns its name ("" for an unnamed
    /// step), or returns `nil` when there is nothing to redo.
    @discardableResult
    mutating func redo() throws -> String?
}

extension UndoController {
    /// The title of an Undo button or menu item: "Undo Delete “Buy milk”",
    /// or just "Undo" when the step has no name.
    public var undoTitle: String {
        Self.title("Undo", undoActionName)
    }

    /// The title of a Redo button or menu item: "Redo Delete “Buy milk”",
    /// or just "Redo" when the step has no name.
    public var redoTitle: String {
        Self.title("Redo", redoActionName)
    }

    private static func title(_ verb: String, _ name: String?) -> String {
        guard let name, !name.isEmpty else { return verb }
        return "\(verb) \(name)"
    }
}
