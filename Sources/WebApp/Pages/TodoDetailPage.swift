import Foundation
import Todos

/// `/todos/items/{id}`: one item's title, details, due date, location and
/// completion in a form, Undo and Redo, the history panel, and "Delete…"
/// with its confirmation card.
struct TodoDetailPage {
    /// The item shown.
    var item: TodoItem
    /// The undo history.
    var history: HistoryOverview
    /// Writes due dates.
    var dueFormatter: DueDateFormatter
    /// Tells whether the item is overdue.
    var now: Date
    /// Writes the values of date inputs.
    var calendar: Calendar
    /// The token for the page's script.
    var csrfToken: String

    init(item: TodoItem, service: TodoService, csrfToken: String, timeZone: TimeZone = .current) async throws {
        self.item = item
        history = try await service.history()
        now = service.now()
        dueFormatter = DueDateFormatter(now: now, timeZone: timeZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        self.csrfToken = csrfToken
    }

    /// The confirmation of "Delete…": "Delete Item", naming the item.
    var deleteCard: ModalCard {
        ModalCard(
            id: "confirm-delete-item",
            title: "Delete Item",
            message: "Please confirm deletion of “\(item.title)”.",
            primary: .destructive(
                "Delete", action: .request(method: "DELETE", path: "/api/todos/\(item.id.uuidString)", then: "/todos")
            ),
            secondary: .cancel("Cancel")
        )
    }

    /// The whole document.
    func render() -> HTML {
        Layout(title: "\(item.title) · To-dos · Rewind", page: .todoDetail, csrfToken: csrfToken).render {
            HTML.element("main", [.class("detail-page"), .data("id", item.id.uuidString)]) {
                HTML.element("a", [.class("back-link"), .href("/todos")]) { "← All to-dos" }
                HTML.element("div", [.class("todos-layout")]) {
                    HTML.element("div", [.class("todos-column")]) {
                        regions
                    }
                    HistoryPanel(history: history).render()
                }
            }
        }
    }

    /// The parts that `/todos/items/{id}/fragment` answers: the toolbar and
    /// the detail section (with its confirmation card).
    var regions: HTML {
        HTML.joined([toolbar, detail])
    }

    private var toolbar: HTML {
        HTML.element("div", [.class("todo-toolbar"), .data("region", "toolbar")]) {
            UndoRedoBar(
                canUndo: history.canUndo, canRedo: history.canRedo,
                undoTitle: history.undoTitle, redoTitle: history.redoTitle, idPrefix: "todos"
            ).render()
        }
    }

    private var detail: HTML {
        let overdue = item.isOverdue(at: now)
        let due = dueFormatter.display(item.due)
        return HTML.element("section", [.class("detail"), .data("region", "detail"), .data("id", item.id.uuidString)]) {
            HTML.element("h1", [.class("detail-title")]) { item.title }
            HTML.element("p", [.class("detail-summary")]) {
                item.isFinished ? "Completed. " : "Not completed. "
                if !due.isEmpty {
                    HTML.element("span", [.class(overdue ? "due overdue" : "due")]) {
                        overdue ? "Overdue: \(due). " : "Due \(due). "
                    }
                }
                "Created \(dueFormatter.display(.date(item.created)))."
            }
            form
            deleteCard.html
        }
    }

    private var form: HTML {
        HTML.element(
            "form",
            [.class("detail-form"), .id("detail-form"), .data("id", item.id.uuidString), Attribute("novalidate", isOn: true)]
        ) {
            HTML.element("label", [.class("field")]) {
                HTML.element("span") { "Title" }
                HTML.void(
                    "input",
                    [.name("title"), .value(item.title), Attribute("required", isOn: true), Attribute("maxlength", "500"),
                     Attribute("autocomplete", "off")]
                )
            }
            HTML.element("label", [.class("field")]) {
                HTML.element("span") { "Details" }
                HTML.element("textarea", [.name("details"), Attribute("rows", "5")]) { item.details }
            }
            HTML.element("label", [.class("choice")]) {
                HTML.void("input", [.type("checkbox"), .name("completed"), .checked(item.isFinished)])
                " Completed"
            }
            dueFieldset
            locationFieldset
            HTML.element("div", [.class("detail-actions")]) {
                HTML.element("button", [.type("submit"), .class("primary")]) { "Save" }
                HTML.element(
                    "button",
                    [.type("button"), .class("danger"), .id("delete-item"), .data("opens-modal", "confirm-delete-item")]
                ) { "Delete…" }
            }
            HTML.element("p", [.class("form-status"), Attribute("role", "status"), .id("form-status")])
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

    private var dueKind: DueKind {
        switch item.due {
        case .unknown: .none
        case .date: .date
        case .timeSpan(.start): .span
        case .timeSpan(.duration): .duration
        }
    }

    private var dueFieldset: HTML {
        let (spanEnd, amount, unit): (Date?, Int, TodoDate.TimeSpan.Unit) =
            switch item.due {
            case .timeSpan(.start(_, .to(let end))): (end, 1, .days)
            case .timeSpan(.duration(_, let amount, let unit)): (nil, amount, unit)
            default: (nil, 1, .days)
            }
        let start = item.due.start
        return HTML.element("fieldset", [.class("due-fieldset")]) {
            HTML.element("legend") { "Due" }
            choices(
                name: "dueKind", legend: "Kind of due date", selected: dueKind.rawValue,
                DueKind.allCases.map { ($0.rawValue, $0.label) }
            )
            HTML.element("div", [.data("due", "date"), .class("grid-2")]) {
                dateInput(name: "dueDate", label: "Date and time", date: start)
            }
            HTML.element("div", [.data("due", "span"), .class("grid-2")]) {
                dateInput(name: "spanStart", label: "Start", date: start)
                dateInput(name: "spanEnd", label: "End (optional)", date: spanEnd)
            }
            HTML.element("div", [.data("due", "duration"), .class("grid-2")]) {
                dateInput(name: "durationStart", label: "Start", date: start)
                HTML.element("label", [.class("field")]) {
                    HTML.element("span") { "Duration" }
                    HTML.void(
                        "input", [.type("number"), .name("durationAmount"), .value(String(amount)), Attribute("min", "1")]
                    )
                }
                HTML.element("label", [.class("field")]) {
                    HTML.element("span") { "Unit" }
                    HTML.element("select", [.name("durationUnit")]) {
                        for candidate in TodoDate.TimeSpan.Unit.allCases {
                            HTML.element(
                                "option",
                                [.value(candidate.rawValue), Attribute("selected", isOn: candidate == unit)]
                            ) { candidate.rawValue }
                        }
                    }
                }
            }
            HTML.element("div", [.data("due", "text")]) {
                HTML.element("label", [.class("field")]) {
                    HTML.element("span") { "When (tomorrow, fri 14:30, 2026-12-01 for 3 days, …)" }
                    HTML.void(
                        "input",
                        [.name("dueText"), .value(item.due == .unknown ? "" : dueFormatter.text(item.due)),
                         Attribute("autocomplete", "off"), .placeholder("tomorrow 9:00")]
                    )
                }
            }
        }
    }

    private func dateInput(name: StaticString, label: String, date: Date?) -> HTML {
        HTML.element("label", [.class("field")]) {
            HTML.element("span") { label }
            HTML.void(
                "input",
                [.type("datetime-local"), Attribute("name", name.description), .value(date.map(localValue) ?? ""),
                 .data("iso", date.map(JSONDates.string(from:)) ?? "")]
            )
        }
    }

    /// `2026-12-01T09:30`: the value of a `datetime-local` input.
    private func localValue(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : String(value)
        }
        let year = String(parts.year ?? 1970)
        return "\(year)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute))"
    }

    // MARK: Location

    private var locationFieldset: HTML {
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
        return HTML.element("fieldset", [.class("location-fieldset")]) {
            HTML.element("legend") { "Location" }
            choices(
                name: "locationKind", legend: "Kind of location", selected: kind,
                [("none", "None"), ("address", "Address"), ("coordinate", "Coordinate"), ("directions", "Directions")]
            )
            HTML.element("div", [.data("location", "address"), .class("grid-2")]) {
                textInput(name: "street", label: "Street", value: address.street)
                textInput(name: "city", label: "City", value: address.city)
                textInput(name: "zipCode", label: "Zip code", value: address.zipCode)
                textInput(name: "country", label: "Country", value: address.country)
            }
            HTML.element("div", [.data("location", "coordinate"), .class("grid-2")]) {
                textInput(name: "latitude", label: "Latitude (-90 to 90)", value: latitude, inputMode: "decimal")
                textInput(name: "longitude", label: "Longitude (-180 to 180)", value: longitude, inputMode: "decimal")
            }
            HTML.element("div", [.data("location", "directions")]) {
                HTML.element("label", [.class("field")]) {
                    HTML.element("span") { "Steps, one per line" }
                    HTML.element("textarea", [.name("steps"), Attribute("rows", "4")]) { steps }
                }
            }
        }
    }

    private func textInput(name: StaticString, label: String, value: String, inputMode: String = "text") -> HTML {
        HTML.element("label", [.class("field")]) {
            HTML.element("span") { label }
            HTML.void(
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
        name: StaticString, legend: String, selected: String, _ options: [(String, String)]
    ) -> HTML {
        HTML.element("fieldset", [.class("choice-row")]) {
            HTML.element("legend", [.class("visually-hidden")]) { legend }
            for (value, label) in options {
                HTML.element("label") {
                    HTML.void(
                        "input",
                        [.type("radio"), Attribute("name", name.description), .value(value), .checked(value == selected)]
                    )
                    " \(label)"
                }
            }
        }
    }
}
