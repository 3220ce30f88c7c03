import Foundation
import Todos

/// `/lists` (team mode): the signed-in account's lists, each a link to its
/// page with how many items it holds ("2 items left, 1 completed"); a form
/// that makes a list; and, on the lists the account owns, Rename, Share
/// (with the members, each with Stop sharing) and Delete, which asks first
/// in a ``ModalCard``.
struct ListsPage {
    /// The account's lists, oldest first, each with how many items it holds.
    var lists: [(list: SharedListSummary, counts: SharedListCounts)]
    /// The signed-in account.
    var person: AccountName
    /// The token for the page's script.
    var csrfToken: String

    /// The confirmation that deleting `list` asks for.
    static func deleteCard(for list: SharedListSummary) -> ModalCard {
        ModalCard(
            id: "confirm-delete-\(list.id.uuidString)",
            title: "Delete “\(list.name)”",
            message: "Please confirm deletion of the list “\(list.name)” with its items and history, for you and "
                + "everyone it is shared with. This cannot be undone.",
            primary: .destructive("Delete list", action: .request(method: "DELETE", path: "/api/lists/\(list.id.uuidString)")),
            secondary: .cancel("Keep it")
        )
    }

    /// The confirmation that no longer sharing `list` with `member` asks
    /// for: their open pages of it close, with what they were typing.
    static func unshareCard(for list: SharedListSummary, member: AccountName) -> ModalCard {
        ModalCard(
            id: "confirm-unshare-\(list.id.uuidString)-\(member.key)",
            title: "Stop sharing “\(list.name)” with \(member.text)",
            message: "Please confirm that \(member.text) no longer sees or changes “\(list.name)”; a page of it that "
                + "\(member.text) has open closes. You can share it again later.",
            primary: .destructive(
                "Stop sharing",
                action: .request(method: "DELETE", path: "/api/lists/\(list.id.uuidString)/members/\(member.key)")),
            secondary: .cancel("Keep sharing")
        )
    }

    /// The confirmation that leaving `list`, shared with `person`, asks for.
    static func leaveCard(for list: SharedListSummary, person: AccountName) -> ModalCard {
        ModalCard(
            id: "confirm-leave-\(list.id.uuidString)",
            title: "Leave “\(list.name)”",
            message: "Please confirm that you leave \(list.owner.text)'s list “\(list.name)”. It stays as it is for the "
                + "others; only \(list.owner.text) can share it with you again.",
            primary: .destructive(
                "Leave list",
                action: .request(method: "DELETE", path: "/api/lists/\(list.id.uuidString)/members/\(person.key)")),
            secondary: .cancel("Stay")
        )
    }

    /// The whole document.
    func render() -> HTML {
        Layout(title: "Lists · Rewind", page: .lists, csrfToken: csrfToken, eventsSince: ListsOverviewWatch.id(of: lists)).render { html in
            html.element("main", [.class("lists-page")]) { html in
                html.element("h1") { $0.text("Lists") }
                html.element("form", [.class("new-list"), Attribute("autocomplete", "off")]) { html in
                    html.element("label", [.for("new-list-name")]) { $0.text("New list") }
                    html.void(
                        "input",
                        // No maxlength: a longer name is refused with the reason, not cut without a word.
                        [.id("new-list-name"), .name("name"), .placeholder("Name of the new list"), Attribute("required", isOn: true),
                         Attribute("dir", "auto")])
                    html.element("button", [.type("submit"), .class("button")]) { $0.text("Make list") }
                }
                html.element("p", [.class("todo-error"), .id("todo-error"), Attribute("role", "alert")])
                // What was done, and lists that came or went: said politely.
                html.element("p", [.class("lists-status"), .id("lists-status"), Attribute("role", "status")])
                regions(into: &html)
            }
        }
    }

