/// The frame of every page: the document head (the stylesheet, the page's
/// script as an ES module, the CSRF token for the script), the site
/// navigation with, in team mode, who is signed in and a Sign out button,
/// and the page's content.
struct Layout {
    /// Which page is shown (`body[data-page]`); the navigation marks it as
    /// the current one.
    enum Page: String, CaseIterable {
        case home, todos, todoDetail = "todo-detail", calculator, signIn = "signin", lists
        case sharedList = "shared-list", sharedItem = "shared-item"
        case error

        /// The page's script in `Sources/WebApp/Resources/assets/`, if it has one.
        var script: String? {
            switch self {
            case .home, .signIn, .error: nil
            case .todos: "todos.js"
            case .todoDetail, .sharedItem: "todo-detail.js"
            case .calculator: "calculator.js"
            case .lists: "lists.js"
            case .sharedList: "shared-list.js"
            }
        }
    }

    /// The `<title>`.
    var title: String
    /// The page shown.
    var page: Page
    /// The token that the script sends with state-changing requests: the
    /// server's; in team mode the signed-in session's replaces it.
    var csrfToken: String
    /// The id of the state the page shows, as its event stream names it
    /// (`<meta name="rewind-events-since">`): the script opens the stream
    /// with `?since=` it, so that a change made between the page's read and
    /// the stream's start is told; `nil` on a page without a stream.
    var eventsSince: String? = nil

    /// The whole document around `content`.
    ///
    /// - Parameters:
    ///   - capacity: Bytes to reserve for the document.
    ///   - content: Writes the page's content.
    func render(capacity: Int = 16_384, content: (inout HTMLWriter) -> Void) -> HTML {
        HTML(capacity: capacity) { html in
            html.trusted("<!DOCTYPE html>\n")
            html.element("html", [Attribute("lang", "en")]) { html in
                html.element("head") { html in
                    html.void("meta", [Attribute("charset", "utf-8")])
                    html.void("meta", [.name("viewport"), Attribute("content", "width=device-width, initial-scale=1")])
                    html.void("meta", [.name("color-scheme"), Attribute("content", "light dark")])
                    html.void("meta", [.name("rewind-csrf"), Attribute("content", SignedIn.csrfToken(server: csrfToken))])
                    if let eventsSince { html.void("meta", [.name("rewind-events-since"), Attribute("content", eventsSince)]) }
                    // The zone the page's dates are written in (`time-zone.js`).
                    html.void("meta", [.name("rewind-time-zone"), Attribute("content", PageTimeZone.current.identifier)])
                    html.element("title") { $0.text(title) }
                    html.void("link", [Attribute("rel", "stylesheet"), .href(Assets.stylesheetPath)])
                    html.void("link", [Attribute("rel", "icon"), .href(Assets.iconPath)])
                    if let script = page.script {
                        // A module script runs after the document is parsed, like `defer`.
                        html.element("script", [.type("module"), Attribute("src", Assets.path(script))])
                    }
                }
                html.element("body", [.data("page", page.rawValue)]) { html in
                    html.element("a", [.class("skip-link"), .href("#content")]) { $0.text("Skip to content") }
                    if page != .signIn { navigation(into: &html) }
                    html.element("div", [.id("content"), .class("content")]) { html in
                        content(&html)
                    }
                }
            }
        }
    }

    private func navigation(into html: inout HTMLWriter) {
        var links: [(Page, String, String)] = [
            (.home, "/", "Rewind"),
            (.todos, "/todos", "To-dos"),
            (.calculator, "/calculator", "Calculator"),
        ]
        // The shared lists are part of team mode.
        if SignedIn.current != nil { links.insert((.lists, "/lists", "Lists"), at: 2) }
        html.element("nav", [.class("site-nav"), .ariaLabel("Rewind apps")]) { html in
            html.element("ul") { html in
                for (target, path, label) in links {
                    html.element("li") { html in
                        html.element("a", attributes: navigationAttributes(target: target, path: path)) { $0.text(label) }
                    }
                }
                if let signedIn = SignedIn.current { account(signedIn, into: &html) }
            }
        }
    }

    /// “Signed in as ann” and the Sign out button (a plain form: it works
    /// without the page's script).
    private func account(_ signedIn: SignedIn, into html: inout HTMLWriter) {
        html.element("li", [.class("signed-in")]) { html in
            html.element("span", [.class("signed-in-as")]) { html in
                html.text("Signed in as ")
                html.element("strong") { $0.text(signedIn.account.text) }
            }
            html.element("form", [.class("sign-out"), Attribute("method", "post"), Attribute("action", "/signout")]) { html in
                html.void("input", [.type("hidden"), .name("csrf"), .value(signedIn.csrfToken)])
                html.element("button", [.type("submit"), .class("button")]) { $0.text("Sign out") }
            }
        }
    }

    private func navigationAttributes(target: Page, path: String) -> [Attribute] {
        let isCurrent = target == page || (target == .todos && page == .todoDetail)
            || (target == .lists && (page == .sharedList || page == .sharedItem))
        var attributes: [Attribute] = [.href(path)]
        if isCurrent { attributes.append(Attribute("aria-current", "page")) }
        return attributes
    }
}
