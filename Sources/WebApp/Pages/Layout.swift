/// The frame of every page: the document head (one stylesheet, one script,
/// the CSRF token for the script), the site navigation, and the page's
/// content.
struct Layout {
    /// Which page is shown; the script reads it from `body[data-page]`, and
    /// the navigation marks it as the current one.
    enum Page: String {
        case home, todos, todoDetail = "todo-detail", calculator
    }

    /// The `<title>`.
    var title: String
    /// The page shown.
    var page: Page
    /// The token that the script sends with state-changing requests.
    var csrfToken: String

    /// The whole document around `content`.
    func render(@HTMLBuilder content: () -> HTML) -> HTML {
        HTML.document(
            HTML.element("html", [Attribute("lang", "en")]) {
                HTML.element("head") {
                    HTML.void("meta", [Attribute("charset", "utf-8")])
                    HTML.void("meta", [.name("viewport"), Attribute("content", "width=device-width, initial-scale=1")])
                    HTML.void("meta", [.name("color-scheme"), Attribute("content", "light dark")])
                    HTML.void("meta", [.name("rewind-csrf"), Attribute("content", csrfToken)])
                    HTML.element("title") { title }
                    HTML.void("link", [Attribute("rel", "stylesheet"), .href(Assets.stylesheetPath)])
                    HTML.void("link", [Attribute("rel", "icon"), .href(Assets.iconPath)])
                    HTML.element("script", [Attribute("src", Assets.scriptPath), Attribute("defer", isOn: true)])
                }
                HTML.element("body", [.data("page", page.rawValue)]) {
                    HTML.element("a", [.class("skip-link"), .href("#content")]) { "Skip to content" }
                    navigation()
                    HTML.element("div", [.id("content"), .class("content")]) {
                        content()
                    }
                }
            }
        )
    }

    private func navigation() -> HTML {
        let links: [(Page, String, String)] = [
            (.home, "/", "Rewind"),
            (.todos, "/todos", "To-dos"),
            (.calculator, "/calculator", "Calculator"),
        ]
        return HTML.element("nav", [.class("site-nav"), .ariaLabel("Rewind apps")]) {
            HTML.element("ul") {
                for (target, path, label) in links {
                    HTML.element("li") {
                        HTML.element("a", navigationAttributes(target: target, path: path)) { label }
                    }
                }
            }
        }
    }

    private func navigationAttributes(target: Page, path: String) -> [Attribute] {
        let isCurrent = target == page || (target == .todos && page == .todoDetail)
        var attributes: [Attribute] = [.href(path)]
        if isCurrent { attributes.append(Attribute("aria-current", "page")) }
        return attributes
    }
}
