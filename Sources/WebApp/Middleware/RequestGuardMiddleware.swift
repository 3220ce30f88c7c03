import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// Refuses requests that a page of another site could have made:
///
/// - a `Host` that is not this server's (DNS rebinding: a hostile name that
///   resolves to 127.0.0.1) gets 421, but for the health check
///   (`GET /healthz`), which a load balancer asks by the instance's address
///   and which answers only a status;
/// - a state-changing request (POST, PUT, PATCH, DELETE) gets 403 when its
///   `Origin` is another origin, when `Sec-Fetch-Site` says it crossed sites,
///   or when it lacks the `X-Rewind-CSRF` header with this server's token.
///   The server's own origin is `http://` and the request's `Host`; the
///   configured public origins (a TLS proxy's `https://todo.example`) are
///   accepted too, and with them a request without `Origin` is held to its
///   `Referer`'s origin.
///   A plain HTML form cannot send that header, and a cross-origin script
///   that tries is stopped by the browser's preflight, which this server
///   never approves. In team mode the token is the signed-in session's
///   (``SignedIn/csrfToken``), so a token read from another session is
///   refused. The sign-in and sign-out forms (`POST /signin`, `/signout`,
///   plain form posts) carry their token in a `csrf` field instead, which
///   their controller checks; the `Origin` checks apply to them as to all.
struct RequestGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The name of the header that carries the CSRF token.
    static var csrfHeaderName: String { "X-Rewind-CSRF" }

    /// Host names (lower case, no port) of this server's own `http://`
    /// origins; the `Host` header may carry them.
    let allowedHosts: Set<String>
    /// The token that state-changing requests must carry.
    let csrfToken: String
    /// The origins browsers see in front of the server, besides its own.
    let publicOrigins: Set<PublicOrigin>
    /// Whether the hint for a TLS proxy without `--public-origin` was logged.
    let proxyHintLogged = FirstTime()

    init(configuration: WebAppConfiguration, csrfToken: String) {
        var hosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        let bound = configuration.host.lowercased()
        if !["0.0.0.0", "::", ""].contains(bound) {
            hosts.insert(bound.contains(":") && !bound.hasPrefix("[") ? "[\(bound)]" : bound)
        }
        for host in configuration.additionalAllowedHosts { hosts.insert(host.lowercased()) }
        self.allowedHosts = hosts
        self.csrfToken = csrfToken
        self.publicOrigins = Set(configuration.publicOrigins)
    }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // A health check names the instance by its address, which the
        // allowed hosts need not list; its answer is only a status.
        if request.uri.path == Self.healthPath, !Self.changesState(request.method) {
            return try await next(request, context)
        }
        let fields = request.headers[values: .hostField]
        let hosts = [request.head.authority] + fields
        // One Host (HTTP/1 gives the first as the authority and keeps any
        // other as a field), each `name[:port]` naming this server.
        guard fields.count <= 1 else {
            throw APIError(.misdirectedRequest, "the request must carry exactly one Host header")
        }
        for host in hosts {
            guard let host, isAllowed(host: host) else {
                throw APIError(
                    .misdirectedRequest,
                    "the Host header must be one name[:port] of this server (\(namesOfThisServer)), port 1–65535;"
                        + " another name is allowed by starting the server with --allow-host NAME"
                )
            }
        }
        if Self.changesState(request.method) {
            try checkSameOrigin(request, logger: context.logger)
        }
        return try await next(request, context)
    }

    /// The names a request's `Host` may give, for the refusal of another:
    /// the allowed hosts and the public origins' hosts, in order.
    private var namesOfThisServer: String {
        let names = allowedHosts.union(publicOrigins.map(\.host)).sorted()
        return names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "") : names.joined()
    }

    /// The path of the health check (`GET /healthz`), answered whatever
    /// `Host` it names.
    static var healthPath: String { "/healthz" }

    static func changesState(_ method: HTTPRequest.Method) -> Bool {
        method != .get && method != .head && method != .options
    }

    /// Whether `host` (`name` or `name:port`) names this server: one of its
    /// own names or a public origin's.
    func isAllowed(host: String) -> Bool {
        guard let name = Self.name(ofHost: host.lowercased()) else { return false }
        return allowedHosts.contains(name) || publicOrigins.contains { $0.host == name }
    }

    /// Whether `host` is one of this server's own names, whose `http://`
    /// pages it serves itself. A name that only a public origin gives is
    /// not: its pages are the public origin's, with that origin's scheme
    /// and port.
    private func isOwn(host: String) -> Bool {
        Self.name(ofHost: host.lowercased()).map(allowedHosts.contains) ?? false
    }

    /// `host` without its port: `localhost:8080` → `localhost`,
    /// `[::1]:8080` → `[::1]`; `nil` unless `host` is exactly one name (a
    /// DNS name, an IPv4 address or a bracketed IPv6 address) with at most
    /// one numeric port 1–65535 (RFC 9110 §7.2).
    static func name(ofHost host: String) -> String? {
        // Byte by byte: only ASCII is allowed, and this runs for every request.
        let bytes = host.utf8
        let nameEnd: String.Index
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            let address = bytes[bytes.index(after: bytes.startIndex)..<close]
            guard !address.isEmpty, address.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else { return nil }
            nameEnd = bytes.index(after: close)
        } else {
            nameEnd = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
            let name = bytes[..<nameEnd]
            guard !name.isEmpty, name.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
            else { return nil }
        }
        let rest = bytes[nameEnd...]
        if !rest.isEmpty {
            let port = rest.dropFirst()
            guard rest.first == UInt8(ascii: ":"), (1...5).contains(port.count), port.allSatisfy(isDigit) else { return nil }
            let number = port.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            guard (1...65_535).contains(number) else { return nil }
        }
        return String(host[..<nameEnd])
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    private func checkSameOrigin(_ request: Request, logger: Logger) throws {
        if let site = request.headers[.secFetchSite]?.lowercased(), site != "same-origin", site != "none" {
            throw APIError(.forbidden, "cross-site request refused (Sec-Fetch-Site: \(site))")
        }
        let isForm = Self.formPaths.contains(request.uri.path)
            && request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
        if let origin = request.headers[.origin] {
            // A form posted under `Referrer-Policy: no-referrer` says
            // `Origin: null`; the browser's `Sec-Fetch-Site` tells where it came from.
            let sameOriginForm = isForm && origin == "null" && request.headers[.secFetchSite]?.lowercased() == "same-origin"
            guard sameOriginForm || accepts(origin: origin, authority: request.head.authority) else {
                if let hint = Self.proxyHint(origin: origin, authority: request.head.authority, publicOrigins: publicOrigins) {
                    // Once a run: anyone can send such an Origin.
                    if proxyHintLogged.first() { logger.warning("\(hint)") }
                    throw APIError(.forbidden, "cross-origin request refused (Origin: \(origin)); \(hint)")
                }
                throw APIError(.forbidden, "cross-origin request refused (Origin: \(origin))")
            }
        } else if !publicOrigins.isEmpty, let referer = request.headers[.referer] {
            guard let origin = PublicOrigin.origin(ofURL: referer), accepts(origin: origin, authority: request.head.authority)
            else {
                throw APIError(.forbidden, "cross-origin request refused (Referer: \(referer))")
            }
        }
        if isForm { return }
        guard let token = request.headers[.rewindCSRF] else {
            throw APIError(.forbidden, "missing \(Self.csrfHeaderName) header; read the token from GET /api/csrf")
        }
        guard Self.constantTimeEquals(token, SignedIn.csrfToken(server: csrfToken)) else {
            throw APIError(.forbidden, "wrong \(Self.csrfHeaderName) token; read the current one from GET /api/csrf")
        }
    }

    /// Whether a page of `origin` may make changes: the server's own origin
    /// (`http://` and the request's `Host`, which names this server) or one
    /// of the public origins.
    private func accepts(origin: String, authority: String?) -> Bool {
        if let host = Self.host(ofOrigin: origin), isOwn(host: host),
            authority.map({ $0.lowercased() == host.lowercased() }) ?? true
        {
            return true
        }
        guard !publicOrigins.isEmpty, let parsed = try? PublicOrigin(origin) else { return false }
        return publicOrigins.contains(parsed)
    }

    /// The `host[:port]` of an `Origin` such as `http://localhost:8080`, or
    /// `nil` for `null` and anything that is not an `http` origin (this
    /// server speaks plain HTTP, so an `https` page is another origin unless
    /// it is a public origin).
    static func host(ofOrigin origin: String) -> String? {
        let lowered = origin.lowercased()
        guard lowered.hasPrefix("http://") else { return nil }
        let rest = lowered.dropFirst("http://".count)
        guard !rest.isEmpty, !rest.utf8.contains(UInt8(ascii: "/")) else { return nil }
        return String(rest)
    }

    /// What to change when a page this server sent through a TLS proxy is
    /// refused: its `https` origin names the host the request was sent to,
    /// and the server was not told that this is its address.
    static func proxyHint(origin: String, authority: String?, publicOrigins: Set<PublicOrigin>) -> String? {
        // The very name and port the request was sent to, over https, which
        // this server does not speak: a TLS proxy in front of it.
        guard publicOrigins.isEmpty, let authority, let parsed = try? PublicOrigin(origin), parsed.scheme == "https",
            origin.lowercased().dropFirst("https://".count) == authority.lowercased()
        else { return nil }
        return "a page served through a TLS proxy at \(parsed) is refused unless the server is started with"
            + " --public-origin \(parsed), which tells it that address"
    }

    /// The paths whose forms carry the token in a `csrf` field, checked by
    /// ``SignInController``.
    static var formPaths: Set<String> { ["/signin", "/signout"] }

    /// Whether two tokens are equal, in a time that does not depend on where they differ.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let lhs = Array(lhs.utf8)
        let rhs = Array(rhs.utf8)
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}

