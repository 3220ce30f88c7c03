import Hummingbird
import NIOCore

/// The context of every request: Hummingbird's basic one plus the address
/// the connection came from, which the sign-in throttle counts failures by.
struct RewindRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage (logger, parameters, …).
    var coreContext: CoreRequestContextStorage
    /// The peer of the connection; `nil` when there is none (tests that
    /// call the router directly).
    let remoteAddress: SocketAddress?

    /// The context of a request that came in on `source`'s channel.
    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client's address as the throttle names it: the IP address
    /// without the port, or `unknown`.
    var clientAddress: String {
        remoteAddress?.ipAddress ?? "unknown"
    }
}
