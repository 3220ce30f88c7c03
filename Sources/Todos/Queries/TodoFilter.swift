import Foundation

/// Which items a view shows: TodoMVC's all, active and completed, plus overdue.
public enum TodoFilter: String, Equatable, Hashable, Sendable, Codable, CaseIterable {
    /// Every item.
    case all
    /// Items not done.
    case active
    /// Items done.
    case completed
    /// Items not done whose due date has passed.
    case overdue

    /// Whether `item` passes this filter at `now`.
    public func includes(_ item: TodoItem, now: Date) -> Bool {
        switch self {
        case .all: true
        case .active: !item.isCompleted
        case .completed: item.isCompleted
        case .overdue: item.isOverdue(at: now)
        }
    }
}

/// In which order a view shows items.
public enum TodoSort: String, Equatable, Hashable, Sendable, Codable, CaseIterable {
    /// The list's own order (creation order unless items were moved).
    case list
    /// Active items first, then the most recently changed.
    case smart
    /// Active items first; each group by due date, the earliest first (a
    /// span by its start), the items without one after those with one.
    case due
}

extension TodoItem {
    /// Whether the item is active and its deadline lies before `now`.
    /// Items without a deadline (no due date, or an open-ended span) are never overdue.
    public func isOverdue(at now: Date) -> Bool {
        guard !isCompleted, let deadline = due.deadline else { return false }
        return deadline < now
    }
}

extension TodoList {
    /// The items that pass `filter` and that `search` finds, in the order
    /// `sort` gives.
    ///
    /// ```swift
    /// list.items(.active, sortedBy: .smart, now: now())
    /// list.items(matching: TodoSearch("milk"), now: now())
    /// ```
    ///
    /// - Complexity: O(*n*) for the list order, O(*n* log *n*) for `.smart`
    ///   and `.due`.
    public func items(
        _ filter: TodoFilter = .all, sortedBy sort: TodoSort = .list, matching search: TodoSearch? = nil, now: Date
    ) -> [TodoItem] {
        let shown = passing(filter, matching: search, now: now)
        guard let order = Self.order(of: shown, by: sort) else { return shown }
        return order.map { shown[$0] }
    }

    /// The first `limit` items that pass `filter` and that `search` finds,
    /// in the order `sort` gives; then the items of `also` that pass and
    /// lie past those, in that order; and how many items pass in all: the
    /// rows of a page that shows the first items of a long list and what
    /// was added or moved on it.
    ///
    /// ```swift
    /// list.firstItems(.active, now: now(), limit: 200, also: [added.id])
    /// ```
    ///
    /// - Complexity: in the list's order without a search, O(*k*) for the
    ///   *k* items visited until `limit` pass the filter (`limit` for
    ///   `.all`: the items left out are not read) and O(*m* log *n*) for
    ///   the *m* ids of `also`; otherwise O(*n*), or O(*n* log *n*) for
    ///   `.smart` and `.due`, copying only the items returned.
    public func firstItems(
        _ filter: TodoFilter, sortedBy sort: TodoSort = .list, matching search: TodoSearch? = nil, now: Date,
        limit: Int, also: Set<UUID> = []
    ) -> (rows: [TodoItem], pastRows: [TodoItem], found: Int) {
        guard sort == .list, search == nil else {
            let shown = passing(filter, matching: search, now: now)
            let order = Self.order(of: shown, by: sort) ?? Array(shown.indices)
            let rows = order.prefix(limit).map { shown[$0] }
            guard shown.count > limit, !also.isEmpty else { return (rows, [], shown.count) }
            return (rows, order[limit...].filter { also.contains(shown[$0].id) }.map { shown[$0] }, shown.count)
        }
        let counts = counts(now: now)
        let found = switch filter {
        case .all: counts.total
        case .active: counts.active
        case .completed: counts.completed
        case .overdue: counts.overdue
        }
        var rows: [TodoItem] = []
        rows.reserveCapacity(Swift.min(limit, found))
        var lastPosition = -1
        var iterator = ids.makeIterator()
        var position = 0
        while rows.count < limit, let id = iterator.next() {
            if let item = itemsByID[id], filter.includes(item, now: now) {
                rows.append(item)
                lastPosition = position
            }
            position += 1
        }
        guard rows.count == limit, !also.isEmpty else { return (rows, [], found) }
        let past = also.compactMap { id -> (Int, TodoItem)? in
            guard let position = ids.position(of: id), position > lastPosition, let item = itemsByID[id],
                  filter.includes(item, now: now)
            else { return nil }
            return (position, item)
        }
        return (rows, past.sorted { $0.0 < $1.0 }.map(\.1), found)
    }

