import Foundation
import Rewind

/// Where a persistent store writes what happened, in one transaction per
/// operation: pass one to ``StoreCore`` and it calls ``write(_:state:)``
/// after each change, undo, redo, jump or reset, where the core runs (a
/// journal is confined with its core, so it need not be `Sendable`).
///
/// When `write` throws, the core reverts the operation and
/// rethrows, so memory never runs ahead of what was committed. The JSON file
/// store saves this way (the SQLite store keeps its own append-only log):
///
/// ```swift
/// final class FileJournal: StoreJournal {
///     func write(_ entry: JournalEntry, state: AppState) throws {
///         // entry.operation, entry.events (steps performed, undone, redone,
///         // trimmed), entry.touchedItemIDs, entry.position: write them, or
///         // the whole state, in one atomic step
///     }
/// }
/// ```
public protocol StoreJournal {
    /// Writes `entry` durably, or throws to make the store undo it.
    ///
    /// - Parameter state: The state after the operation; read it, do not keep it
    ///   (keeping it makes the next change copy the list).
    func write(_ entry: JournalEntry, state: AppState) throws
}

/// One operation of a store, as its journal needs it.
public struct JournalEntry: Sendable {
    /// What the store did.
    public enum Operation: Equatable, Sendable {
        /// Performed a new step (``AppStore/change(_:named:)``).
        case change
        /// Undid a step.
        case undo
        /// Redid a step.
        case redo
        /// Jumped to another position.
        case jump
        /// Emptied state and history.
        case reset
    }

    /// What the store did.
    public let operation: Operation
    /// What happened to the history, in order. A `.performed` step at an
    /// index replaces any step that was there and `discardedRedo` steps after
    /// it are gone; an `.undone` or `.redone` step now holds the changes that
    /// cross it back; `.trimmed` drops the oldest steps.
    public let events: [HistoryEvent<AppState.Change>]
    /// The ids of the items that may have changed (added, removed, altered or
    /// moved), or `nil` when the whole list may have changed.
    public let touchedItemIDs: Set<UUID>?
    /// How many steps are done after the operation.
    public let position: Int
    /// How many steps there are after the operation.
    public let stepCount: Int

    /// Creates an entry.
    public init(
        operation: Operation, events: [HistoryEvent<AppState.Change>],
        touchedItemIDs: Set<UUID>?, position: Int, stepCount: Int
    ) {
        self.operation = operation
        self.events = events
        self.touchedItemIDs = touchedItemIDs
        self.position = position
        self.stepCount = stepCount
    }
}

extension AppState.Change {
    /// The ids of the items this change touches, or `nil` when it may touch
    /// any item (setting the list, or the all-items changes before they are
    /// applied; their inverses list the items).
    public var touchedItemIDs: Set<UUID>? {
        switch self {
        case .setting: nil
        case .todos(let change):
            switch change {
            case .add(let item), .insert(let item, _): [item.id]
            case .remove(let id), .update(let id, _, _), .move(let id, _): [id]
            case .removeItems(let ids): Set(ids)
            case .restore(let placements): Set(placements.map(\.item.id))
            case .replace(let items): Set(items.map(\.id))
            case .completeAll, .reopenAll, .removeCompleted: nil
            }
        }
    }
}
