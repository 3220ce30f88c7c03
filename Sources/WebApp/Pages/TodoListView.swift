import Foundation
import Todos

/// The parts of the to-do page that change with the state, each marked with
/// `data-region` so that the script can swap in a fresh copy from
/// `/todos/fragment`: the list (`section.main`), the footer, the toolbar with
/// Undo and Redo, and the history panel. The markup follows the TodoMVC
/// specification.
struct TodoListView: Sendable {
    /// The filter the page shows (TodoMVC's `#/`, `#/active`, `#/completed`).
    var filter: TodoFilter
    /// The order of the rows.
    var sort: TodoSort
    /// The words the rows were searched for, if any (`?search=`).
    var search: TodoSearch?
    /// The rows shown (``window``) of the items of the filter that the
    /// search finds, sorted.
    var rows: [TodoItem]
    /// How many items the filter and the search let through.
    var found: Int
    /// Which rows are shown.
    var window: RowWindow
    /// The numbers of the whole list.
    var counts: TodoCounts
    /// The undo history.
    var history: HistoryOverview
    /// The undo history with its abandoned branches, for the history panel.
    var tree: HistoryTree
    /// How many steps the history panel lists.
    var historySteps: Int
    /// Writes dates relative to ``now``.
    var dates: DueDateFormatter
    /// The texts of the rows' due dates.
    var dueTexts: [TodoDate: DueDateTexts.Text]
    /// Tells what is overdue.
    var now: Date

    /// Reads what the page shows from `service`.
    init(
        service: TodoService, filter: TodoFilter, sort: TodoSort, search: TodoSearch? = nil,
        historySteps: Int = HistoryPanel.defaultWindow, window: RowWindow = RowWindow(), timeZone: TimeZone = PageTimeZone.current
    ) async throws {
        let now = service.now()
        self.window = window
        self.filter = filter
        self.sort = sort
        self.search = search
        self.historySteps = historySteps
        self.now = now
        (rows, found, counts) = try await service.rows(window, filter, sortedBy: sort, matching: search, now: now)
        history = try await service.history()
        tree = try await service.historyTree()
        dates = DueDateFormatter(now: now, timeZone: timeZone)
        dueTexts = service.dueDates.texts(for: rows, formatter: dates)
    }

    /// Bytes to reserve for a page or fragment: the markup around the list,
    /// and about a row's worth per item (a guess; the buffer grows if it is
    /// short).
    var estimatedSize: Int {
        16_384 + 400 * rows.count
    }

    /// Every region, one after another: what `/todos/fragment` answers.
    var regions: HTML {
        HTML(capacity: estimatedSize) { html in
            main(into: &html)
            footer(into: &html)
            toolbar(into: &html)
            historyPanel(into: &html)
        }
    }

    /// `section.main`: toggle-all and the list, after what a search found;
    /// hidden when the list is empty.
    func main(into html: inout HTMLWriter) {
        html.element("section", [.class("main"), .data("region", "main"), .hidden(counts.total == 0)]) { html in
            html.void("input", [.id("toggle-all"), .class("toggle-all"), .type("checkbox"), .checked(counts.allCompleted)])
            html.element("label", [.for("toggle-all")]) { $0.text("Mark all as complete") }
            SearchField(search: search).result(found: found, filter: filter, into: &html)
            // The words that, with a row's title, name the row's controls
            // ("Complete Buy milk"): the rows refer to them by id instead of
            // repeating them with the title in every row.
            html.element("div", [.hidden(true)]) { html in
                for (id, word) in Self.controlWords {
                    html.element("span", [.id(id)]) { $0.text(word) }
                }
                html.element("span", [.id(Self.moveHelpID)]) { $0.text(Self.moveHelp) }
            }
            html.element("ul", [.class("todo-list"), .data("filter", filter.rawValue)]) { html in
                // By index: no copy of each item on the way.
                for index in rows.indices {
                    row(rows[index], index: index, afterGap: window.isAfterGap(index), into: &html)
                }
            }
            window.more(shown: rows.count, found: found, into: &html)
        }
    }

    /// The ids and texts of the words that name a row's controls together
    /// with its title: complete, details, delete, edit, move.
    static let controlWords = [("tc", "Complete"), ("td", "Details of"), ("tx", "Delete"), ("te", "Edit"), ("tm", "Move")]

