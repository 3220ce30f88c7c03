import Foundation

/// One attribute of an element that ``HTMLWriter`` writes. Its name is a
/// literal of this module's source; a text value is escaped while it is
/// written.
public struct Attribute: Sendable {
    // Plain stored fields rather than an enum with payloads: a page copies
    // thousands of attributes, and these copy as bytes and one retain.
    enum Kind {
        /// `name="valuePrefix…"`: a literal of this module's source followed
        /// by the text, escaped.
        case text
        /// `name="valuePrefix…"`: a literal of this module's source followed
        /// by a UUID in upper-case hexadecimal digits.
        case uuid
        /// `name="valuePrefix"`: a literal of this module's source only,
        /// which needs no escaping.
        case literal
        /// A boolean attribute that is on: just `name`.
        case present
        /// A boolean attribute that is off: nothing is written.
        case omitted
    }

    /// `data-` for a data attribute, else empty; written before ``name``.
    let namePrefix: StaticString
    /// The attribute's name.
    let name: StaticString
    /// What the value is.
    let kind: Kind
    /// What a value starts with, as it is.
    let valuePrefix: StaticString
    /// The text of a ``Kind/text`` value.
    let text: String
    /// The UUID of a ``Kind/uuid`` value.
    let uuid: UUID?

    private init(
        namePrefix: StaticString = "", name: StaticString, kind: Kind, valuePrefix: StaticString = "",
        text: String = "", uuid: UUID? = nil
    ) {
        self.namePrefix = namePrefix
        self.name = name
        self.kind = kind
        self.valuePrefix = valuePrefix
        self.text = text
        self.uuid = uuid
    }

    /// An attribute `name="value"`; the value is escaped when written.
    public init(_ name: StaticString, _ value: String) {
        self.init(name: name, kind: .text, text: value)
    }

    /// An attribute whose value is `prefix`, a literal of this module's
    /// source, and then `text`, escaped: `aria-labelledby="tc t12"`.
    public init(_ name: StaticString, prefix: StaticString, _ text: String) {
        self.init(name: name, kind: .text, valuePrefix: prefix, text: text)
    }

    /// An attribute whose value is a literal of this module's source,
    /// written as it is: `Attribute("type", literal: "checkbox")`. For the
    /// rows of long lists, where escaping fixed words adds up.
    public init(_ name: StaticString, literal value: StaticString) {
        self.init(name: name, kind: .literal, valuePrefix: value)
    }

    /// A boolean attribute (`disabled`, `hidden`, `checked`, …), written
    /// only when `isOn`.
    public init(_ name: StaticString, isOn: Bool) {
        self.init(name: name, kind: isOn ? .present : .omitted)
    }

    /// An attribute whose value is `prefix` and then `uuid`'s upper-case
    /// digits, as `UUID.uuidString` spells them, such as
    /// `href="/todos/items/0A1B…"`; written without building a string.
    public init(_ name: StaticString, prefix: StaticString = "", uuid: UUID) {
        self.init(name: name, kind: .uuid, valuePrefix: prefix, uuid: uuid)
    }

    /// Nothing: an attribute that is not written, for a list whose length
    /// must not depend on a condition: `[done ? .class("completed") : .absent]`.
    public static let absent = Attribute(name: "", kind: .omitted)

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
    /// `aria-labelledby="first …"`: the element `first` (a literal of this
    /// module's source), then the others.
    public static func ariaLabelledBy(_ first: StaticString, _ others: String) -> Attribute {
        Attribute("aria-labelledby", prefix: first, others)
    }
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
        Attribute(namePrefix: "data-", name: name, kind: .text, text: value)
    }

    /// `data-name="…"` with `uuid`'s upper-case digits.
    public static func data(_ name: StaticString, uuid: UUID) -> Attribute {
        Attribute(namePrefix: "data-", name: name, kind: .uuid, uuid: uuid)
    }
}
