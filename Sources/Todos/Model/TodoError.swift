import Foundation

/// Why the to-do domain refused a value or a change. Each case says what was
/// wrong and what is allowed; a refused change leaves the state as it was.
public enum TodoError: Error, Equatable, Hashable, Sendable {
    /// A title was empty after trimming.
    case emptyTitle
    /// A title was longer than the limit after trimming.
    case titleTooLong(length: Int, limit: Int)
    /// A text held a control character other than tab and the line breaks
    /// (see ``TypedText``): the field, in words that follow “in” (“the
    /// title”), and the character's code.
    case controlCharacter(field: String, scalar: UInt32)
    /// A latitude lay outside -90…90.
    case latitudeOutOfRange(Double)
    /// A longitude lay outside -180…180.
    case longitudeOutOfRange(Double)
    /// An address had no field filled in.
    case emptyAddress
    /// Directions had no steps.
    case noDirections
    /// A step of directions was empty (index from 0).
    case emptyDirectionStep(at: Int)
    /// A time span's end did not lie after its start.
    case spanEndsBeforeStart(start: Date, end: Date)
    /// A duration was zero or negative.
    case durationNotPositive(Int)
    /// A date, or the end of a duration, lay outside ``TodoDate/validDates``
    /// (the years 1 to 9999).
    case dateOutOfRange(Date)
    /// No item has this id.
    case itemNotFound(UUID)
    /// An item with this id is already in the list.
    case duplicateItem(UUID)
    /// A position lay outside the list.
    case positionOutOfRange(Int, valid: ClosedRange<Int>)
    /// An item was to be moved next to one that is not in the list.
    case neighbourNotFound(UUID)
    /// An item was to be moved before or after itself.
    case movedNextToItself(UUID)
    /// The change would change nothing (say, completing all items when all
    /// are complete), so no undo step is made for it.
    case nothingToChange(String)
}

extension TodoError: CustomStringConvertible {
    /// A sentence that says what was wrong and what is allowed.
    public var description: String {
        switch self {
        case .emptyTitle:
            "A title must not be empty."
        case .titleTooLong(let length, let limit):
            "A title may have at most \(limit) characters; this one has \(length)."
        case .controlCharacter(let field, let scalar):
            "The control character \(TypedText.name(of: scalar)) is not allowed in \(field); "
                + "text may hold any character but control characters, apart from tabs and line breaks."
        case .latitudeOutOfRange(let value):
            "A latitude must lie between -90 and 90; \(value) does not."
        case .longitudeOutOfRange(let value):
            "A longitude must lie between -180 and 180; \(value) does not."
        case .emptyAddress:
            "An address needs at least one of street, city, zip code or country."
        case .noDirections:
            "Directions need at least one step."
        case .emptyDirectionStep(let index):
            "Step \(index + 1) of the directions is empty; every step needs text."
        case .spanEndsBeforeStart(let start, let end):
            "A time span must end after it starts; \(ISO8601Milliseconds.string(from: end)) is not after \(ISO8601Milliseconds.string(from: start))."
        case .durationNotPositive(let amount):
            "A duration must be positive; \(amount) is not."
        case .dateOutOfRange(let date):
            "A date must lie between 0001-01-01 and 9999-12-31 (UTC); \(Self.describeOutOfRange(date)) does not."
        case .itemNotFound(let id):
            "There is no item with id \(id.uuidString)."
        case .neighbourNotFound(let id):
            "There is no item with id \(id.uuidString) to move the item next to."
        case .movedNextToItself:
            "An item cannot be moved before or after itself; name another item."
        case .duplicateItem(let id):
            "An item with id \(id.uuidString) is already in the list; ids must be unique."
        case .positionOutOfRange(let position, let valid):
            "There is no position \(position): positions run from \(valid.lowerBound) to \(valid.upperBound)."
        case .nothingToChange(let reason):
            "Nothing to change: \(reason)."
        }
    }
}

extension TodoError {
    /// A date outside the valid range, in words that never overflow.
    private static func describeOutOfRange(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        // Dates within 292 million years are written exactly; further out only the direction is told.
        guard seconds.isFinite, abs(seconds) < 9.2e15 else { return seconds < 0 ? "one far in the past" : "one far in the future" }
        return ISO8601Milliseconds.string(from: date)
    }
}

extension TodoError: CustomDebugStringConvertible {
    /// The same sentence as ``description``: printing an error never prints
    /// a raw `Date`, whose own description traps for dates past the year
    /// 292 million.
    public var debugDescription: String { description }
}

extension TodoError: LocalizedError {
    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
}
