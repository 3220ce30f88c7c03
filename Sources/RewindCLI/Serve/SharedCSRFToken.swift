import Foundation

/// The token that several `rewind serve` instances behind one load balancer
/// share, from `REWIND_CSRF_TOKEN` (an environment variable, so that it
/// stays out of the process list and the shell history). Without it each
/// instance makes a new random token at every start.
enum SharedCSRFToken {
    /// The environment variable that holds the token.
    static let environmentVariable = "REWIND_CSRF_TOKEN"
    /// The shortest token accepted.
    static let minimumLength = 32
    /// The longest token accepted.
    static let maximumLength = 256

    /// The shared token, or `nil` when the variable is unset or empty.
    ///
    /// - Throws: ``SharedCSRFTokenError`` when the variable is set to
    ///   something other than 32 to 256 letters, digits, `-` or `_`.
    static func token(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(SharedCSRFTokenError) -> String? {
        guard let text = environment[environmentVariable], !text.isEmpty else { return nil }
        let allowed = text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_")
        }
        guard allowed, (minimumLength...maximumLength).contains(text.count) else {
            throw SharedCSRFTokenError()
        }
        return text
    }
}

/// A `REWIND_CSRF_TOKEN` that is not a usable token (exit status 64).
struct SharedCSRFTokenError: Error, CustomStringConvertible {
    /// What is allowed, and how to make one.
    var description: String {
        "$\(SharedCSRFToken.environmentVariable) must be \(SharedCSRFToken.minimumLength) to "
            + "\(SharedCSRFToken.maximumLength) letters, digits, '-' or '_' (for example: openssl rand -hex 32)"
    }
}
