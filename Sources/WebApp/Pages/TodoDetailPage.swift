import Foundation
import Todos

/// `/todos/items/{id}`: one item's title, details, due date, location and
/// completion in a form, Undo and Redo, the history panel, and "Delete…"
/// with its confirmation card. `/lists/{list}/items/{id}` (team mode): the
/// same form for an item of a shared list, whose page has the account's
/// Undo and Redo and the history.
struct TodoDetailPage {
    /// The item shown.
    var item: TodoItem
    /// The shared list the item is on, or `nil` for the local list.
    var list: SharedListSummary?
    /// What the account's Undo and Redo would take back (a shared list's item).
    var next: SharedListNextSteps?
    /// The undo history (the local list's).
    var history: HistoryOverview?
    /// The undo history with its abandoned branches, for the history panel
    /// (the local list's).
    var tree: HistoryTree?
    /// Writes due dates.
    var dueFormatter: DueDateFormatter
    /// Tells whether the item is overdue.
    var now: Date
    /// Writes the values of date inputs.
    var calendar: DayCalendar
    /// The token for the page's script.
    var csrfToken: String
    /// The id of the state the page shows, as its event stream names it
    /// (``Layout/eventsSince``); `nil` leaves it out.
    var eventsSince: String?
    /// How many steps the history panel lists.
    var historySteps: Int

    init(
        item: TodoItem, service: TodoService, csrfToken: String, historySteps: Int = HistoryPanel.defaultWindow,
        timeZone: TimeZone = PageTimeZone.current
    ) async throws {
        self.item = item
        self.historySteps = historySteps
        list = nil
        history = try await service.history()
        tree = try await service.historyTree()
        now = service.now()
        dueFormatter = DueDateFormatter(now: now, timeZone: timeZone)
        calendar = DayCalendar(timeZone: timeZone)
        self.csrfToken = csrfToken
    }

    /// The form of `item` of the shared list `list`, as of `now`, with the
    /// account's Undo and Redo for `next`.
    init(
        item: TodoItem, list: SharedListSummary, next: SharedListNextSteps, now: Date, csrfToken: String,
        timeZone: TimeZone = PageTimeZone.current
    ) {
        self.item = item
        self.list = list
        self.next = next
        historySteps = 0
        self.now = now
        dueFormatter = DueDateFormatter(now: now, timeZone: timeZone)
        calendar = DayCalendar(timeZone: timeZone)
        self.csrfToken = csrfToken
    }

    /// Where the item is changed: `PATCH` and `DELETE` of the JSON API.
    var itemAPI: String {
        guard let list else { return "/api/todos/\(item.id.uuidString)" }
        return "/api/lists/\(list.id.uuidString)/todos/\(item.id.uuidString)"
    }

    /// The page of the list the item is on.
    var listPage: String {
        list.map { "/lists/\($0.id.uuidString)" } ?? "/todos"
    }

    /// The confirmation of "Delete…": "Delete item", naming the item.
    var deleteCard: ModalCard {
        ModalCard(
            id: "confirm-delete-item",
            title: "Delete item",
            message: "Please confirm deletion of “\(item.title)”.",
            primary: .destructive("Delete", action: .request(method: "DELETE", path: itemAPI, then: listPage)),
            secondary: .cancel("Cancel")
        )
    }

    /// The whole document.
    func render() -> HTML {
        // A shared list's item: the script changes it through that list's
        // API and follows that list's events (todo-detail.js).
        let shared: [Attribute] = list.map { list in
            [.data("list", list.id.uuidString), .data("api", itemAPI),
             .data("fragment", "/lists/\(list.id.uuidString)/items/\(item.id.uuidString)/fragment")]
        } ?? []
        return Layout(title: pageTitle, page: list == nil ? .todoDetail : .sharedItem, csrfToken: csrfToken, eventsSince: eventsSince).render { html in
            html.element("main", attributes: [.class("detail-page"), .data("id", uuid: item.id)] + shared) { html in
                html.element("a", [.class("back-link"), .href(listPage)]) { $0.text(backText) }
                // Where an undo, a redo or a jump is said to a screen reader, as on the list's page.
                TodoListView.moveStatus(into: &html)
                html.element("div", [.class("todos-layout")]) { html in
                    html.element("div", [.class("todos-column")]) { html in
                        regions(into: &html)
                    }
                    historyPanel(into: &html)
                }
            }
        }
    }

