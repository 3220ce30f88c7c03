/// `/signin` in team mode: the account name and password form, with what
/// went wrong the last time, if anything.
struct SignInPage {
    /// The token the form carries.
    var csrfToken: String
    /// The page to go to after signing in (already checked to be of this site).
    var next: String
    /// The name typed before, kept in the field after a refusal.
    var name = ""
    /// Why the last attempt was refused, if it was.
    var message: String?
    /// Whether a page was sent here because its session ended
    /// (`?ended=1`, which the pages' script adds).
    var sessionEnded = false
    /// Whether the person just signed out (`?out=1`, where signing out leads).
    var signedOut = false

    /// What the page says when ``sessionEnded``.
    static let sessionEndedNotice =
        "Your session ended: it was signed out, or the password changed, or the account was removed. Sign in again to go back to the page (a removed account cannot: ask whoever runs the server)."

    /// What the page says when ``signedOut``.
    static let signedOutNotice = "You signed out. Sign in again to go on."

    /// The whole document.
    func render() -> HTML {
        Layout(title: "Sign in · Rewind", page: .signIn, csrfToken: csrfToken).render { html in
            html.element("main", [.class("sign-in")]) { html in
                html.element("h1") { $0.text("Sign in to Rewind") }
                if let message {
                    html.element("p", [.class("sign-in-error"), Attribute("role", "alert")]) { $0.text(message) }
                } else if sessionEnded || signedOut {
                    html.element("p", [.class("sign-in-notice"), Attribute("role", "status")]) {
                        $0.text(sessionEnded ? Self.sessionEndedNotice : Self.signedOutNotice)
                    }
                }
                html.element("form", [.class("sign-in-form"), Attribute("method", "post"), Attribute("action", "/signin")]) { html in
                    html.void("input", [.type("hidden"), .name("csrf"), .value(csrfToken)])
                    html.void("input", [.type("hidden"), .name("next"), .value(next)])
                    html.element("label", [.class("field")]) { html in
                        html.element("span") { $0.text("Account name") }
                        html.void("input", [
                            .type("text"), .name("name"), .value(name), .id("signin-name"),
                            Attribute("autocomplete", "username"), Attribute("autocapitalize", "none"),
                            Attribute("spellcheck", "false"), Attribute("required", isOn: true),
                            Attribute("autofocus", isOn: name.isEmpty),
                        ])
                    }
                    html.element("label", [.class("field")]) { html in
                        html.element("span") { $0.text("Password") }
                        html.void("input", [
                            .type("password"), .name("password"), .id("signin-password"),
                            Attribute("autocomplete", "current-password"), Attribute("required", isOn: true),
                            Attribute("autofocus", isOn: !name.isEmpty),
                        ])
                    }
                    html.element("button", [.type("submit"), .class("primary")]) { $0.text("Sign in") }
                }
                html.element("p", [.class("sign-in-note")]) {
                    $0.text("Accounts are made by the server's administrator with “rewind users add NAME”.")
                }
            }
        }
    }
}