    /// The id of the sentence that tells how a row's move handle works.
    static let moveHelpID = "move-help"

    /// The sentence that tells how a row's move handle works (hidden; its
    /// handles refer to it).
    static let moveHelp = "Drag to move the item, or press the up and down arrow keys."

    /// Whether the rows can be moved: in the list's own order only (in
    /// another order, a row's place says nothing about where it is kept).
    var rowsMove: Bool { sort == .list }

    /// One `li` of the list, as TodoMVC has it, plus the due date and a link
    /// to the item's detail view. The title is written twice (the label and
    /// the edit field's value); the controls are named by the label's id,
    /// `t` and the row's index, so the names follow an edit of the label.
    func row(_ item: TodoItem, index: Int, afterGap: Bool = false, into html: inout HTMLWriter) {
        let label = "t" + String(index)
        let id = Attribute.data("id", uuid: item.id)
        html.element("li", [RowWindow.rowClass(completed: item.isCompleted, afterGap: afterGap), id]) { html in
            // Fixed values as literals: written as they are, not escaped.
            html.element("div", [Attribute("class", literal: "view")]) { html in
                html.void(
                    "input",
                    [Attribute("class", literal: "toggle"), Attribute("type", literal: "checkbox"),
                     .checked(item.isCompleted), .ariaLabelledBy("tc ", label)]
                )
                // dir="auto": a title in Hebrew or Arabic reads from the right, its "?" at its end.
                html.element("label", [.id(label), Attribute("dir", literal: "auto")]) { $0.text(item.title) }
                if item.due != .unknown, let due = dueTexts[item.due] {
                    Self.dueMark(due, overdue: item.isOverdue(at: now), into: &html)
                }
                Self.placeMark(item.location, into: &html)
                html.element(
                    "a",
                    [Attribute("class", literal: "item-details"), Attribute("href", prefix: "/todos/items/", uuid: item.id),
                     .ariaLabelledBy("td ", label)]
                ) { $0.trusted("Details") }
                html.element("button", [Attribute("class", literal: "destroy"), .ariaLabelledBy("tx ", label)])
                if rowsMove { Self.moveHandle(named: .ariaLabelledBy("tm ", label), into: &html) }
            }
            html.void(
                "input",
                [Attribute("class", literal: "edit"), .value(item.title), Attribute("maxlength", literal: "500"), .ariaLabelledBy("te ", label),
                 Attribute("dir", literal: "auto")])
        }
    }

    /// A row's move handle (move.js): dragged, or moved by the arrow keys
    /// while it has the focus; `name` names it ("Move" and the row's
    /// title), and ``moveHelp`` describes it.
    static func moveHandle(named name: Attribute, into html: inout HTMLWriter) {
        html.element(
            "button",
            [Attribute("class", literal: "move"), Attribute("type", literal: "button"), name,
             Attribute("aria-describedby", literal: "move-help")]
        )
    }

    /// The live region that says where a moved row went (move.js fills
    /// it), outside the regions that are swapped.
    static func moveStatus(into html: inout HTMLWriter) {
        html.element("p", [.class("visually-hidden"), .id("move-status"), Attribute("role", "status")])
    }

    /// `footer.footer`: the count (and how many are overdue), the filters
    /// ("Overdue" too while any item is, or while it is the filter shown)
    /// and "Clear completed"; hidden when the list is empty.
    func footer(into html: inout HTMLWriter) {
        html.element("footer", [.class("footer"), .data("region", "footer"), .hidden(counts.total == 0)]) { html in
            html.element("span", [.class("todo-count")]) { html in
                html.element("strong") { $0.text(counts.active) }
                html.text(counts.active == 1 ? " item left" : " items left")
                if counts.overdue > 0 {
                    html.text(", ")
                    html.element("span", [.class("overdue-count")]) { $0.text("\(counts.overdue) overdue") }
                }
            }
            Self.filters(filter, overdue: counts.overdue, completed: counts.completed, into: &html)
        }
    }