    /// The part that changes: the lists, and the confirmation of each
    /// delete. It names the digest of what it shows (`data-overview`, the
    /// id of `/lists/events`), so that the page fetches it again only for
    /// an event that names another.
    func regions(into html: inout HTMLWriter) {
        html.element(
            "div", [.class("lists"), .data("region", "lists"), .data("overview", ListsOverviewWatch.id(of: lists))]
        ) { html in
            if lists.isEmpty {
                html.element("p", [.class("lists-empty")]) {
                    $0.text("No lists yet. Make one above; its owner can then share it with other accounts by name.")
                }
            }
            // Lists of one name (without case) are told apart by the start of their ids, as the terminal names them.
            let counts = Dictionary(lists.map { ($0.0.name.lowercased(), 1) }, uniquingKeysWith: +)
            let repeated = Set(counts.filter { $0.value > 1 }.keys)
            html.element("ul", [.class("list-of-lists")]) { html in
                for (list, counts) in lists {
                    row(list, counts: counts, showingID: repeated.contains(list.name.lowercased()), into: &html)
                }
            }
            for (list, _) in lists {
                (list.owner == person ? Self.deleteCard(for: list) : Self.leaveCard(for: list, person: person)).render(into: &html)
                if list.owner == person {
                    for member in list.members { Self.unshareCard(for: list, member: member).render(into: &html) }
                }
            }
        }
    }

    private func row(_ list: SharedListSummary, counts: SharedListCounts, showingID: Bool, into html: inout HTMLWriter) {
        let id = list.id.uuidString
        html.element("li", [.class("list-row"), .data("list", id)]) { html in
            html.element("span", [.class("list-named")]) { html in
                html.element("a", [.class("list-name"), .href("/lists/\(id)"), Attribute("dir", "auto")]) { $0.text(list.name) }
                if showingID {
                    html.text(" ")
                    html.element("span", [.class("list-id"), .title("The start of its id, which tells it from your other lists of this name")]) {
                        $0.text(String(id.lowercased().prefix(8)))
                    }
                }
            }
            html.element("span", [.class("list-counts")]) { $0.text(counts.summary) }
            html.element("span", [.class("list-access")]) { html in
                html.text(Self.access(of: list, for: person))
            }
            guard list.owner == person else {
                html.element("div", [.class("list-actions")]) { html in
                    html.element(
                        "button",
                        [.type("button"), .class("leave-list button"), .data("opens-modal", "confirm-leave-\(id)"),
                         .ariaLabel("Leave “\(list.name)”…")]
                    ) { $0.text("Leave…") }
                }
                return
            }
            html.element("div", [.class("list-actions")]) { html in
                html.element("form", [.class("rename-list"), Attribute("autocomplete", "off")]) { html in
                    html.void(
                        "input",
                        // A one-line field drops line breaks: they are shown as spaces.
                        [.name("name"), .value(TodoDetailPage.oneLine(list.name)), .ariaLabel("New name of “\(list.name)”"),
                         Attribute("required", isOn: true), Attribute("dir", "auto")])
                    html.element("button", [.type("submit"), .class("button"), .ariaLabel("Rename “\(list.name)”")]) { $0.text("Rename") }
                }
                html.element("form", [.class("share-list"), Attribute("autocomplete", "off")]) { html in
                    html.void(
                        "input",
                        [.name("account"), .placeholder("account name"), .ariaLabel("Share “\(list.name)” with")])
                    html.element("button", [.type("submit"), .class("button"), .ariaLabel("Share “\(list.name)”")]) { $0.text("Share") }
                }
                for member in list.members {
                    html.element(
                        "button",
                        [.type("button"), .class("unshare button"), .data("account", member.text),
                         .data("opens-modal", "confirm-unshare-\(id)-\(member.key)"),
                         .ariaLabel("Stop sharing “\(list.name)” with \(member.text)…")]
                    ) { $0.text("Stop sharing with \(member.text)…") }
                }
                html.element(
                    "button",
                    [.type("button"), .class("delete-list button"), .data("opens-modal", "confirm-delete-\(id)"),
                     .ariaLabel("Delete “\(list.name)”…")]
                ) { $0.text("Delete…") }
            }
        }
    }

    /// “Yours · shared with bob” or “ann's · shared with you and carl”.
    static func access(of list: SharedListSummary, for person: AccountName) -> String {
        let mine = list.owner == person
        let others = list.members.filter { $0 != person }.map(\.text)
        var members = mine ? others : ["you"] + others
        if members.count > 1, let last = members.popLast() {
            members = [members.joined(separator: ", ") + " and " + last]
        }
        let owner = mine ? "Yours" : "\(list.owner.text)'s"
        guard let shared = members.first else { return owner + " · not shared" }
        return owner + " · shared with " + shared
    }
}
