import Foundation

/// Everything that flows through the app domain: commands from a user
/// interface (`cmd`) and acknowledgements from the features (`ack`).
///
/// ```swift
/// app(.todos(.cmd(.create(.init(title: "Buy milk"), at: nil))))
/// app(.todos(.cmd(.finish(ids: [milk.id]))))
/// app(.history(.cmd(.undo)))              // rootHandler gets .history(.ack(.undone(name: "Complete “Buy milk”")))
/// ```
public enum Message: Equatable, Sendable {
    /// Messages of the to-do list.
    case todos(Todos)
    /// Messages of the undo history.
    case history(History)

    /// Messages of the to-do list.
    public enum Todos: Equatable, Sendable {
        /// A command.
        case cmd(CMD)
        /// An acknowledgement.
        case ack(ACK)

        /// What a user interface asks of the to-do list.
        public enum CMD: Equatable, Sendable {
            /// Appends a made item.
            case add(item: TodoItem)
            /// Makes an item from a draft (id and date injected) and appends it, or inserts it at a position.
            case create(draft: TodoItem.Draft, at: Int?)
            /// Inserts a made item so that it ends up at a position.
            case insert(item: TodoItem, at: Int)
            /// Removes an item (by its id); a missing one is acknowledged as not found.
            case remove(item: TodoItem)
            /// Removes several items as one step.
            case removeItems(ids: [UUID])
            /// Removes every completed item as one step.
            case clearFinished
            /// Replaces an item by a new version with the same id (the seed's update).
            case update(item: TodoItem)
            /// Alters fields of an item.
            case alter(id: UUID, changes: [TodoItem.Change])
            /// Completes items as one step.
            case finish(ids: [UUID])
            /// Reopens items as one step.
            case unfinish(ids: [UUID])
            /// Completes every item.
            case finishAll
            /// Reopens every item.
            case unfinishAll
            /// Moves an item so that it ends up at a position.
            case move(id: UUID, to: Int)
            /// Makes these items the whole list (import).
            case replaceAll(items: [TodoItem])
            /// Replaces known items and appends new ones (import by merging).
            case merge(items: [TodoItem])
        }

        /// What the to-do list feature answers.
        public enum ACK: Equatable, Sendable {
            /// An item was added.
            case added(item: TodoItem)
            /// Items were removed, as they were.
            case removed(items: [TodoItem])
            /// Items were changed; their new versions.
            case updated(items: [TodoItem])
            /// An item was moved to a position.
            case moved(item: TodoItem, to: Int)
            /// Items were imported.
            case imported(count: Int)
            /// The command changed nothing, and this is why.
            case failed(TodoFailure)
        }
    }

    /// Messages of the undo history.
    public enum History: Equatable, Sendable {
        /// A command.
        case cmd(CMD)
        /// An acknowledgement.
        case ack(ACK)

        /// What a user interface asks of the history: undo, redo, jump(to:).
        public typealias CMD = HistoryNavigator.Request

        /// What the history feature answers: undone(name:), redone(name:),
        /// jumped(to:), nothingToUndo, nothingToRedo, failed(_:).
        public typealias ACK = HistoryNavigator.Response
    }
}

/// A function that takes messages: a feature's input, or the root handler
/// that receives every acknowledgement.
public typealias MessageHandler = @Sendable (Message) -> Void
