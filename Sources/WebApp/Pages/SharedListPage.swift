import Foundation
import Todos

/// `/lists/{list}` (team mode): one shared list as the signed-in account
/// sees it, in TodoMVC's markup: add, complete, rename (double-click),
/// move, delete, complete or reopen all, the filters and "Clear
/// completed"; the account's own Undo and Redo, each naming the step it takes
/// back (`data-step`, sent back so that a double click takes back one step
/// only); and the history with who made each step. Each changing part is a
/// `data-region` that the script swaps in from `/lists/{list}/fragment`.
struct SharedListPage {
    /// The list.
    var summary: SharedListSummary
    /// Its items and latest step.
    var items: SharedListItems
    /// The words the rows were searched for, if any (`?search=`).
    var search: TodoSearch?
    /// The filter the page shows (`#/active` and the others, read by the
    /// script and asked for as `?filter=`).
    var filter: TodoFilter
    /// The rows shown (``window``) of the items of the filter that the
    /// search finds, in order.
    var rows: [TodoItem]
    /// How many items the filter and the search let through.
    var found: Int
    /// Which rows are shown.
    var window: RowWindow
    /// The numbers of the whole list.
    var counts: TodoCounts
    /// What the account's Undo and Redo would take back.
    var next: SharedListNextSteps
    /// The newest steps, newest first.
    var history: [SharedStep.Summary]
    /// How many of the newest steps the history panel lists at most.
    var historySteps: Int
    /// Whether steps older than those listed are left out.
    var olderSteps: Bool
    /// The signed-in account.
    var person: AccountName
    /// The token for the page's script.
    var csrfToken: String
    /// Writes the items' due dates and names the day of a step made before
    /// today.
    var dates = DueDateFormatter(now: Date(), timeZone: PageTimeZone.current)

    /// The most steps the history panel lists.
    static let historyLength = 50

    /// Reads what the page shows through `lists`, as the signed-in account.
    init(
        lists: SharedListService, id: UUID, csrfToken: String, filter: TodoFilter = .all, search: TodoSearch? = nil,
        historySteps: Int = Self.historyLength, window: RowWindow = RowWindow()
    ) async throws {
        person = try lists.person
        summary = try await lists.summary(of: id)
        // First: it brings the list into the store's memory, where the
        // items are read from then (rather than from their rows).
        next = try await lists.nextSteps(on: id)
        items = try await lists.items(of: id)
        self.search = search
        self.filter = filter
        counts = items.list.counts(now: dates.now)
        self.window = window
        (rows, found) = window.rows(of: items.list, filter, matching: search, now: dates.now)
        // One more than listed: whether there are older ones.
        let newest = try await lists.history(of: id, before: nil, limit: historySteps + 1)
        history = Array(newest.prefix(historySteps))
        self.historySteps = historySteps
        olderSteps = newest.count > historySteps
        self.csrfToken = csrfToken
    }

    /// The whole document.
    func render() -> HTML {
        return Layout(title: pageTitle, page: .sharedList, csrfToken: csrfToken, eventsSince: ListsOverviewWatch.listEventID(seq: items.seq, of: summary)).render(capacity: 16_384 + 300 * rows.count) {
            html in
            html.element("main", [.class("todos-page"), .data("list", summary.id.uuidString)]) { html in
                html.element("p", [.class("back-link-line")]) { html in
                    html.element("a", [.class("back-link"), .href("/lists")]) { $0.text("← All lists") }
                }
                html.element("div", [.class("todos-layout")]) { html in
                    html.element("div", [.class("todos-column")]) { html in
                        heading(into: &html)
                        html.element("section", [.class("todoapp shared-todoapp")]) { html in
                            html.element("header", [.class("header")]) { html in
                                html.void(
                                    "input",
                                    [.class("new-todo"), .placeholder("What needs to be done?"),
                                     Attribute("autofocus", isOn: true), .ariaLabel("What needs to be done?"),
                                     Attribute("maxlength", "500"), Attribute("autocomplete", "off"), Attribute("dir", "auto")])
                            }
                            main(into: &html)
                            footer(into: &html)
                        }
                        SearchField(search: search).render(into: &html)
                        toolbar(into: &html)
                        html.element("p", [.class("todo-error"), .id("todo-error"), Attribute("role", "alert")])
                        html.element("p", [.class("list-message"), .id("list-message"), Attribute("role", "status")])
                        TodoListView.moveStatus(into: &html)
                        html.element("p", [.class("keyboard-help")]) { html in
                            html.text("Your Undo takes back your own latest change on this list, never someone else's. ")
                            html.element("kbd") { $0.text("↑") }
                            html.text(" and ")
                            html.element("kbd") { $0.text("↓") }
                            html.text(" on a row's ⠿ move it. ")
                            html.element("kbd") { $0.text("Ctrl+Z") }
                            html.text(" undoes, ")
                            html.element("kbd") { $0.text("Ctrl+Shift+Z") }
                            html.text(" or ")
                            html.element("kbd") { $0.text("Ctrl+Y") }
                            html.text(" redoes (⌘ on a Mac) and ")
                            html.element("kbd") { $0.text("/") }
                            html.text(" goes to Find when no text field has the focus.")
                        }
                    }
                    historyPanel(into: &html)
                }
            }
        }
    }

