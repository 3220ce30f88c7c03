import BundledResources
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Todos

@testable import WebApp

@Suite("HTML")
struct HTMLTests {
    @Suite("Escaping")
    struct Escaping {
        @Test func escapesEveryCharacterThatEndsTextOrAnAttribute() {
            #expect(HTML.escape(#"<a href="x" title='y'>&amp;</a>"#) == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;")
            #expect(HTML.escape("Buy “milk” — ok") == "Buy “milk” — ok")
            #expect(HTML.escape("") == "")
        }

        @Test func escapesAtTheEdgesAndBetweenMultiByteCharacters() {
            #expect(HTML.escape("<") == "&lt;")
            #expect(HTML.escape("'é'") == "&#39;é&#39;")
            #expect(HTML.escape("“a”&“b”") == "“a”&amp;“b”")
            #expect(HTML.escape("🥛<🍞>\"") == "🥛&lt;🍞&gt;&quot;")
            #expect(HTML.escape("plain text, nothing to do") == "plain text, nothing to do")
            let long = String(repeating: "Buy “milk” & eggs ", count: 500)
            #expect(HTML.escape(long) == String(repeating: "Buy “milk” &amp; eggs ", count: 500))
        }

        @Test func textAndAttributesGoThroughTheSameFunction() {
            let fragment = HTML { $0.element("p", [.title(hostileTitle), .data("id", hostileTitle)]) { $0.text(hostileTitle) } }
            let escaped = HTML.escape(hostileTitle)
            #expect(fragment.rendered == #"<p title="\#(escaped)" data-id="\#(escaped)">\#(escaped)</p>"#)
            #expect(!fragment.rendered.contains("<script"))
        }

        @Test func uuidsAreSpelledAsUUIDStringSpellsThem() {
            let ids = (0...255).map { (byte: UInt8) in
                UUID(uuid: (
                    byte, byte &+ 1, byte &+ 17, byte &+ 34, byte &+ 51, byte &+ 68, byte &+ 85, byte &+ 102,
                    byte &+ 119, byte &+ 136, byte &+ 153, byte &+ 170, byte &+ 187, byte &+ 204, byte &+ 221, ~byte
                ))
            }
            for id in ids {
                let html = HTML { $0.void("a", [Attribute("href", prefix: "/todos/items/", uuid: id), .data("id", uuid: id)]) }
                #expect(html.rendered == #"<a href="/todos/items/\#(id.uuidString)" data-id="\#(id.uuidString)">"#)
            }
        }

        @Test func elementsNestInOneBuffer() {
            let html = HTML { html in
                html.element("ul", [.class("a&b")]) { html in
                    for number in 1...3 {
                        html.element("li") { $0.text(number) }
                    }
                    html.trusted("<li>literal</li>")
                }
            }
            #expect(html.rendered == #"<ul class="a&amp;b"><li>1</li><li>2</li><li>3</li><li>literal</li></ul>"#)
            #expect(html.bytes.readableBytes == html.rendered.utf8.count)
        }

        @Test func booleanAttributesRenderOnlyWhenOn() {
            #expect(HTML { $0.void("input", [.checked(true), .disabled(false)]) }.rendered == "<input checked>")
        }
    }

    @Suite("ModalCard")
    struct ModalCardTests {
        let card = ModalCard(
            id: "confirm",
            title: "Delete Item",
            message: "Please confirm deletion of “Buy milk”.",
            primary: .destructive("Delete", action: .request(method: "DELETE", path: "/api/todos/1", then: "/todos")),
            secondary: .cancel("Cancel")
        )

        @Test func isADialogLabelledByItsTitleAndDescribedByItsMessage() {
            let html = card.html.rendered
            #expect(html.hasPrefix(#"<dialog class="modal-card" id="confirm" aria-labelledby="confirm-title" aria-describedby="confirm-message""#))
            #expect(html.contains(#"<h2 class="modal-card-title" id="confirm-title">Delete Item</h2>"#))
            #expect(html.contains(#"<p class="modal-card-message" id="confirm-message">Please confirm deletion of “Buy milk”.</p>"#))
        }

        @Test func theSafeButtonComesFirstAndHasTheFocus() throws {
            let html = card.html.rendered
            let cancel = try #require(html.range(of: #"data-modal-role="cancel""#))
            let primary = try #require(html.range(of: #"data-modal-role="primary""#))
            #expect(cancel.lowerBound < primary.lowerBound)
            #expect(html.contains(#"data-modal-role="cancel" data-action="dismiss" autofocus>Cancel</button>"#))
            #expect(html.contains(#"class="modal-card-button destructive""#))
            #expect(html.contains(#"data-action="request" data-method="DELETE" data-path="/api/todos/1" data-then="/todos">Delete</button>"#))
            #expect(card.secondary.isSafe)
            #expect(!card.primary.isSafe)
        }

        @Test func theFactoriesMakeEachKind() {
            let confirm = ModalCard(
                id: "ok", title: "Title", message: "Message",
                primary: .default("Save", action: .event("save")), secondary: .cancel()
            )
            let html = confirm.html.rendered
            #expect(html.contains(#"class="modal-card-button default""#))
            #expect(html.contains(#"data-action="event" data-event="save">Save</button>"#))
            #expect(html.contains(">Cancel</button>"))
        }

        @Test func aHostileTitleAndMessageRenderAsText() {
            let hostile = ModalCard(
                id: hostileTitle, title: hostileTitle, message: hostileTitle,
                primary: .destructive(hostileTitle, action: .request(method: hostileTitle, path: hostileTitle, then: hostileTitle)),
                secondary: .cancel(hostileTitle, action: .event(hostileTitle))
            )
            HTMLTests.expectNoMarkupInjected(hostile.html.rendered)
        }
    }

