#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `--trusted-proxy` values: the IP addresses of the proxies in front of
/// `rewind serve`, written as a connection from them shows them.
enum TrustedProxyOption {
    /// The addresses of `options`, each in its usual form (`::1`, not
    /// `0:0:0:0:0:0:0:1`), so that they compare with the peers'.
    ///
    /// - Throws: ``TrustedProxyOptionError`` naming the first value that is
    ///   not an IPv4 or IPv6 address.
    static func addresses(options: [String]) throws(TrustedProxyOptionError) -> Set<String> {
        var addresses: Set<String> = []
        for value in options {
            guard let address = canonical(value) else { throw TrustedProxyOptionError(value: value) }
            addresses.insert(address)
        }
        return addresses
    }

    /// `value` in its usual form when it is an IPv4 or IPv6 address, else `nil`.
    static func canonical(_ value: String) -> String? {
        for family in [AF_INET, AF_INET6] {
            var bytes = [UInt8](repeating: 0, count: 16)
            guard inet_pton(family, value, &bytes) == 1 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(family, bytes, &text, socklen_t(text.count)) != nil else { return nil }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }
}

/// A `--trusted-proxy` value that is not an IP address (exit status 64).
struct TrustedProxyOptionError: Error, Equatable, CustomStringConvertible {
    /// The value that was refused.
    var value: String

    /// What is allowed, and the value.
    var description: String {
        "--trusted-proxy takes the IP address of a proxy in front of the server (such as 127.0.0.1 or ::1), not “\(value)”"
    }
}
