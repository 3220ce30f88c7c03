/// How `rewind serve` listens and what it accepts.
///
/// ```swift
/// let configuration = WebAppConfiguration(host: "127.0.0.1", port: 8080)
/// ```
public struct WebAppConfiguration: Sendable {
    /// The address to bind to. The default, `127.0.0.1`, keeps the server on
    /// this machine.
    public var host: String
    /// The TCP port to listen on; 0 picks a free one.
    public var port: Int
    /// The largest request body accepted, in bytes; a larger one gets 413.
    public var maxBodySize: Int
    /// The most calculator sessions (one per browser) kept in memory; the
    /// least recently used one is dropped beyond it.
    public var maxCalculatorSessions: Int
    /// How often an idle event stream gets a comment line, in seconds, so that
    /// proxies keep it open and a closed connection is noticed.
    public var heartbeatInterval: Double
    /// The most event streams open at once; more get 503.
    public var maxEventStreams: Int
    /// Extra host names (without port) that the `Host` header may carry,
    /// besides the bound host, `localhost` and `127.0.0.1`.
    public var additionalAllowedHosts: [String]
    /// How long a connection may take to send a complete request head, in
    /// seconds, counted from when it opens or from the first byte of the next
    /// request; a slower one is closed (slowloris).
    public var requestHeadTimeout: Double
    /// How long a keep-alive connection may stay idle between requests, in
    /// seconds, before it is closed. A response in progress (an event
    /// stream) is never idle.
    public var idleTimeout: Double
    /// The token that state-changing requests must carry in `X-Rewind-CSRF`;
    /// `nil` (the default) makes a new random one at every start. Instances
    /// behind one load balancer are given the same one, so that a page one
    /// of them served may make changes through another.
    public var csrfToken: String?
    /// The origins browsers see when a proxy in front of the server ends TLS
    /// (`https://todo.example`). Changes from their pages are accepted besides
    /// those from the server's own `http://` origin, the `Host` check accepts
    /// their host names, and with an `https` one every cookie is `Secure`.
    /// Empty (the default): only the server's own origin.
    public var publicOrigins: [PublicOrigin]
    /// The addresses of the proxies in front of the server (IP addresses as
    /// the connection shows them, such as `127.0.0.1`). A sign-in from one
    /// of them is counted by the client address it adds to
    /// `X-Forwarded-For`, not by its own. Empty (the default): the header is
    /// never read.
    public var trustedProxies: Set<String>
    /// How long `GET /healthz` waits for the store to answer, in seconds,
    /// before it answers 503.
    public var healthCheckTimeout: Double
    /// How often an open lists page's stream (`/lists/events`) reads the
    /// account's lists again although it heard nothing, in seconds: how
    /// late it learns of what went unheard (a list shared through an
    /// instance of an earlier version, which sends no news of it).
    public var listsRecheckInterval: Double

    /// Creates a configuration; every parameter has the default that
    /// `rewind serve` uses.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        maxBodySize: Int = 64 * 1024,
        maxCalculatorSessions: Int = 1_000,
        heartbeatInterval: Double = 15,
        maxEventStreams: Int = 256,
        additionalAllowedHosts: [String] = [],
        requestHeadTimeout: Double = 10,
        idleTimeout: Double = 60,
        csrfToken: String? = nil,
        publicOrigins: [PublicOrigin] = [],
        trustedProxies: Set<String> = [],
        healthCheckTimeout: Double = 5,
        listsRecheckInterval: Double = 30
    ) {
        self.host = host
        self.port = port
        self.maxBodySize = maxBodySize
        self.maxCalculatorSessions = maxCalculatorSessions
        self.heartbeatInterval = heartbeatInterval
        self.maxEventStreams = maxEventStreams
        self.additionalAllowedHosts = additionalAllowedHosts
        self.requestHeadTimeout = requestHeadTimeout
        self.idleTimeout = idleTimeout
        self.csrfToken = csrfToken
        self.publicOrigins = publicOrigins
        self.trustedProxies = trustedProxies
        self.healthCheckTimeout = healthCheckTimeout
        self.listsRecheckInterval = listsRecheckInterval
    }

    /// Whether the cookies the server sets must be `Secure`: when browsers
    /// reach it through an `https` public origin.
    var secureCookies: Bool {
        publicOrigins.contains { $0.isSecure }
    }

    /// The address a browser opens, such as `http://127.0.0.1:8080`.
    public var url: String {
        "http://\(Self.hostForURL(host)):\(port)"
    }

    /// The URL for `port`, which may differ from ``port`` when it was 0.
    public func url(port: Int) -> String {
        "http://\(Self.hostForURL(host)):\(port)"
    }

    private static func hostForURL(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::": "[::1]"
        default: host.contains(":") ? "[\(host)]" : host
        }
    }
}
