import HTTPTypes
import Hummingbird
import OpenAPIRuntime

/// Finds the browser's calculator session for the calculator operations:
/// the id its HttpOnly, SameSite=Strict cookie names, or a new one, which
/// the answer of a successful change sets as the cookie. Looking
/// (`GET /api/calculator`) makes no session and sets no cookie. Behind an
/// `https` public origin the cookie is also `Secure`. When the calculators
/// are kept in a store, every change sets the cookie again for a year.
struct CalculatorCookieMiddleware: ServerMiddleware {
    /// Whether the cookie is `Secure` (sent over TLS only).
    var secure = false
    /// How long the cookie lasts from the last change, in seconds, when the
    /// server keeps calculators in a store (each change sets it again);
    /// `nil`: until the browser closes, set once.
    var lifetime: Int?

    /// The session of the request being handled.
    struct Session: Sendable {
        /// The session's id.
        var id: String
        /// Whether the browser had no (well-formed) cookie.
        var isNew: Bool
    }

    /// The session of the calculator operation being handled, `nil` outside one.
    @TaskLocal static var session: Session?

    /// The operations that change a calculator.
    static let changes: Set<String> = [
        Operations.PressKeys.id, Operations.CalculatorUndo.id, Operations.CalculatorRedo.id,
    ]
    /// Every calculator operation.
    static let operations: Set<String> = changes.union([Operations.Calculator.id])

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard Self.operations.contains(operationID) else { return try await next(request, body, metadata) }
        let cookie = Self.cookie(in: request.headerFields)
        let session = Session(id: cookie ?? CalculatorSessions.makeID(), isNew: cookie == nil)
        var (response, responseBody) = try await Self.$session.withValue(session) {
            try await next(request, body, metadata)
        }
        if session.isNew || lifetime != nil, Self.changes.contains(operationID), response.status == .ok {
            let cookie = Cookie(
                name: CalculatorSessions.cookieName, value: session.id, maxAge: lifetime, path: "/", secure: secure,
                httpOnly: true, sameSite: .strict
            )
            response.headerFields.append(HTTPField(name: .setCookie, value: cookie.description))
        }
        return (response, responseBody)
    }

    /// The well-formed session id that the `Cookie` fields name, if any.
    static func cookie(in fields: HTTPFields) -> String? {
        let cookies = Cookies(from: fields[values: .cookie])
        guard let value = cookies[CalculatorSessions.cookieName]?.value, CalculatorSessions.isWellFormed(value) else {
            return nil
        }
        return value
    }
}
