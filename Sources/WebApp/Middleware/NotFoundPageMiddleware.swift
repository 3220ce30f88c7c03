import Hummingbird

/// Answers a browser's navigation to a page that does not exist with an
/// HTML page (``NotFoundPage``), 404 still: a mistyped address or the link
/// of an item deleted since. Everything else keeps its JSON error (the API,
/// the assets, the event streams, the page scripts' own requests, whose
/// `Sec-Fetch-Mode` is not `navigate`, and clients that do not ask for HTML).
/// Added after the session gate, so that the page's navigation shows who is
/// signed in.
struct NotFoundPageMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The server's token for the layout.
    let csrfToken: String

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            guard Self.isNavigation(request) else { throw error }
            let (status, message) = ErrorMiddleware<Context>.describe(error, request: request)
            guard status == .notFound else { throw error }
            let sentence = Self.isNoRoute(error) ? "There is no page at \(request.uri.path)." : message
            return Responses.html(NotFoundPage(message: sentence, csrfToken: csrfToken).render(), status: .notFound)
        }
    }

    /// Whether `request` is a browser loading a page: a `GET` or `HEAD`
    /// that accepts HTML, outside the API, the assets and the event
    /// streams, and not a script's `fetch`.
    static func isNavigation(_ request: Request) -> Bool {
        guard request.method == .get || request.method == .head else { return false }
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