    /// The items that pass `filter` and that `search` finds, in the order
    /// `sort` gives, from `offset` on (`limit` at most, every one without
    /// it), and how many items pass in all: a page of the list.
    ///
    /// - Complexity: as ``firstItems(_:sortedBy:matching:now:limit:also:)``
    ///   with a limit of `offset` + `limit`.
    public func page(
        _ filter: TodoFilter = .all, sortedBy sort: TodoSort = .list, matching search: TodoSearch? = nil, now: Date,
        offset: Int, limit: Int?
    ) -> (items: [TodoItem], found: Int) {
        let (end, overflow) = Swift.max(0, offset).addingReportingOverflow(limit ?? Int.max)
        let (rows, _, found) = firstItems(filter, sortedBy: sort, matching: search, now: now, limit: overflow ? Int.max : end)
        return (Array(rows.dropFirst(offset)), found)
    }

    /// The items that pass `filter` and that `search` finds, in list order:
    /// one pass and one array, no copy of every item before filtering.
    private func passing(_ filter: TodoFilter, matching search: TodoSearch?, now: Date) -> [TodoItem] {
        var shown: [TodoItem] = []
        shown.reserveCapacity(filter == .all && search == nil ? count : 0)
        for id in ids {
            guard let item = itemsByID[id], filter.includes(item, now: now) else { continue }
            if let search, !search.matches(item) { continue }
            shown.append(item)
        }
        return shown
    }

    /// The indices of `shown` in the order `sort` gives, equal items in
    /// list order; `nil` for the list's own order. The keys are read once
    /// and indices are sorted, not items, so that the sort neither copies
    /// nor moves an item.
    private static func order(of shown: [TodoItem], by sort: TodoSort) -> [Int]? {
        switch sort {
        case .list:
            return nil
        case .smart:
            let keys = shown.map { (completed: $0.isCompleted, changed: $0.changed) }
            return keys.indices.sorted { lhs, rhs in
                if keys[lhs].completed != keys[rhs].completed { return !keys[lhs].completed }
                if keys[lhs].changed != keys[rhs].changed { return keys[lhs].changed > keys[rhs].changed }
                return lhs < rhs
            }
        case .due:
            let keys = shown.map { (completed: $0.isCompleted, start: $0.due.start) }
            return keys.indices.sorted { lhs, rhs in
                if keys[lhs].completed != keys[rhs].completed { return !keys[lhs].completed }
                switch (keys[lhs].start, keys[rhs].start) {
                case let (left?, right?) where left != right: return left < right
                case (.some, nil): return true
                case (nil, .some): return false
                default: return lhs < rhs
                }
            }
        }
    }

    /// How many items are completed.
    ///
    /// - Complexity: O(1): the list keeps the number as it changes.
    public var completedCount: Int { itemsByID.completed }

    /// How many items there are of each kind at `now`.
    ///
    /// - Complexity: O(*d*) for the *d* active items with a deadline (the
    ///   list keeps the other numbers as it changes).
    public func counts(now: Date) -> TodoCounts {
        let completed = itemsByID.completed
        var counts = TodoCounts(total: count, active: count - completed, completed: completed, overdue: 0)
        for deadline in itemsByID.activeDeadlines.values where deadline < now {
            counts.overdue += 1
        }
        return counts
    }
}

/// The numbers a footer shows: "2 items left", whether to offer "Clear completed".
public struct TodoCounts: Equatable, Hashable, Sendable, Codable {
    /// All items.
    public var total: Int
    /// Items not done.
    public var active: Int
    /// Items done.
    public var completed: Int
    /// Items not done and past their deadline.
    public var overdue: Int

    /// Creates counts.
    public init(total: Int, active: Int, completed: Int, overdue: Int) {
        self.total = total
        self.active = active
        self.completed = completed
        self.overdue = overdue
    }

    /// Whether every item is done (TodoMVC checks toggle-all then); false for an empty list.
    public var allCompleted: Bool { total > 0 && active == 0 }

    /// "0 items left", "1 item left", "2 items left".
    public var itemsLeftText: String { Self.itemsLeft(active) }

    /// "1 item left" or "`count` items left".
    public static func itemsLeft(_ count: Int) -> String {
        "\(count) item\(count == 1 ? "" : "s") left"
    }

    /// "2 items left, 1 completed, 1 overdue": how many are left, then how
    /// many are completed and overdue where there are any.
    public var summary: String { Self.summary(active: active, completed: completed, overdue: overdue) }

    /// "2 items left, 1 completed, 1 overdue", the parts after the first
    /// left out where they are 0.
    public static func summary(active: Int, completed: Int, overdue: Int = 0) -> String {
        var parts = [itemsLeft(active)]
        if completed > 0 { parts.append("\(completed) completed") }
        if overdue > 0 { parts.append("\(overdue) overdue") }
        return parts.joined(separator: ", ")
    }
}