    /// Every region, one after another: what `/lists/{list}/fragment` answers.
    var regions: HTML {
        HTML(capacity: 8_192 + 300 * rows.count) { html in
            heading(into: &html)
            main(into: &html)
            footer(into: &html)
            toolbar(into: &html)
            historyPanel(into: &html)
        }
    }

    /// The title of the browser's tab: the list's name and Rewind's.
    var pageTitle: String { "\(summary.name) · Rewind" }

    /// The list's name and who can open it (and the tab's title, which a
    /// refresh takes from here: regions.js).
    func heading(into html: inout HTMLWriter) {
        html.element("div", [.class("list-heading"), .data("region", "heading"), .data("page-title", pageTitle)]) { html in
            html.element("h1", [.class("list-title"), Attribute("dir", "auto")]) { $0.text(summary.name) }
            html.element("p", [.class("list-access")]) { $0.text(ListsPage.access(of: summary, for: person)) }
        }
    }

    /// `section.main`: the rows, after what a search found; hidden when
    /// the list is empty.
    func main(into html: inout HTMLWriter) {
        html.element("section", [.class("main"), .data("region", "main"), .hidden(items.list.isEmpty)]) { html in
            html.void("input", [.id("toggle-all"), .class("toggle-all"), .type("checkbox"), .checked(counts.allCompleted)])
            html.element("label", [.for("toggle-all")]) { $0.text("Mark all as complete") }
            SearchField(search: search).result(found: found, filter: filter, into: &html)
            html.element("span", [.id(TodoListView.moveHelpID), .hidden(true)]) { $0.text(TodoListView.moveHelp) }
            html.element("ul", [.class("todo-list"), .data("filter", filter.rawValue)]) { html in
                for index in rows.indices {
                    row(rows[index], index: index, afterGap: window.isAfterGap(index), into: &html)
                }
            }
            window.more(shown: rows.count, found: found, into: &html)
        }
    }

    private func row(_ item: TodoItem, index: Int, afterGap: Bool, into html: inout HTMLWriter) {
        let label = "t" + String(index)
        html.element("li", [RowWindow.rowClass(completed: item.isCompleted, afterGap: afterGap), .data("id", uuid: item.id)]) {
            html in
            html.element("div", [.class("view")]) { html in
                html.void(
                    "input",
                    [.class("toggle"), .type("checkbox"), .checked(item.isCompleted),
                     .ariaLabel("Complete " + item.title)])
                html.element("label", [.id(label), Attribute("dir", "auto")]) { $0.text(item.title) }
                if item.due != .unknown {
                    // A due date given in the terminal (`rewind todo --as … --list … add … --due …`).
                    TodoListView.dueMark(DueDateTexts.Text(item.due, formatter: dates), overdue: item.isOverdue(at: dates.now), into: &html)
                }
                TodoListView.placeMark(item.location, into: &html)
                html.element(
                    "a",
                    [.class("item-details"), .href("/lists/\(summary.id.uuidString)/items/\(item.id.uuidString)"),
                     .ariaLabel("Details of " + item.title)]
                ) { $0.text("Details") }
                html.element("button", [.class("destroy"), .ariaLabel("Delete " + item.title)])
                TodoListView.moveHandle(named: .ariaLabel("Move " + item.title), into: &html)
            }
            html.void(
                "input", [.class("edit"), .value(item.title), Attribute("maxlength", "500"), .ariaLabel("Edit " + item.title), Attribute("dir", "auto")])
        }
    }

