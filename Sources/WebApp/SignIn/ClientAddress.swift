import Foundation
import HTTPTypes

/// The address the sign-in throttle counts a request by.
///
/// Behind a proxy every connection comes from the proxy. When the peer is
/// one of the trusted proxies (`rewind serve --trusted-proxy`), the client
/// is the rightmost address of `X-Forwarded-For` that is not itself a
/// trusted proxy: the one the nearest proxy saw, which a client cannot
/// forge by sending the header itself. From any other peer the header is
/// ignored.
enum ClientAddress {
    /// The `X-Forwarded-For` header field.
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")

    /// The client of a request from `peer` whose `X-Forwarded-For` fields
    /// are `forwardedFor`, trusting the proxies at `proxies`.
    static func of(peer: String?, forwardedFor: [String], trusting proxies: Set<String>) -> String {
        guard let peer else { return "unknown" }
        guard proxies.contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        // Every hop a trusted proxy: the leftmost is as near the client as is known.
        return hops.last { !proxies.contains($0) } ?? hops.first ?? peer
    }
}
