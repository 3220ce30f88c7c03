import Foundation
import Hummingbird

/// Builders of the answers the controllers send.
enum Responses {
    /// An HTML page or fragment, sent from the buffer it was written into.
    static func html(_ html: HTML, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: html.bytes)
        )
    }

    /// An HTML page written by `render` on a thread of the system's shared
    /// dispatch pool: a long list takes milliseconds to write, which would
    /// hold one of the few threads of Swift's cooperative pool (and the
    /// requests waiting for it).
    /// The signed-in session (team mode) and the page's time zone go along
    /// to the other thread.
    static func html(rendering render: @escaping @Sendable () -> HTML) async -> Response {
        let (signedIn, zone) = (SignedIn.current, PageTimeZone.current)
        let html = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: SignedIn.$current.withValue(signedIn) {
                    PageTimeZone.$current.withValue(zone) { render() }
                })
            }
        }
        return Responses.html(html)
    }

    /// Text of another type, such as a stylesheet or a YAML document.
    static func text(_ text: String, contentType: String, cacheControl: String? = nil) -> Response {
        var headers: HTTPFields = [.contentType: contentType]
        if let cacheControl { headers[.cacheControl] = cacheControl }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