    /// The way back to the list, named as the list is now: "← Groceries".
    var backText: String { "← " + (list?.name ?? "All to-dos") }

    /// The title of the browser's tab: the item's, its list's and Rewind's.
    var pageTitle: String { "\(item.title) · \(list?.name ?? "To-dos") · Rewind" }

    /// The history panel, with ``historySteps`` steps at most; none for
    /// a shared list's item (its list's page has the account's history).
    func historyPanel(into html: inout HTMLWriter) {
        guard let tree else { return }
        HistoryPanel(tree: tree, window: historySteps, dates: dueFormatter).render(into: &html)
    }

    /// The parts that `/todos/items/{id}/fragment` answers: the toolbar and
    /// the detail section (with its confirmation card).
    func regions(into html: inout HTMLWriter) {
        toolbar(into: &html)
        detail(into: &html)
    }

    private func toolbar(into html: inout HTMLWriter) {
        if let next { return SharedListPage.toolbar(next, into: &html) }
        guard let history else { return }
        html.element("div", [.class("todo-toolbar"), .data("region", "toolbar")]) { html in
            UndoRedoBar(
                canUndo: history.canUndo, canRedo: history.canRedo,
                undoTitle: history.undoTitle, redoTitle: history.redoTitle, idPrefix: "todos",
                undoName: history.undoActionName, redoName: history.redoActionName
            ).render(into: &html)
        }
    }

    private func detail(into html: inout HTMLWriter) {
        let overdue = item.isOverdue(at: now)
        let due = dueFormatter.display(item.due)
        // The tab's title, which a refresh takes from here (regions.js), even while the form is kept.
        html.element(
            "section", [.class("detail"), .data("region", "detail"), .data("id", uuid: item.id), .data("page-title", pageTitle),
             .data("back-text", backText)]
        ) { html in
            html.element("h1", [.class("detail-title"), Attribute("dir", "auto")]) { $0.text(item.title) }
            html.element("p", [.class("detail-summary")]) { html in
                html.text(item.isCompleted ? "Completed. " : "Active. ")
                if !due.isEmpty {
                    html.element("span", [.class(overdue ? "due overdue" : "due")]) {
                        $0.text(overdue ? "Overdue: \(due). " : "Due \(due). ")
                    }
                }
                if item.location != .unknown {
                    // The whole address or coordinate; directions in short, as the form below lists them.
                    if case .directions = item.location {
                        html.text("Where: " + item.location.summary)
                    } else {
                        html.text("Where: " + item.location.fullText)
                    }
                    if let map = item.location.openStreetMapURL {
                        html.text(" (")
                        html.element("a", [.class("map-link"), .href(map.absoluteString)]) { $0.text("on OpenStreetMap") }
                        html.text(")")
                    }
                    html.text(". ")
                }
                html.text("Created \(dueFormatter.display(.date(item.created))).")
            }
            form(into: &html)
            deleteCard.render(into: &html)
        }
    }

    /// The name of `unit` after `amount`: "1 day", "3 days" (the page's
    /// script names them again as the amount is typed).
    static func unitName(_ unit: TodoDate.TimeSpan.Unit, amount: Int) -> String {
        amount == 1 ? String(unit.rawValue.dropLast()) : unit.rawValue
    }

    /// `title` with each line break (`\r\n`, `\r` or `\n`) as one space.
    static func oneLine(_ title: String) -> String {
        title.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\r", with: " ")
            .replacingOccurrences(of: "\n", with: " ")
    }

