/// `/todos`: the TodoMVC app (`section.todoapp`), the toolbar with Undo and
/// Redo, the history panel, and the "Delete all items" confirmation.
struct TodoPage {
    /// The state to show.
    var view: TodoListView
    /// The token for the page's script.
    var csrfToken: String
    /// The id of the state `view` shows, as `/events` names it (``Layout/eventsSince``).
    var eventsSince: String? = nil

    /// The confirmation of "Delete all items…".
    static let deleteAllCard = ModalCard(
        id: "confirm-delete-all",
        title: "Delete all items",
        message: "Please confirm deletion of every item, completed or not. You can undo it.",
        primary: .destructive("Delete all", action: .request(method: "DELETE", path: "/api/todos")),
        secondary: .cancel("Cancel")
    )

    /// The whole document.
    func render() -> HTML {
        Layout(title: "To-dos · Rewind", page: .todos, csrfToken: csrfToken, eventsSince: eventsSince).render(capacity: view.estimatedSize) { html in
            html.element("main", [.class("todos-page")]) { html in
                html.element("div", [.class("todos-layout")]) { html in
                    html.element("div", [.class("todos-column")]) { html in
                        // In team mode this list is everyone's: said before anyone's Undo takes back another's step.
                        if SignedIn.current != nil {
                            html.element("p", [.class("team-note")]) { html in
                                html.text("The team's list: everyone signed in here shares it, its history and its Undo. ")
                                html.element("a", [.href("/lists")]) { $0.text("Lists") }
                                html.text(" of your own, or shared by name, have an Undo that takes back only your changes.")
                            }
                        }
                        html.element("section", [.class("todoapp")]) { html in
                            html.element("header", [.class("header")]) { html in
                                html.element("h1") { $0.text("todos") }
                                html.void(
                                    "input",
                                    [.class("new-todo"), .placeholder("What needs to be done?"),
                                     Attribute("autofocus", isOn: true), .ariaLabel("What needs to be done?"),
                                     Attribute("maxlength", "500"), Attribute("autocomplete", "off"), Attribute("dir", "auto")]
                                )
                            }
                            view.main(into: &html)
                            view.footer(into: &html)
                        }
                        SearchField(search: view.search).render(into: &html)
                        view.toolbar(into: &html)
                        html.element("p", [.class("todo-error"), .id("todo-error"), Attribute("role", "alert")])
                        TodoListView.moveStatus(into: &html)
                        html.element("p", [.class("keyboard-help")]) { html in
                            html.text("Enter adds, double-click (or F2 on a row) edits, Escape cancels an edit; ")
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
                    view.historyPanel(into: &html)
                }
                Self.deleteAllCard.render(into: &html)
            }
        }
    }
}
