import Hummingbird

/// Answers a browser's navigation that fails with an HTML page
/// (``ErrorPage``) of the same status: a page that does not exist (404), an
/// address whose query the page does not take (400, such as
/// `/todos?steps=0`), a store that cannot be reached (503). Everything else
/// keeps its JSON error (the API, the assets, the event streams, the page
/// scripts' own requests, whose `Sec-Fetch-Mode` is not `navigate`, and
/// clients that do not ask for HTML). Added after the session gate, so
/// that the page's navigation shows who is signed in.
struct ErrorPageMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The server's token for the layout.
    let csrfToken: String
    /// Whether a store's failure says what failed (local mode), as
    /// ``ErrorMiddleware`` does.
    var showsStoreDetails = false
    /// Whether the page links to the lists (team mode).
    var linksToLists = false

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            guard Self.isNavigation(request) else { throw error }
            let (status, message) = ErrorMiddleware<Context>.answer(
                error, request: request, context: context, showsStoreDetails: showsStoreDetails
            )
            let sentence = Self.isNoRoute(error) ? "There is no page at \(request.uri.path)." : message
            let page = ErrorPage(
                status: status, message: sentence, path: request.uri.path, query: request.uri.query, csrfToken: csrfToken,
                linksToLists: linksToLists
            )
            var response = Responses.html(page.render(), status: status)
            for field in (error as? HTTPError)?.headers ?? [:] { response.headers.append(field) }
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }

    /// Whether `request` is a browser loading a page: a `GET` or `HEAD`
    /// that accepts HTML, outside the API, the assets and the event
    /// streams, and not a script's `fetch`; or a form the browser sends
    /// (a `POST` its `Sec-Fetch-Mode` says is a navigation, the sign-in).
    static func isNavigation(_ request: Request) -> Bool {
        let isForm = request.method == .post && request.headers[.secFetchMode] == "navigate"
        guard request.method == .get || request.method == .head || isForm else { return false }
        let path = request.uri.path
        for prefix in ["/api/", "/assets/", "/openapi."] where path.hasPrefix(prefix) { return false }
        if path == "/events" || path.hasSuffix("/events") || path.hasSuffix("/fragment") { return false }
        if let mode = request.headers[.secFetchMode], mode != "navigate" { return false }
        return request.headers[.accept]?.contains("text/html") == true
    }

    /// Whether `error` is the router's: no route has the path.
    private static func isNoRoute(_ error: any Error) -> Bool {
        guard let error = error as? HTTPError else { return false }
        return error.status == .notFound && error.body == nil
    }
}
