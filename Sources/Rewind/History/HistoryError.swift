/// Why a ``History`` refused an operation. Errors of the model's own changes
/// are passed through unchanged.
public enum HistoryError: Error, Equatable, Sendable {
    /// Undo, redo and jump are refused while a group is open; close it first.
    case groupOpen(name: String)
    /// ``History/endGroup()`` was called with no group open.
    case noOpenGroup
    /// A position outside the history was asked for.
    case positionOutOfRange(Int, valid: ClosedRange<Int>)
    /// A restored history's position does not lie within its steps.
    case invalidRestoredPosition(Int, stepCount: Int)
    /// A jump to a step of a history tree that it does not hold (never
    /// made, or pruned). ``History`` itself never throws it: stores that
    /// keep a tree of every branch (the to-do app's) do.
    case stepNotFound(Int64)
    /// A change failed, and putting back what it had already changed failed
    /// too: the model's inverse of a change it made did not apply. The model
    /// may hold part of the failed change; read it again from where it is
    /// kept. Both errors are described.
    case revertFailed(error: String, revert: String)
}

extension HistoryError: CustomStringConvertible {
    /// A sentence that says what was wrong and what is allowed.
    public var description: String {
        switch self {
        case .groupOpen(let name):
            "The group “\(name)” is still open: end it before undo, redo or jump."
        case .noOpenGroup:
            "There is no open group to end."
        case .positionOutOfRange(let position, let valid):
            "There is no position \(position) in the history: positions run from \(valid.lowerBound) to \(valid.upperBound)."
        case .invalidRestoredPosition(let position, let count):
            "A history of \(count) steps cannot be at position \(position): it must lie in 0...\(count)."
        case .stepNotFound(let number):
            "There is no step \(number) in the history (it was never made, or the oldest steps were pruned)."
        case .revertFailed(let error, let revert):
            "\(error) Putting back what it had changed failed too (\(revert)): the model may hold part of the change; read it again from where it is kept."
        }
    }
}
