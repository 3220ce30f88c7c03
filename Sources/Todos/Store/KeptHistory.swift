import Foundation

/// The history a store keeps in memory once it was asked for: the steps
/// shown (``HistoryOverview``) and the tree (``HistoryTree``). Each is read
/// from the log the first time and then moved by the store's own changes,
/// undos and redos, so that neither is read again after each of them; what
/// the moves cannot follow (another process's or instance's rows, a jump
/// across branches, a batch taken back) forgets both, and the next ask
/// reads them afresh.
///
/// ```swift
/// var kept = KeptHistory()                 // nothing asked for yet
/// kept.shown = try log.overview(head, db)  // on the first ask
/// kept.performed(number: 8, name: "Add “Milk”", date: date, undoneLeft: false)
/// kept.undone()                            // the position moves back, the tree's step is undone
/// ```
public struct KeptHistory: Equatable, Sendable {
    /// The steps shown, once asked for; `nil` until then, or after it was forgotten.
    public var shown: HistoryOverview?
    /// The tree, once asked for; `nil` until then, after it was forgotten,
    /// or after a move it cannot follow (a pruning, a step it does not hold).
    public var tree: HistoryTree?

    /// Creates what is kept: nothing by default (read on the first ask).
    public init(shown: HistoryOverview? = nil, tree: HistoryTree? = nil) {
        self.shown = shown
        self.tree = tree
    }

    /// The history of a list with no step, known without reading it (a reset).
    public static let empty = KeptHistory(
        shown: HistoryOverview(steps: [], position: 0), tree: HistoryTree(steps: [], current: 0))

    /// A change, the step numbered `number`, made after the current
    /// position; `undoneLeft` when undone steps were left, which it
    /// abandons. `date` as the log keeps it, so that the kept history
    /// equals one read afresh.
    public mutating func performed(number: Int64, name: String, date: Date, undoneLeft: Bool) {
        shown?.perform(HistoryOverview.Step(name: name, date: date))
        tree?.perform(number: number, name: name, date: date, undoneLeft: undoneLeft)
    }

    /// An undo of the current step.
    public mutating func undone() {
        shown?.move(by: -1)
        if tree?.undo() == false { tree = nil }
    }

    /// A redo of the undone step numbered `number`.
    public mutating func redone(_ number: Int64) {
        shown?.move(by: 1)
        if tree?.redo(number) == false { tree = nil }
    }

    /// The log pruned to its newest `limit` steps: the steps shown keep as
    /// many; the tree (whose pruned branches cannot be told apart here) is
    /// read again.
    public mutating func pruned(keepingNewest limit: Int) {
        shown?.keepNewest(limit)
        tree = nil
    }

    /// Drops both, to be read afresh when next asked for.
    public mutating func forget() {
        shown = nil
        tree = nil
    }
}
