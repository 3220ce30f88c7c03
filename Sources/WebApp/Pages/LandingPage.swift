/// `/`: what Rewind is, and links to its two apps.
struct LandingPage {
    /// The token for the page's script.
    var csrfToken: String

    /// The whole document.
    func render() -> HTML {
        Layout(title: "Rewind", page: .home, csrfToken: csrfToken).render {
            HTML.element("main", [.class("landing")]) {
                HTML.element("h1") { "Rewind" }
                HTML.element("p", [.class("lead")]) {
                    "Command-driven apps with unlimited undo and redo that survive a restart."
                }
                HTML.element("ul", [.class("app-cards")]) {
                    card(
                        path: "/todos", title: "To-dos",
                        text: "A to-do list with due dates, locations, a history panel, and undo for every step."
                    )
                    card(
                        path: "/calculator", title: "Calculator",
                        text: "A calculator with a tape and unlimited undo and redo of every key press."
                    )
                }
                HTML.element("p", [.class("api-note")]) {
                    "Scripts can use the same apps through the JSON API described in "
                    HTML.element("a", [.href("/openapi.json")]) { "openapi.json" }
                    " ("
                    HTML.element("a", [.href("/openapi.yaml")]) { "YAML" }
                    ")."
                }
            }
        }
    }

    private func card(path: String, title: String, text: String) -> HTML {
        HTML.element("li", [.class("app-card")]) {
            HTML.element("a", [.href(path)]) {
                HTML.element("h2") { title }
                HTML.element("p") { text }
            }
        }
    }
}
