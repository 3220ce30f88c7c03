import Foundation
import Hummingbird

/// The time zone a page writes its dates and times in: the browser's, which
/// the pages' script keeps in the `rewind_time_zone` cookie
/// (`time-zone.js`), else the server's.
///
/// So a person whose browser is in Berlin reads "today 09:00" for nine in
/// Berlin when the server runs in UTC, and the date fields of an item's
/// page hold times that the browser reads back as its own (it sends them
/// as moments): before, they held the server's times, and a save moved the
/// due date by the difference.
enum PageTimeZone {
    /// The zone of the request being answered, set by
    /// ``PageTimeZoneMiddleware``; the server's outside of one.
    @TaskLocal static var current: TimeZone = .current

    /// The name of the cookie.
    static let cookieName = "rewind_time_zone"

    /// The longest zone name taken from the cookie (the longest IANA name
    /// has 32 characters).
    static let longestName = 64

    /// The zone that `request`'s cookie names, if this server knows it (an
    /// IANA name such as `Europe/Berlin`); `nil` without one.
    static func named(in request: Request) -> TimeZone? {
        guard let value = request.cookies[cookieName]?.value, !value.isEmpty, value.utf8.count <= longestName * 3,
            let name = value.removingPercentEncoding, name.count <= longestName
        else { return nil }
        return TimeZone(identifier: name)
    }
}

/// Answers each request for a page or a fragment in the time zone its
/// cookie names (``PageTimeZone``). The JSON API, the event streams and the
/// static files write no dates for a person to read and skip it.
struct PageTimeZoneMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard !path.hasPrefix("/api/"), !path.hasPrefix("/assets/"), !path.hasSuffix("/events"),
            let zone = PageTimeZone.named(in: request)
        else {
            return try await next(request, context)
        }
        return try await PageTimeZone.$current.withValue(zone) { try await next(request, context) }
    }
}
