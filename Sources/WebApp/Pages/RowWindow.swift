import Foundation
import Todos

/// How many rows a to-do list's page shows (the to-do page's and a shared
/// list's): the first ``defaultRows`` of the filter, order and search, so
/// that a long list stays a page a browser draws at once, and a refresh
/// after each change carries those rows, not the whole list. "Show more"
/// under the list (`data-rows`) asks for the page again with ``growth``
/// more (`?rows=` of the page's fragment; `rows.js`). Items the page
/// added that lie past those rows (`?also=`) are shown after them, so that
/// what a person adds to a long list appears.
struct RowWindow {
    /// How many rows are shown.
    var rows = Self.defaultRows
    /// Items shown after the rows when they lie past them.
    var also: Set<UUID> = []

    /// The most rows shown unless the page asks for more.
    static let defaultRows = 200
    /// How many more rows each "Show more" shows.
    static let growth = 200
    /// The most rows a page may ask for.
    static let largestRows = 1_000_000
    /// The most items a page may ask for with ``also``.
    static let largestAlso = 50

    /// The rows of `list` shown: the first ``rows`` of the items that pass
    /// `filter` and that `search` finds, in `sort`'s order, then those of
    /// ``also`` past them; and how many items pass, at `now`
    /// (``TodoList/firstItems(_:sortedBy:matching:now:limit:also:)``).
    func rows(
        of list: TodoList, _ filter: TodoFilter, sortedBy sort: TodoSort = .list, matching search: TodoSearch?, now: Date
    ) -> (rows: [TodoItem], found: Int) {
        let (first, past, found) = list.firstItems(filter, sortedBy: sort, matching: search, now: now, limit: rows, also: also)
        return (first + past, found)
    }

    /// Whether the row at `position` of those shown is the first of
    /// ``also`` past the rows, after those not shown (`li.after-gap`).
    func isAfterGap(_ position: Int) -> Bool {
        position == rows
    }

    /// A row's `class`: `completed`, `after-gap` (``isAfterGap(_:)``), both or none.
    static func rowClass(completed: Bool, afterGap: Bool) -> Attribute {
        switch (completed, afterGap) {
        case (true, false): Attribute("class", literal: "completed")
        case (true, true): Attribute("class", literal: "completed after-gap")
        case (false, true): Attribute("class", literal: "after-gap")
        case (false, false): .absent
        }
    }

    /// The line under the list that says how many (`shown`) of `found`
    /// rows are shown, with the button that shows ``growth`` more; nothing
    /// when every row is shown.
    func more(shown: Int, found: Int, into html: inout HTMLWriter) {
        guard found > rows else { return }
        let next = min(Self.growth, found - rows)
        html.element("div", [.class("more-rows")]) { html in
            html.element("span") { $0.text("\(Self.number(shown)) of \(Self.number(found)) shown") }
            html.element(
                "button",
                [.type("button"), .class("show-more-rows"), .data("rows", String(min(rows + Self.growth, Self.largestRows)))]
            ) { $0.text(next == found - rows ? "Show the last \(Self.number(next))" : "Show \(Self.number(next)) more") }
        }
    }

    /// `1,234`.
    private static func number(_ value: Int) -> String {
        value.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    }
}
