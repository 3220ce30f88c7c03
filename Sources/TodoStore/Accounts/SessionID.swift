import Crypto
import Foundation

/// The secret id of a sign-in session, as the browser's cookie carries it:
/// 32 random bytes in base64url (43 characters). Stores keep only its
/// SHA-256 ``hash``, so that a copy of the database signs nobody in.
///
/// ```swift
/// let id = SessionID.random()
/// try await sessions.beginSession(id, for: AccountName("ann"), at: now)
/// let same = SessionID(cookie: id.text)   // the same id, read back from the cookie
/// ```
public struct SessionID: Hashable, Sendable {
    /// The id as the cookie carries it.
    public let text: String

    /// The number of characters of an id.
    public static let length = 43

    /// A new id of 32 bytes from the system's random source.
    public static func random() -> SessionID {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return SessionID(checked: base64URL(bytes))
    }

    /// The id in a cookie's value, or `nil` when `cookie` is not 43
    /// characters of base64url (letters, digits, `-` and `_`).
    public init?(cookie: String) {
        guard cookie.utf8.count == Self.length,
            cookie.utf8.allSatisfy({ byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            })
        else { return nil }
        text = cookie
    }

    private init(checked text: String) {
        self.text = text
    }

    /// The SHA-256 of the id in lower-case hexadecimal (64 characters): what
    /// a ``SessionStore`` keeps and finds the session by.
    public var hash: String {
        Self.hexSHA256(of: text)
    }

    /// The SHA-256 of `text`'s UTF-8 in lower-case hexadecimal (64 characters).
    static func hexSHA256(of text: String) -> String {
        let digits = hexDigits
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Array(text.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// A token bound to this session for `purpose` (the web app's CSRF
    /// token): the same for the same id on every instance, different for
    /// every other session, and of no use in finding the id or its hash.
    public func derivedToken(purpose: String) -> String {
        Self.base64URL(Array(SHA256.hash(data: Array("rewind-\(purpose):\(text)".utf8))))
    }

    /// The digits of ``hash``, as UTF-8.
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The alphabet of base64url (RFC 4648, section 5), as UTF-8.
    private static let base64URLAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` in base64url without padding (RFC 4648, section 5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = base64URLAlphabet
        var encoded: [UInt8] = []
        encoded.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var bits = 0
            for byte in chunk { bits = bits << 8 | Int(byte) }
            bits <<= 8 * (3 - chunk.count)
            // 3 bytes make 4 characters; 2 make 3, and 1 makes 2.
            for position in 0...chunk.count {
                encoded.append(alphabet[(bits >> (18 - 6 * position)) & 0x3F])
            }
            index += 3
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
