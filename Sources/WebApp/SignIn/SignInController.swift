import Foundation
import Hummingbird
import TodoStore
import Todos

/// `GET /signin` (the form), `POST /signin` (checks the password, begins a
/// session with a new id, and goes to the page asked for) and
/// `POST /signout` (ends the session) of team mode.
///
/// A wrong password and an unknown account get the same answer, after the
/// same bcrypt work (an unknown account is checked against a stand-in
/// hash). After 5 failures for one account or from one address further
/// attempts wait (``SignInThrottle``): they get 429 with `Retry-After`
/// without any password being checked. An attempt counts as a failure
/// while its password is being checked, so that guesses sent all at once
/// are no more than 5 either. Behind a trusted proxy the address
/// is the client's, as the proxy names it (``ClientAddress``).
struct SignInController<Context: RemoteAddressRequestContext> {
    let teamMode: TeamMode
    /// The token the sign-in form carries (no session yet).
    let csrfToken: String
    /// Whether cookies are `Secure` (an `https` public origin).
    let secureCookies: Bool
    /// The largest form accepted, in bytes.
    let maxBodySize: Int
    /// The proxies whose `X-Forwarded-For` names the client (``ClientAddress``).
    let trustedProxies: Set<String>
    let now: @Sendable () -> Date

    /// What a refused sign-in says, whichever of the two was wrong.
    static var wrongNameOrPassword: String { "Wrong account name or password." }

    func addRoutes(to router: Router<Context>) {
        router.get("/signin") { request, _ in
            let next = request.uri.queryParameters["next"].map(String.init) ?? ""
            let ended = request.uri.queryParameters["ended"] == "1"
            let signedOut = request.uri.queryParameters["out"] == "1"
            return Responses.html(
                SignInPage(csrfToken: csrfToken, next: SignInForm.safeNext(next), sessionEnded: ended, signedOut: signedOut).render())
        }
        router.post("/signin") { request, context in
            let forwarded = ClientAddress.forwardedFor.map { request.headers[values: $0] } ?? []
            let address = ClientAddress.of(
                peer: context.remoteAddress?.ipAddress, forwardedFor: forwarded, trusting: trustedProxies)
            return try await signIn(request, address: address)
        }
        router.post("/signout") { request, _ in
            try await signOut(request)
        }
    }

    private func form(_ request: Request) async throws -> SignInForm {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBodySize)
        } catch {
            throw APIError(.contentTooLarge, "the form may have at most \(maxBodySize) bytes")
        }
        return SignInForm(body: String(buffer: body))
    }

    private func signIn(_ request: Request, address: String) async throws -> Response {
        let form = try await form(request)
        guard RequestGuardMiddleware<Context>.constantTimeEquals(form.csrf, csrfToken) else {
            throw APIError(.forbidden, "the sign-in form's token is not this server's; reload the sign-in page")
        }
        let next = SignInForm.safeNext(form.next)
        let keys = SignInThrottle.keys(account: form.name, address: address)
        let attempts = teamMode.attempts
        // Counted as a failure from here until the password matched: guesses
        // sent all at once count against each other.
        if let wait = attempts.begin(keys, at: now()) {
            let seconds = Int(wait.rounded(.up))
            var response = page(
                status: .tooManyRequests, name: form.name, next: next,
                message: "Too many failed sign-ins for this account or from this address; try again in \(Self.duration(seconds)).")
            response.headers[.retryAfter] = String(seconds)
            return response
        }
        let name = try? AccountName(form.name)
        var hash: String?
        do {
            if let name { hash = try await teamMode.sessions.passwordHash(for: name) }
        } catch {
            // Not a guess: the accounts could not be read (a 503).
            attempts.recordUnchecked(for: keys)
            throw error
        }
        let checked = if let hash { hash } else { await attempts.standInHash }
        let matches = await teamMode.hasher.verify(form.password, against: checked)
        guard let name, hash != nil, matches else {
            return page(status: .unauthorized, name: form.name, next: next, message: Self.wrongNameOrPassword)
        }
        attempts.recordSuccess(for: keys)
        // A new id at every sign-in; the one the browser had, if any, ends.
        if let old = SignedIn.sessionID(in: request) { try await teamMode.endSession(old) }
        let id = SessionID.random()
        do {
            try await teamMode.sessions.beginSession(id, for: name, at: now(), lifetime: teamMode.sessionLifetime)
        } catch AccountStoreError.noSuchAccount {
            // Removed between the check and now.
            return page(status: .unauthorized, name: form.name, next: next, message: Self.wrongNameOrPassword)
        }
        var response = Response(status: .seeOther, headers: [.location: next])
        response.setCookie(SignedIn.cookie(id, lifetime: teamMode.sessionLifetime, secure: secureCookies))
        return response
    }

    private func signOut(_ request: Request) async throws -> Response {
        let form = try await form(request)
        guard let signedIn = SignedIn.current else { throw APIError(.unauthorized, "sign in first") }
        guard RequestGuardMiddleware<Context>.constantTimeEquals(form.csrf, signedIn.csrfToken) else {
            throw APIError(.forbidden, "the sign-out form's token is not this session's; reload the page")
        }
        try await teamMode.endSession(signedIn.id)
        var response = Response(status: .seeOther, headers: [.location: "/signin?out=1"])
        response.setCookie(SignedIn.clearedCookie(secure: secureCookies))
        return response
    }

    private func page(status: HTTPResponse.Status, name: String, next: String, message: String) -> Response {
        Responses.html(SignInPage(csrfToken: csrfToken, next: next, name: name, message: message).render(), status: status)
    }

    /// `seconds` in words: “1 second”, “40 seconds”, “2 minutes”.
    static func duration(_ seconds: Int) -> String {
        if seconds < 120 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        return "\((seconds + 59) / 60) minutes"
    }
}