// The names are valid field-name literals, so the initializer cannot fail
// on them; no input reaches these unwraps.
extension HTTPField.Name {
    /// `Sec-Fetch-Site`: the browser's word on where a request comes from.
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    /// `Sec-Fetch-Mode`: `navigate` when the browser loads a page, another
    /// word for a script's `fetch`.
    static let secFetchMode = HTTPField.Name("Sec-Fetch-Mode")!
    /// `X-Rewind-CSRF`: the token that state-changing requests carry.
    static let rewindCSRF = HTTPField.Name("X-Rewind-CSRF")!
    /// `Last-Event-ID`: the id of the last event a reconnecting `EventSource` saw.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    /// `Host` as a header field: HTTP/1 servers turn it into the request's
    /// authority, but a request built in tests (or by a proxy) may carry it as
    /// a field too, and then it must pass the same check.
    static let hostField = HTTPField.Name("Host")!
    /// `X-Frame-Options`: framing, for browsers that ignore `frame-ancestors`.
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    /// `Referrer-Policy`: what the browser tells other sites about our URLs.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    /// `Cross-Origin-Opener-Policy`: keeps other sites' windows out of ours.
    static let crossOriginOpenerPolicy = HTTPField.Name("Cross-Origin-Opener-Policy")!
}

/// A flag that is set the first time it is asked, from any thread.
final class FirstTime: Sendable {
    private let done = Atomic(false)

    /// `true` the first time only.
    func first() -> Bool {
        !done.exchange(true, ordering: .relaxed)
    }
}
