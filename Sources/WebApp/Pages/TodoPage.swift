/// `/todos`: the TodoMVC app (`section.todoapp`), the toolbar with Undo and
/// Redo, the history panel, and the "Delete all items" confirmation.
struct TodoPage {
    /// The state to show.
    var view: TodoListView
    /// The token for the page's script.
    var csrfToken: String

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
        Layout(title: "To-dos · Rewind", page: .todos, csrfToken: csrfToken).render {
            HTML.element("main", [.class("todos-page")]) {
                HTML.element("div", [.class("todos-layout")]) {
                    HTML.element("div", [.class("todos-column")]) {
                        HTML.element("section", [.class("todoapp")]) {
                            HTML.element("header", [.class("header")]) {
                                HTML.element("h1") { "todos" }
                                HTML.void(
                                    "input",
                                    [.class("new-todo"), .placeholder("What needs to be done?"),
                                     Attribute("autofocus", isOn: true), .ariaLabel("What needs to be done?"),
                                     Attribute("maxlength", "500"), Attribute("autocomplete", "off")]
                                )
                            }
                            view.main
                            view.footer
                        }
                        view.toolbar
                        HTML.element("p", [.class("todo-error"), .id("todo-error"), Attribute("role", "alert")])
                        HTML.element("p", [.class("keyboard-help")]) {
                            "Enter adds, double-click edits, Escape cancels an edit. "
                            HTML.element("kbd") { "Ctrl+Z" }
                            " undoes, "
                            HTML.element("kbd") { "Ctrl+Shift+Z" }
                            " or "
                            HTML.element("kbd") { "Ctrl+Y" }
                            " redoes (⌘ on a Mac) when no text field has the focus."
                        }
                    }
                    view.historyPanel
                }
                Self.deleteAllCard.html
            }
        }
    }
}
