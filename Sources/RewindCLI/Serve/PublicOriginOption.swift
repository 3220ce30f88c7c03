import Foundation
import WebApp

/// The origins browsers see when a TLS proxy stands in front of
/// `rewind serve`: the `--public-origin` values, else the comma-separated
/// list in `REWIND_PUBLIC_ORIGIN`.
enum PublicOriginOption {
    /// The environment variable that holds the list.
    static let environmentVariable = "REWIND_PUBLIC_ORIGIN"

    /// The public origins: `options` when there are any, else the variable's
    /// list (empty entries skipped); none when neither gives one.
    ///
    /// - Throws: ``PublicOriginOptionError`` naming the first value that is
    ///   not `http` or `https`, a host and an optional port.
    static func origins(
        options: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(PublicOriginOptionError) -> [PublicOrigin] {
        let source: String
        let values: [String]
        if !options.isEmpty {
            source = "--public-origin"
            values = options
        } else {
            source = "$\(environmentVariable)"
            values = (environment[environmentVariable] ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        var origins: [PublicOrigin] = []
        for value in values {
            do {
                origins.append(try PublicOrigin(value))
            } catch {
                throw PublicOriginOptionError(source: source, value: value)
            }
        }
        return origins
    }
}

/// A `--public-origin` or `REWIND_PUBLIC_ORIGIN` value that is not an
/// origin (exit status 64).
struct PublicOriginOptionError: Error, Equatable, CustomStringConvertible {
    /// `--public-origin` or `$REWIND_PUBLIC_ORIGIN`.
    var source: String
    /// The value that was refused.
    var value: String

    /// Where the value came from, what is allowed, and the value.
    var description: String {
        "\(source) must be \(PublicOriginError.allowed), not \(String(reflecting: value))"
    }
}
