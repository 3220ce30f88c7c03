import Foundation
import Hummingbird

/// Writes HTML into one growing buffer: elements, attributes and text go
/// straight into the bytes of the response, and each piece of text is
/// escaped while it is appended.
///
/// A writer is lent to the closure of ``HTML/init(capacity:_:)``, which
/// sends it on to components as an `inout` parameter:
///
/// ```swift
/// let row = HTML { html in
///     html.element("li", [.class("completed"), .data("id", uuid: id)]) { html in
///         html.element("label") { $0.text(title) }   // title is escaped
///     }
/// }
/// row.rendered   // <li class="completed" data-id="…"><label>…</label></li>
/// ```
///
/// Safe by construction: a `String` gets in only through ``text(_:)`` or an
/// attribute value, and both go through the one escaping function; markup
/// that is not escaped (tag and attribute names, ``trusted(_:)``) must be a
/// `StaticString`, a literal of this module's source that cannot be built
/// at run time; the only other bytes are digits (``text(_:)-(Int)``, UUIDs).
public struct HTMLWriter: ~Copyable {
    // A page is a hundred thousand small appends. Each append to NIO's
    // `ByteBuffer` was a call with checks of its own (half of a page's time
    // went there), so they go into a small staging area of raw memory, and
    // the response's buffer gets one write per few kilobytes. Noncopyable,
    // so that the staging memory has one owner and is freed once.
    private var output: ByteBuffer
    private let stage: UnsafeMutableRawPointer
    private var staged = 0
    private static let stageCapacity = 8_192

    /// A writer with `capacity` bytes reserved; a good guess saves the buffer
    /// from growing (and copying itself) on the way.
    init(capacity: Int) {
        output = ByteBufferAllocator().buffer(capacity: capacity)
        stage = .allocate(byteCount: Self.stageCapacity, alignment: 1)
    }

    deinit {
        stage.deallocate()
    }

    /// What has been written.
    consuming func finish() -> HTML {
        flush()
        return HTML(bytes: output)
    }

    /// Moves the staged bytes to the output.
    private mutating func flush() {
        output.writeBytes(UnsafeRawBufferPointer(start: stage, count: staged))
        staged = 0
    }

