/// A confirmation card: a title, a message, a safe button and a primary
/// button, rendered as an accessible `<dialog>` (labelled by its title,
/// described by its message).
///
/// ```swift
/// let card = ModalCard(
///     id: "confirm-delete-item",
///     title: "Delete Item",
///     message: "Please confirm deletion of “Buy milk”.",
///     primary: .destructive("Delete", action: .request(method: "DELETE", path: "/api/todos/42")),
///     secondary: .cancel("Cancel")
/// )
/// card.html   // <dialog class="modal-card" …>…</dialog>
/// ```
///
/// The buttons come only from the static factories of ``Button``
/// (``Button/destructive(_:action:)``, ``Button/default(_:action:)``,
/// ``Button/cancel(_:action:)``), so a card cannot be given anything that is
/// not a button, and each kind renders its own way.
///
/// The page's script opens the card (`showModal()`) from an element whose
/// `data-opens-modal` names the card's id, puts the focus on the safe button,
/// closes it on Escape or the safe button, performs the primary button's
/// ``Action``, and gives the focus back to the element that opened it.
public struct ModalCard: Sendable, Equatable {
    /// The `id` of the `<dialog>`, which openers name.
    public let id: String
    /// The card's heading.
    public let title: String
    /// What the card asks or tells.
    public let message: String
    /// The button that does the thing.
    public let primary: Button
    /// The safe button, which starts with the focus.
    public let secondary: Button

    /// Creates a card.
    ///
    /// - Parameters:
    ///   - id: The `id` of the `<dialog>`.
    ///   - title: The heading, which labels the dialog.
    ///   - message: The text, which describes the dialog.
    ///   - primary: The button that does the thing, usually
    ///     ``Button/destructive(_:action:)``.
    ///   - secondary: The safe button, usually ``Button/cancel(_:action:)``.
    public init(id: String, title: String, message: String, primary: Button, secondary: Button = .cancel()) {
        self.id = id
        self.title = title
        self.message = message
        self.primary = primary
        self.secondary = secondary
    }

    /// What pressing a button does.
    public enum Action: Sendable, Equatable {
        /// Closes the card and nothing else.
        case dismiss
        /// Sends a request to this server (with the CSRF header), then closes
        /// the card and goes to `then` when given, else refreshes the page's
        /// content.
        case request(method: String, path: String, then: String? = nil)
        /// Dispatches a DOM event with this name on the card, for the page's
        /// script to handle.
        case event(String)
    }

    /// A button of a ``ModalCard``. Made only by its static factories.
    public struct Button: Sendable, Equatable {
        /// The button's text.
        public let label: String
        /// What pressing it does.
        public let action: Action
        private let kind: Kind

        // The strategy of each kind: how it looks and whether it is the safe
        // choice that starts with the focus.
        private enum Kind: Sendable, Equatable {
            case destructive, `default`, cancel

            var className: String {
                switch self {
                case .destructive: "modal-card-button destructive"
                case .default: "modal-card-button default"
                case .cancel: "modal-card-button cancel"
                }
            }

            var role: String {
                switch self {
                case .destructive, .default: "primary"
                case .cancel: "cancel"
                }
            }

            var isSafe: Bool { self == .cancel }
        }

        private init(label: String, action: Action, kind: Kind) {
            self.label = label
            self.action = action
            self.kind = kind
        }

        /// A button that destroys something, shown in a warning colour.
        public static func destructive(_ label: String, action: Action) -> Button {
            Button(label: label, action: action, kind: .destructive)
        }

        /// A button that confirms something harmless.
        public static func `default`(_ label: String, action: Action) -> Button {
            Button(label: label, action: action, kind: .default)
        }

        /// The safe button: it closes the card (or does `action`) and starts
        /// with the focus.
        public static func cancel(_ label: String = "Cancel", action: Action = .dismiss) -> Button {
            Button(label: label, action: action, kind: .cancel)
        }

        /// Whether this is the safe button, which starts with the focus.
        public var isSafe: Bool { kind.isSafe }

        func render(into html: inout HTMLWriter) {
            var attributes: [Attribute] = [
                .type("button"),
                .class(kind.className),
                .data("modal-role", kind.role),
            ]
            switch action {
            case .dismiss:
                attributes.append(.data("action", "dismiss"))
            case .request(let method, let path, let then):
                attributes += [.data("action", "request"), .data("method", method), .data("path", path)]
                if let then { attributes.append(.data("then", then)) }
            case .event(let name):
                attributes += [.data("action", "event"), .data("event", name)]
            }
            if kind.isSafe { attributes.append(Attribute("autofocus", isOn: true)) }
            html.element("button", attributes: attributes) { $0.text(label) }
        }
    }

    /// The card as a `<dialog>`; the safe button comes first and has
    /// `autofocus`.
    public var html: HTML {
        HTML { render(into: &$0) }
    }

    /// Writes the card as ``html`` has it.
    public func render(into html: inout HTMLWriter) {
        html.element(
            "dialog",
            [
                .class("modal-card"),
                .id(id),
                Attribute("aria-labelledby", "\(id)-title"),
                Attribute("aria-describedby", "\(id)-message"),
                .data("modal-card", ""),
            ]
        ) { html in
            html.element("div", [.class("modal-card-body")]) { html in
                html.element("h2", [.class("modal-card-title"), .id("\(id)-title")]) { $0.text(title) }
                html.element("p", [.class("modal-card-message"), .id("\(id)-message")]) { $0.text(message) }
                html.element("div", [.class("modal-card-actions")]) { html in
                    secondary.render(into: &html)
                    primary.render(into: &html)
                }
            }
        }
    }
}
