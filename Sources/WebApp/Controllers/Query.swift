import Foundation
import Hummingbird
import HummingbirdCore
import Todos

/// The parameters of the to-do pages: `?filter=`, `?sort=`, `?search=`,
/// `?steps=` and the `{id}` of the path.
enum Query {
    /// The item id `text` names.
    ///
    /// - Throws: ``APIError`` 400 when it is not a UUID.
    static func itemID(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else {
            throw APIError.badRequest("“\(text)” is not an item id; ids are UUIDs such as 0B7E4C1A-0000-4000-8000-000000000000")
        }
        return id
    }

    /// The start of a list's id that the `{list}` of a list's page holds
    /// instead of the whole id (as `rewind lists` prints it), if it does.
    static func listStart(_ context: some RequestContext) -> (prefix: IDPrefix, typed: String)? {
        let text = context.parameters.get("list") ?? ""
        guard UUID(uuidString: text) == nil, let prefix = IDPrefix(text) else { return nil }
        return (prefix, text)
    }

    /// The list id of a list's page (`/lists/{list}`), whose `{list}` is
    /// not the start of an id either.
    ///
    /// - Throws: ``APIError`` 400 that names both forms when it is not a UUID.
    static func listOnPage(_ context: some RequestContext) throws -> UUID {
        let text = context.parameters.get("list") ?? ""
        guard let id = UUID(uuidString: text) else {
            throw APIError.badRequest(
                "“\(text)” is not a list id: a list's address holds its id, a UUID such as 0B7E4C1A-0000-4000-8000-000000000000, "
                    + "or the start of it as `rewind lists` prints it (at least 4 hex digits)"
            )
        }
        return id
    }

    /// The list id `text` names.
    ///
    /// - Throws: ``APIError`` 400 when it is not a UUID.
    static func listID(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else {
            throw APIError.badRequest("“\(text)” is not a list id; ids are UUIDs such as 0B7E4C1A-0000-4000-8000-000000000000")
        }
        return id
    }

    /// The `{list}` of the path.
    ///
    /// - Throws: ``APIError`` 400 when it is not a UUID.
    static func listID(_ context: some RequestContext) throws -> UUID {
        try listID(context.parameters.get("list") ?? "")
    }

    /// The id of the last state an event stream's client saw: the
    /// `Last-Event-ID` a reconnecting `EventSource` sends, or else `?since=`,
    /// the state a page showed when it opened its first stream; `nil`
    /// without either.
    static func eventsSeen(_ request: Request) -> String? {
        request.headers[.lastEventID] ?? request.uri.queryParameters.get("since")
    }

    /// `?max=N` of an event stream: end it after N change events (for
    /// scripts and tests); `nil` without it.
    ///
    /// - Throws: ``APIError`` 400 when it is not a positive whole number.
    static func eventLimit(_ request: Request) throws -> Int? {
        guard let text = request.uri.queryParameters.get("max") else { return nil }
        guard let limit = Int(text), limit > 0 else {
            throw APIError.badRequest("invalid query parameter “max”: “\(text)” is not a positive whole number")
        }
        return limit
    }

    /// `?steps=N` of a page or fragment: how many steps its history panel
    /// lists (``HistoryPanel/window``, ``SharedListPage/historySteps``),
    /// `default` without it.
    ///
    /// - Throws: ``APIError`` 400 when it is not a whole number from 1 to
    ///   ``HistoryPanel/largestWindow``.
    static func historySteps(_ request: Request, default: Int = HistoryPanel.defaultWindow) throws -> Int {
        guard let text = request.uri.queryParameters.get("steps") else { return `default` }
        guard let steps = Int(text), (1...HistoryPanel.largestWindow).contains(steps) else {
            throw APIError.badRequest(
                "invalid query parameter “steps”: “\(text)” is not a whole number of steps from 1 to \(HistoryPanel.largestWindow)"
            )
        }
        return steps
    }

    /// `?rows=N&also=ID,ID` of a to-do list's page or fragment: how many
    /// rows it shows (``RowWindow/defaultRows`` without it), and the items
    /// shown after them when they lie past them.
    ///
    /// - Throws: ``APIError`` 400 when `rows` is not a whole number from 1
    ///   to ``RowWindow/largestRows``, or `also` is not up to
    ///   ``RowWindow/largestAlso`` ids separated by commas.
    static func rowWindow(_ request: Request) throws -> RowWindow {
        var window = RowWindow()
        if let text = request.uri.queryParameters.get("rows") {
            guard let rows = Int(text), (1...RowWindow.largestRows).contains(rows) else {
                throw APIError.badRequest(
                    "invalid query parameter “rows”: “\(text)” is not a whole number of rows from 1 to \(RowWindow.largestRows)"
                )
            }
            window.rows = rows
        }
        if let text = request.uri.queryParameters.get("also"), !text.isEmpty {
            let words = text.split(separator: ",", omittingEmptySubsequences: false)
            let ids = words.compactMap { UUID(uuidString: String($0)) }
            guard ids.count == words.count, ids.count <= RowWindow.largestAlso else {
                throw APIError.badRequest(
                    "invalid query parameter “also”: up to \(RowWindow.largestAlso) item ids separated by commas, not “\(text.prefix(80))”"
                )
            }
            window.also = Set(ids)
        }
        return window
    }

    /// The `{id}` of the path.
    ///
    /// - Throws: ``APIError`` 400 when it is not a UUID.
    static func itemID(_ context: some RequestContext) throws -> UUID {
        try itemID(context.parameters.get("id") ?? "")
    }