    /// Appends `bytes` as they are.
    @inline(__always)
    private mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if staged + bytes.count > Self.stageCapacity {
            flush()
            if bytes.count > Self.stageCapacity {
                output.writeBytes(bytes)
                return
            }
        }
        if bytes.count <= 16 {
            // Most writes are a few bytes of markup: a loop beats a call to memmove.
            for offset in 0..<bytes.count {
                stage.storeBytes(of: bytes[offset], toByteOffset: staged + offset, as: UInt8.self)
            }
        } else {
            (stage + staged).copyMemory(from: source, byteCount: bytes.count)
        }
        staged += bytes.count
    }

    @inline(__always)
    private mutating func write(_ literal: StaticString) {
        literal.withUTF8Buffer { write(UnsafeRawBufferPointer($0)) }
    }

    /// A text node: `string`, escaped.
    ///
    /// - Complexity: O(*n*) in the length of `string`.
    public mutating func text(_ string: String) {
        writeEscaped(string)
    }

    /// A number as decimal digits, which need no escaping.
    public mutating func text(_ number: Int) {
        var digits = String(number)
        digits.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Markup written in this module's source, sent as it is. A
    /// `StaticString` cannot be built at run time, so no user input gets here.
    public mutating func trusted(_ markup: StaticString) {
        write(markup)
    }

    /// Finished HTML from another writer, as it is.
    public mutating func append(_ fragment: HTML) {
        fragment.bytes.withUnsafeReadableBytes { write($0) }
    }

    /// An element `<name>content</name>`.
    ///
    /// - Parameters:
    ///   - name: The tag name, a literal of this module's source.
    ///   - content: Writes the children.
    public mutating func element(_ name: StaticString, content: (inout HTMLWriter) -> Void = { _ in }) {
        write("<")
        write(name)
        write(">")
        content(&self)
        endTag(name)
    }

    /// An element `<name attributes…>content</name>`, its attributes written
    /// as a literal list: `html.element("p", [.class("note"), .id(id)]) { … }`.
    ///
    /// - Parameters:
    ///   - name: The tag name, a literal of this module's source.
    ///   - attributes: Attributes in the order written; values are escaped.
    ///     A fixed-size list lives on the stack: the rows of a long list
    ///     allocate and copy no array of attributes.
    ///   - content: Writes the children.
    public mutating func element<let count: Int>(
        _ name: StaticString,
        _ attributes: borrowing [count of Attribute],
        content: (inout HTMLWriter) -> Void = { _ in }
    ) {
        startTag(name, attributes)
        content(&self)
        endTag(name)
    }

    /// An element `<name attributes…>content</name>` whose attributes were
    /// gathered at run time.
    ///
    /// - Parameters:
    ///   - name: The tag name, a literal of this module's source.
    ///   - attributes: Attributes in the order written; values are escaped.
    ///   - content: Writes the children.
    public mutating func element(
        _ name: StaticString,
        attributes: [Attribute],
        content: (inout HTMLWriter) -> Void = { _ in }
    ) {
        write("<")
        write(name)
        for index in attributes.indices {
            write(attributes[index])
        }
        write(">")
        content(&self)
        endTag(name)
    }

    /// A void element such as `<input …>` or `<meta …>`, which has no content
    /// and no end tag.
    public mutating func void<let count: Int>(_ name: StaticString, _ attributes: borrowing [count of Attribute]) {
        startTag(name, attributes)
    }

    /// `<name attributes…>`, leaving out the attributes that are off.
    private mutating func startTag<let count: Int>(_ name: StaticString, _ attributes: borrowing [count of Attribute]) {
        write("<")
        write(name)
        for index in attributes.indices {
            write(attributes[index])
        }
        write(">")
    }

    private mutating func endTag(_ name: StaticString) {
        write("</")
        write(name)
        write(">")
    }

    /// ` name="value"`, ` name` or nothing.
    private mutating func write(_ attribute: borrowing Attribute) {
        if attribute.kind == .omitted { return }
        write(" ")
        write(attribute.namePrefix)
        write(attribute.name)
        switch attribute.kind {
        case .omitted, .present:
            return
        case .literal:
            write("=\"")
            write(attribute.valuePrefix)
        case .text:
            write("=\"")
            write(attribute.valuePrefix)
            writeEscaped(attribute.text)
        case .uuid:
            write("=\"")
            write(attribute.valuePrefix)
            if let uuid = attribute.uuid {
                writeDigits(of: uuid)
            }
        }
        write("\"")
    }

    /// The one escaping function of the web app: appends `string` with `&`,
    /// `<`, `>`, `"` and `'` replaced by character references, so that it is
    /// safe inside a text node and inside a double- or single-quoted
    /// attribute value. Runs without a special character are copied whole.
    private mutating func writeEscaped(_ string: String) {
        // Native and small strings are contiguous UTF-8: no copy to make.
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { writeEscaped(utf8: $0) }
        if done == nil {
            var contiguous = string
            contiguous.withUTF8 { writeEscaped(utf8: $0) }
        }
    }

    private mutating func writeEscaped(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        let raw = UnsafeRawBufferPointer(bytes)
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
            write(UnsafeRawBufferPointer(rebasing: raw[start..<index]))
            write(replacement)
            start = index + 1
        }
        write(UnsafeRawBufferPointer(rebasing: raw[start...]))
    }

    /// `uuid` as `UUID.uuidString` spells it (upper case, with dashes),
    /// without the string.
    private mutating func writeDigits(of uuid: UUID) {
        let digits: StaticString = "0123456789ABCDEF"
        let bytes = uuid.uuid
        // 32 digits and 4 dashes, in the groups 8-4-4-4-12.
        var spelled: (UInt64, UInt64, UInt64, UInt64, UInt32) = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &spelled) { target in
            withUnsafeBytes(of: bytes) { source in
                digits.withUTF8Buffer { digits in
                    var offset = 0
                    for index in 0..<16 {
                        let byte = source[index]
                        target[offset] = digits[Int(byte >> 4)]
                        target[offset + 1] = digits[Int(byte & 0x0F)]
                        offset += 2
                        if index == 3 || index == 5 || index == 7 || index == 9 {
                            target[offset] = UInt8(ascii: "-")
                            offset += 1
                        }
                    }
                }
            }
            write(UnsafeRawBufferPointer(target))
        }
    }
}