    private func form(into html: inout HTMLWriter) {
        html.element(
            "form",
            [.class("detail-form"), .id("detail-form"), .data("id", uuid: item.id), Attribute("novalidate", isOn: true)]
        ) { html in
            html.element("label", [.class("field")]) { html in
                html.element("span") { $0.text("Title") }
                html.void(
                    "input",
                    // A one-line field drops line breaks: they are shown as spaces, as a row's edit field shows them.
                    [.name("title"), .value(Self.oneLine(item.title)), Attribute("required", isOn: true), Attribute("maxlength", "500"), Attribute("dir", "auto"),
                     Attribute("autocomplete", "off")]
                )
            }
            html.element("label", [.class("field")]) { html in
                html.element("span") { $0.text("Details") }
                html.element("textarea", [.name("details"), Attribute("rows", "5"), Attribute("dir", "auto")]) { $0.text(Self.textareaText(item.details)) }
            }
            html.element("label", [.class("choice")]) { html in
                html.void("input", [.type("checkbox"), .name("completed"), .checked(item.isCompleted)])
                html.text(" Completed")
            }
            dueFieldset(into: &html)
            locationFieldset(into: &html)
            html.element("div", [.class("detail-actions")]) { html in
                html.element("button", [.type("submit"), .class("primary"), .id("save-item")]) { $0.text("Save") }
                html.element(
                    "button",
                    [.type("button"), .class("danger"), .id("delete-item"), .data("opens-modal", "confirm-delete-item")]
                ) { $0.text("Delete…") }
            }
            html.element("p", [.class("form-status"), Attribute("role", "status"), .id("form-status")])
        }
    }

    // MARK: Due date

    private enum DueKind: String, CaseIterable {
        case none, date, span, duration, text

        var label: String {
            switch self {
            case .none: "None"
            case .date: "A date"
            case .span: "A time span"
            case .duration: "Start and duration"
            case .text: "Type it"
            }
        }
    }

    /// The kind the form opens on. Whole days from midnight in the page's
    /// time zone (what `tomorrow` or `2026-12-01 for 3 days` makes) open
    /// as typed words, `2026-12-01 for 3 days`, not as times of 00:00.
    private var dueKind: DueKind {
        let midnight = { (date: Date) in calendar.startOfDay(for: date) == date }
        return switch item.due {
        case .unknown: .none
        case .date: .date
        case .timeSpan(.start(.from(let start), .to(let end))) where midnight(start) && midnight(end): .text
        case .timeSpan(.start): .span
        case .timeSpan(.duration(.from(let start), _, .days)) where midnight(start): .text
        case .timeSpan(.duration): .duration
        }
    }

    private func dueFieldset(into html: inout HTMLWriter) {
        let (spanEnd, amount, unit): (Date?, Int, TodoDate.TimeSpan.Unit) =
            switch item.due {
            case .timeSpan(.start(_, .to(let end))): (end, 1, .days)
            case .timeSpan(.duration(_, let amount, let unit)): (nil, amount, unit)
            default: (nil, 1, .days)
            }
        let start = item.due.start
        html.element("fieldset", [.class("due-fieldset")]) { html in
            html.element("legend") { $0.text("Due") }
            choices(
                name: "dueKind", legend: "Kind of due date", selected: dueKind.rawValue,
                DueKind.allCases.map { ($0.rawValue, $0.label) }, into: &html
            )
            html.element("div", [.data("due", "date"), .class("grid-2")]) { html in
                dateInput(name: "dueDate", label: "Date and time", date: start, into: &html)
            }
            html.element("div", [.data("due", "span"), .class("grid-2")]) { html in
                dateInput(name: "spanStart", label: "Start", date: start, into: &html)
                dateInput(name: "spanEnd", label: "End (optional)", date: spanEnd, into: &html)
            }
            html.element("div", [.data("due", "duration"), .class("grid-2")]) { html in
                dateInput(name: "durationStart", label: "Start", date: start, into: &html)
                html.element("label", [.class("field")]) { html in
                    html.element("span") { $0.text("Duration") }
                    html.void(
                        "input", [.type("number"), .name("durationAmount"), .value(String(amount)), Attribute("min", "1")]
                    )
                }
                html.element("label", [.class("field")]) { html in
                    html.element("span") { $0.text("Unit") }
                    html.element("select", [.name("durationUnit")]) { html in
                        for candidate in TodoDate.TimeSpan.Unit.allCases {
                            html.element(
                                "option",
                                [.value(candidate.rawValue), Attribute("selected", isOn: candidate == unit)]
                            ) { $0.text(Self.unitName(candidate, amount: amount)) }
                        }
                    }
                }
            }
            html.element("div", [.data("due", "text")]) { html in
                html.element("label", [.class("field")]) { html in
                    html.element("span") { $0.text("When (tomorrow, fri 14:30, 2026-12-01 for 3 days, …)") }
                    html.void(
                        "input",
                        [.name("dueText"), .value(item.due == .unknown ? "" : dueFormatter.text(item.due)),
                         Attribute("autocomplete", "off"), .placeholder("tomorrow 9:00")]
                    )
                }
            }
        }
    }

