import Foundation
import Hummingbird

/// The entity tags of answers that a browser keeps and asks again about
/// (the assets, the OpenAPI document).
enum EntityTag {
    /// Whether `request`'s `If-None-Match` names `eTag` (RFC 9110,
    /// 13.1.2): `*`, or a list of tags, over one field or several, one of
    /// which matches it weakly (`W/"x"` matches `"x"`).
    static func isNamed(_ eTag: String, byIfNoneMatchOf request: Request) -> Bool {
        let wanted = opaque(eTag)
        return request.headers[values: .ifNoneMatch].contains { field in
            field.split(separator: ",").contains { part in
                let tag = part.trimmingCharacters(in: .whitespaces)
                return tag == "*" || opaque(tag) == wanted
            }
        }
    }

    /// The tag without its weakness mark.
    private static func opaque(_ tag: some StringProtocol) -> Substring {
        tag.hasPrefix("W/") ? Substring(tag).dropFirst(2) : Substring(tag)
    }
}
