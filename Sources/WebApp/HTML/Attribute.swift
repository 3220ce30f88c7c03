/// One attribute of an ``HTML`` element. Its name is a literal of this
/// module's source; its value is escaped by ``HTML/escape(_:)`` when the
/// element is rendered.
public struct Attribute: Sendable, Equatable {
    /// What the attribute renders as.
    public enum Value: Sendable, Equatable {
        /// `name="value"`, with the value escaped.
        case value(String)
        /// A boolean attribute that is on: just `name`.
        case present
        /// A boolean attribute that is off: nothing is rendered.
        case omitted
    }

    /// The attribute's name.
    public let name: String
    /// The attribute's value.
    public let value: Value

    /// An attribute `name="value"`.
    public init(_ name: StaticString, _ value: String) {
        self.name = name.description
        self.value = .value(value)
    }

    /// A boolean attribute (`disabled`, `hidden`, `checked`, …), rendered
    /// only when `isOn`.
    public init(_ name: StaticString, isOn: Bool) {
        self.name = name.description
        self.value = isOn ? .present : .omitted
    }

    private init(dataName: String, value: String) {
        self.name = "data-" + dataName
        self.value = .value(value)
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
        Attribute(dataName: name.description, value: value)
    }
}