    /// The footer's filter links (TodoMVC's `#/`, `#/active`,
    /// `#/completed`, and `#/overdue` while any item is overdue or it is
    /// the filter shown), `current` marked, and "Clear completed", hidden
    /// while no item is completed: the to-do page's and a shared list's.
    static func filters(_ current: TodoFilter, overdue: Int, completed: Int, into html: inout HTMLWriter) {
        func link(_ target: TodoFilter, href: String, label: String, into html: inout HTMLWriter) {
            var attributes: [Attribute] = [.href(href)]
            if target == current {
                attributes += [.class("selected"), Attribute("aria-current", "page")]
            }
            html.element("li") { html in
                html.element("a", attributes: attributes) { $0.text(label) }
            }
        }
        html.element("ul", [.class("filters")]) { html in
            link(.all, href: "#/", label: "All", into: &html)
            link(.active, href: "#/active", label: "Active", into: &html)
            link(.completed, href: "#/completed", label: "Completed", into: &html)
            if overdue > 0 || current == .overdue { link(.overdue, href: "#/overdue", label: "Overdue", into: &html) }
        }
        html.element("button", [.type("button"), .class("clear-completed"), .hidden(completed == 0)]) {
            $0.text("Clear completed")
        }
    }

    /// Undo and Redo, the choice of order and "Delete all items".
    func toolbar(into html: inout HTMLWriter) {
        html.element("div", [.class("todo-toolbar"), .data("region", "toolbar")]) { html in
            UndoRedoBar(
                canUndo: history.canUndo, canRedo: history.canRedo,
                undoTitle: history.undoTitle, redoTitle: history.redoTitle, idPrefix: "todos",
                undoName: history.undoActionName, redoName: history.redoActionName
            ).render(into: &html)
            html.element("div", [.class("toolbar")]) { html in
                html.element("label", [.class("sort-order")]) { html in
                    html.text("Order ")
                    html.element("select", [.id("sort-order")]) { html in
                        for (order, label) in Self.orders {
                            html.element("option", [.value(order.rawValue), Attribute("selected", isOn: order == sort)]) {
                                $0.text(label)
                            }
                        }
                    }
                }
                html.element(
                    "button",
                    [.type("button"), .id("delete-all"), .class("delete-all"), .data("opens-modal", "confirm-delete-all"),
                     .disabled(counts.total == 0)]
                ) { $0.text("Delete all items…") }
            }
        }
    }

    /// The history panel: every named step, the abandoned branches
    /// included, the current one marked; a click jumps there.
    func historyPanel(into html: inout HTMLWriter) {
        HistoryPanel(tree: tree, window: historySteps, dates: dates).render(into: &html)
    }

    /// A row's due date: "tomorrow 14:30", or "Overdue · Fri 4 Dec" in the
    /// overdue colour (a shared list's rows too); nothing for an empty text.
    /// Each side of a span ("Tue 09:00 – Thu 17:00") is kept on one line:
    /// a narrow row breaks it after the dash only.
    static func dueMark(_ due: DueDateTexts.Text, overdue: Bool, into html: inout HTMLWriter) {
        guard !due.display.isEmpty else { return }
        html.element("time", [.class(overdue ? "due overdue" : "due"), Attribute("datetime", due.datetime)]) { html in
            // Each part on one line, the parts on as many lines as the row
            // needs: "Overdue ·" too, so that a long overdue date does not
            // push the row's buttons out of it beside a title that keeps its room.
            let parts = due.display.components(separatedBy: " – ")
            if overdue {
                html.element("span") { $0.text("Overdue ·") }
                html.text(" ")
            }
            for (index, part) in parts.enumerated() {
                if index > 0 { html.text(" ") }
                html.element("span") { $0.text(index < parts.count - 1 ? part + " –" : part) }
            }
        }
    }

    /// A row's location in a few words (``Location/summary``: "1 Main St,
    /// Springfield"), the whole of it in the title; nothing for none. A
    /// reader hears "Where:" before it.
    static func placeMark(_ location: Location, into html: inout HTMLWriter) {
        guard location != .unknown else { return }
        html.element("span", [.class("place"), .title(location.fullText)]) { html in
            html.element("span", [.class("visually-hidden")]) { $0.text("Where: ") }
            // Isolated, so that an address in a right-to-left script keeps its own order.
            html.element("bdi") { $0.text(location.summary) }
        }
    }

    /// The orders the page offers, with their names.
    static let orders: [(TodoSort, String)] = [(.list, "List"), (.smart, "Smart"), (.due, "Due date")]

    /// `2026-12-01T09:30:00.000Z`, or "" for no date.
    static func isoDate(_ date: Date?) -> String {
        date.map(ISO8601Milliseconds.string(from:)) ?? ""
    }
}