    private func dateInput(name: StaticString, label: String, date: Date?, into html: inout HTMLWriter) {
        html.element("label", [.class("field")]) { html in
            html.element("span") { $0.text(label) }
            html.void(
                "input",
                [.type("datetime-local"), Attribute("name", name.description), .value(date.map(localValue) ?? ""),
                 .data("iso", date.map(ISO8601Milliseconds.string(from:)) ?? "")]
            )
        }
    }

    /// `2026-12-01T09:30`: the value of a `datetime-local` input.
    private func localValue(_ date: Date) -> String {
        let parts = calendar.parts(of: date)
        func padded(_ value: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        return "\(padded(parts.year, 4))-\(padded(parts.month, 2))-\(padded(parts.day, 2))"
            + "T\(padded(parts.hour, 2)):\(padded(parts.minute, 2))"
    }

    // MARK: Location

    private func locationFieldset(into html: inout HTMLWriter) {
        let kind: String
        var address = Location.Address(street: "", city: "", zipCode: "", country: "")
        var latitude = ""
        var longitude = ""
        var steps = ""
        switch item.location {
        case .unknown:
            kind = "none"
        case .address(let value):
            kind = "address"
            address = value
        case .coordinate(let value):
            kind = "coordinate"
            latitude = String(value.latitude)
            longitude = String(value.longitude)
        case .directions(let value):
            kind = "directions"
            steps = value.steps.joined(separator: "\n")
        }
        html.element("fieldset", [.class("location-fieldset")]) { html in
            html.element("legend") { $0.text("Location") }
            choices(
                name: "locationKind", legend: "Kind of location", selected: kind,
                [("none", "None"), ("address", "Address"), ("coordinate", "Coordinate"), ("directions", "Directions")],
                into: &html
            )
            html.element("div", [.data("location", "address"), .class("grid-2")]) { html in
                textInput(name: "street", label: "Street", value: address.street, into: &html)
                textInput(name: "city", label: "City", value: address.city, into: &html)
                textInput(name: "zipCode", label: "Zip code", value: address.zipCode, into: &html)
                textInput(name: "country", label: "Country", value: address.country, into: &html)
            }
            html.element("div", [.data("location", "coordinate"), .class("grid-2")]) { html in
                textInput(
                    name: "latitude", label: "Latitude (-90 to 90)", value: latitude, inputMode: "decimal", into: &html
                )
                textInput(
                    name: "longitude", label: "Longitude (-180 to 180)", value: longitude, inputMode: "decimal",
                    into: &html
                )
            }
            html.element("div", [.data("location", "directions")]) { html in
                html.element("label", [.class("field")]) { html in
                    html.element("span") { $0.text("Steps, one per line") }
                    html.element("textarea", [.name("steps"), Attribute("rows", "4")]) { $0.text(Self.textareaText(steps)) }
                }
            }
        }
    }

    /// `text` as a textarea's content: the HTML parser drops one line
    /// break right after `<textarea>`, so text that starts with one gets
    /// another before it, and keeps its first, empty line.
    static func textareaText(_ text: String) -> String {
        text.hasPrefix("\n") || text.hasPrefix("\r") ? "\n" + text : text
    }

    private func textInput(
        name: StaticString, label: String, value: String, inputMode: String = "text", into html: inout HTMLWriter
    ) {
        html.element("label", [.class("field")]) { html in
            html.element("span") { $0.text(label) }
            html.void(
                "input",
                [Attribute("name", name.description), .value(value), Attribute("inputmode", inputMode),
                 Attribute("autocomplete", "off")]
            )
        }
    }

    /// Radio buttons in a fieldset of their own, named by a legend that
    /// screen readers read (the surrounding fieldset's legend shows it), so
    /// that the set is one labelled group with no other field in it.
    private func choices(
        name: StaticString, legend: String, selected: String, _ options: [(String, String)],
        into html: inout HTMLWriter
    ) {
        html.element("fieldset", [.class("choice-row")]) { html in
            html.element("legend", [.class("visually-hidden")]) { $0.text(legend) }
            for (value, label) in options {
                html.element("label") { html in
                    html.void(
                        "input",
                        [.type("radio"), Attribute("name", name.description), .value(value), .checked(value == selected)]
                    )
                    html.text(" \(label)")
                }
            }
        }
    }
}