    /// No tag or attribute that the hostile string would create if it were
    /// not escaped, and the string itself shows up only escaped.
    static func expectNoMarkupInjected(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!html.contains("<script>"), sourceLocation: sourceLocation)
        #expect(!html.contains(hostileTitle), sourceLocation: sourceLocation)
        // Every occurrence of the payload is the escaped one.
        let payloads = html.components(separatedBy: "alert(1)").count
        let escaped = html.components(separatedBy: HTML.escape(hostileTitle)).count
        #expect(payloads == escaped, sourceLocation: sourceLocation)
        #expect(html.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), sourceLocation: sourceLocation)
    }

    @Suite("A hostile title through every page")
    struct Hostile {
        /// A store with one item whose every text field is hostile, with a
        /// due date and directions, and the steps that name it in the history.
        static func server() async throws -> (TestServer, String) {
            let server = try TestServer()
            let json = #"""
                {"title": "\"><script>alert(1)</script>", "details": "\"><script>alert(1)</script>",
                 "dueText": "2027-01-14", "timeZone": "UTC",
                 "location": {"kind": "directions", "steps": ["\"><script>alert(1)</script>"]}}
                """#
            let id = try await server.test { client in
                let response = try await client.send(.post, "/api/todos", json: json, token: server.token)
                #expect(response.status == .created)
                return response.object["id"] as? String ?? ""
            }
            return (server, id)
        }

        @Test(arguments: ["/todos", "/todos/fragment", "/todos?filter=active&sort=smart"])
        func onTheListAndItsFragment(path: String) async throws {
            let (server, _) = try await Self.server()
            try await server.test { client in
                let html = try await client.get(path).text
                HTMLTests.expectNoMarkupInjected(html)
                // The label, the edit field's value, the history step, the
                // Undo button's title, aria-label and text, and the row's place
                // (its text and title: the one step of the directions); the
                // row's controls are named by the label's id, not by another copy.
                #expect(html.components(separatedBy: HTML.escape(hostileTitle)).count == 9)
            }
        }

        @Test func onTheDetailViewAndItsFragment() async throws {
            let (server, id) = try await Self.server()
            try await server.test { client in
                for path in ["/todos/items/\(id)", "/todos/items/\(id)/fragment"] {
                    let response = try await client.get(path)
                    #expect(response.status == .ok)
                    HTMLTests.expectNoMarkupInjected(response.text)
                }
            }
        }

        /// The pages that show no item render nothing of the hostile item,
        /// nor of a hostile query or calculator cookie: neither the markup
        /// nor its escaped text.
        @Test(arguments: ["/", "/calculator"])
        func onThePagesThatShowNoItem(path: String) async throws {
            let (server, _) = try await Self.server()
            let query = "?q=" + (hostileTitle.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            try await server.test { client in
                let response = try await client.get(
                    path + query, headers: [.cookie: "\(CalculatorSessions.cookieName)=\(hostileTitle.replacingOccurrences(of: ";", with: ""))"]
                )
                #expect(response.status == .ok)
                let html = response.text
                #expect(html.hasPrefix("<!DOCTYPE html>"))
                #expect(html.contains("<h1"), "the page rendered its own content")
                #expect(!html.contains("<script>"))
                #expect(!html.contains("alert(1)"), "no trace of the hostile text, escaped or not")
            }
        }

        @Test func inTheCalculatorsErrorAnswer() async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.send(
                    .post, "/api/calculator/keys", json: #"{"keys": ["\"><script>alert(1)</script>"]}"#, token: server.token
                )
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            }
        }
    }

    @Suite("The to-do page follows TodoMVC")
    struct TodoMVC {
        @Test func anEmptyListHidesMainAndFooterButKeepsThem() async throws {
            let server = try TestServer()
            try await server.test { client in
                let html = try await client.get("/todos").text
                #expect(html.contains(#"<section class="todoapp"><header class="header"><h1>todos</h1>"#))
                #expect(html.contains(#"<input class="new-todo" placeholder="What needs to be done?" autofocus"#))
                #expect(html.contains(#"<section class="main" data-region="main" hidden>"#))
                #expect(html.contains(#"<footer class="footer" data-region="footer" hidden>"#))
                #expect(html.contains(#"<input id="toggle-all" class="toggle-all" type="checkbox"><label for="toggle-all">"#))
                #expect(html.contains(#"<ul class="todo-list" data-filter="all"></ul>"#))
            }
        }

        @Test func rowsCountsFiltersAndClearCompleted() async throws {
            let server = try TestServer()
            try await server.test { client in
                let first = try await client.send(.post, "/api/todos", json: #"{"title": "One"}"#, token: server.token)
                try await client.send(.post, "/api/todos", json: #"{"title": "Two"}"#, token: server.token)
                let id = first.object["id"] as? String ?? ""
                var html = try await client.get("/todos").text
                #expect(html.contains(#"<span class="todo-count"><strong>2</strong> items left</span>"#))
                #expect(html.contains(#"<button type="button" class="clear-completed" hidden>Clear completed</button>"#))
                #expect(html.contains(##"<a href="#/" class="selected" aria-current="page">All</a>"##))
                #expect(html.contains(##"<a href="#/active">Active</a>"##))
                #expect(html.contains(##"<a href="#/completed">Completed</a>"##))
                #expect(html.contains(#"<li data-id="\#(id)"><div class="view"><input class="toggle" type="checkbox""#))
                #expect(html.contains(#"<input class="toggle" type="checkbox" aria-labelledby="tc t0"><label id="t0" dir="auto">One</label>"#))
                #expect(html.contains(#"<a class="item-details" href="/todos/items/\#(id)" aria-labelledby="td t0">Details</a>"#))
                #expect(html.contains(#"<button class="destroy" aria-labelledby="tx t0"></button>"#))
                #expect(html.contains(#"<button class="move" type="button" aria-labelledby="tm t0" aria-describedby="move-help"></button></div>"#))
                #expect(html.contains(#"<span id="tm">Move</span><span id="move-help">Drag to move the item"#))
                #expect(html.contains(#"<input class="edit" value="One" maxlength="500" aria-labelledby="te t0" dir="auto"></li>"#))
                #expect(html.contains(#"<label id="t1" dir="auto">Two</label>"#))
                #expect(html.contains(#"<div hidden><span id="tc">Complete</span><span id="td">Details of</span>"#))
                #expect(html.contains(#"</div><input class="edit" value="One""#))

                // Rows move in the list's own order only.
                #expect(!(try await client.get("/todos/fragment?sort=smart").text).contains(#"class="move""#))
                try await client.send(.post, "/api/todos/\(id)/toggle", token: server.token)
                html = try await client.get("/todos/fragment?filter=active").text
                #expect(html.contains(#"<span class="todo-count"><strong>1</strong> item left</span>"#))
                #expect(!html.contains(">One</label>"))
                #expect(html.contains(##"<a href="#/active" class="selected" aria-current="page">Active</a>"##))
                #expect(html.contains(#"<button type="button" class="clear-completed">Clear completed</button>"#))
                html = try await client.get("/todos/fragment?filter=completed").text
                #expect(html.contains(#"<li class="completed" data-id="\#(id)">"#))
                #expect(html.contains(#"<input class="toggle" type="checkbox" checked"#))

                try await client.send(.post, "/api/todos/toggle-all", json: #"{"completed": true}"#, token: server.token)
                html = try await client.get("/todos/fragment").text
                #expect(html.contains(#"<input id="toggle-all" class="toggle-all" type="checkbox" checked>"#))
                #expect(html.contains(#"<strong>0</strong> items left"#))
            }
        }

        /// The page's dates are those of the API's JSON and the browser,
        /// before 1583 too (Foundation's formatter wrote them as Julian days).
        @Test func aDueDateBeforeTheGregorianCalendarIsWrittenAsTheAPIWritesIt() async throws {
            let server = try TestServer()
            try await server.test { client in
                let old = try await client.send(
                    .post, "/api/todos", json: #"{"title": "Old", "due": {"kind": "date", "date": "0001-01-01T00:00:00.000Z"}}"#,
                    token: server.token)
                #expect(old.status == .created)
                let html = try await client.get("/todos/fragment").text
                #expect(html.contains(#"datetime="0001-01-01T00:00:00.000Z""#))
                let detail = try await client.get("/todos/items/\(old.object["id"] as? String ?? "")").text
                #expect(detail.contains(#"data-iso="0001-01-01T00:00:00.000Z""#))
                #expect(detail.contains(#"value="0001-01-01T00:00""#))
            }
        }

        /// A page writes its dates in the zone the browser's cookie names:
        /// the row's text, the history, the item page's date fields (which
        /// the browser reads back as its own times) and the zone in the
        /// page's `<meta>`. A cookie naming no zone this server knows is
        /// the server's zone, not an error.
        @Test func datesAreWrittenInTheBrowsersTimeZone() async throws {
            let server = try TestServer()
            try await server.test { client in
                let due = try #require(ISO8601DateFormatter().date(from: "2031-05-06T18:00:00Z"))
                let added = try await client.send(
                    .post, "/api/todos", json: #"{"title": "Dentist", "due": {"kind": "date", "date": "2031-05-06T18:00:00.000Z"}}"#,
                    token: server.token)
                let id = try #require(added.object["id"] as? String)
                func cookie(_ value: String) -> HTTPFields { [.cookie: "\(PageTimeZone.cookieName)=\(value)"] }
                func shown(in zone: TimeZone) -> String {
                    DueDateFormatter(now: Date(), timeZone: zone).display(.date(due))
                }
                let far = try #require(TimeZone(identifier: "Pacific/Kiritimati"))
                #expect(shown(in: far) != shown(in: .current), "the test needs two zones that show the date differently")
                for path in ["/todos", "/todos/fragment"] {
                    let html = try await client.get(path, headers: cookie("Pacific%2FKiritimati")).text
                    #expect(html.contains(">\(HTML.escape(shown(in: far)))<"), "\(path)")
                }
                var page = try await client.get("/todos/items/\(id)", headers: cookie("Pacific%2FKiritimati")).text
                #expect(page.contains(#"<meta name="rewind-time-zone" content="Pacific/Kiritimati">"#))
                #expect(page.contains(#"value="2031-05-07T08:00""#), "UTC+14")
                // Names this server does not know, or that are too long: its own zone.
                for value in ["Nowhere%2FLand", String(repeating: "A", count: 300), "%ZZ", ""] {
                    page = try await client.get("/todos/items/\(id)", headers: cookie(value)).text
                    #expect(page.contains(#"<meta name="rewind-time-zone" content="\#(TimeZone.current.identifier)">"#), "\(value)")
                    #expect(page.contains(HTML.escape(shown(in: .current))), "\(value)")
                }
                // The API writes moments, whatever the cookie.
                let api = try await client.get("/api/todos/\(id)", headers: cookie("Pacific%2FKiritimati"))
                #expect((api.object["due"] as? [String: Any])?["date"] as? String == "2031-05-06T18:00:00.000Z")
            }
        }

        /// A long list is a page of its first rows, the rest a click away;
        /// an item the page added past them is shown after them.
        @Test func aLongListShowsItsFirstRowsShowMoreAndWhatThePageAddedAfterThem() async throws {
            let server = try TestServer()
            try await server.test { client in
                var ids: [String] = []
                for number in 1...250 {
                    let added = try await client.send(.post, "/api/todos", json: #"{"title": "Item \#(number)"}"#, token: server.token)
                    ids.append(try #require(added.object["id"] as? String))
                }
                for path in ["/todos", "/todos/fragment"] {
                    var html = try await client.get(path).text
                    #expect(html.components(separatedBy: #"class="item-details""#).count == 201, "\(path)")
                    #expect(html.contains(">Item 200</label>") && !html.contains(">Item 201</label>"))
                    #expect(html.contains(#"<span>200 of 250 shown</span><button type="button" class="show-more-rows" data-rows="400">Show the last 50</button>"#))
                    #expect(html.contains("<strong>250</strong> items left"), "the counts are of the whole list")
                    html = try await client.get(path + "?rows=400").text
                    #expect(html.components(separatedBy: #"class="item-details""#).count == 251)
                    #expect(!html.contains("more-rows"))
                    html = try await client.get(path + "?rows=20&also=\(ids[249]),\(ids[5])").text
                    #expect(html.components(separatedBy: #"class="item-details""#).count == 22, "20 rows, then the one added past them")
                    #expect(html.contains(#"<li class="after-gap" data-id="\#(ids[249])">"#))
                    #expect(html.contains("<span>21 of 250 shown</span>") && html.contains(">Show 200 more</button>"))
                    html = try await client.get(path + "?rows=20&search=item%2024").text
                    #expect(html.contains(">Item 24</label>") && html.contains(">Item 249</label>"))
                    #expect(!html.contains("more-rows"), "a search that finds fewer items than the rows shows them all")
                }
                // An id the list no longer has (deleted, or its add undone) is left out, not refused.
                let gone = try await client.get("/todos/fragment?rows=20&also=\(UUID().uuidString)")
                #expect(gone.status == .ok)
                #expect(!gone.text.contains("after-gap") && gone.text.contains("<span>20 of 250 shown</span>"))
                #expect(try await client.get("/todos/fragment?rows=1000001").status == .badRequest)
                let tooMany = (0...RowWindow.largestAlso).map { _ in ids[0] }.joined(separator: ",")
                #expect(try await client.get("/todos/fragment?also=\(tooMany)").status == .badRequest)
            }
        }

        @Test func theFooterCountsOverdueItemsAndOffersTheirFilterWhileThereAreAny() async throws {
            let server = try TestServer()
            try await server.test { client in
                let past = ISO8601Milliseconds.string(from: TestServer.now - 86_400)
                let late = try await client.send(
                    .post, "/api/todos", json: #"{"title": "Late", "due": {"kind": "date", "date": "\#(past)"}}"#, token: server.token)
                #expect(late.status == .created)
                try await client.send(.post, "/api/todos", json: #"{"title": "Whenever"}"#, token: server.token)
                var html = try await client.get("/todos/fragment").text
                #expect(html.contains(#"<strong>2</strong> items left, <span class="overdue-count">1 overdue</span>"#))
                #expect(html.contains(##"<a href="#/overdue">Overdue</a>"##))
                html = try await client.get("/todos/fragment?filter=overdue").text
                #expect(html.contains(##"<a href="#/overdue" class="selected" aria-current="page">Overdue</a>"##))
                #expect(html.contains(">Late</label>") && !html.contains(">Whenever</label>"))
                // Done: nothing is overdue, and the filter goes, unless it is the one shown.
                try await client.send(.post, "/api/todos/\(late.object["id"] as? String ?? "")/toggle", token: server.token)
                html = try await client.get("/todos/fragment").text
                #expect(!html.contains("overdue"))
                html = try await client.get("/todos/fragment?filter=overdue").text
                #expect(html.contains(##"<a href="#/overdue" class="selected" aria-current="page">Overdue</a>"##))
            }
        }

        /// `?search=` of the page and its fragment: the rows that contain
        /// every word, with the filter, a line that says what was found, the
        /// field holding the words; the counts stay the whole list's.
        @Test func theSearchShowsTheRowsThatContainEveryWordAndSaysHowMany() async throws {
            let server = try TestServer()
            try await server.test { client in
                for body in [#"{"title": "Buy milk"}"#, #"{"title": "Call the café", "details": "the Milk order"}"#, #"{"title": "Tea"}"#] {
                    try await client.send(.post, "/api/todos", json: body, token: server.token)
                }
                var html = try await client.get("/todos?search=MILK").text
                #expect(html.contains(">Buy milk</label>") && html.contains(">Call the café</label>") && !html.contains(">Tea</label>"))
                #expect(html.contains(#"<p class="search-result" role="status">2 items contain “MILK”.</p>"#))
                #expect(html.contains(#"<input id="search" type="search" value="MILK""#))
                #expect(html.contains("<strong>3</strong> items left"))
                html = try await client.get("/todos/fragment?search=milk%20cafe&filter=active").text
                #expect(html.contains("1 active item contains every word of “milk cafe”."))
                #expect(html.contains(">Call the café</label>") && !html.contains(">Buy milk</label>"))
                // A + is a space, as a browser writes the page's address; %2B a plus.
                html = try await client.get("/todos?search=cafe+milk").text
                #expect(html.contains("1 item contains every word of “cafe milk”."))
                html = try await client.get("/todos/fragment?search=C%2B%2B").text
                #expect(html.contains("No item contains “C++”."))
                html = try await client.get("/todos/fragment?search=coffee").text
                #expect(html.contains("No item contains “coffee”.") && !html.contains("</label></div>"))
                // No words: no search, and no line about one.
                html = try await client.get("/todos?search=%20%20").text
                #expect(html.contains(">Tea</label>") && !html.contains("search-result"))
                #expect(html.contains(#"<input id="search" type="search" value="""#))
                // Escaped like any text.
                html = try await client.get("/todos/fragment?search=%3Cb%3E").text
                #expect(html.contains("“&lt;b&gt;”") && !html.contains("<b>"))
                let control = try await client.get("/todos/fragment?search=%00x")
                #expect(control.status == .unprocessableContent)
                #expect(control.errorMessage?.hasSuffix("and this one holds U+0000") == true)
                let long = try await client.get("/todos/fragment?search=" + String(repeating: "a", count: 201))
                #expect(long.status == .badRequest)
                #expect(long.errorMessage == "invalid query parameter “search”: a search is at most 200 characters long, not 201")
            }
        }

        @Test func undoRedoButtonsAreTitledAndDisabledWhenUnavailable() async throws {
            let server = try TestServer()
            try await server.test { client in
                var html = try await client.get("/todos").text
                #expect(html.contains(#"id="todos-undo" title="Undo" aria-label="Undo" disabled"#))
                #expect(html.contains(#"id="todos-redo" title="Redo" aria-label="Redo" disabled"#))
                let added = try await client.send(.post, "/api/todos", json: #"{"title": "Buy milk"}"#, token: server.token)
                try await client.send(.delete, "/api/todos/\(added.object["id"] as? String ?? "")", token: server.token)
                html = try await client.get("/todos/fragment").text
                #expect(html.contains(#"title="Undo Delete “Buy milk”" aria-label="Undo Delete “Buy milk”" aria-keyshortcuts"#))
                #expect(html.contains(#"id="todos-redo" title="Redo" aria-label="Redo" disabled"#))
                // The step is on the button too, where a phone (no tooltip) shows it.
                #expect(html.contains(#"Undo<span class="undo-name">: Delete “<bdi>Buy milk</bdi>”</span></button>"#))
                #expect(html.contains(#"Redo</button>"#))
                try await client.send(.post, "/api/history/undo", token: server.token)
                html = try await client.get("/todos/fragment").text
                #expect(html.contains(#"title="Redo Delete “Buy milk”""#))
                #expect(html.contains(#"Redo<span class="undo-name">: Delete “<bdi>Buy milk</bdi>”</span></button>"#))
                #expect(html.contains(#"Undo<span class="undo-name">: Add “<bdi>Buy milk</bdi>”</span></button>"#))
                // The item's page has the same buttons.
                html = try await client.get("/todos/items/\(added.object["id"] as? String ?? "")").text
                #expect(html.contains(#"Redo<span class="undo-name">: Delete “<bdi>Buy milk</bdi>”</span></button>"#))
            }
        }

        @Test func theHistoryPanelListsStepsAndMarksTheCurrentOne() async throws {
            let server = try TestServer()
            try await server.test { client in
                try await client.send(.post, "/api/todos", json: #"{"title": "One"}"#, token: server.token)
                try await client.send(.post, "/api/todos", json: #"{"title": "Two"}"#, token: server.token)
                try await client.send(.post, "/api/history/undo", token: server.token)
                let html = try await client.get("/todos/fragment").text
                #expect(html.contains(#"<aside class="history-panel" data-region="history""#))
                #expect(html.contains(#"class="history-step" data-step="0""#))
                #expect(html.contains(#"class="history-step current" data-step="1" aria-current="step""#))
                #expect(html.contains(#"class="history-step undone" data-step="2""#))
                #expect(!html.contains("abandoned"), "an in-memory store keeps no abandoned branches")
                #expect(html.contains(#"<span class="history-name">Add “<bdi>Two</bdi>”</span>"#))
            }
        }

        @Test func dueDatesAreShownAndOverdueOnesMarked() async throws {
            let server = try TestServer()
            try await server.test { client in
                try await client.send(
                    .post, "/api/todos", json: #"{"title": "Late", "due": {"kind": "date", "date": "2027-01-14T09:00:00.000Z"}}"#,
                    token: server.token
                )
                try await client.send(
                    .post, "/api/todos", json: #"{"title": "Later", "due": {"kind": "date", "date": "2027-02-14T09:00:00.000Z"}}"#,
                    token: server.token
                )
                let html = try await client.get("/todos").text
                #expect(html.contains(#"<time class="due overdue" datetime="2027-01-14T09:00:00.000Z"><span>Overdue ·</span> <span>"#))
                #expect(html.contains(#"<time class="due" datetime="2027-02-14T09:00:00.000Z""#))
                #expect(html.contains(#"<button type="button" id="delete-all" class="delete-all" data-opens-modal="confirm-delete-all">"#))
                #expect(html.contains(#"<dialog class="modal-card" id="confirm-delete-all""#))
            }
        }
    }

    @Suite("Places on the rows")
    struct Places {
        @Test func aRowShowsWhereInAFewWordsAndTheWholeOfItInItsTitle() async throws {
            let server = try TestServer()
            try await server.test { client in
                let items = [
                    #"{"title": "Post", "location": {"kind": "address", "street": "1 Main St", "city": "Springfield", "zipCode": "12345", "country": "US"}}"#,
                    #"{"title": "Picnic", "location": {"kind": "coordinate", "latitude": 53.5, "longitude": 9.25}}"#,
                    #"{"title": "Hut", "location": {"kind": "directions", "steps": ["Leave by the gate", "Turn <right>"]}}"#,
                    #"{"title": "Nowhere"}"#,
                ]
                for item in items {
                    try await client.send(.post, "/api/todos", json: item, token: server.token)
                }
                let html = try await client.get("/todos/fragment").text
                let where_ = #"<span class="visually-hidden">Where: </span>"#
                #expect(html.contains(#"<span class="place" title="1 Main St, Springfield, 12345, US">"# + where_ + "<bdi>1 Main St, Springfield</bdi></span>"))
                #expect(html.contains(#"<span class="place" title="53.5, 9.25">"# + where_ + "<bdi>53.5, 9.25</bdi></span>"))
                #expect(html.contains(#"<span class="place" title="1. Leave by the gate"# + "\n" + #"2. Turn &lt;right&gt;">"# + where_ + "<bdi>Leave by the gate (+1 step)</bdi></span>"))
                #expect(html.components(separatedBy: #"class="place""#).count - 1 == 3, "the item with no location has no place")
            }
        }
    }

    @Suite("The detail view")
    struct Detail {
        @Test func theShortReferenceOfTheCommandLineOpensTheItemsPage() async throws {
            let server = try TestServer()
            try await server.test { client in
                // Ids 00000000-0000-4000-8000-000000000001 and …0002 (IncrementingIDs).
                try await client.send(.post, "/api/todos", json: #"{"title": "One"}"#, token: server.token)
                try await client.send(.post, "/api/todos", json: #"{"title": "Two"}"#, token: server.token)
                let two = "00000000-0000-4000-8000-000000000002"
                // Its hex digits, in either case, with or without hyphens: to the item's own address.
                for typed in ["00000000000040008000000000000002", "0000-0000-0000-4000-8000-0000-0000-0002", "00000000000040008000000000000002".uppercased()] {
                    let response = try await client.get("/todos/items/\(typed)?steps=200")
                    #expect(response.status == .seeOther)
                    #expect(response.headers[.location] == "/todos/items/\(two)?steps=200")
                }
                // The start of both ids.
                let both = try await client.get("/todos/items/00000000-0000-4000-8000-00000000000")
                #expect(both.status == .badRequest)
                #expect(both.text.contains("starts the ids of several items (000000000000, 000000000000): type more of the id."))
                let none = try await client.get("/todos/items/ffff0000")
                #expect(none.status == .notFound)
                #expect(none.text.contains("No item's id starts with “ffff0000”."))
                // Not hex digits, or too few of them: not an id, as before.
                for typed in ["abc", "milk"] {
                    #expect(try await client.get("/todos/items/\(typed)").status == .badRequest)
                }
            }
        }

        @Test func showsEveryFieldAndTheDeleteConfirmation() async throws {
            let server = try TestServer()
            try await server.test { client in
                let json = #"""
                    {"title": "Buy milk", "details": "two\nlitres",
                     "due": {"kind": "duration", "start": "2027-01-20T08:00:00.000Z", "amount": 3, "unit": "hours"},
                     "location": {"kind": "coordinate", "latitude": 53.5, "longitude": 9.25}}
                    """#
                let added = try await client.send(.post, "/api/todos", json: json, token: server.token)
                let id = added.object["id"] as? String ?? ""
                let response = try await client.get("/todos/items/\(id)")
                #expect(response.status == .ok)
                let html = response.text
                #expect(html.contains(#"<body data-page="todo-detail">"#))
                #expect(html.contains(#"<p class="detail-summary">Active. "#))
                #expect(html.contains(#"<input name="title" value="Buy milk""#))
                #expect(html.contains("<textarea name=\"details\" rows=\"5\" dir=\"auto\">two\nlitres</textarea>"))
                // A first empty line survives the parser, which drops one line break after <textarea>.
                #expect(TodoDetailPage.textareaText("\nlead") == "\n\nlead")
                #expect(TodoDetailPage.textareaText("lead\n") == "lead\n")
                #expect(html.contains(#"<input type="radio" name="dueKind" value="duration" checked>"#))
                #expect(html.contains(#"name="durationAmount" value="3""#))
                #expect(html.contains(#"<option value="hours" selected>hours</option>"#))
                #expect(html.contains(#"data-iso="2027-01-20T08:00:00.000Z""#))
                #expect(html.contains(#"<input type="radio" name="locationKind" value="coordinate" checked>"#))
                #expect(html.contains(#"<input name="latitude" value="53.5""#))
                #expect(html.contains(
                    #"Where: 53.5, 9.25 (<a class="map-link" href="https://www.openstreetmap.org/?mlat=53.500000&amp;mlon=9.250000#map=17/53.500000/9.250000">on OpenStreetMap</a>). Created"#))
                #expect(html.contains(#"<dialog class="modal-card" id="confirm-delete-item" aria-labelledby="confirm-delete-item-title""#))
                #expect(html.contains(#"id="confirm-delete-item-title">Delete item</h2>"#))
                #expect(html.contains("Please confirm deletion of “Buy milk”."))
                #expect(html.contains(#"data-method="DELETE" data-path="/api/todos/\#(id)" data-then="/todos">Delete</button>"#))
                #expect(html.contains(#"data-opens-modal="confirm-delete-item">Delete…</button>"#))
            }
        }

        /// Whole days from midnight in the page's zone (what "tomorrow"
        /// makes) open as words, not as a start at 00:00 and a duration.
        @Test(arguments: [
            (#"{"kind": "duration", "start": "2027-01-20T00:00:00.000Z", "amount": 3, "unit": "days"}"#, "text", "2027-01-20 for 3 days"),
            (#"{"kind": "duration", "start": "2027-01-20T00:00:00.000Z", "amount": 1, "unit": "days"}"#, "text", "2027-01-20"),
            (#"{"kind": "span", "start": "2027-01-20T00:00:00.000Z", "end": "2027-01-22T00:00:00.000Z"}"#, "text", "2027-01-20..2027-01-21"),
            (#"{"kind": "duration", "start": "2027-01-20T09:00:00.000Z", "amount": 1, "unit": "days"}"#, "duration", "2027-01-20 09:00 for 1 day"),
            (#"{"kind": "duration", "start": "2027-01-20T00:00:00.000Z", "amount": 24, "unit": "hours"}"#, "duration", "2027-01-20 for 24 hours"),
        ])
        func wholeDaysOpenAsTypedWords(due: String, kind: String, text: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let added = try await client.send(.post, "/api/todos", json: #"{"title": "Trip", "due": \#(due)}"#, token: server.token)
                let id = try #require(added.object["id"] as? String, "\(added.text)")
                let html = try await client.get("/todos/items/\(id)").text
                #expect(html.contains(#"<input type="radio" name="dueKind" value="\#(kind)" checked>"#))
                #expect(html.contains(#"name="dueText" value="\#(text)""#))
            }
        }

        @Test func anUnknownItemIs404() async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.get("/todos/items/00000000-0000-0000-0000-000000000099")
                #expect(response.status == .notFound)
                let malformed = try await client.get("/todos/items/nope/fragment")
                #expect(malformed.status == .badRequest)
            }
        }
    }

    @Suite("Static files")
    struct StaticFiles {
        @Test(arguments: [
            ("/assets/app.css", "text/css; charset=utf-8", "prefers-color-scheme: dark"),
            ("/assets/todos.js", "text/javascript; charset=utf-8", "from './regions.js'"),
            ("/assets/regions.js", "text/javascript; charset=utf-8", "new EventSource(url)"),
            ("/assets/icon.svg", "image/svg+xml", "<svg"),
        ])
        func areServedWithTheirTypeAndAnETag(path: String, type: String, content: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.get(path)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == type)
                #expect(response.headers[.cacheControl] == "no-cache")
                #expect(response.text.contains(content))
                let tag = try #require(response.headers[.eTag])
                let again = try await client.get(path, headers: [.ifNoneMatch: tag])
                #expect(again.status == .notModified)
                let stale = try await client.get(path, headers: [.ifNoneMatch: "\"0\""])
                #expect(stale.status == .ok)
            }
        }

        @Test(arguments: ["/assets/nothing.js", "/assets/..", "/assets/app.js"])
        func anUnknownNameIsNotFound(path: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.get(path)
                #expect(response.status == .notFound)
            }
        }

        /// A module whose import names a missing file or a name the file
        /// does not export fails to load, and the page does nothing.
        @Test func everyImportNamesAServedFileAndWhatItExports() throws {
            let assets = try Assets.bundled()
            let scripts = assets.files.keys.filter { $0.hasSuffix(".js") }
            let importPattern = /import \{([^}]*)\} from '\.\/([a-z-]+\.js)';/
            var imports = 0
            for script in scripts {
                for match in try assets.text(of: script).matches(of: importPattern) {
                    let file = String(match.output.2)
                    let exported = try #require(
                        assets.files[file].map { _ in try assets.text(of: file) }, "\(script) imports \(file), which is not served"
                    )
                    for name in match.output.1.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                        #expect(
                            exported.contains("export function \(name)(") || exported.contains("export var \(name) ="),
                            "\(script) imports \(name), which \(file) does not export"
                        )
                        imports += 1
                    }
                }
            }
            #expect(imports > 10)
        }

        @Test func aMissingPageScriptIsNamedWhenTheFilesAreRead() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("assets-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            for name in ["app.css", "icon.svg", "todos.js", "calculator.js"] {
                try Data("/* \(name) */".utf8).write(to: directory.appendingPathComponent(name))
            }
            #expect(throws: AssetsError(message: directory.appendingPathComponent("todo-detail.js").path + " is missing")) {
                try Assets(directory: directory)
            }
            try Data("// detail".utf8).write(to: directory.appendingPathComponent("todo-detail.js"))
            #expect(throws: AssetsError(message: directory.appendingPathComponent("lists.js").path + " is missing")) {
                try Assets(directory: directory)
            }
            for name in ["lists.js", "shared-list.js"] {
                try Data("// \(name)".utf8).write(to: directory.appendingPathComponent(name))
            }
            #expect(try Assets(directory: directory).files.count == 7)
        }

        @Test func aMissingResourceBundleIsNamedWithWhereItBelongs() {
            #expect {
                try ResourceBundle(module: "NoSuchModule").url(of: "assets/app.css")
            } throws: { error in
                let text = String(describing: error)
                return text.contains("Rewind_NoSuchModule.resources/assets/app.css is missing")
                    && text.contains("beside the rewind binary")
            }
        }
    }
}

@Suite("History panel")
struct HistoryPanelTests {
    private func overview(steps: Int, position: Int) -> HistoryTree {
        HistoryTree(linear: HistoryOverview(
            steps: (1...steps).map { HistoryOverview.Step(name: "Step \($0)", date: TestServer.now) },
            position: position
        ))
    }

    private func step(_ number: Int64, after parent: Int64, _ branch: HistoryTree.Branch) -> HistoryTree.Step {
        HistoryTree.Step(number: number, parent: parent, name: "Add “\(number)”", date: TestServer.now, branch: branch)
    }

    @Test func aLongHistoryListsAWindowAroundTheCurrentPosition() {
        let panel = HistoryPanel(tree: overview(steps: 500, position: 300), window: 100)
        #expect(panel.shownRange == 250..<350)
        let html = panel.render().rendered
        #expect(html.contains("… 250 steps earlier"))
        #expect(html.contains("… 150 steps later"))
        #expect(html.contains(#"class="history-step current" data-step="300""#))
        #expect(html.contains(#"data-step="0""#))
        // "Show more" asks for 200 more steps.
        #expect(html.components(separatedBy: #"class="history-show-more" data-steps="300""#).count == 3)
    }

    @Test func aStepMadeBeforeTodayNamesItsDay() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        // Thursday 26 November 2026, 15:00 UTC.
        let now = Date(timeIntervalSince1970: 1_795_705_200)
        let dates = DueDateFormatter(now: now, timeZone: utc)
        let hour: TimeInterval = 3_600
        #expect(HistoryPanel.when(now - hour, dates) == "14:00")
        #expect(HistoryPanel.when(now - 24 * hour, dates) == "yesterday 15:00")
        #expect(HistoryPanel.when(now - 3 * 24 * hour + 5 * 60, dates) == "Mon 23 Nov 15:05")
        #expect(HistoryPanel.when(now - 400 * 24 * hour, dates) == "22 Oct 2025 15:00")
        let html = HistoryPanel(
            tree: HistoryTree(linear: HistoryOverview(steps: [HistoryOverview.Step(name: "Add “Milk”", date: now - 24 * hour)], position: 1)),
            dates: dates
        ).render().rendered
        #expect(html.contains(">yesterday 15:00</time>"))
    }

    @Test func aHistoryThatFitsHasNoShowMore() {
        let html = HistoryPanel(tree: overview(steps: 300, position: 300), window: 300).render().rendered
        #expect(!html.contains("history-more"))
        #expect(html.components(separatedBy: #"class="history-step"#).count == 302)
    }

    @Test func thePagesListAsManyStepsAsAskedForAndSayWhatIsAllowed() async throws {
        let server = try TestServer()
        try await server.test { client in
            for number in 1...5 {
                let response = try await client.send(.post, "/api/todos", json: #"{"title": "Task \#(number)"}"#, token: server.token)
                #expect(response.status == .created)
            }
            let id = try await client.get("/api/todos").object["items"].flatMap { ($0 as? [[String: Any]])?.first?["id"] as? String } ?? ""
            for path in ["/todos", "/todos/fragment?filter=active", "/todos/items/\(id)", "/todos/items/\(id)/fragment"] {
                let separator = path.contains("?") ? "&" : "?"
                let three = try await client.get(path + separator + "steps=3").text
                #expect(three.components(separatedBy: #"class="history-step"#).count == 5, "Start and 3 steps on \(path)")
                #expect(three.contains("… 2 steps earlier"), "on \(path)")
                let all = try await client.get(path).text
                #expect(all.components(separatedBy: #"class="history-step"#).count == 7, "Start and every step on \(path)")
                for bad in ["0", "-1", "x", "1000001"] {
                    let response = try await client.get(path + separator + "steps=" + bad)
                    #expect(response.status == .badRequest)
                    #expect(response.text.contains("is not a whole number of steps from 1 to 1000000"), "\(bad) on \(path)")
                }
            }
        }
    }

    @Test func theWindowStaysInsideTheHistory() {
        #expect(HistoryPanel(tree: overview(steps: 500, position: 500), window: 100).shownRange == 400..<500)
        #expect(HistoryPanel(tree: overview(steps: 500, position: 0), window: 100).shownRange == 0..<100)
        #expect(HistoryPanel(tree: overview(steps: 30, position: 10), window: 100).shownRange == 0..<30)
        #expect(HistoryPanel(tree: HistoryTree(steps: [], current: 0)).shownRange == 0..<0)
    }

    @Test func anAbandonedBranchIsListedMarkedAndTheBranchAfterItIndented() {
        // A, B, undo, C: B is abandoned, C (the current step) is a branch of A.
        let tree = HistoryTree(steps: [step(1, after: 0, .done), step(2, after: 1, .abandoned), step(4, after: 1, .done)], current: 4)
        let html = HistoryPanel(tree: tree).render().rendered
        #expect(html.contains(
            #"<li><button type="button" class="history-step abandoned" data-step="2" title="Go to just after this step, on a branch left by a change after an undo: Add “2”"><span class="history-name">Add “<bdi>2</bdi>”</span><span class="history-branch">abandoned</span>"#
        ))
        #expect(html.contains(#"<li data-level="1"><button type="button" class="history-step current" data-step="4" aria-current="step""#))
        #expect(html.contains(#"<li><button type="button" class="history-step" data-step="1" title="Go back to just after this step: Add “1”""#))
        #expect(html.components(separatedBy: "aria-current").count == 2, "one step is current")
        // A step undone on the current branch lies ahead: going to it goes forward.
        let undone = HistoryPanel(tree: HistoryTree(steps: [step(1, after: 0, .done), step(2, after: 1, .undone)], current: 1))
            .render().rendered
        #expect(undone.contains(#"data-step="2" title="Go forward to just after this step: Add “2”""#))
        let order = ["data-step=\"0\"", "data-step=\"1\"", "data-step=\"2\"", "data-step=\"4\""].compactMap { html.range(of: $0)?.lowerBound }
        #expect(order.count == 4 && order == order.sorted(), "the steps are listed in the order they were made")
        // Only the step not made after the one above it says what it was made after.
        #expect(html.components(separatedBy: #"class="history-after""#).count == 2)
        #expect(html.contains(#"data-step="4" aria-current="step" title="Current state"><span class="history-name">Add “<bdi>4</bdi>”</span><span class="history-after">after Add “1”</span>"#))
        #expect(html.contains(#"data-step="0" title="Go back to the start, before every step""#))
    }

    @Test func branchesAfterOneStepAndAfterTheStartEachNameIt() {
        // A, B; undo twice; C (after the start); undo; D (after the start);
        // undo; jump to A; E (after A); a step whose parent was pruned.
        let tree = HistoryTree(steps: [
            step(1, after: 0, .done), step(2, after: 1, .abandoned), step(3, after: 0, .abandoned),
            step(4, after: 0, .abandoned), step(5, after: 1, .done), step(6, after: 5, .done), step(9, after: 7, .abandoned),
        ], current: 6)
        let html = HistoryPanel(tree: tree).render().rendered
        let afters = html.components(separatedBy: #"<span class="history-after">"#).dropFirst()
            .map { $0.components(separatedBy: "</span>")[0] }
        #expect(afters == ["after Start", "after Start", "after Add “1”", "after an earlier step"])
    }

    @Test func theWindowCentresOnTheCurrentStepOfATree() {
        // 1…300 in a line, 301 a branch after 10, current.
        var steps = (1...300).map { step(Int64($0), after: Int64($0) - 1, $0 <= 10 ? .done : .abandoned) }
        steps.append(step(301, after: 10, .done))
        let panel = HistoryPanel(tree: HistoryTree(steps: steps, current: 301), window: 100)
        #expect(panel.shownRange == 201..<301)
        #expect(panel.render().rendered.contains(#"class="history-step current" data-step="301""#))
    }

    @Test func deepBranchesAreDrawnAtTheDeepestLevel() throws {
        let stylesheet = try Assets.bundled().text(of: "app.css")
        // Odd steps continue the line of the step before; even ones branch off it: levels 0, 1, 1, 2, 2, …
        var steps: [HistoryTree.Step] = []
        for number in stride(from: Int64(1), through: 21, by: 2) {
            steps.append(step(number, after: number - 1, .abandoned))
            steps.append(step(number + 1, after: number - 1, .abandoned))
        }
        let tree = HistoryTree(steps: steps, current: 0)
        #expect(tree.levels().max() ?? 0 > HistoryPanel.deepestLevel)
        let html = HistoryPanel(tree: tree).render().rendered
        #expect(html.contains(#"data-level="\#(HistoryPanel.deepestLevel)""#))
        #expect(!html.contains(#"data-level="\#(HistoryPanel.deepestLevel + 1)""#))
        for level in 1...HistoryPanel.deepestLevel {
            #expect(stylesheet.contains(#".history-list li[data-level="\#(level)"]"#))
        }
    }
}
