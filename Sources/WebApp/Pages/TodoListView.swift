import Foundation
import Todos

/// The parts of the to-do page that change with the state, each marked with
/// `data-region` so that the script can swap in a fresh copy from
/// `/todos/fragment`: the list (`section.main`), the footer, the toolbar with
/// Undo and Redo, and the history panel. The markup follows the TodoMVC
/// specification.
struct TodoListView {
    /// The filter the page shows (TodoMVC's `#/`, `#/active`, `#/completed`).
    var filter: TodoFilter
    /// The order of the rows.
    var sort: TodoSort
    /// The rows, filtered and sorted.
    var items: [TodoItem]
    /// The numbers of the whole list.
    var counts: TodoCounts
    /// The undo history.
    var history: HistoryOverview
    /// Writes due dates.
    var dueFormatter: DueDateFormatter
    /// Tells what is overdue.
    var now: Date

    /// Reads what the page shows from `service`.
    init(service: TodoService, filter: TodoFilter, sort: TodoSort, timeZone: TimeZone = .current) async throws {
        let now = service.now()
        self.filter = filter
        self.sort = sort
        self.now = now
        (items, counts) = try await service.list(filter, sortedBy: sort, now: now)
        history = try await service.history()
        dueFormatter = DueDateFormatter(now: now, timeZone: timeZone)
    }

    /// Every region, one after another: what `/todos/fragment` answers.
    var regions: HTML {
        HTML.joined([main, footer, toolbar, historyPanel])
    }

    /// `section.main`: toggle-all and the list; hidden when the list is empty.
    var main: HTML {
        HTML.element("section", [.class("main"), .data("region", "main"), .hidden(counts.total == 0)]) {
            HTML.void("input", [.id("toggle-all"), .class("toggle-all"), .type("checkbox"), .checked(counts.allCompleted)])
            HTML.element("label", [.for("toggle-all")]) { "Mark all as complete" }
            HTML.element("ul", [.class("todo-list"), .data("filter", filter.rawValue)]) {
                for item in items {
                    row(item)
                }
            }
        }
    }

    /// One `li` of the list, as TodoMVC has it, plus the due date and a link
    /// to the item's detail view.
    func row(_ item: TodoItem) -> HTML {
        let due = dueFormatter.display(item.due)
        let overdue = item.isOverdue(at: now)
        let id = item.id.uuidString
        var attributes: [Attribute] = item.isFinished ? [.class("completed")] : []
        attributes.append(.data("id", id))
        return HTML.element("li", attributes) {
            HTML.element("div", [.class("view")]) {
                HTML.void(
                    "input",
                    [.class("toggle"), .type("checkbox"), .checked(item.isFinished),
                     .ariaLabel("Complete “\(item.title)”")]
                )
                HTML.element("label") { item.title }
                if !due.isEmpty {
                    HTML.element(
                        "time",
                        [.class(overdue ? "due overdue" : "due"), Attribute("datetime", Self.isoDate(item.due.start)),
                         .title(overdue ? "Overdue: \(due)" : "Due \(due)")]
                    ) {
                        overdue ? "Overdue · \(due)" : due
                    }
                }
                HTML.element(
                    "a",
                    [.class("item-details"), .href("/todos/items/\(id)"),
                     .ariaLabel("Details of “\(item.title)”"), .title("Details of “\(item.title)”")]
                ) { "Details" }
                HTML.element("button", [.type("button"), .class("destroy"), .ariaLabel("Delete “\(item.title)”")])
            }
            HTML.void("input", [.class("edit"), .value(item.title), .ariaLabel("Edit “\(item.title)”")])
        }
    }

    /// `footer.footer`: the count, the filters and "Clear completed"; hidden
    /// when the list is empty.
    var footer: HTML {
        HTML.element("footer", [.class("footer"), .data("region", "footer"), .hidden(counts.total == 0)]) {
            HTML.element("span", [.class("todo-count")]) {
                HTML.element("strong") { String(counts.active) }
                counts.active == 1 ? " item left" : " items left"
            }
            HTML.element("ul", [.class("filters")]) {
                filterLink(.all, href: "#/", label: "All")
                filterLink(.active, href: "#/active", label: "Active")
                filterLink(.completed, href: "#/completed", label: "Completed")
            }
            HTML.element("button", [.type("button"), .class("clear-completed"), .hidden(counts.completed == 0)]) {
                "Clear completed"
            }
        }
    }

