/// `/`: what Rewind is, and links to its two apps (and, in team mode, to
/// the shared lists).
struct LandingPage {
    /// The token for the page's script.
    var csrfToken: String

    /// The whole document.
    func render() -> HTML {
        Layout(title: "Rewind", page: .home, csrfToken: csrfToken).render { html in
            html.element("main", [.class("landing")]) { html in
                html.element("h1") { $0.text("Rewind") }
                html.element("p", [.class("lead")]) {
                    $0.text("Command-driven apps with unlimited undo and redo.")
                }
                html.element("ul", [.class("app-cards")]) { html in
                    if SignedIn.current != nil {
                        card(
                            path: "/lists", title: "Lists",
                            text: "Lists you share with others by name. Your Undo takes back your own changes, never theirs, across restarts too.",
                            into: &html
                        )
                    }
                    card(
                        path: "/todos", title: "To-dos",
                        text: SignedIn.current == nil
                            ? "A to-do list with due dates, locations, a history panel, and undo for every step, kept across restarts."
                            : "The team's to-do list: everyone signed in shares it, its history and its undo, with due dates and locations.",
                        into: &html
                    )
                    card(
                        path: "/calculator", title: "Calculator",
                        text: "A calculator with a tape and unlimited undo and redo of every key press, kept across restarts.",
                        into: &html
                    )
                }
                html.element("p", [.class("api-note")]) { html in
                    html.text("Scripts can use the same apps through the JSON API described in ")
                    html.element("a", [.href("/openapi.json")]) { $0.text("openapi.json") }
                    html.text(" (")
                    html.element("a", [.href("/openapi.yaml")]) { $0.text("YAML") }
                    html.text(").")
                }
            }
        }
    }

    private func card(path: String, title: String, text: String, into html: inout HTMLWriter) {
        html.element("li", [.class("app-card")]) { html in
            html.element("a", [.href(path)]) { html in
                html.element("h2") { $0.text(title) }
                html.element("p") { $0.text(text) }
            }
        }
    }
}
