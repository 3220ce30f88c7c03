/// A fragment of HTML that is safe to send: every piece of text in it went
/// through ``HTML/escape(_:)``, whether it ended up in a text node or in an
/// attribute value.
///
/// Build fragments with ``element(_:_:content:)`` and the result builder, or
/// with ``text(_:)`` for a bare piece of text:
///
/// ```swift
/// let item = HTML.element("li", [.class("completed"), .data("id", id)]) {
///     HTML.element("label") { HTML.text(title) }   // title is escaped
/// }
/// item.rendered   // <li class="completed" data-id="…"><label>…</label></li>
/// ```
///
/// Markup that is not escaped can only come from string literals in this
/// module's source (``trusted(_:)`` takes a `StaticString`), so no user string
/// can reach the page without escaping.
public struct HTML: Sendable, Equatable {
    /// The markup, ready to be written into a response.
    public let rendered: String

    private init(rendered: String) {
        self.rendered = rendered
    }

    /// Nothing: an empty fragment.
    public static let empty = HTML(rendered: "")

    /// The one escaping function of the web app: makes `string` safe inside a
    /// text node and inside a double- or single-quoted attribute value.
    ///
    /// It replaces `&`, `<`, `>`, `"` and `'` with character references.
    ///
    /// - Complexity: O(*n*) in the length of `string`.
    public static func escape(_ string: String) -> String {
        var result = ""
        appendEscaped(string, to: &result)
        return result
    }

    /// Appends `string`, escaped as ``escape(_:)`` does, to `output`: runs
    /// without a special character are appended whole, so a title with
    /// nothing to escape costs one copy.
    ///
    /// - Complexity: O(*n*) in the length of `string`.
    static func appendEscaped(_ string: String, to output: inout String) {
        var contiguous = string
        contiguous.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let replacement: StaticString
                switch bytes[index] {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                default: continue
                }
                // The special characters are ASCII, so the runs between them
                // are whole UTF-8 sequences.
                if start < index {
                    output += String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                }
                output += replacement.description
                start = index + 1
            }
            if start == 0 {
                output += string
            } else if start < bytes.count {
                output += String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
            }
        }
    }

    /// A text node: `string` escaped.
    public static func text(_ string: String) -> HTML {
        HTML(rendered: escape(string))
    }

    /// Markup written in this module's source, sent as it is. A
    /// `StaticString` cannot be built at run time, so no user input gets here.
    public static func trusted(_ markup: StaticString) -> HTML {
        HTML(rendered: markup.description)
    }

    /// The fragments one after another.
    public static func joined(_ fragments: [HTML]) -> HTML {
        var rendered = ""
        rendered.reserveCapacity(fragments.reduce(0) { $0 + $1.rendered.utf8.count })
        for fragment in fragments { rendered += fragment.rendered }
        return HTML(rendered: rendered)
    }

    /// An element `<name attributes…>content</name>`.
    ///
    /// - Parameters:
    ///   - name: The tag name, a literal of this module's source.
    ///   - attributes: Attributes in the order written; values are escaped.
    ///   - content: The children.
    public static func element(
        _ name: StaticString,
        _ attributes: [Attribute] = [],
        @HTMLBuilder content: () -> HTML = { .empty }
    ) -> HTML {
        let tag = name.description
        let inner = content().rendered
        var rendered = ""
        rendered.reserveCapacity(2 * tag.utf8.count + 5 + inner.utf8.count + 32 * attributes.count)
        rendered += "<"
        rendered += tag
        render(attributes, to: &rendered)
        rendered += ">"
        rendered += inner
        rendered += "</"
        rendered += tag
        rendered += ">"
        return HTML(rendered: rendered)
    }

    /// A void element such as `<input …>` or `<meta …>`, which has no content
    /// and no end tag.
    public static func void(_ name: StaticString, _ attributes: [Attribute] = []) -> HTML {
        var rendered = "<" + name.description
        render(attributes, to: &rendered)
        rendered += ">"
        return HTML(rendered: rendered)
    }

    /// A whole document: the doctype, then `root`.
    public static func document(_ root: HTML) -> HTML {
        HTML(rendered: "<!DOCTYPE html>\n" + root.rendered)
    }

    /// Appends ` name="value"` for every attribute that is not omitted.
    private static func render(_ attributes: [Attribute], to output: inout String) {
        for attribute in attributes {
            switch attribute.value {
            case .omitted:
                continue
            case .present:
                output += " "
                output += attribute.name
            case .value(let value):
                output += " "
                output += attribute.name
                output += "=\""
                appendEscaped(value, to: &output)
                output += "\""
            }
        }
    }
}

/// Builds an ``HTML`` fragment from the statements of a closure, as SwiftUI's
/// `@ViewBuilder` builds views: each statement is a child, `if`, `switch` and
/// `for` work as expected.
@resultBuilder
public enum HTMLBuilder {
    /// Joins the children.
    public static func buildBlock(_ components: HTML...) -> HTML {
        HTML.joined(components)
    }

    /// An `if` without `else`.
    public static func buildOptional(_ component: HTML?) -> HTML {
        component ?? .empty
    }

    /// The `if` branch of an `if`–`else` or the first case of a `switch`.
    public static func buildEither(first component: HTML) -> HTML {
        component
    }

    /// The `else` branch of an `if`–`else` or a later case of a `switch`.
    public static func buildEither(second component: HTML) -> HTML {
        component
    }

    /// The bodies of a `for` loop.
    public static func buildArray(_ components: [HTML]) -> HTML {
        HTML.joined(components)
    }

    /// A bare string statement becomes an escaped text node.
    public static func buildExpression(_ text: String) -> HTML {
        HTML.text(text)
    }

    /// A fragment statement.
    public static func buildExpression(_ fragment: HTML) -> HTML {
        fragment
    }
}
