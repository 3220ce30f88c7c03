import Hummingbird

/// Finished HTML — a page, a fragment, a component — that is safe to send:
/// an ``HTMLWriter`` wrote it, so every piece of text in it went through the
/// writer's one escaping function, whether it ended up in a text node or in
/// an attribute value.
///
/// ```swift
/// let item = HTML { html in
///     html.element("li", [.class("completed"), .data("id", id)]) { html in
///         html.element("label") { $0.text(title) }   // title is escaped
///     }
/// }
/// item.rendered   // <li class="completed" data-id="…"><label>…</label></li>
/// ```
///
/// The bytes are the response body as they are: a page is written once, into
/// one buffer, and sent without another copy.
public struct HTML: Sendable, Equatable {
    /// The markup's UTF-8 bytes, ready to be a response body.
    public let bytes: ByteBuffer

    init(bytes: ByteBuffer) {
        self.bytes = bytes
    }

    /// Writes the markup with `write`.
    ///
    /// - Parameters:
    ///   - capacity: How many bytes to reserve up front; a good guess saves
    ///     the buffer from growing (and copying itself) on the way.
    ///   - write: Writes the markup.
    public init(capacity: Int = 1_024, _ write: (inout HTMLWriter) -> Void) {
        var writer = HTMLWriter(capacity: capacity)
        write(&writer)
        self = writer.finish()
    }

    /// The markup as a string.
    ///
    /// - Complexity: O(*n*) in the length of the markup: a copy.
    public var rendered: String {
        String(buffer: bytes)
    }

    /// `string` as ``HTMLWriter`` escapes every text and attribute value:
    /// `&`, `<`, `>`, `"` and `'` become character references, so the result
    /// is safe inside a text node and inside a double- or single-quoted
    /// attribute value.
    ///
    /// - Complexity: O(*n*) in the length of `string`.
    public static func escape(_ string: String) -> String {
        HTML(capacity: string.utf8.count) { $0.text(string) }.rendered
    }
}