    /// What the `{id}` of an item's page names: the item's id, or the start
    /// of it as `rewind todo list` prints it (`text` as typed).
    enum ItemOnPage {
        case id(UUID)
        case start(IDPrefix, typed: String)
    }

    /// The `{id}` of an item's page (`/todos/items/{id}`, `/lists/{list}/items/{id}`).
    ///
    /// - Throws: ``APIError`` 400 when it is neither an id nor the start of one.
    static func itemOnPage(_ context: some RequestContext) throws -> ItemOnPage {
        let text = context.parameters.get("id") ?? ""
        if let id = UUID(uuidString: text) { return .id(id) }
        if let prefix = IDPrefix(text) { return .start(prefix, typed: text) }
        throw APIError.badRequest(
            "“\(text)” is not an item id: an item's address holds its id, a UUID such as 0B7E4C1A-0000-4000-8000-000000000000, "
                + "or the start of it as `rewind todo list` prints it (at least 4 hex digits)"
        )
    }

    /// The way from an item's page named by the start of its id (`text`,
    /// as `rewind todo list` prints it) to its own address: `base` and the
    /// one id of `matches` (those that start so, up to four), with the
    /// query of `request`.
    ///
    /// - Throws: ``APIError`` 404 when no id starts with `text`, 400 when
    ///   several do (naming up to three of them).
    static func itemAddress(_ base: String, of text: String, matching matches: [UUID], _ request: Request) throws -> Response {
        try address(base, of: text, matching: matches, request, naming: ("item", "items"))
    }

    /// The way from a list's page named by the start of its id (`text`, as
    /// `rewind lists` prints it) to its own address, as
    /// ``itemAddress(_:of:matching:_:)`` for an item's.
    static func listAddress(of text: String, matching matches: [UUID], _ request: Request) throws -> Response {
        try address("/lists/", of: text, matching: matches, request, naming: ("list", "lists"))
    }

    private static func address(
        _ base: String, of text: String, matching matches: [UUID], _ request: Request, naming noun: (one: String, many: String)
    ) throws -> Response {
        switch matches.count {
        case 0:
            throw APIError.notFound("No \(noun.one)'s id starts with “\(text)”.")
        case 1:
            let query = request.uri.query.map { "?" + $0 } ?? ""
            return Response(status: .seeOther, headers: [.location: base + matches[0].uuidString + query])
        default:
            let shown = matches.prefix(3).map { IDPrefix.hex($0, length: 12) }.joined(separator: ", ")
            throw APIError.badRequest(
                "“\(text)” starts the ids of several \(noun.many) (\(shown)\(matches.count > 3 ? ", …" : "")): type more of the id."
            )
        }
    }

    /// `?filter=all|active|completed|overdue`, `all` by default.
    static func filter(_ request: Request) throws -> TodoFilter {
        try filter(request.uri.queryParameters)
    }

    /// `filter=all|active|completed|overdue` of `parameters`, `all` by default.
    static func filter(_ parameters: FlatDictionary<Substring, Substring>) throws -> TodoFilter {
        guard let text = parameters.get("filter"), !text.isEmpty else { return .all }
        guard let filter = TodoFilter(rawValue: text) else {
            throw APIError.badRequest(
                "invalid query parameter “filter”: “\(text)” is not one of \(TodoFilter.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return filter
    }

    /// `?search=WORDS`: the items that contain every word; `nil` without
    /// it or without words.
    static func search(_ request: Request) throws -> TodoSearch? {
        try search(formValue("search", of: request.uri.query))
    }

    /// The value of `name` in `query` as a form writes it: a `+` is a space
    /// (a browser's `URLSearchParams` writes spaces so), `%2B` a plus, the
    /// rest percent-decoded; `nil` when `query` has no such parameter.
    /// Hummingbird's query parameters keep a `+`.
    static func formValue(_ name: String, of query: String?) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.first == Substring(name) else { continue }
            let value = parts.count > 1 ? parts[1].replacingOccurrences(of: "+", with: " ") : ""
            return value.removingPercentEncoding ?? value
        }
        return nil
    }

    /// The search that `text` asks for, `nil` without it or without words.
    ///
    /// - Throws: ``APIError`` 400 for a text longer than
    ///   ``TodoSearch/longestText`` characters (the schema's `maxLength`),
    ///   422 for one the schema allows and the search refuses (too many
    ///   words, a control character).
    static func search(_ text: String?) throws -> TodoSearch? {
        guard let text else { return nil }
        do {
            return try TodoSearch(text)
        } catch {
            let message = "invalid query parameter “search”: \(error)"
            if case .tooLong = error { throw APIError.badRequest(message) }
            throw APIError.invalidField(message)
        }
    }

    /// `?sort=list|smart` (or `order=`), `list` by default.
    static func sort(_ request: Request) throws -> TodoSort {
        try sort(request.uri.queryParameters)
    }

    /// `sort=list|smart` (or `order=`) of `parameters`, `list` by default.
    static func sort(_ parameters: FlatDictionary<Substring, Substring>) throws -> TodoSort {
        guard let text = parameters.get("sort") ?? parameters.get("order"), !text.isEmpty else { return .list }
        guard let sort = TodoSort(rawValue: text) else {
            throw APIError.badRequest(
                "invalid query parameter “sort”: “\(text)” is not one of \(TodoSort.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return sort
    }
}
