import HTTPTypes

/// What a browser shows when a page cannot be shown, instead of the JSON
/// error an API client gets: the site's navigation, what went wrong in a
/// sentence, and the way on. A page that does not exist (a mistyped
/// address, an item deleted since the link was made) says "Not found"; an
/// address the page cannot take (`/todos?filter=x`, an item id that is not
/// one) says why, and links to the page without the query when it has one;
/// a store that cannot be reached offers to try again.
struct ErrorPage {
    /// The answer's status, which chooses the heading.
    var status: HTTPResponse.Status
    /// What went wrong, as the JSON error says it.
    var message: String
    /// The path asked for: the page without its query.
    var path: String
    /// The query asked for, if any (without its `?`).
    var query: String?
    /// The server's token for the layout (the page has no script).
    var csrfToken: String
    /// Whether the page links to the lists (team mode).
    var linksToLists = false

    /// The page's heading for `status`.
    static func heading(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "Not found"
        case .badRequest, .unprocessableContent: "Cannot open this address"
        case .serviceUnavailable: "Not available right now"
        case .internalServerError: "Something went wrong"
        default: status.reasonPhrase
        }
    }

    /// `message` as a sentence: its first letter a capital, a full stop at
    /// its end.
    static func sentence(_ message: String) -> String {
        guard let first = message.first else { return "" }
        let text = first.uppercased() + message.dropFirst()
        return [".", "!", "?"].contains(text.last) ? text : text + "."
    }

    /// Writes `sentence`, the commands between backticks in it (“start the
    /// server with `rewind serve --accounts`”, as the API says it) as code.
    static func write(_ sentence: String, into html: inout HTMLWriter) {
        let parts = sentence.split(separator: "`", omittingEmptySubsequences: false)
        guard parts.count > 1, parts.count % 2 == 1 else {
            html.text(sentence)
            return
        }
        for (index, part) in parts.enumerated() where !part.isEmpty {
            if index % 2 == 1 {
                html.element("code") { $0.text(String(part)) }
            } else {
                html.text(String(part))
            }
        }
    }

    /// `text` cut to its first 60 characters, an ellipsis after: a query
    /// can be as long as a request allows.
    static func shortened(_ text: String) -> String {
        text.count > 60 ? text.prefix(60) + "…" : text
    }

    /// Whether `path` is one of this site's, safe to link to: `//host`
    /// would leave the site.
    private var linksBack: Bool { path.hasPrefix("/") && !path.hasPrefix("//") }

    /// The whole document.
    func render() -> HTML {
        let heading = Self.heading(for: status)
        return Layout(title: "\(heading) · Rewind", page: .error, csrfToken: csrfToken).render { html in
            html.element("main", [.class("landing error-page")]) { html in
                html.element("h1") { $0.text(heading) }
                html.element("p", [.class("lead")]) { Self.write(Self.sentence(message), into: &$0) }
                if linksBack, query?.isEmpty == false, status == .badRequest || status == .unprocessableContent {
                    html.element("p") { html in
                        html.element("a", [.href(path)]) { $0.text("Open \(path)") }
                        html.text(" without “?\(Self.shortened(query ?? ""))”.")
                    }
                } else if linksBack, status == .serviceUnavailable || status == .internalServerError {
                    html.element("p") { html in
                        html.element("a", [.href(query.map { "\(path)?\($0)" } ?? path)]) { $0.text("Try again") }
                        html.text(".")
                    }
                }
                html.element("p") { html in
                    html.text("Go to ")
                    if linksToLists {
                        html.element("a", [.href("/lists")]) { $0.text("your lists") }
                        html.text(", ")
                    }
                    html.text("the ")
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
