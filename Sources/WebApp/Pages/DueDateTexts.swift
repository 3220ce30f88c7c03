import Foundation
import Synchronization
import Todos

/// The texts the to-do page writes for due dates, each formatted once a day.
///
/// What a row shows for a due date ("tomorrow 14:30", "Fri 4 Dec") depends
/// on the date, the current day and the time zone only, and Foundation's
/// calendar arithmetic behind it costs tens of microseconds a date; so the
/// texts are kept, shared by every request, for each time zone the pages
/// are written in (the browsers', ``PageTimeZone``; at most ``mostZones``),
/// and a zone's are dropped all at once when its day changes (or when more
/// than ``capacity`` are kept). Whether an item is overdue depends on the
/// moment, not the day, and is not kept.
final class DueDateTexts: Sendable {
    /// What a row writes for one due date.
    struct Text: Sendable, Equatable {
        /// The short text ("tomorrow 14:30").
        let display: String
        /// The `datetime` attribute: the start in ISO 8601 (UTC), or "".
        let datetime: String

        /// The text of `due` as `formatter` writes it.
        init(_ due: TodoDate, formatter: DueDateFormatter) {
            display = formatter.display(due)
            datetime = TodoListView.isoDate(due.start)
        }
    }

    /// The most texts kept for one time zone.
    let capacity: Int
    /// The most time zones whose texts are kept; past them, all are dropped.
    static let mostZones = 8
    private let kept = Mutex<[TimeZone: Kept]>([:])

    /// The texts of one day in one time zone.
    private struct Kept {
        var today: Date
        var texts: [TodoDate: Text]
    }

    /// No texts yet; at most `capacity` are kept.
    init(capacity: Int = 20_000) {
        self.capacity = capacity
    }

    /// The texts of the due dates of `items` (the ones that have one) as
    /// `formatter` writes them: the kept ones, and the others formatted now
    /// (outside the lock) and kept from now on.
    ///
    /// - Complexity: O(*n*) lookups for *n* items; a date not kept for the
    ///   formatter's day and time zone is formatted once.
    func texts<Items: Collection<TodoItem>>(for items: Items, formatter: DueDateFormatter) -> [TodoDate: Text] {
        let zone = formatter.timeZone
        let known = kept.withLock { kept -> [TodoDate: Text] in
            guard let texts = kept[zone], texts.today == formatter.today else { return [:] }
            return texts.texts
        }
        var missing: [TodoDate: Text] = [:]
        for index in items.indices {
            let due = items[index].due
            guard due != .unknown, known[due] == nil, missing[due] == nil else { continue }
            missing[due] = Text(due, formatter: formatter)
        }
        guard !missing.isEmpty else { return known }
        return kept.withLock { kept in
            var fresh = kept.removeValue(forKey: zone) ?? Kept(today: formatter.today, texts: [:])
            if fresh.today != formatter.today { fresh = Kept(today: formatter.today, texts: [:]) }
            if kept.count >= Self.mostZones { kept.removeAll() }
            guard fresh.texts.count + missing.count <= capacity else {
                // Too many: start again with this page's texts, if they fit.
                let page = known.merging(missing) { old, _ in old }
                fresh.texts = page.count <= capacity ? page : [:]
                kept[zone] = fresh
                return page
            }
            fresh.texts.merge(missing) { old, _ in old }
            kept[zone] = fresh
            return fresh.texts
        }
    }

    /// How many texts are kept, of every time zone (for tests).
    var count: Int {
        kept.withLock { $0.values.reduce(0) { $0 + $1.texts.count } }
    }
}
