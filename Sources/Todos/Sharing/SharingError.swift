import Foundation

/// Why a shared list refused an undo, a redo or a change.
public enum SharingError: Error, Equatable, Hashable, Sendable {
    /// The person has no step of their own left to undo.
    case nothingToUndo(author: String)
    /// The person has no undone step of their own to redo.
    case nothingToRedo(author: String)
    /// The person asked to undo or redo a step that is no longer their next
    /// one (say, a second click on the same Undo button).
    case notTheNextStep(asked: Int, next: Int?)
    /// The change itself was refused.
    case refused(TodoError)
    /// A row read back is not numbered right after the last row the list
    /// holds: the log has a gap, or was read out of order.
    case notTheNextRow(expected: Int, found: Int)
    /// The operation reads these rows of the log, which the list does not
    /// hold in memory (it was opened from its saved parts); nothing was
    /// changed. A store reads them, hands them over with
    /// ``SharedList/hold(_:)`` and asks again.
    case rowsNotHeld([Int])
    /// The operation shows or looks at these rows (``SharedStep/Summary``:
    /// their names, authors, kinds and dates, not their changes), which the
    /// list does not hold; nothing was changed. A store reads them, hands
    /// them over with ``SharedList/hold(summaries:)`` (or the whole rows
    /// with ``SharedList/hold(_:)``) and asks again.
    case summariesNotHeld([Int])
    /// The undo or redo looks at who last wrote these items, which were
    /// removed before the list was opened with the writers of its listed
    /// items only; nothing was changed. A store reads their writers, hands
    /// them over with ``SharedList/hold(writers:of:)`` and asks again.
    case writersNotHeld([UUID])
}

extension SharingError: CustomStringConvertible {
    /// A sentence that says what was wrong and what is allowed.
    public var description: String {
        switch self {
        case .nothingToUndo(let author):
            "\(author) has no change of their own to undo on this list."
        case .nothingToRedo(let author):
            "\(author) has no undone change of their own to redo on this list."
        case .notTheNextStep(let asked, let next?):
            "Step \(asked) is not the next one to take back; the next one is step \(next). Nothing was changed."
        case .notTheNextStep(let asked, nil):
            "Step \(asked) is not the next one to take back, and there is none. Nothing was changed."
        case .refused(let error):
            error.description
        case .notTheNextRow(let expected, let found):
            "The log's row \(found) came where row \(expected) was expected."
        case .rowsNotHeld(let rows):
            "The list's rows \(rows.map(String.init).joined(separator: ", ")) were not read from the store. Nothing was changed."
        case .writersNotHeld(let items):
            "Who last wrote the items \(items.map(\.uuidString).joined(separator: ", ")) was not read from the store. Nothing was changed."
        case .summariesNotHeld(let rows):
            "The summaries of the list's rows \(rows.map(String.init).joined(separator: ", ")) were not read from the store. Nothing was changed."
        }
    }
}
