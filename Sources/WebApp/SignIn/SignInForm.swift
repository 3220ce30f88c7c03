import Foundation

/// The fields of the sign-in and sign-out forms, as a browser posts them
/// (`application/x-www-form-urlencoded`), and where to go afterwards.
struct SignInForm: Equatable, Sendable {
    /// The account name typed.
    var name = ""
    /// The password typed.
    var password = ""
    /// The page to go to after signing in (checked by ``safeNext(_:)``).
    var next = ""
    /// The CSRF token the page carried.
    var csrf = ""

    /// The fields of `body`; unknown fields are ignored, a field given
    /// twice keeps its first value.
    init(body: String) {
        var seen: Set<String> = []
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = Self.decoded(parts[0])
            let value = parts.count > 1 ? Self.decoded(parts[1]) : ""
            guard seen.insert(key).inserted else { continue }
            switch key {
            case "name": name = value
            case "password": password = value
            case "next": next = value
            case "csrf": csrf = value
            default: continue
            }
        }
    }

    /// A form field's text: `+` is a space, `%XX` a byte; malformed
    /// escapes are kept as they are.
    private static func decoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// Where a sign-in may send the browser: a path of this site
    /// (`/todos?filter=active`), never another site (`//evil.example`,
    /// `/\evil.example`, `https://…`) nor the sign-in page itself; `/`
    /// otherwise.
    static func safeNext(_ next: String) -> String {
        guard next.hasPrefix("/"), !next.hasPrefix("//"), !next.hasPrefix("/\\"),
            next.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" }),
            !next.hasPrefix("/signin"), next.count <= 2_048
        else { return "/" }
        return next
    }

    /// `/signin?next=…` for a page asked for without a session.
    static func signInPath(next: String) -> String {
        let safe = safeNext(next)
        guard safe != "/" else { return "/signin" }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return "/signin?next=" + (safe.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }
}
