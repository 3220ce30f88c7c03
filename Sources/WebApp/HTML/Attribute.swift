import Foundation

/// One attribute of an element that ``HTMLWriter`` writes. Its name is a
/// literal of this module's source; a text value is escaped while it is
/// written.
public struct Attribute: Sendable {
    /// What the attribute renders as.
    public enum Value: Sendable {
        /// `name="value"`, with the value escaped.
        case text(String)
        /// `name="prefix…"`: a literal of this module's source followed by a
        /// UUID in upper-case hexadecimal digits (`/todos/items/0A1B…`),
        /// written without building a string first.
        case uuid(prefix: StaticString, UUID)
        /// A boolean attribute that is on: just `name`.
        case present
        /// A boolean attribute that is off: nothing is rendered.
        case omitted
    }

    /// `data-` for a data attribute, else empty; written before ``name``.
    let namePrefix: StaticString
    /// The attribute's name.
    public let name: StaticString
    /// The attribute's value.
    public let value: Value

    /// An attribute `name="value"`.
    public init(_ name: StaticString, _ value: String) {
        self.init(prefix: "", name: name, value: .text(value))
    }

    /// A boolean attribute (`disabled`, `hidden`, `checked`, …), rendered
    /// only when `isOn`.
    public init(_ name: StaticString, isOn: Bool) {
        self.init(prefix: "", name: name, value: isOn ? .present : .omitted)
    }

    /// An attribute whose value is `prefix` and then `uuid`'s upper-case
    /// digits, such as `href="/todos/items/0A1B…"`.
    public init(_ name: StaticString, prefix: StaticString = "", uuid: UUID) {
        self.init(prefix: "", name: name, value: .uuid(prefix: prefix, uuid))
    }

    private init(prefix: StaticString, name: StaticString, value: Value) {
        self.namePrefix = prefix
        self.name = name
        self.value = value
    }

    /// `class="…"`.
    public static func `class`(_ value: String) -> Attribute { Attribute("class", value) }
    /// `id="…"`.
    public static func id(_ value: String) -> Attribute { Attribute("id", value) }
    /// `type="…"`.
    public static func type(_ value: String) -> Attribute { Attribute("type", value) }
    /// `href="…"`.
    public static func href(_ value: String) -> Attribute { Attribute("href", value) }
    /// `title="…"`.
    public static func title(_ value: String) -> Attribute { Attribute("title", value) }
    /// `name="…"`.
    public static func name(_ value: String) -> Attribute { Attribute("name", value) }
    /// `value="…"`.
    public static func value(_ value: String) -> Attribute { Attribute("value", value) }
    /// `for="…"`.
    public static func `for`(_ value: String) -> Attribute { Attribute("for", value) }
    /// `aria-label="…"`.
    public static func ariaLabel(_ value: String) -> Attribute { Attribute("aria-label", value) }
    /// `aria-labelledby="…"`: the ids of the elements whose text names this one.
    public static func ariaLabelledBy(_ ids: String) -> Attribute { Attribute("aria-labelledby", ids) }
    /// `placeholder="…"`.
    public static func placeholder(_ value: String) -> Attribute { Attribute("placeholder", value) }
    /// `disabled` when `isOn`.
    public static func disabled(_ isOn: Bool) -> Attribute { Attribute("disabled", isOn: isOn) }
    /// `hidden` when `isOn`.
    public static func hidden(_ isOn: Bool) -> Attribute { Attribute("hidden", isOn: isOn) }
    /// `checked` when `isOn`.
    public static func checked(_ isOn: Bool) -> Attribute { Attribute("checked", isOn: isOn) }

    /// `data-name="value"`. `name` is a literal of this module's source.
    public static func data(_ name: StaticString, _ value: String) -> Attribute {
        Attribute(prefix: "data-", name: name, value: .text(value))
    }

    /// `data-name="…"` with `uuid`'s upper-case digits.
    public static func data(_ name: StaticString, uuid: UUID) -> Attribute {
        Attribute(prefix: "data-", name: name, value: .uuid(prefix: "", uuid))
    }
}
