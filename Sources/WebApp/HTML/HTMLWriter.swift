import Foundation
import Hummingbird

/// Writes HTML into one growing buffer: elements, attributes and text go
/// straight into the bytes of the response, and each piece of text is
/// escaped while it is appended.
///
/// ```swift
/// var html = HTMLWriter()
/// html.element("li", [.class("completed"), .data("id", uuid: id)]) { html in
///     html.element("label") { $0.text(title) }   // title is escaped
/// }
/// html.html   // <li class="completed" data-id="…"><label>…</label></li>
/// ```
///
/// Safe by construction: a `String` gets in only through ``text(_:)`` or an
/// attribute value, and both go through the one escaping function; markup
/// that is not escaped (tag and attribute names, ``trusted(_:)``) must be a
/// `StaticString`, a literal of this module's source that cannot be built
/// at run time; the only other bytes are digits (``text(_:)-(Int)``, UUIDs).
public struct HTMLWriter {
    private var buffer: ByteBuffer

    /// A writer with `capacity` bytes reserved; a good guess saves the buffer
    /// from growing (and copying itself) on the way.
    public init(capacity: Int = 1_024) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    /// What has been written so far.
    public var html: HTML {
        HTML(bytes: buffer)
    }

    /// A text node: `string`, escaped.
    ///
    /// - Complexity: O(*n*) in the length of `string`.
    public mutating func text(_ string: String) {
        writeEscaped(string)
    }

    /// A number as decimal digits, which need no escaping.
    public mutating func text(_ number: Int) {
        buffer.writeString(String(number))
    }

    /// Markup written in this module's source, sent as it is. A
    /// `StaticString` cannot be built at run time, so no user input gets here.
    public mutating func trusted(_ markup: StaticString) {
        buffer.writeStaticString(markup)
    }

    /// Finished HTML from another writer, as it is.
    public mutating func append(_ fragment: HTML) {
        var bytes = fragment.bytes
        buffer.writeBuffer(&bytes)
    }

    /// An element `<name attributes…>content</name>`.
    ///
    /// - Parameters:
    ///   - name: The tag name, a literal of this module's source.
    ///   - attributes: Attributes in the order written; values are escaped.
    ///   - content: Writes the children.
    public mutating func element(
        _ name: StaticString,
        _ attributes: [Attribute] = [],
        content: (inout HTMLWriter) -> Void = { _ in }
    ) {
        startTag(name, attributes)
        content(&self)
        buffer.writeStaticString("</")
        buffer.writeStaticString(name)
        buffer.writeStaticString(">")
    }

    /// A void element such as `<input …>` or `<meta …>`, which has no content
    /// and no end tag.
    public mutating func void(_ name: StaticString, _ attributes: [Attribute] = []) {
        startTag(name, attributes)
    }

    /// `<name attributes…>`, leaving out the attributes that are off.
    private mutating func startTag(_ name: StaticString, _ attributes: [Attribute]) {
        buffer.writeStaticString("<")
        buffer.writeStaticString(name)
        for attribute in attributes {
            switch attribute.value {
            case .omitted:
                continue
            case .present:
                writeName(of: attribute)
            case .text(let value):
                writeName(of: attribute)
                buffer.writeStaticString("=\"")
                writeEscaped(value)
                buffer.writeStaticString("\"")
            case .uuid(let prefix, let uuid):
                writeName(of: attribute)
                buffer.writeStaticString("=\"")
                buffer.writeStaticString(prefix)
                writeDigits(of: uuid)
                buffer.writeStaticString("\"")
            }
        }
        buffer.writeStaticString(">")
    }

    private mutating func writeName(of attribute: Attribute) {
        buffer.writeStaticString(" ")
        buffer.writeStaticString(attribute.namePrefix)
        buffer.writeStaticString(attribute.name)
    }

    /// The one escaping function of the web app: appends `string` with `&`,
    /// `<`, `>`, `"` and `'` replaced by character references, so that it is
    /// safe inside a text node and inside a double- or single-quoted
    /// attribute value. Runs without a special character are copied whole.
    private mutating func writeEscaped(_ string: String) {
        var string = string
        string.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                // Every special character is at most ">" (0x3E).
                if byte > UInt8(ascii: ">") { continue }
                let replacement: StaticString
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                default: continue
                }
                // The special characters are ASCII, so the runs between them
                // are whole UTF-8 sequences.
                buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<index])))
                buffer.writeStaticString(replacement)
                start = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start...])))
        }
    }

    /// `uuid` as `UUID.uuidString` spells it (upper case, with dashes),
    /// without the string.
    private mutating func writeDigits(of uuid: UUID) {
        let digits: StaticString = "0123456789ABCDEF"
        withUnsafeBytes(of: uuid.uuid) { source in
            digits.withUTF8Buffer { digits in
                _ = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 36) { target in
                    var offset = 0
                    for (index, byte) in source.enumerated() {
                        if index == 4 || index == 6 || index == 8 || index == 10 {
                            target[offset] = UInt8(ascii: "-")
                            offset += 1
                        }
                        target[offset] = digits[Int(byte >> 4)]
                        target[offset + 1] = digits[Int(byte & 0x0F)]
                        offset += 2
                    }
                    return offset
                }
            }
        }
    }
}