    private func filterLink(_ target: TodoFilter, href: String, label: String) -> HTML {
        var attributes: [Attribute] = [.href(href)]
        if target == filter {
            attributes += [.class("selected"), Attribute("aria-current", "page")]
        }
        return HTML.element("li") {
            HTML.element("a", attributes) { label }
        }
    }

    /// Undo and Redo, the smart-order switch and "Delete all items".
    var toolbar: HTML {
        HTML.element("div", [.class("todo-toolbar"), .data("region", "toolbar")]) {
            UndoRedoBar(
                canUndo: history.canUndo, canRedo: history.canRedo,
                undoTitle: history.undoTitle, redoTitle: history.redoTitle, idPrefix: "todos"
            ).render()
            HTML.element("div", [.class("toolbar")]) {
                HTML.element("label") {
                    HTML.void("input", [.type("checkbox"), .id("smart-order"), .checked(sort == .smart)])
                    "Smart order"
                }
                HTML.element(
                    "button",
                    [.type("button"), .id("delete-all"), .class("delete-all"), .data("opens-modal", "confirm-delete-all"),
                     .disabled(counts.total == 0)]
                ) { "Delete all items…" }
            }
        }
    }

    /// The history panel: every named step, the current one marked; a click
    /// jumps there.
    var historyPanel: HTML {
        HistoryPanel(history: history).render()
    }

    /// `2026-12-01T09:30:00.000Z`, or "" for no date.
    static func isoDate(_ date: Date?) -> String {
        date.map(JSONDates.string(from:)) ?? ""
    }
}

/// The history panel shared by the list and the detail view: "Start" and
/// the named steps around the current position (at most ``window`` of them,
/// so that a long history stays a short page).
struct HistoryPanel {
    var history: HistoryOverview
    /// The most steps listed.
    var window = 100

    /// The indices of the steps listed: up to ``window`` steps, the current
    /// position in the middle when it can be.
    var shownRange: Range<Int> {
        let count = history.steps.count
        let lower = max(0, min(history.position - window / 2, count - window))
        return lower..<min(count, lower + window)
    }

    func render() -> HTML {
        let shown = shownRange
        let steps = history.steps
        return HTML.element("aside", [.class("history-panel"), .data("region", "history"), .ariaLabel("History")]) {
            HTML.element("h2") { "History" }
            HTML.element("ol", [.class("history-list")]) {
                step(position: 0, name: "Start", date: nil)
                if shown.lowerBound > 0 {
                    HTML.element("li", [.class("history-more")]) { "… \(shown.lowerBound) earlier steps" }
                }
                for index in shown {
                    let entry = steps[index]
                    step(position: index + 1, name: entry.name.isEmpty ? "Step \(index + 1)" : entry.name, date: entry.date)
                }
                if shown.upperBound < steps.count {
                    HTML.element("li", [.class("history-more")]) { "… \(steps.count - shown.upperBound) later steps" }
                }
            }
        }
    }

    private func step(position: Int, name: String, date: Date?) -> HTML {
        let isCurrent = position == history.position
        var classes = "history-step"
        if isCurrent { classes += " current" }
        if position > history.position { classes += " undone" }
        var attributes: [Attribute] = [.type("button"), .class(classes), .data("position", String(position))]
        if isCurrent { attributes.append(Attribute("aria-current", "step")) }
        attributes.append(.title(isCurrent ? "Current state" : "Go back to after “\(name)”"))
        return HTML.element("li") {
            HTML.element("button", attributes) {
                HTML.element("span", [.class("history-name")]) { name }
                if let date {
                    HTML.element("time", [Attribute("datetime", JSONDates.string(from: date))]) {
                        Self.clock(date)
                    }
                }
            }
        }
    }

    /// `14:05` in the server's time zone.
    private static func clock(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute], from: date)
        let hour = parts.hour ?? 0
        let minute = parts.minute ?? 0
        return (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }
}
