/// What a browser shows for a page that does not exist (a mistyped address,
/// an item deleted since the link was made): the site's navigation, what
/// was not found, and the way to the apps, instead of the JSON error an
/// API client gets.
struct NotFoundPage {
    /// What was not found, in a sentence.
    var message: String
    /// The server's token for the layout (the page has no script).
    var csrfToken: String

    /// The whole document.
    func render() -> HTML {
        Layout(title: "Not found · Rewind", page: .notFound, csrfToken: csrfToken).render { html in
            html.element("main", [.class("landing not-found")]) { html in
                html.element("h1") { $0.text("Not found") }
                html.element("p", [.class("lead")]) { $0.text(message) }
                html.element("p") { html in
                    html.text("Go to the ")
                    html.element("a", [.href("/todos")]) { $0.text("to-dos") }
                    html.text(", the ")
                    html.element("a", [.href("/calculator")]) { $0.text("calculator") }
                    html.text(" or the ")
                    html.element("a", [.href("/")]) { $0.text("start page") }
                    html.text(".")
                }
            }
        }
    }
}