    /// `footer.footer`: how many items are left, the filters and "Clear
    /// completed", as on the to-do page; hidden when the list is empty.
    func footer(into html: inout HTMLWriter) {
        html.element("footer", [.class("footer"), .data("region", "footer"), .hidden(items.list.isEmpty)]) { html in
            html.element("span", [.class("todo-count")]) { html in
                html.element("strong") { $0.text(counts.active) }
                html.text(counts.active == 1 ? " item left" : " items left")
            }
            TodoListView.filters(filter, overdue: counts.overdue, completed: counts.completed, into: &html)
        }
    }

    /// The account's Undo and Redo, named after their own next steps.
    func toolbar(into html: inout HTMLWriter) {
        Self.toolbar(next, into: &html)
    }

    /// The account's Undo and Redo for `next` (shared-undo.js): the list's
    /// page and its items' pages.
    static func toolbar(_ next: SharedListNextSteps, into html: inout HTMLWriter) {
        html.element("div", [.class("todo-toolbar"), .data("region", "toolbar")]) { html in
            html.element("div", [.class("undo-bar")]) { html in
                button("undo", "Undo", symbol: "↶ ", step: next.undo, shortcuts: "Control+Z Meta+Z", into: &html)
                button("redo", "Redo", symbol: "↷ ", step: next.redo, shortcuts: "Control+Shift+Z Meta+Shift+Z Control+Y", into: &html)
            }
        }
    }

    private static func button(
        _ kind: String, _ label: String, symbol: String, step: SharedStep.Summary?, shortcuts: String, into html: inout HTMLWriter
    ) {
        let title = step.map { "\(label) your step: \($0.name)" } ?? (kind == "undo" ? "Nothing of yours to undo" : "Nothing of yours to redo")
        html.element(
            "button",
            [.type("button"), .class(kind), .id("list-\(kind)"), .title(title), .ariaLabel(title),
             .disabled(step == nil), step.map { .data("step", String($0.seq)) } ?? .absent,
             Attribute("aria-keyshortcuts", shortcuts)]
        ) { html in
            html.element("span", [Attribute("aria-hidden", "true")]) { $0.text(symbol) }
            html.text(label)
            if let step {
                html.element("span", [.class("undo-name")]) { html in
                    html.text(": ")
                    html.stepName(step.name)
                }
            }
        }
    }

    /// The history: the newest steps, each with its author; an undo or a
    /// redo with what it left alone.
    func historyPanel(into html: inout HTMLWriter) {
        html.element("aside", [.class("history-panel"), .data("region", "history"), .ariaLabel("History")]) { html in
            html.element("h2") { $0.text("History") }
            if history.isEmpty {
                html.element("p", [.class("history-empty")]) { $0.text("No changes yet.") }
            }
            html.element("ol", [.class("history-list shared-history"), .data("keep-scroll", "history")]) { html in
                for step in history {
                    html.element("li", [.class("shared-step"), .data("seq", String(step.seq))]) { html in
                        html.element("span", [.class("history-author")]) {
                            $0.text(author(of: step))
                        }
                        html.text(" ")
                        html.element("span", [.class("history-name")]) { $0.stepName(Self.describe(step)) }
                        html.element("time", [Attribute("datetime", ISO8601Milliseconds.string(from: step.date))]) {
                            $0.text(HistoryPanel.when(step.date, dates))
                        }
                        for message in step.messages(for: person.key, naming: summary.access.name) {
                            html.element("p", [.class("history-skipped")]) { $0.text(message) }
                        }
                    }
                }
                if olderSteps { HistoryPanel.more("… older steps", window: historySteps, into: &html) }
            }
        }
    }

    /// The author of a row (the log keeps account keys, in lower case) as
    /// the account was made, “Cat”, when it owns or shares the list; “you”
    /// for the reader; marked when an earlier account of a member's name
    /// wrote it (``ListAccess/author(ofRow:key:)``).
    private func author(of step: SharedStep.Summary) -> String {
        summary.access.isOwn(row: step.seq, author: step.author, by: person)
            ? "you" : summary.access.author(ofRow: step.seq, key: step.author)
    }

    /// “Add “Milk””, “undid Add “Milk””, “redid Add “Milk””.
    static func describe(_ step: SharedStep.Summary) -> String {
        switch step.kind {
        case .change: step.name
        case .undo: "undid " + step.name
        case .redo: "redid " + step.name
        }
    }
}
