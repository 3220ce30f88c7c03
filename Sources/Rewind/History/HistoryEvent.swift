/// What happened to a ``History``, told to its observers after the fact.
///
/// Indexes are positions in ``History/steps`` at the time of the event.
public enum HistoryEvent<Change> {
    /// A step was recorded at `index`, or grew by coalescing (`coalesced`), or
    /// a group closed into it. `discardedRedo` undone steps were dropped first.
    case performed(HistoryStep<Change>, at: Int, coalesced: Bool, discardedRedo: Int)
    /// The step at `index` was undone; it now holds the changes that redo it.
    case undone(HistoryStep<Change>, at: Int)
    /// The step at `index` was redone; it now holds the changes that undo it.
    case redone(HistoryStep<Change>, at: Int)
    /// ``History/jump(to:)`` moved the position; the steps it crossed were
    /// told as `undone` and `redone` events before this one.
    case jumped(from: Int, to: Int)
    /// The oldest `count` steps were dropped to keep within the depth limit.
    case trimmed(count: Int)
}

extension HistoryEvent: Equatable where Change: Equatable {}
extension HistoryEvent: Sendable where Change: Sendable {}

/// A handle on an observer added to a ``History``; pass it to
/// ``History/removeObserver(_:)`` to stop observing.
public struct HistoryObservation: Hashable, Sendable {
    let id: Int
}
