import Foundation

/// One thing to do: a title, details, a state, a due date and a location,
/// with the dates it was created and last changed.
///
/// Items are values that change only through ``TodoItem/Change`` values
/// (``alter(_:at:)``), so every change has a name, can be validated, and can
/// be reverted exactly by a history.
///
/// ```swift
/// let milk = try TodoItem(id: makeID(), title: "Buy milk", created: now())
/// let done = try milk.alter(.complete, .due(to: .unknown), at: now())
/// ```
public struct TodoItem: Identifiable, Equatable, Hashable, Sendable {
    /// Whether an item is still to do (active) or done (completed).
    public enum State: String, Equatable, Hashable, Codable, Sendable, CaseIterable {
        /// Still to do.
        case active
        /// Done.
        case completed

        /// The state called `name`: `active` or `completed`, or the name an
        /// earlier version wrote for it (`unfinished`, `finished`), which
        /// files and history logs written then still hold.
        public init?(reading name: String) {
            switch name {
            case "unfinished": self = .active
            case "finished": self = .completed
            default: self.init(rawValue: name)
            }
        }
    }

    /// The most characters a title may have, after trimming.
    public static let maximumTitleLength = 500

    /// The item's identity; it never changes.
    public let id: UUID
    /// What to do, trimmed, between 1 and ``maximumTitleLength`` characters.
    public internal(set) var title: String
    /// Free text about the item; may be empty or span several lines.
    public internal(set) var details: String
    /// Whether the item is active or completed.
    public internal(set) var state: State
    /// When the item is due.
    public internal(set) var due: TodoDate
    /// Where the item is to be done.
    public internal(set) var location: Location
    /// When the item was created, to the millisecond.
    public let created: Date
    /// When the item was last altered, to the millisecond.
    public internal(set) var changed: Date

    /// Creates an item after validating every field.
    ///
    /// Dates are rounded to whole milliseconds, the precision of the JSON
    /// format, so that a saved item reads back equal.
    ///
    /// - Parameters:
    ///   - id: The identity; pass one from an injected `makeID`.
    ///   - created: The creation date; pass one from an injected `now`.
    ///   - changed: The date of the last change; `created` when `nil`.
    /// - Throws: ``TodoError`` when the title, due date or location is invalid.
    public init(
        id: UUID,
        title: String,
        details: String = "",
        state: State = .active,
        due: TodoDate = .unknown,
        location: Location = .unknown,
        created: Date,
        changed: Date? = nil
    ) throws(TodoError) {
        self.id = id
        self.title = try TodoItem.validatedTitle(title)
        self.details = details
        self.state = state
        self.due = try due.validated()
        self.location = try location.validated()
        self.created = created.roundedToMilliseconds
        self.changed = (changed ?? created).roundedToMilliseconds
    }

    /// Recreates an item as a store saved it, field by field.
    ///
    /// The title is checked as ``init(id:title:details:state:due:location:created:changed:)``
    /// checks it, and the location's values too; the due date's range is not,
    /// since older versions saved dates outside ``TodoDate/validDates`` and
    /// such an item must still open (changing its due date puts it in range).
    ///
    /// - Throws: ``TodoError`` when the title or the location is invalid.
    public init(
        restoring id: UUID, title: String, details: String, state: State, due: TodoDate, location: Location,
        created: Date, changed: Date
    ) throws(TodoError) {
        self.id = id
        self.title = try TodoItem.validatedTitle(title)
        self.details = details
        self.state = state
        self.due = try due.validated(checkingRange: false)
        self.location = try location.validated()
        self.created = created.roundedToMilliseconds
        self.changed = changed.roundedToMilliseconds
    }

    /// Whether the item is completed.
    public var isCompleted: Bool { state == .completed }

    /// Trims `title` and checks that it is neither empty nor too long.
    ///
    /// - Throws: ``TodoError/emptyTitle`` or ``TodoError/titleTooLong(length:limit:)``.
    public static func validatedTitle(_ title: String) throws(TodoError) -> String {
        let trimmed: String
        // Most titles have nothing to trim: they are kept without Foundation's
        // trimming, which was a tenth of opening a large list.
        if let first = title.unicodeScalars.first, let last = title.unicodeScalars.last,
           !CharacterSet.whitespacesAndNewlines.contains(first), !CharacterSet.whitespacesAndNewlines.contains(last) {
            trimmed = title
        } else {
            trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard !trimmed.isEmpty else { throw .emptyTitle }
        guard trimmed.count <= maximumTitleLength else {
            throw .titleTooLong(length: trimmed.count, limit: maximumTitleLength)
        }
        return trimmed
    }
}

extension TodoItem {
    /// What a person enters to create an item: everything but the identity
    /// and the dates, which the use case supplies from injected sources.
    public struct Draft: Equatable, Hashable, Sendable {
        /// The title; trimmed and validated when the item is made.
        public var title: String
        /// Free text about the item.
        public var details: String
        /// When the item is due.
        public var due: TodoDate
        /// Where the item is to be done.
        public var location: Location

        /// Creates a draft; only the title is required.
        public init(title: String, details: String = "", due: TodoDate = .unknown, location: Location = .unknown) {
            self.title = title
            self.details = details
            self.due = due
            self.location = location
        }
    }

    /// Creates an active item from a draft.
    ///
    /// - Throws: ``TodoError`` when a field of the draft is invalid.
    public init(_ draft: Draft, id: UUID, created: Date) throws(TodoError) {
        try self.init(
            id: id, title: draft.title, details: draft.details,
            due: draft.due, location: draft.location, created: created
        )
    }
}

extension Date {
    /// This date rounded to the nearest whole millisecond, which is what the
    /// JSON format keeps; rounding twice gives the same date.
    public var roundedToMilliseconds: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
