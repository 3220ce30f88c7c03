import Foundation

/// A part of a step that an undo or a redo left alone because someone else
/// wrote it after the step, and the sentence that tells the person so.
public struct SkippedPart: Equatable, Hashable, Sendable {
    /// Why the part was left alone.
    public enum Reason: Equatable, Hashable, Sendable {
        /// Someone else wrote this part of the item since.
        case written(ItemPart)
        /// Someone else deleted the item since.
        case deleted
        /// The step added the item and someone else changed it since, so it stays.
        case keptAdded
    }

    /// The item's id.
    public let item: UUID
    /// The item's title as the step knew it.
    public let title: String
    /// Why the part was left alone.
    public let reason: Reason
    /// The person who wrote it since.
    public let by: String
    /// Whether the item is completed now (to say "completed" or "reopened").
    public let isCompletedNow: Bool

    /// Describes a part that `by` wrote since.
    public init(item: UUID, title: String, reason: Reason, by: String, isCompletedNow: Bool = false) {
        self.item = item
        self.title = title
        self.reason = reason
        self.by = by
        self.isCompletedNow = isCompletedNow
    }

    /// The sentence for the person who pressed Undo (`undoing`) or Redo:
    /// "Could not undo the rename of “Milk”: Bob renamed it since.", or,
    /// read by the one who wrote it since (the account key `viewer`),
    /// "… you renamed it since." `naming` gives the name to show for an
    /// account key (the account as it was made, say).
    public func sentence(undoing: Bool, for viewer: String? = nil, naming: (String) -> String = { $0 }) -> String {
        let verb = undoing ? "undo" : "redo"
        let by = viewer == self.by ? "you" : naming(self.by)
        switch reason {
        case .keptAdded:
            return "Kept “\(title)”: \(by) changed it since."
        case .deleted:
            return "Could not \(verb) the change of “\(title)”: \(by) deleted it since."
        case .written(let part):
            return "Could not \(verb) the \(Self.noun(part)) of “\(title)”: \(by) \(verbPhrase(part)) since."
        }
    }

    private static func noun(_ part: ItemPart) -> String {
        switch part {
        case .existence: "addition"
        case .position: "move"
        case .title: "rename"
        case .details: "change of the details"
        case .due: "change of the due date"
        case .location: "change of the location"
        case .state: "change of the state"
        }
    }

    private func verbPhrase(_ part: ItemPart) -> String {
        switch part {
        case .existence: "changed it"
        case .position: "moved it"
        case .title: "renamed it"
        case .details: "changed its details"
        case .due: "changed its due date"
        case .location: "changed its location"
        case .state: isCompletedNow ? "completed it" : "reopened it"
        }
    }
}
