import Foundation
import Hummingbird
import TodoStore
import Todos

/// The session of the request being handled in team mode: who is signed
/// in, and the CSRF token bound to their session.
struct SignedIn: Sendable {
    /// The account signed in, its name as kept.
    let account: AccountName
    /// The session's id, from the cookie.
    let id: SessionID
    /// The token state-changing requests of this session carry: derived
    /// from the session id, so a token read from another session is refused.
    var csrfToken: String { id.derivedToken(purpose: "csrf") }

    /// The session of the request being handled; `nil` in local mode and
    /// before sign-in.
    @TaskLocal static var current: SignedIn?

    /// The name of the session cookie.
    static let cookieName = "rewind_session"

    /// The token that the request being handled must carry: its session's
    /// in team mode, else the server's `serverToken`.
    static func csrfToken(server serverToken: String) -> String {
        current?.csrfToken ?? serverToken
    }

    /// The session id the request's cookie names, if it is well formed.
    static func sessionID(in request: Request) -> SessionID? {
        request.cookies[cookieName].flatMap { SessionID(cookie: $0.value) }
    }

    /// The cookie that carries `id` for `lifetime` seconds: HttpOnly,
    /// SameSite=Lax, the whole site, and Secure behind an `https` origin.
    static func cookie(_ id: SessionID, lifetime: TimeInterval, secure: Bool) -> Cookie {
        Cookie(
            name: cookieName, value: id.text, maxAge: Int(lifetime), path: "/", secure: secure, httpOnly: true,
            sameSite: .lax)
    }

    /// The cookie that makes the browser forget its session.
    static func clearedCookie(secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}
