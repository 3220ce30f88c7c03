import Foundation

/// One named step of a ``History``: the changes that cross it.
///
/// A step that is done (before the history's position) holds the changes that
/// undo it; a step that is undone (at or after the position) holds the
/// changes that redo it. Either way ``changes`` are applied from the last to
/// the first, and applying them yields the changes that cross back.
public struct HistoryStep<Change> {
    /// What the step did, in words a person reads ("Delete “Buy milk”").
    public var name: String
    /// When the step was first performed.
    public var date: Date
    /// When a change was last added to the step (by coalescing or grouping);
    /// equal to ``date`` for a step of one change.
    public var lastChangeDate: Date
    /// The key under which consecutive changes are merged into this step, if any.
    public var coalescingKey: String?
    /// The changes that cross the step, applied from the last to the first.
    public var changes: [Change]

    /// Creates a step; used by stores that restore a saved history.
    public init(
        name: String,
        date: Date,
        lastChangeDate: Date? = nil,
        coalescingKey: String? = nil,
        changes: [Change]
    ) {
        self.name = name
        self.date = date
        self.lastChangeDate = lastChangeDate ?? date
        self.coalescingKey = coalescingKey
        self.changes = changes
    }
}

extension HistoryStep: Equatable where Change: Equatable {}
extension HistoryStep: Hashable where Change: Hashable {}
extension HistoryStep: Sendable where Change: Sendable {}
extension HistoryStep: Codable where Change: Codable {}
