import Hummingbird

/// An origin that browsers see in front of the server, such as
/// `https://todo.example` when a proxy ends TLS and passes plain HTTP on.
/// Changes from a page of a public origin are accepted besides those from
/// the server's own `http://` origin, and the `Host` check accepts its name.
///
/// ```swift
/// let origin = try PublicOrigin("https://todo.example")
/// origin.description   // "https://todo.example"
/// origin.isSecure      // true: cookies get `Secure`
/// ```
public struct PublicOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host name in lower case, without port: `todo.example`, `10.0.0.5`
    /// or a bracketed IPv6 address such as `[::1]`.
    public let host: String
    /// The port, or `nil` for the scheme's default (80 for `http`, 443 for
    /// `https`), which browsers leave out of `Origin`.
    public let port: Int?

    /// Reads an origin: `http` or `https`, `://`, a host and an optional
    /// `:port` (1–65535), and nothing else (no user, path, query or
    /// fragment). Letters may be of either case.
    ///
    /// - Throws: ``PublicOriginError`` naming what is allowed.
    public init(_ text: String) throws(PublicOriginError) {
        let lowered = text.lowercased()
        guard let separator = lowered.range(of: "://") else { throw PublicOriginError(value: text) }
        let scheme = String(lowered[..<separator.lowerBound])
        let authority = String(lowered[separator.upperBound...])
        guard scheme == "http" || scheme == "https",
            let host = RequestGuardMiddleware<BasicRequestContext>.name(ofHost: authority)
        else { throw PublicOriginError(value: text) }
        // `name(ofHost:)` has checked that whatever follows the name is `:port`.
        let port = Int(authority.dropFirst(host.count).dropFirst())
        self.scheme = scheme
        self.host = host
        self.port = port == (scheme == "https" ? 443 : 80) ? nil : port
    }

    /// Whether browsers reach this origin over TLS, so that cookies they are
    /// given must be `Secure`.
    public var isSecure: Bool { scheme == "https" }

    /// The origin as browsers write it in `Origin`: `https://todo.example`,
    /// `http://10.0.0.5:8000`.
    public var description: String {
        "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")"
    }

    /// The `scheme://host[:port]` part of a URL such as a `Referer`
    /// (`https://todo.example/todos?x` → `https://todo.example`), or `nil`
    /// when it has no `://`.
    static func origin(ofURL url: String) -> String? {
        guard let separator = url.range(of: "://") else { return nil }
        let rest = url[separator.upperBound...]
        let end = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
        return String(url[..<end])
    }
}

/// A public origin that is not `http` or `https`, a host and an optional
/// port.
public struct PublicOriginError: Error, CustomStringConvertible {
    /// What a public origin may be, for messages that name where the value
    /// came from.
    public static let allowed =
        "http:// or https://, a host name and an optional :port (1-65535), and nothing else "
        + "(no path, query, user or fragment; for example https://todo.example)"

    /// The value that was refused.
    public var value: String

    /// What was wrong and what is allowed.
    public var description: String {
        "a public origin must be \(Self.allowed), not \(String(reflecting: value))"
    }
}
