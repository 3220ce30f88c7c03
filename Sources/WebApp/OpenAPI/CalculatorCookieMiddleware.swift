import HTTPTypes
import Hummingbird
import OpenAPIRuntime
import TodoStore

/// Finds the browser's calculator session for the calculator operations:
/// the id its HttpOnly, SameSite=Strict cookie names, or a new one, which
/// the answer of a successful change sets as the cookie. Looking
/// (`GET /api/calculator`) makes no session and sets no cookie. Behind an
/// `https` public origin the cookie is also `Secure`. When the calculators
/// are kept in a store, every change sets the cookie again for a year.
///
/// In team mode the calculator is the signed-in account's
/// (``AccountCalculator``), on every browser it signs in from, and no
/// cookie is read or set: another account signed in later on the same
/// browser does not see it.
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
        /// Whether the cookie names it (not an account's calculator).
        var byCookie = true
    }

    /// The calculator the request is for, if it has one yet: the signed-in
    /// account's in team mode, else the one the browser's cookie names.
    static func existingID(in fields: HTTPFields) -> String? {
        if let signedIn = SignedIn.current { return AccountCalculator.id(of: signedIn.account) }
        return cookie(in: fields)
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
        let session: Session
        if let signedIn = SignedIn.current {
            session = Session(id: AccountCalculator.id(of: signedIn.account), isNew: false, byCookie: false)
        } else {
            let cookie = Self.cookie(in: request.headerFields)
            session = Session(id: cookie ?? CalculatorSessions.makeID(), isNew: cookie == nil)
        }
        var (response, responseBody) = try await Self.$session.withValue(session) {
            try await next(request, body, metadata)
        }
        if session.byCookie, session.isNew || lifetime != nil, Self.changes.contains(operationID), response.status == .ok {
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
