import Foundation
import HTTPTypes
import Hummingbird

/// In team mode, lets a request through only with a signed-in session,
/// which the handlers then find in ``SignedIn/current``: a page asked for
/// without one is sent to `/signin?next=…`; the API, the event stream and
/// any change get 401 `{"error": "sign in first"}`. The sign-in page, the
/// static files, the API's document and the health check stay open.
struct SessionGateMiddleware<Context: RequestContext>: RouterMiddleware {
    let teamMode: TeamMode
    let now: @Sendable () -> Date

    /// Whether `path` is open without a session.
    static func isOpen(_ path: String) -> Bool {
        path == "/signin" || path == RequestGuardMiddleware<BasicRequestContext>.healthPath || path.hasPrefix("/assets/") || path == "/openapi.yaml"
            || path == "/openapi.json"
    }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        if Self.isOpen(path) { return try await next(request, context) }
        if let id = SignedIn.sessionID(in: request), let session = try await teamMode.signedInSession(id, at: now()) {
            return try await SignedIn.$current.withValue(SignedIn(account: session.account, id: id)) {
                try await next(request, context)
            }
        }
        let isPage = (request.method == .get || request.method == .head) && !path.hasPrefix("/api/")
            && path != "/events" && !path.hasSuffix("/events") && !path.hasSuffix("/fragment")
        guard isPage else { throw APIError(.unauthorized, "sign in first") }
        return Response(status: .seeOther, headers: [.location: SignInForm.signInPath(next: request.uri.description)])
    }
}
