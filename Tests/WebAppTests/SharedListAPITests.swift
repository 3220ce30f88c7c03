import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing
import TodoStore
import Todos

@testable import WebApp

/// Team mode's shared lists through the JSON API and the pages: lists made,
/// renamed, shared and deleted by their owner; every request checked
/// against the list's members; each person's Undo and Redo taking back
/// their own steps only.
@Suite("Team mode: shared lists through the API and the pages")
struct SharedListAPITests {
    /// A signed-in account: its session id and CSRF token.
    struct Person: Sendable {
        let name: String
        let session: String
        let token: String

        /// The headers of a request in this session, with its token.
        var headers: HTTPFields { SignInTests.session(session, token: token) }
    }

    /// Signs `name` in on `server`.
    static func signIn(_ name: String, _ client: some TestClientProtocol, server: TestServer) async throws -> Person {
        let response = try await SignInTests.signIn(client, server: server, name: name)
        let session = try #require(SignInTests.sessionCookie(response)).id
        return Person(name: name, session: session, token: try await SignInTests.token(client, session: session))
    }

    /// A request as `person`'s page sends it.
    @discardableResult
    static func call(
        _ client: some TestClientProtocol, _ person: Person, _ method: HTTPRequest.Method, _ uri: String,
        json: String? = nil
    ) async throws -> TestResponse {
        try await client.send(method, uri, json: json, token: person.token, headers: SignInTests.session(person.session))
    }

    /// Runs `body` in team mode with Ann and Bob signed in and Ann's list
    /// "Groceries" shared with Bob: where most tests here begin.
    static func withGroceriesOfAnnAndBob(
        _ body: @Sendable (TestServer, any TestClientProtocol, Person, Person, String) async throws -> Void
    ) async throws {
        let server = try await SignInTests.server(["ann", "bob"])
        try await server.test { client in
            let ann = try await signIn("ann", client, server: server)
            let bob = try await signIn("bob", client, server: server)
            try await body(server, client, ann, bob, try await makeList("Groceries", client, as: ann, sharedWith: [bob]))
        }
    }

    /// Makes a list as `owner` and returns its id.
    static func makeList(
        _ name: String, _ client: some TestClientProtocol, as owner: Person, sharedWith members: [Person] = []
    ) async throws -> String {
        let made = try await call(client, owner, .post, "/api/lists", json: #"{"name": "\#(name)"}"#)
        #expect(made.status == .created)
        let id = try #require(made.object["id"] as? String)
        for member in members {
            let shared = try await call(client, owner, .post, "/api/lists/\(id)/members", json: #"{"account": "\#(member.name)"}"#)
            #expect(shared.status == .ok)
        }
        return id
    }

    /// Adds an item titled `title` as `person`; returns its id.
    static func add(
        _ title: String, to list: String, _ client: some TestClientProtocol, as person: Person
    ) async throws -> String {
        let added = try await call(client, person, .post, "/api/lists/\(list)/todos", json: #"{"title": "\#(title)"}"#)
        #expect(added.status == .created)
        let item = try #require(added.object["item"] as? [String: Any])
        return try #require(item["id"] as? String)
    }

    /// Signs ann in on `server` and makes her list "Groceries" of `titles`;
    /// returns ann, the list's id and the items' ids.
    static func annsGroceries(
        _ titles: [String], _ client: some TestClientProtocol, server: TestServer
    ) async throws -> (ann: Person, list: String, items: [String]) {
        let ann = try await signIn("ann", client, server: server)
        let id = try await makeList("Groceries", client, as: ann)
        var items: [String] = []
        for title in titles { items.append(try await add(title, to: id, client, as: ann)) }
        return (ann, id, items)
    }

    /// The list as `person` reads it.
    static func state(_ list: String, _ client: some TestClientProtocol, as person: Person) async throws -> [String: Any] {
        let response = try await client.get("/api/lists/\(list)", headers: SignInTests.session(person.session))
        #expect(response.status == .ok)
        return response.object
    }

    /// The titles of the list's items, in order.
    static func titles(_ state: [String: Any]) -> [String] {
        (state["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    /// The `seq` of the step `next` names (`undo` or `redo`) in `state`.
    static func next(_ kind: String, in state: [String: Any]) -> Int? {
        (state[kind] as? [String: Any])?["seq"] as? Int
    }

    @Test func theListsPageListsTheNewestStepsAndShowMoreAsksForOlderOnes() async throws {
        let server = try await SignInTests.server(["ann"])
        try await server.test { client in
            let (ann, id, _) = try await Self.annsGroceries(["Milk", "Bread", "Eggs"], client, server: server)
            for path in ["/lists/\(id)", "/lists/\(id)/fragment"] {
                let all = try await client.get(path, headers: SignInTests.session(ann.session)).text
                #expect(all.components(separatedBy: #"class="shared-step""#).count == 4, "every step on \(path)")
                #expect(!all.contains("history-show-more"))
                let two = try await client.get(path + "?steps=2", headers: SignInTests.session(ann.session)).text
                #expect(two.components(separatedBy: #"class="shared-step""#).count == 3, "the newest 2 on \(path)")
                #expect(two.contains("Add “Eggs”") && !two.contains("Add “Milk”"))
                #expect(two.contains(#"class="history-show-more" data-steps="202""#))
                let bad = try await client.get(path + "?steps=0", headers: SignInTests.session(ann.session))
                #expect(bad.status == .badRequest)
            }
        }
    }

    @Test func theListsPageShowsItsFirstRowsAndShowMoreAndWhatThePageAddedAfterThem() async throws {
        let server = try await SignInTests.server(["ann"])
        try await server.test { client in
            let (ann, id, ids) = try await Self.annsGroceries(["Milk", "Bread", "Eggs", "Tea"], client, server: server)
            for path in ["/lists/\(id)", "/lists/\(id)/fragment"] {
                let all = try await client.get(path, headers: SignInTests.session(ann.session)).text
                #expect(all.components(separatedBy: #"class="item-details""#).count == 5, "every row on \(path)")
                #expect(!all.contains("more-rows"))
                let two = try await client.get(path + "?rows=2&also=\(ids[3])", headers: SignInTests.session(ann.session)).text
                #expect(two.contains(">Milk</label>") && two.contains(">Bread</label>") && !two.contains(">Eggs</label>"))
                #expect(two.contains(#"<li class="after-gap" data-id="\#(ids[3])">"#), "the item the page added, after the rows")
                #expect(two.contains(#"<span>3 of 4 shown</span><button type="button" class="show-more-rows" data-rows="202">Show the last 2</button>"#))
                for bad in ["rows=0", "rows=x", "also=nope", "also=\(ids[0]),"] {
                    let refused = try await client.get(path + "?" + bad, headers: SignInTests.session(ann.session))
                    #expect(refused.status == .badRequest, "\(bad) on \(path)")
                }
            }
        }
    }

    @Test func offsetAndLimitPageAListsItemsAndFoundCountsThem() async throws {
        let server = try await SignInTests.server(["ann"])
        try await server.test { client in
            let (ann, id, _) = try await Self.annsGroceries(["Milk", "Oat milk", "Café beans"], client, server: server)
            func page(_ query: String) async throws -> (titles: [String], found: Int?) {
                let response = try await client.get("/api/lists/\(id)?" + query, headers: SignInTests.session(ann.session))
                return (Self.titles(response.object), response.object["found"] as? Int)
            }
            #expect(try await page("") == (["Milk", "Oat milk", "Café beans"], 3))
            #expect(try await page("offset=1&limit=1") == (["Oat milk"], 3))
            #expect(try await page("search=milk&limit=1") == (["Milk"], 2))
            #expect(try await page("offset=5") == ([], 3))
            let refused = try await client.get("/api/lists/\(id)?limit=0", headers: SignInTests.session(ann.session))
            #expect(refused.status == .badRequest)
            #expect(refused.errorMessage == "invalid query parameter “limit”: a page holds 1 to 1000000 items, not 0")
            let word = try await client.get("/api/lists/\(id)?offset=two", headers: SignInTests.session(ann.session))
            #expect(word.errorMessage == "invalid query parameter “offset”: “two” is not a whole number")
        }
    }

    @Test func aSearchListsTheItemsThatContainEveryWord() async throws {
        let server = try await SignInTests.server(["ann"])
        try await server.test { client in
            let (ann, id, _) = try await Self.annsGroceries(["Milk", "Oat milk", "Café beans"], client, server: server)
            func titles(_ query: String) async throws -> [String] {
                let response = try await client.get("/api/lists/\(id)?" + query, headers: SignInTests.session(ann.session))
                #expect(response.status == .ok, "\(query)")
                return Self.titles(response.object)
            }
            #expect(try await titles("search=MILK") == ["Milk", "Oat milk"])
            #expect(try await titles("search=milk%20oat") == ["Oat milk"])
            #expect(try await titles("search=cafe") == ["Café beans"])
            #expect(try await titles("search=") == ["Milk", "Oat milk", "Café beans"])
            let long = try await client.get(
                "/api/lists/\(id)?search=" + String(repeating: "a", count: 201), headers: SignInTests.session(ann.session)
            )
            #expect(long.status == .badRequest)
            #expect(long.errorMessage == "invalid query parameter “search”: a search is at most 200 characters long, not 201")
            // The list's page and its fragment: the rows found, what was found, the whole list's count.
            for path in ["/lists/\(id)", "/lists/\(id)/fragment"] {
                let html = try await client.get(path + "?search=milk+oat", headers: SignInTests.session(ann.session)).text
                #expect(html.contains(">Oat milk</label>") && !html.contains(">Milk</label>"), "\(path)")
                #expect(html.contains(#"<p class="search-result" role="status">1 item contains every word of “milk oat”.</p>"#))
                #expect(html.contains("<strong>3</strong> items left"))
                #expect(html.contains(#"<input id="search" type="search" value="milk oat""#) == (path == "/lists/\(id)"))
            }
        }
    }

    @Test func theOwnerMakesRenamesSharesUnsharesAndDeletesAListAndAMemberMayNot() async throws {
        let server = try await SignInTests.server(["ann", "bob"])
        try await server.test { client in
            let ann = try await Self.signIn("ann", client, server: server)
            let bob = try await Self.signIn("bob", client, server: server)
            let id = try await Self.makeList("Groceries", client, as: ann)
            let none = try await client.get("/api/lists", headers: SignInTests.session(bob.session))
            #expect((none.object["lists"] as? [Any])?.isEmpty == true)

            let shared = try await Self.call(client, ann, .post, "/api/lists/\(id)/members", json: #"{"account": "Bob"}"#)
            #expect(shared.status == .ok)
            #expect(shared.object["members"] as? [String] == ["bob"])
            let bobs = try await client.get("/api/lists", headers: SignInTests.session(bob.session))
            let listed = try #require((bobs.object["lists"] as? [[String: Any]])?.first)
            #expect(listed["name"] as? String == "Groceries")
            #expect(listed["owner"] as? String == "ann")
            #expect((listed["itemCount"] as? Int, listed["completedCount"] as? Int) == (0, 0))
            let milk = try await Self.add("Milk", to: id, client, as: bob)
            _ = try await Self.add("Bread", to: id, client, as: ann)
            #expect(try await Self.call(client, bob, .patch, "/api/lists/\(id)/todos/\(milk)", json: #"{"completed": true}"#).status == .ok)
            let counted = try await client.get("/api/lists", headers: SignInTests.session(ann.session))
            let counts = try #require((counted.object["lists"] as? [[String: Any]])?.first)
            #expect((counts["itemCount"] as? Int, counts["completedCount"] as? Int) == (2, 1))
            let page = try await client.get("/lists", headers: SignInTests.session(ann.session)).text
            #expect(page.contains(#"<span class="list-counts">1 item left, 1 completed</span>"#))

            // A member reads and changes the list, but only the owner manages it.
            #expect(try await Self.call(client, bob, .patch, "/api/lists/\(id)", json: #"{"name": "Mine"}"#).status == .forbidden)
            #expect(try await Self.call(client, bob, .delete, "/api/lists/\(id)").status == .forbidden)
            #expect(
                try await Self.call(client, bob, .delete, "/api/lists/\(id)/members/ann").status == .forbidden)

            // What the owner may not do either, each with its reason.
            let nobody = try await Self.call(client, ann, .post, "/api/lists/\(id)/members", json: #"{"account": "nobody"}"#)
            #expect(nobody.status == .unprocessableContent)
            #expect(nobody.errorMessage == "there is no account “nobody”; whoever runs the server makes accounts, with the command rewind users add nobody.")
            #expect(try await Self.call(client, ann, .post, "/api/lists/\(id)/members", json: #"{"account": "bob"}"#).status == .conflict)
            let herself = try await Self.call(client, ann, .post, "/api/lists/\(id)/members", json: #"{"account": "ann"}"#)
            #expect(herself.status == .conflict)
            #expect(herself.errorMessage == "This list is ann's, and its owner can open it already.")
            let leaving = try await Self.call(client, ann, .delete, "/api/lists/\(id)/members/ann")
            #expect(leaving.status == .conflict)
            #expect(leaving.errorMessage == "This list is ann's, and its owner does not leave it: delete it instead, or keep it.")
            // A page of team mode that does not exist links to the lists.
            var navigation = SignInTests.session(ann.session)
            navigation.append(contentsOf: HTTPTests.NotFoundPages.navigation)
            let missing = try await client.get("/lists/\(UUID().uuidString)", headers: navigation)
            #expect(missing.status == .notFound)
            #expect(missing.text.contains(#"Go to <a href="/lists">your lists</a>, the <a href="/todos">to-dos</a>"#), "\(missing.text)")
            // Said the same for a list deleted, unshared or never shared, without calling it nonexistent.
            #expect(missing.text.contains("it was deleted, or it is not shared with you (its owner can share it)"), "\(missing.text)")
            // Two lists of one name are told apart by the start of their ids; a name of its own shows none.
            let other = try await Self.makeList("groceries", client, as: ann)
            _ = try await Self.makeList("Hardware", client, as: ann)
            let lists = try await client.get("/lists", headers: SignInTests.session(ann.session)).text
            #expect(lists.contains(#"Groceries</a> <span class="list-id" title="#), "\(lists)")
            #expect(lists.contains(#">\#(other.lowercased().prefix(8))</span>"#), "\(lists)")
            #expect(!lists.contains(#"Hardware</a> <span class="list-id""#), "\(lists)")
            #expect(try await Self.call(client, ann, .delete, "/api/lists/\(other)").status == .noContent)
            let blank = try await Self.call(client, ann, .patch, "/api/lists/\(id)", json: #"{"name": "   "}"#)
            #expect(blank.status == .unprocessableContent)

            let renamed = try await Self.call(client, ann, .patch, "/api/lists/\(id)", json: #"{"name": "Weekend"}"#)
            #expect(renamed.object["name"] as? String == "Weekend")
            let unshared = try await Self.call(client, ann, .delete, "/api/lists/\(id)/members/bob")
            #expect(unshared.object["members"] as? [String] == [])
            #expect(try await client.get("/api/lists/\(id)", headers: SignInTests.session(bob.session)).status == .notFound)

            #expect(try await Self.call(client, ann, .delete, "/api/lists/\(id)").status == .noContent)
            #expect(try await client.get("/api/lists/\(id)", headers: SignInTests.session(ann.session)).status == .notFound)
        }
    }

    @Test func anotherAccountsListItemsAndStepsAnswer404EverywhereAndChangeNothing() async throws {
        let server = try await SignInTests.server(["ann", "carl"])
        try await server.test { client in
            let ann = try await Self.signIn("ann", client, server: server)
            let carl = try await Self.signIn("carl", client, server: server)
            let list = try await Self.makeList("Private", client, as: ann)
            let item = try await Self.add("Secret", to: list, client, as: ann)
            let before = try await Self.state(list, client, as: ann)

            let reads = [
                "/api/lists/\(list)", "/api/lists/\(list)/history", "/lists/\(list)", "/lists/\(list)/fragment",
                "/lists/\(list)/events",
            ]
            for path in reads {
                let response = try await client.get(path, headers: SignInTests.session(carl.session))
                #expect(response.status == .notFound, "\(path)")
                #expect(!response.text.contains("Secret"), "\(path)")
            }
            let writes: [(HTTPRequest.Method, String, String?)] = [
                (.post, "/api/lists/\(list)/todos", #"{"title": "Mine now"}"#),
                (.patch, "/api/lists/\(list)/todos/\(item)", #"{"title": "Mine now"}"#),
                (.delete, "/api/lists/\(list)/todos/\(item)", nil),
                (.post, "/api/lists/\(list)/undo", "{}"),
                (.post, "/api/lists/\(list)/redo", "{}"),
                (.patch, "/api/lists/\(list)", #"{"name": "Mine now"}"#),
                (.delete, "/api/lists/\(list)", nil),
                (.post, "/api/lists/\(list)/members", #"{"account": "carl"}"#),
                (.delete, "/api/lists/\(list)/members/ann", nil),
            ]
            for (method, path, json) in writes {
                let response = try await Self.call(client, carl, method, path, json: json)
                #expect(response.status == .notFound, "\(method) \(path)")
            }
            // Ann's item id on carl's own list is no item of his either.
            let own = try await Self.makeList("Carl's", client, as: carl)
            let foreign = try await Self.call(client, carl, .patch, "/api/lists/\(own)/todos/\(item)", json: #"{"completed": true}"#)
            #expect(foreign.status == .notFound)
            // Ann's token with carl's session is refused, and does nothing.
            let stolen = try await client.send(
                .post, "/api/lists/\(own)/todos", json: #"{"title": "x"}"#, token: ann.token,
                headers: SignInTests.session(carl.session))
            #expect(stolen.status == .forbidden)
            #expect(Self.titles(try await Self.state(own, client, as: carl)) == [])
            // Without a session: 401, and the page asks to sign in.
            #expect(try await client.get("/api/lists/\(list)").status == .unauthorized)
            #expect(try await client.get("/lists/\(list)").status == .seeOther)

            let after = try await Self.state(list, client, as: ann)
            #expect(Self.titles(after) == Self.titles(before))
            #expect(after["seq"] as? Int == before["seq"] as? Int)
            #expect((try await client.get("/api/lists", headers: SignInTests.session(carl.session)).object["lists"] as? [Any])?.count == 1)
        }
    }

    @Test func eachPersonsUndoTakesBackTheirOwnStepAndADoubleClickTakesBackOneOnly() async throws {
        try await Self.withGroceriesOfAnnAndBob { server, client, ann, bob, list in
            _ = try await Self.add("Milk", to: list, client, as: ann)
            _ = try await Self.add("Bread", to: list, client, as: bob)
            _ = try await Self.add("Eggs", to: list, client, as: ann)

            // Ann's Undo names her own latest step; bob's names his.
            let annSees = try await Self.state(list, client, as: ann)
            let bobSees = try await Self.state(list, client, as: bob)
            #expect((annSees["undo"] as? [String: Any])?["name"] as? String == "Add “Eggs”")
            #expect((bobSees["undo"] as? [String: Any])?["name"] as? String == "Add “Bread”")
            let step = try #require(Self.next("undo", in: annSees))

            // A double click: the same step twice. One step is taken back.
            let first = try await Self.call(client, ann, .post, "/api/lists/\(list)/undo", json: #"{"step": \#(step)}"#)
            let second = try await Self.call(client, ann, .post, "/api/lists/\(list)/undo", json: #"{"step": \#(step)}"#)
            #expect(first.status == .ok)
            #expect(second.status == .conflict)
            #expect(Self.titles(try await Self.state(list, client, as: ann)) == ["Milk", "Bread"])

            // Bob's change does not clear ann's redo; her Redo puts back Eggs.
            _ = try await Self.add("Jam", to: list, client, as: bob)
            let redo = try #require(Self.next("redo", in: try await Self.state(list, client, as: ann)))
            #expect(try await Self.call(client, ann, .post, "/api/lists/\(list)/redo", json: #"{"step": \#(redo)}"#).status == .ok)
            #expect(Self.titles(try await Self.state(list, client, as: ann)) == ["Milk", "Bread", "Eggs", "Jam"])

            // Bob's Undo takes back his own latest add, not ann's redo.
            #expect(try await Self.call(client, bob, .post, "/api/lists/\(list)/undo", json: "{}").status == .ok)
            #expect(Self.titles(try await Self.state(list, client, as: bob)) == ["Milk", "Bread", "Eggs"])

            // The history names each step's author, newest first.
            let history = try await client.get("/api/lists/\(list)/history?limit=3", headers: SignInTests.session(ann.session))
            let steps = try #require(history.object["steps"] as? [[String: Any]])
            #expect(steps.map { $0["author"] as? String } == ["bob", "ann", "bob"])
            #expect(steps.map { $0["kind"] as? String } == ["undo", "redo", "change"])
            // A page parameter that is not a number is refused by name.
            let wrong = try await client.get("/api/lists/\(list)/history?before=newest", headers: SignInTests.session(ann.session))
            #expect(wrong.status == .badRequest)
            #expect(wrong.errorMessage == "invalid query parameter “before”: “newest” is not a whole number")
        }
    }

    @Test func aMemberMovesAnItemAsTheirOwnStepAndTheirUndoPutsItBack() async throws {
        try await Self.withGroceriesOfAnnAndBob { server, client, ann, bob, list in
            let milk = try await Self.add("Milk", to: list, client, as: ann)
            _ = try await Self.add("Bread", to: list, client, as: ann)
            let eggs = try await Self.add("Eggs", to: list, client, as: ann)

            let moved = try await Self.call(client, bob, .post, "/api/lists/\(list)/todos/\(eggs)/move", json: #"{"before": "\#(milk)"}"#)
            #expect(moved.status == .ok)
            #expect((moved.object["item"] as? [String: Any])?["title"] as? String == "Eggs")
            #expect((moved.object["step"] as? [String: Any])?["name"] as? String == "Move “Eggs”")
            #expect(Self.titles(try await Self.state(list, client, as: ann)) == ["Eggs", "Milk", "Bread"])
            let again = try await Self.call(client, bob, .post, "/api/lists/\(list)/todos/\(eggs)/move", json: #"{"before": "\#(milk)"}"#)
            #expect(again.status == .conflict)
            #expect(again.errorMessage == "“Eggs” is already before “Milk”")
            let past = try await Self.call(client, bob, .post, "/api/lists/\(list)/todos/\(eggs)/move", json: #"{"position": 3}"#)
            #expect(past.status == .unprocessableContent)
            #expect(past.errorMessage?.contains("positions run from 0 to 2") == true, "\(past.errorMessage ?? "")")
            let stranger = "00000000-0000-0000-0000-000000000099"
            let unknown = try await Self.call(client, bob, .post, "/api/lists/\(list)/todos/\(stranger)/move", json: #"{"position": 0}"#)
            #expect(unknown.status == .notFound)

            // Ann's Undo names her own add; bob's takes back his move.
            #expect(((try await Self.state(list, client, as: ann))["undo"] as? [String: Any])?["name"] as? String == "Add “Eggs”")
            #expect(try await Self.call(client, bob, .post, "/api/lists/\(list)/undo", json: "{}").status == .ok)
            #expect(Self.titles(try await Self.state(list, client, as: bob)) == ["Milk", "Bread", "Eggs"])
        }
    }

    @Test func theListsPageFiltersItsRowsAndAMemberCompletesAllAndClearsTheCompletedOnesAsTheirSteps() async throws {
        try await Self.withGroceriesOfAnnAndBob { server, client, ann, bob, list in
            let milk = try await Self.add("Milk", to: list, client, as: ann)
            _ = try await Self.add("Bread", to: list, client, as: ann)
            let none = try await Self.call(client, bob, .post, "/api/lists/\(list)/todos/clear-completed")
            #expect(none.status == .conflict)
            #expect(none.errorMessage == "no item is completed; nothing was deleted")
            _ = try await Self.call(client, ann, .patch, "/api/lists/\(list)/todos/\(milk)", json: #"{"completed": true}"#)

            let headers = SignInTests.session(bob.session)
            let all = try await client.get("/lists/\(list)/fragment", headers: headers).text
            #expect(all.contains(">Milk</label>") && all.contains(">Bread</label>"))
            #expect(all.contains(#"<span class="todo-count"><strong>1</strong> item left</span>"#))
            #expect(all.contains(##"<a href="#/" class="selected" aria-current="page">All</a>"##))
            #expect(all.contains(#"<button type="button" class="clear-completed">Clear completed</button>"#))
            let active = try await client.get("/lists/\(list)/fragment?filter=active", headers: headers).text
            #expect(!active.contains(">Milk</label>") && active.contains(">Bread</label>"))
            #expect(active.contains(##"<a href="#/active" class="selected" aria-current="page">Active</a>"##))
            let completed = try await client.get("/lists/\(list)/fragment?filter=completed", headers: headers).text
            #expect(completed.contains(">Milk</label>") && !completed.contains(">Bread</label>"))

            // Complete all, then reopen all: one step of bob's each; his Undo takes the last back.
            let completedAll = try await Self.call(client, bob, .post, "/api/lists/\(list)/todos/toggle-all", json: #"{"completed": true}"#)
            #expect((completedAll.object["step"] as? [String: Any])?["name"] as? String == "Complete “Bread”")
            let again = try await Self.call(client, bob, .post, "/api/lists/\(list)/todos/toggle-all", json: #"{"completed": true}"#)
            #expect(again.status == .conflict)
            #expect(again.errorMessage == "every item is completed; nothing was changed")
            let reopened = try await Self.call(client, bob, .post, "/api/lists/\(list)/todos/toggle-all", json: #"{"completed": false}"#)
            #expect((reopened.object["step"] as? [String: Any])?["name"] as? String == "Reopen 2 items")
            #expect(try await Self.call(client, bob, .post, "/api/lists/\(list)/undo", json: "{}").status == .ok)
            let missing = try await Self.call(client, bob, .post, "/api/lists/\(list)/todos/toggle-all", json: "{}")
            #expect(missing.status == .badRequest)
            let misspelt = try await Self.call(
                client, bob, .post, "/api/lists/\(list)/todos/toggle-all", json: #"{"completed": true, "complete": true}"#)
            #expect(misspelt.status == .badRequest)
            #expect(misspelt.errorMessage?.contains("unknown field") == true)

            let cleared = try await Self.call(client, bob, .post, "/api/lists/\(list)/todos/clear-completed")
            #expect(cleared.status == .ok)
            #expect((cleared.object["step"] as? [String: Any])?["name"] as? String == "Clear 2 completed items")
            #expect(Self.titles(try await Self.state(list, client, as: ann)).isEmpty)
            let after = try await client.get("/lists/\(list)/fragment", headers: headers).text
            #expect(after.contains(#"<button type="button" class="clear-completed" hidden>Clear completed</button>"#))
            #expect(try await Self.call(client, bob, .post, "/api/lists/\(list)/undo", json: "{}").status == .ok)
            #expect(Self.titles(try await Self.state(list, client, as: ann)) == ["Milk", "Bread"])
            #expect(try await client.get("/lists/\(list)/fragment", headers: headers).text
                .contains(#"<input id="toggle-all" class="toggle-all" type="checkbox" checked>"#))
        }
    }

    @Test func anUndoLeavesAloneWhatAnotherPersonChangedSinceAndSaysSo() async throws {
        try await Self.withGroceriesOfAnnAndBob { server, client, ann, bob, list in
            let milk = try await Self.add("Milk", to: list, client, as: bob)
            // One step of ann's that renames and completes.
            let edited = try await Self.call(
                client, ann, .patch, "/api/lists/\(list)/todos/\(milk)", json: #"{"title": "Oat milk", "completed": true}"#)
            #expect(edited.status == .ok)
            #expect(try await Self.call(
                client, bob, .patch, "/api/lists/\(list)/todos/\(milk)", json: #"{"title": "Soy milk"}"#).status == .ok)

            let undone = try await Self.call(client, ann, .post, "/api/lists/\(list)/undo", json: "{}")
            #expect(undone.status == .ok)
            let messages = try #require((undone.object["step"] as? [String: Any])?["messages"] as? [String])
            #expect(messages.count == 1)
            #expect(messages.first?.contains("bob") == true)
            let item = try #require((try await Self.state(list, client, as: ann)["items"] as? [[String: Any]])?.first)
            #expect(item["title"] as? String == "Soy milk")
            #expect(item["state"] as? String == "active")
            // Nothing changed is answered with what to do.
            let same = try await Self.call(client, ann, .patch, "/api/lists/\(list)/todos/\(milk)", json: #"{"title": "Soy milk"}"#)
            #expect(same.status == .conflict)
        }
    }

    @Test func theListPageNamesTheAccountsOwnNextStepsAndTheHistoryItsAuthors() async throws {
        // Bob's account was made as “Bob”; he signs in as “bob”.
        let server = try await SignInTests.server(["ann", "Bob"])
        try await server.test { client in
            let ann = try await Self.signIn("ann", client, server: server)
            let bob = try await Self.signIn("bob", client, server: server)
            let list = try await Self.makeList("Groceries", client, as: ann, sharedWith: [bob])
            let milk = try await Self.add("Milk", to: list, client, as: ann)
            _ = try await Self.add(hostileTitle.replacingOccurrences(of: "\"", with: "\\\""), to: list, client, as: bob)

            let page = try await client.get("/lists/\(list)", headers: SignInTests.session(ann.session))
            #expect(page.status == .ok)
            let html = page.text
            #expect(html.contains(#"id="list-undo""#))
            #expect(html.contains(#"data-step="1""#))
            #expect(html.contains("Undo your step: Add “Milk”"))
            #expect(html.contains(#"<span class="history-author">Bob</span>"#), "the account as it was made")
            #expect(html.contains(#"<span class="history-author">you</span>"#))
            #expect(!html.contains("<script>alert(1)"))
            #expect(html.contains(#"href="/lists""#))

            let landing = try await client.get("/", headers: SignInTests.session(bob.session))
            #expect(landing.text.contains(#"<a href="/lists"><h2>Lists</h2>"#))
            let lists = try await client.get("/lists", headers: SignInTests.session(bob.session))
            #expect(lists.text.contains("Groceries"))
            #expect(lists.text.contains("ann&#39;s · shared with you"))
            // Only the owner's page has the delete confirmation.
            #expect(!lists.text.contains("confirm-delete-"))
            let owners = try await client.get("/lists", headers: SignInTests.session(ann.session))
            #expect(owners.text.contains("confirm-delete-\(list)"))
            #expect(owners.text.contains("Yours · shared with Bob"))

            // What an undo left alone names the others as their accounts were made, and the reader as “you”.
            #expect(try await Self.call(client, ann, .patch, "/api/lists/\(list)/todos/\(milk)", json: #"{"title": "Oat milk"}"#).status == .ok)
            #expect(try await Self.call(client, bob, .patch, "/api/lists/\(list)/todos/\(milk)", json: #"{"title": "Soy milk"}"#).status == .ok)
            let undone = try await Self.call(client, ann, .post, "/api/lists/\(list)/undo", json: "{}")
            #expect(undone.status == .ok)
            #expect(undone.text.contains("Bob renamed it since."), "the API names him as his account was made: \(undone.text)")
            let annsPage = try await client.get("/lists/\(list)", headers: SignInTests.session(ann.session)).text
            #expect(annsPage.contains("Could not undo the rename of “Milk”: Bob renamed it since."), "\(annsPage)")
            let bobsPage = try await client.get("/lists/\(list)", headers: SignInTests.session(bob.session)).text
            #expect(bobsPage.contains("Could not undo the rename of “Milk”: you renamed it since."))
            // The API's answers name him so too, and the undo says nothing left to the one who asked.
            let history = try await client.get("/api/lists/\(list)/history", headers: SignInTests.session(ann.session)).text
            #expect(history.contains("Bob renamed it since."), "\(history)")
            #expect(!history.contains("bob renamed"))
            let none = try await Self.call(client, bob, .post, "/api/lists/\(list)/redo", json: "{}")
            #expect(none.status == .conflict)
            #expect(none.errorMessage == "You have no undone change of your own to redo on this list.")
            // The tab's title is in every refresh of the page, from the heading.
            let fragment = try await client.get("/lists/\(list)/fragment", headers: SignInTests.session(bob.session)).text
            #expect(fragment.contains(#"data-page-title="Groceries · Rewind""#))
        }
    }

    @Test func theShortIDOfTheCommandLineOpensTheListsPage() async throws {
        let server = try await SignInTests.server(["ann", "bob"])
        try await server.test { client in
            let ann = try await Self.signIn("ann", client, server: server)
            let bob = try await Self.signIn("bob", client, server: server)
            let list = try await Self.makeList("Groceries", client, as: ann)
            let short = String(list.lowercased().prefix(8))
            let opened = try await client.get("/lists/\(short)?filter=active", headers: SignInTests.session(ann.session))
            #expect(opened.status == .seeOther)
            #expect(opened.headers[.location]?.lowercased() == "/lists/\(list.lowercased())?filter=active")
            // Another account's list is no list of theirs.
            let stranger = try await client.get("/lists/\(short)", headers: SignInTests.session(bob.session))
            #expect(stranger.status == .notFound)
            #expect(stranger.text.contains("No list's id starts with “\(short)”."))
            // Not hex digits: not an id, as before.
            #expect(try await client.get("/lists/milk", headers: SignInTests.session(ann.session)).status == .badRequest)
        }
    }

    @Test func nullStepsAndPagesOutOfRangeAreRefusedWith400AndChangeNothing() async throws {
        let server = try await SignInTests.server(["ann"])
        try await server.test { client in
            let ann = try await Self.signIn("ann", client, server: server)
            let list = try await Self.makeList("Groceries", client, as: ann)
            let milk = try await Self.add("Milk", to: list, client, as: ann)
            for (method, path, json) in [
                (HTTPRequest.Method.post, "/api/lists/\(list)/undo", #"{"step": null}"#),
                (.post, "/api/lists/\(list)/redo", #"{"step": null}"#),
            ] {
                let response = try await Self.call(client, ann, method, path, json: json)
                #expect(response.status == .badRequest, "\(method) \(path) \(json)")
                #expect(response.errorMessage?.contains("null is not allowed") == true)
            }
            for query in ["limit=0", "limit=501", "before=0"] {
                let response = try await client.get("/api/lists/\(list)/history?\(query)", headers: SignInTests.session(ann.session))
                #expect(response.status == .badRequest, "\(query)")
            }
            // An edit's `null` leaves a title or a completion as it is (as for an item of the list).
            let same = try await Self.call(client, ann, .patch, "/api/lists/\(list)/todos/\(milk)", json: #"{"completed": null, "title": null}"#)
            #expect(same.status == .conflict)
            let state = try await Self.state(list, client, as: ann)
            #expect(Self.titles(state) == ["Milk"])
            #expect(state["seq"] as? Int == 1)
        }
    }

    @Test func aMemberEditsEveryFieldOfAnItemAsOneStepAndNullClearsADueDate() async throws {
        try await Self.withGroceriesOfAnnAndBob { server, client, ann, bob, list in
            let milk = try await Self.add("Milk", to: list, client, as: ann)
            let edit = #"{"details": "oat, 2 l", "dueText": "2027-03-01 14:30", "timeZone": "UTC", "location": {"kind": "address", "street": "1 Main St", "city": "Springfield"}}"#
            let edited = try await Self.call(client, bob, .patch, "/api/lists/\(list)/todos/\(milk)", json: edit)
            #expect(edited.status == .ok)
            let item = try #require(edited.object["item"] as? [String: Any])
            #expect(item["details"] as? String == "oat, 2 l")
            #expect((item["due"] as? [String: Any])?["date"] as? String == "2027-03-01T14:30:00.000Z")
            #expect((item["location"] as? [String: Any])?["city"] as? String == "Springfield")
            #expect((edited.object["step"] as? [String: Any])?["name"] as? String == "Edit “Milk”")
            // The list's page shows where, as the to-do page does.
            let page = try await client.get("/lists/\(list)", headers: SignInTests.session(ann.session)).text
            #expect(page.contains(#"<span class="place" title="1 Main St, Springfield"><span class="visually-hidden">Where: </span><bdi>1 Main St, Springfield</bdi></span>"#))
            let same = try await Self.call(client, bob, .patch, "/api/lists/\(list)/todos/\(milk)", json: edit)
            #expect(same.status == .conflict)
            let cleared = try await Self.call(client, bob, .patch, "/api/lists/\(list)/todos/\(milk)", json: #"{"due": null}"#)
            #expect((cleared.object["item"] as? [String: Any]).map { ($0["due"] as? [String: Any])?["kind"] as? String } == "unknown")
            // `null` leaves the title as it is: nothing to change.
            let nullTitle = try await Self.call(client, bob, .patch, "/api/lists/\(list)/todos/\(milk)", json: #"{"title": null}"#)
            #expect(nullTitle.status == .conflict)
            let badDue = try await Self.call(client, bob, .patch, "/api/lists/\(list)/todos/\(milk)", json: #"{"dueText": "someday"}"#)
            #expect(badDue.status == .unprocessableContent)
            #expect(badDue.errorMessage?.contains("dueText") == true, "\(badDue.errorMessage ?? "")")
            // Bob's Undo takes back his own edits, newest first.
            #expect(try await Self.call(client, bob, .post, "/api/lists/\(list)/undo", json: "{}").status == .ok)
            #expect(try await Self.call(client, bob, .post, "/api/lists/\(list)/undo", json: "{}").status == .ok)
            let items = try #require(try await Self.state(list, client, as: ann)["items"] as? [[String: Any]])
            #expect(items.first?["details"] as? String == "")
        }
    }

    @Test func aRenameBegunBeforeAnotherMembersRenameIsRefusedAndTheirsStays() async throws {
        try await Self.withGroceriesOfAnnAndBob { server, client, ann, bob, list in
            let milk = try await Self.add("Milk", to: list, client, as: ann)
            let path = "/api/lists/\(list)/todos/\(milk)"
            #expect(try await Self.call(client, bob, .patch, path, json: #"{"title": "Oat milk", "was": {"title": "Milk"}}"#).status == .ok)
            let stale = try await Self.call(client, ann, .patch, path, json: #"{"title": "Soy milk", "was": {"title": "Milk"}}"#)
            #expect(stale.status == .conflict)
            #expect(stale.errorMessage?.contains("“Oat milk”") == true, "\(stale.errorMessage ?? "")")
            var items = try #require(try await Self.state(list, client, as: ann)["items"] as? [[String: Any]])
            #expect(items.first?["title"] as? String == "Oat milk")
            // Begun from Bob's title, Ann's second try is saved.
            #expect(try await Self.call(client, ann, .patch, path, json: #"{"title": "Soy milk", "was": {"title": "Oat milk"}}"#).status == .ok)
            items = try #require(try await Self.state(list, client, as: ann)["items"] as? [[String: Any]])
            #expect(items.first?["title"] as? String == "Soy milk")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func oneSessionOpensAtMost32EventStreamsAndLeavesTheRestToOthers() async throws {
        try await SharedListAPITests.withGroceriesOfAnnAndBob { server, client, ann, bob, list in
            let limit = SessionStreams.limit
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<limit {
                    group.addTask { try await client.get("/events?max=1", headers: SignInTests.session(ann.session)).status }
                }
                try await waitUntil("\(limit) open event streams") { await server.webApp.broadcaster.subscriberCount == limit }
                for path in ["/events", "/lists/events", "/lists/\(list)/events"] {
                    let refused = try await client.get(path, headers: SignInTests.session(ann.session))
                    #expect(refused.status == .tooManyRequests, "\(path)")
                    #expect(refused.errorMessage?.contains("this session has \(limit) event streams open already") == true, "\(path)")
                }
                // Bob's pages still follow the list.
                async let bobs = client.get("/events?max=1", headers: SignInTests.session(bob.session))
                try await waitUntil("Bob's stream open") { await server.webApp.broadcaster.subscriberCount == limit + 1 }
                try await SharedListAPITests.call(client, ann, .post, "/api/todos", json: #"{"title": "One"}"#)
                #expect(try await bobs.status == .ok)
                for try await status in group { #expect(status == .ok) }
            }
            // Ended, they give their places back; so do streams whose body never ran (a HEAD).
            for path in ["/events", "/lists/events", "/lists/\(list)/events"] {
                for _ in 0..<(limit + 1) {
                    let head = try await client.executeRequest(
                        uri: path, method: .head, headers: SignInTests.session(ann.session), body: nil)
                    #expect(head.status == .ok, "HEAD \(path)")
                }
            }
            try await waitUntil("the streams closed") { await server.webApp.broadcaster.subscriberCount == 0 }
            async let again = client.get("/events?max=1", headers: SignInTests.session(ann.session))
            try await waitUntil("Ann's stream open again") { await server.webApp.broadcaster.subscriberCount == 1 }
            try await SharedListAPITests.call(client, bob, .post, "/api/todos", json: #"{"title": "Two"}"#)
            #expect(try await again.status == .ok)
        }
    }

    @Test func aSharedListsItemHasADetailPageThatChangesItThroughTheListsAPI() async throws {
        let server = try await SignInTests.server(["ann", "bob", "carl"])
        try await server.test { client in
            let ann = try await Self.signIn("ann", client, server: server)
            let bob = try await Self.signIn("bob", client, server: server)
            let carl = try await Self.signIn("carl", client, server: server)
            let list = try await Self.makeList("Groceries", client, as: ann, sharedWith: [bob])
            let milk = try await Self.add("Milk", to: list, client, as: ann)
            let row = try await client.get("/lists/\(list)/fragment", headers: SignInTests.session(bob.session)).text
            #expect(row.contains(#"<a class="item-details" href="/lists/\#(list)/items/\#(milk)" aria-label="Details of Milk">Details</a>"#))

            let page = try await client.get("/lists/\(list)/items/\(milk)", headers: SignInTests.session(bob.session))
            #expect(page.status == .ok)
            #expect(page.text.contains(#"<body data-page="shared-item">"#))
            #expect(page.text.contains(#"data-list="\#(list)" data-api="/api/lists/\#(list)/todos/\#(milk)""#))
            #expect(page.text.contains(#"<a class="back-link" href="/lists/\#(list)">← Groceries</a>"#))
            #expect(page.text.contains(#"<input name="title" value="Milk""#))
            #expect(page.text.contains(#"data-path="/api/lists/\#(list)/todos/\#(milk)""#), "the Delete card's request")
            #expect(!page.text.contains("history-panel"), "the list's page has the account's history")
            #expect(page.text.contains(#"id="list-undo" title="Nothing of yours to undo""#), "bob's own Undo")
            _ = try await Self.call(client, bob, .patch, "/api/lists/\(list)/todos/\(milk)", json: #"{"details": "oat"}"#)
            let after = try await client.get("/lists/\(list)/items/\(milk)/fragment", headers: SignInTests.session(bob.session))
            #expect(after.text.contains(#"id="list-undo" title="Undo your step: Edit details of “Milk”""#))
            let fragment = try await client.get("/lists/\(list)/items/\(milk)/fragment", headers: SignInTests.session(bob.session))
            #expect(fragment.text.contains(#"<form class="detail-form" id="detail-form""#))

            // Not a member, or no such item: 404, as for the list itself.
            let stranger = try await client.get("/lists/\(list)/items/\(milk)", headers: SignInTests.session(carl.session))
            #expect(stranger.status == .notFound)
            let missing = try await client.get(
                "/lists/\(list)/items/00000000-0000-0000-0000-000000000099", headers: SignInTests.session(bob.session)
            )
            #expect(missing.status == .notFound)
            // The start of the item's id, as `rewind todo --list … list` prints it: to its page.
            let short = String(milk.replacingOccurrences(of: "-", with: "").prefix(8)).lowercased()
            let byReference = try await client.get("/lists/\(list)/items/\(short)", headers: SignInTests.session(bob.session))
            #expect(byReference.status == .seeOther)
            #expect(byReference.headers[.location]?.lowercased() == "/lists/\(list)/items/\(milk)".lowercased())
            let strangerByReference = try await client.get("/lists/\(list)/items/\(short)", headers: SignInTests.session(carl.session))
            #expect(strangerByReference.status == .notFound, "a stranger learns nothing of the list's ids")
        }
    }

    @Test func controlCharactersInANameOrATitleAre422sThatNameThemAndChangeNothing() async throws {
        let server = try await SignInTests.server(["ann"])
        try await server.test { client in
            let ann = try await Self.signIn("ann", client, server: server)
            let list = try await Self.makeList("Groceries", client, as: ann)
            let milk = try await Self.add("Milk", to: list, client, as: ann)
            for (method, path, json) in [
                (HTTPRequest.Method.post, "/api/lists", #"{"name": "Work\u0000"}"#),
                (.patch, "/api/lists/\(list)", #"{"name": "Week\u0007end"}"#),
                (.post, "/api/lists/\(list)/todos", #"{"title": "Bread\u0000"}"#),
                (.patch, "/api/lists/\(list)/todos/\(milk)", #"{"title": "Oat\u001bmilk"}"#),
                (.patch, "/api/lists/\(list)/todos/\(milk)", #"{"details": "whole\u0007"}"#),
            ] {
                let response = try await Self.call(client, ann, method, path, json: json)
                #expect(response.status == .unprocessableContent, "\(method) \(path) \(json)")
                #expect(response.errorMessage?.contains("control character U+00") == true, "\(response.errorMessage ?? "")")
            }
            let lists = try await client.get("/api/lists", headers: SignInTests.session(ann.session))
            #expect((lists.object["lists"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Groceries"])
            let state = try await Self.state(list, client, as: ann)
            #expect(Self.titles(state) == ["Milk"])
            #expect(state["seq"] as? Int == 1)
        }
    }

    @Test func withoutTeamModeEverySharedListPathAnswers404SayingHowToTurnItOn() async throws {
        let server = try TestServer()
        try await server.test { client in
            for path in ["/api/lists", "/lists", "/lists/fragment"] {
                let response = try await client.get(path)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.errorMessage?.contains("--accounts") == true, "\(path)")
            }
            let made = try await client.send(.post, "/api/lists", json: #"{"name": "x"}"#, token: server.token)
            #expect(made.status == .notFound)
            // The navigation has no Lists link in local mode.
            #expect(!(try await client.get("/todos").text.contains(#"href="/lists""#)))
        }
    }
}

/// `GET /lists/{list}/events`: a member hears every step, a resumed stream
/// catches up, and the stream ends when the member can no longer read it.
@Suite("Team mode: a shared list's event stream")
struct SharedListEventTests {
    typealias API = SharedListAPITests

    @Test func anotherMembersChangeReachesTheOpenStreamWithTheStepAsItsID() async throws {
        let server = try await SignInTests.server(["ann", "bob"])
        try await server.test { client in
            let ann = try await API.signIn("ann", client, server: server)
            let bob = try await API.signIn("bob", client, server: server)
            let list = try await API.makeList("Groceries", client, as: ann, sharedWith: [bob])
            async let events = client.get("/lists/\(list)/events?max=1", headers: SignInTests.session(ann.session))
            try await waitUntil("ann's stream is open") { server.webApp.listStreams.current == 1 }
            _ = try await API.add("Milk", to: list, client, as: bob)
            let response = try await events
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/event-stream; charset=utf-8")
            #expect(response.text.hasPrefix("retry: 1000\n"))
            #expect(response.text.contains("event: list\nid: 1."))
            #expect(response.text.contains("\ndata: {\"seq\":1}\n\n"))
            try await waitUntil("the stream is closed") { server.webApp.listStreams.current == 0 }
        }
    }

    @Test func aStreamResumedFromAnOlderStepStartsWithTheCurrentOneAndFromTheCurrentWithNothing() async throws {
        let server = try await SignInTests.server(["ann"])
        try await server.test { client in
            let ann = try await API.signIn("ann", client, server: server)
            let list = try await API.makeList("Groceries", client, as: ann)
            _ = try await API.add("Milk", to: list, client, as: ann)
            _ = try await API.add("Eggs", to: list, client, as: ann)
            var headers = SignInTests.session(ann.session)
            headers[.lastEventID] = "1"
            let resumed = try await client.get("/lists/\(list)/events?max=1", headers: headers)
            #expect(resumed.text.contains("event: list\nid: 2."))
            let two = try #require(Self.eventIDs(resumed.text).last)

            headers[.lastEventID] = two
            let fromTwo = headers
            async let current = client.get("/lists/\(list)/events?max=1", headers: fromTwo)
            try await waitUntil("the stream is open") { server.webApp.listStreams.current == 1 }
            _ = try await API.add("Jam", to: list, client, as: ann)
            let text = try await current.text
            #expect(!text.contains("id: \(two)\n"))
            #expect(text.contains("event: list\nid: 3."))
            let three = try #require(Self.eventIDs(text).last)

            // Away during a rename and a share, which make no step: told of them on the way back.
            #expect(try await API.call(client, ann, .patch, "/api/lists/\(list)", json: #"{"name": "Shop"}"#).status == .ok)
            headers[.lastEventID] = three
            let renamed = try await client.get("/lists/\(list)/events?max=1", headers: headers)
            let afterRename = try #require(Self.eventIDs(renamed.text).first)
            #expect(afterRename.hasPrefix("3.") && afterRename != three, "\(renamed.text)")
            // The page drawn now names that id, so its first stream waits for the next change.
            let page = try await client.get("/lists/\(list)", headers: SignInTests.session(ann.session))
            #expect(EventStreamTests.eventsSince(page.text) == afterRename)
        }
    }

    /// The `id:` lines of an event stream's text, in order.
    static func eventIDs(_ text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
    }

    @Test func aMemberLeavesAListFromTheListsPageButRemovesNoOneElse() async throws {
        let server = try await SignInTests.server(["ann", "bob", "cem"])
        try await server.test { client in
            let ann = try await API.signIn("ann", client, server: server)
            let bob = try await API.signIn("bob", client, server: server)
            let cem = try await API.signIn("cem", client, server: server)
            let list = try await API.makeList("Groceries", client, as: ann, sharedWith: [bob, cem])
            let page = try await client.get("/lists", headers: SignInTests.session(bob.session)).text
            #expect(page.contains(#"data-opens-modal="confirm-leave-\#(list.uppercased())" aria-label="Leave “Groceries”…">Leave…</button>"#))
            #expect(page.contains("/api/lists/\(list.uppercased())/members/bob"))
            let other = try await API.call(client, bob, .delete, "/api/lists/\(list)/members/cem")
            #expect(other.status == .forbidden)
            #expect(try await API.call(client, bob, .delete, "/api/lists/\(list)/members/bob").status == .ok)
            #expect(try await API.call(client, bob, .get, "/api/lists/\(list)").status == .notFound)
            #expect(try await API.call(client, cem, .get, "/api/lists/\(list)").status == .ok)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aListsPageNamesItsStateAndItsFirstStreamStartsWithTheCurrentOneWhenItMovedSince() async throws {
        let server = try await SignInTests.server(["ann"])
        try await server.test { client in
            let ann = try await API.signIn("ann", client, server: server)
            let list = try await API.makeList("Groceries", client, as: ann)
            let page = try await client.get("/lists/\(list)", headers: SignInTests.session(ann.session))
            let since = try #require(EventStreamTests.eventsSince(page.text))
            #expect(since.hasPrefix("0."))
            let lists = try await client.get("/lists", headers: SignInTests.session(ann.session))
            let drawn = try #require(EventStreamTests.eventsSince(lists.text))
            #expect(drawn == (try await ListsPageEventTests.currentID(client, as: ann)))
            // A change between the pages' reads and their streams' starts.
            _ = try await API.add("Milk", to: list, client, as: ann)
            let current = try await ListsPageEventTests.currentID(client, as: ann)
            let listStream = try await client.get("/lists/\(list)/events?max=1&since=\(since)", headers: SignInTests.session(ann.session))
            #expect(listStream.text.contains("event: list\nid: 1."))
            let listsStream = try await client.get("/lists/events?max=1&since=\(drawn)", headers: SignInTests.session(ann.session))
            #expect(ListsPageEventTests.ids(listsStream.text) == [current])
        }
    }

    @Test func theStreamEndsWhenTheSessionEndsOrTheMemberIsNoLongerOne() async throws {
        let server = try await SignInTests.server(
            ["ann", "bob"], configuration: WebAppConfiguration(heartbeatInterval: 0.05))
        try await server.test { client in
            let ann = try await API.signIn("ann", client, server: server)
            let bob = try await API.signIn("bob", client, server: server)
            let list = try await API.makeList("Groceries", client, as: ann, sharedWith: [bob])

            // Bob is no longer a member: his stream ends.
            async let bobs = client.get("/lists/\(list)/events", headers: SignInTests.session(bob.session))
            try await waitUntil("bob's stream is open") { server.webApp.listStreams.current == 1 }
            try await API.call(client, ann, .delete, "/api/lists/\(list)/members/bob")
            #expect(try await bobs.status == .ok)

            // Ann signs out: her open stream ends at the next heartbeat.
            async let anns = client.get("/lists/\(list)/events", headers: SignInTests.session(ann.session))
            try await waitUntil("ann's stream is open") { server.webApp.listStreams.current == 1 }
            var signOut = SignInTests.session(ann.session)
            signOut[.contentType] = "application/x-www-form-urlencoded"
            signOut[.origin] = "http://localhost"
            let out = try await client.executeRequest(
                uri: "/signout", method: .post, headers: signOut, body: ByteBuffer(string: "csrf=\(ann.token)"))
            #expect(out.status == .seeOther)
            let ended = try await anns
            #expect(ended.status == .ok)
            #expect(!ended.text.contains("event: list"))
            try await waitUntil("no stream is open") { server.webApp.listStreams.current == 0 }
        }
    }
}

/// A store that cannot be reached (PostgreSQL restarting) is a 503 with a
/// JSON error, for the session check as for the shared lists; never a 500.
@Suite("Team mode: a store that cannot be reached")
struct UnreachableStoreTests {
    /// Sessions that cannot be read, as while the database restarts.
    actor FailingSessions: SessionStore {
        let accounts = InMemoryAccountStore()
        var failing = false

        func fail() { failing = true }
        func heal() { failing = false }

        private func check() throws {
            if failing { throw StoreError.io(path: "postgres://test", detail: "the connection was closed") }
        }

        func add(name: AccountName, passwordHash: String) async throws -> Account {
            try await accounts.add(name: name, passwordHash: passwordHash)
        }
        func list() async throws -> [Account] { try check(); return try await accounts.list() }
        func remove(name: AccountName) async throws -> Account { try await accounts.remove(name: name) }
        func passwordHash(for name: AccountName) async throws -> String? { try check(); return try await accounts.passwordHash(for: name) }
        func setPasswordHash(name: AccountName, _ hash: String) async throws { try await accounts.setPasswordHash(name: name, hash) }
        func beginSession(_ id: SessionID, for account: AccountName, at now: Date, lifetime: TimeInterval) async throws -> Session {
            try await accounts.beginSession(id, for: account, at: now, lifetime: lifetime)
        }
        func session(_ id: SessionID, at now: Date) async throws -> Session? { try check(); return try await accounts.session(id, at: now) }
        func endSession(_ id: SessionID) async throws { try await accounts.endSession(id) }
        func endSessions(of account: AccountName) async throws -> Int { try await accounts.endSessions(of: account) }
    }

    /// Runs `body` with ann signed in on a server whose sessions have since
    /// become unreadable, once it asks again for the session it trusted.
    private func withSessionsFailing(
        _ body: @escaping @Sendable (any TestClientProtocol, TestServer, SharedListAPITests.Person) async throws -> Void
    ) async throws {
        let sessions = FailingSessions()
        let clock = TestClock()
        let server = try await SignInTests.server(["ann"], sessions: sessions, clock: clock)
        try await server.test { client in
            let ann = try await SharedListAPITests.signIn("ann", client, server: server)
            await sessions.fail()
            clock.advance(by: TeamMode.standardSessionRecheck)
            try await body(client, server, ann)
        }
    }

    @Test func aSignInWhileTheAccountsCannotBeReadIsA503AndCountsAsNoFailedGuess() async throws {
        let sessions = FailingSessions()
        let server = try await SignInTests.server(["ann"], sessions: sessions, throttle: SignInThrottle(freeFailures: 2, firstWait: 60))
        try await server.test { client in
            await sessions.fail()
            for _ in 0..<4 {
                let unreadable = try await SignInTests.signIn(client, server: server, name: "ann")
                #expect(unreadable.status == .serviceUnavailable)
            }
            await sessions.heal()
            let signedIn = try await SignInTests.signIn(client, server: server, name: "ann")
            #expect(signedIn.status == .seeOther, "not 429: none of the four was a failed guess")
        }
    }


    @Test func aSessionThatCannotBeCheckedIsA503WithAJSONError() async throws {
        try await withSessionsFailing { client, _, ann in
            let response = try await client.get("/api/lists", headers: SignInTests.session(ann.session))
            #expect(response.status == .serviceUnavailable)
            #expect(response.errorMessage == "the data cannot be read or saved right now; try again in a moment")
            #expect(!response.text.contains("postgres://"))
        }
    }

    /// A page, or the sign-in form, while the sessions cannot be read: a
    /// page that says so, not the API's JSON.
    @Test func aPageOrTheSignInFormWhileTheSessionsCannotBeReadIsAPage() async throws {
        try await withSessionsFailing { client, server, ann in
            var headers = HTTPTests.NotFoundPages.navigation
            for field in SignInTests.session(ann.session) { headers.append(field) }
            let page = try await client.get("/lists", headers: headers)
            #expect(page.status == .serviceUnavailable)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains("The data cannot be read or saved right now; try again in a moment."))
            #expect(!page.text.contains("postgres://"))

            var form = HTTPTests.NotFoundPages.navigation
            form[.contentType] = "application/x-www-form-urlencoded"
            form[.origin] = "http://localhost"
            let fields = "csrf=\(server.token)&name=ann&password=\(SignInTests.password)&next=%2Ftodos"
            let signIn = try await client.executeRequest(
                uri: "/signin", method: .post, headers: form, body: ByteBuffer(string: fields))
            #expect(signIn.status == .serviceUnavailable)
            #expect(signIn.headers[.contentType] == "text/html; charset=utf-8", "\(signIn.text)")
        }
    }
}

/// `GET /lists/events`: the lists page hears what changes what it shows
/// (counts, names, members, lists made or shared), and nothing else.
@Suite("Team mode: the lists page's event stream")
struct ListsPageEventTests {
    typealias API = SharedListAPITests

    /// The ids of the `event: lists` lines in `text`, in order.
    static func ids(_ text: String) -> [String] {
        text.components(separatedBy: "event: lists\nid: ").dropFirst().map { String($0.prefix { $0 != "\n" }) }
    }

    /// The id of what `person`'s lists page shows now: a stream resumed
    /// from an id that no page ever had starts with it.
    static func currentID(_ client: some TestClientProtocol, as person: API.Person) async throws -> String {
        var headers = SignInTests.session(person.session)
        headers[.lastEventID] = "none"
        return try #require(ids(try await client.get("/lists/events?max=1", headers: headers).text).first)
    }

    @Test(.timeLimit(.minutes(1)))
    func eachStepReachesTheStreamAndOnlyThoseThatChangeTheCountsWithANewID() async throws {
        let server = try await SignInTests.server(["ann", "bob"])
        try await server.test { client in
            let ann = try await API.signIn("ann", client, server: server)
            let bob = try await API.signIn("bob", client, server: server)
            let list = try await API.makeList("Groceries", client, as: ann, sharedWith: [bob])
            let milk = try await API.add("Milk", to: list, client, as: bob)
            let before = try await Self.currentID(client, as: ann)
            #expect(try await Self.currentID(client, as: ann) == before)

            var headers = SignInTests.session(ann.session)
            headers[.lastEventID] = before
            async let events = client.get("/lists/events?max=2", headers: headers)
            try await waitUntil("ann's stream is open") { server.webApp.listStreams.current == 1 }
            // Past the burst interval of the stream's first read, each change is read on its own.
            try await Task.sleep(for: .milliseconds(1_200))
            // A new title changes nothing the lists page shows: its event names what the page shows.
            #expect(try await API.call(client, bob, .patch, "/api/lists/\(list)/todos/\(milk)", json: #"{"title": "Oat milk"}"#).status == .ok)
            try await Task.sleep(for: .milliseconds(1_200))
            #expect(try await API.call(client, bob, .patch, "/api/lists/\(list)/todos/\(milk)", json: #"{"completed": true}"#).status == .ok)
            let response = try await events
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/event-stream; charset=utf-8")
            let seen = Self.ids(response.text)
            #expect(seen.count == 2)
            #expect(seen.first == before)
            #expect(seen.last != before)
            #expect(seen.last == (try await Self.currentID(client, as: ann)))
            try await waitUntil("the stream is closed") { server.webApp.listStreams.current == 0 }
        }
    }

    /// One event of `person`'s lists stream opened from `id`, after `action`.
    static func nextEvent(
        _ client: some TestClientProtocol, server: TestServer, as person: API.Person, from id: String?,
        after action: () async throws -> Void
    ) async throws -> [String] {
        var headers = SignInTests.session(person.session)
        if let id { headers[.lastEventID] = id }
        async let events = client.get("/lists/events?max=1", headers: headers)
        try await waitUntil("the stream is open") { server.webApp.listStreams.current == 1 }
        try await action()
        let seen = Self.ids(try await events.text)
        try await waitUntil("the stream is closed") { server.webApp.listStreams.current == 0 }
        return seen
    }

    /// The id of a lists page with no lists.
    static let emptyID = ListsOverviewWatch.id(of: [])

    @Test(.timeLimit(.minutes(1)))
    func aWatchStoppedBeforeItStartedNeverHearsAndOneStoppedAfterIsForgotten() async throws {
        let store = InMemorySharedListStore()
        let ann = try AccountName("ann")
        // A client gone before its stream began.
        let early = try await ListsOverviewWatch(store: store, person: ann)
        await early.stop()
        await early.start()
        #expect(await store.newListStreamCount == 0)
        let watch = try await ListsOverviewWatch(store: store, person: ann)
        await watch.start()
        #expect(await store.newListStreamCount == 1)
        await watch.stop()
        try await waitUntil("the store to forget the watch's stream") { await store.newListStreamCount == 0 }
        var ended = true
        for await _ in watch.ids { ended = false }
        #expect(ended)
    }

    @Test(.timeLimit(.minutes(1)))
    func changesInQuickSuccessionAreReadOnceABurstIntervalHoweverQuickEachReadIs() async throws {
        let store = InMemorySharedListStore()
        let ann = try AccountName("ann")
        let list = try await store.create(name: "Groceries", owner: ann).id
        let watch = try await ListsOverviewWatch(
            store: store, person: ann, recheckInterval: .seconds(600), burstInterval: .seconds(8))
        await watch.start()
        // Quiet for longer than the burst interval after the start's own read.
        // (An interval of 3 s was once overrun by the twenty adds below
        // while the whole suite ran on two cores.)
        try await Task.sleep(for: .seconds(8.2))
        let seen = Locked<[String]>([])
        let reading = Task { for await id in watch.ids { seen.withLock { $0.append(id) } } }
        defer {
            reading.cancel()
            Task { await watch.stop() }
        }
        // Twenty adds within a second, each well after the read of the one before: the first is read at once.
        for n in 0..<20 {
            let item = try TodoItem(id: UUID(), title: "Item \(n)", created: Date())
            _ = try await store.perform([.add(item)], named: "Add", on: list, by: ann)
            if n == 0 { try await waitUntil("the first add to be read") { seen.value.count == 1 } }
            try await Task.sleep(for: .milliseconds(20))
        }
        // The others wait for the end of the burst interval, read together.
        #expect(seen.value.count == 1)
        // What it read is the list after the first add.
        let summary = try #require(await store.lists(of: ann).first)
        #expect(seen.value == [ListsOverviewWatch.id(of: [(list: summary, counts: SharedListCounts(items: 1, completed: 0))])])
    }

    @Test(.timeLimit(.minutes(1)))
    func aListSharedWithTheAccountOrMadeInAnotherTabOnThisInstanceReachesTheStreamAtOnce() async throws {
        // Rechecks too rare to be what brings the events.
        let server = try await SignInTests.server(
            ["ann", "bob"], configuration: WebAppConfiguration(listsRecheckInterval: 600))
        try await server.test { client in
            let ann = try await API.signIn("ann", client, server: server)
            let bob = try await API.signIn("bob", client, server: server)
            // From the page bob has (no lists), as the page says with `since`:
            // the stream counts as open before it reads the lists, and a share
            // made in between is then its first event, not missed.
            let shared = try await Self.nextEvent(client, server: server, as: bob, from: Self.emptyID) {
                _ = try await API.makeList("Groceries", client, as: ann, sharedWith: [bob])
            }
            #expect(shared.count == 1)
            #expect(shared.first != Self.emptyID)
            let made = try await Self.nextEvent(client, server: server, as: bob, from: shared.first) {
                _ = try await API.makeList("Mine", client, as: bob)
            }
            #expect(made.count == 1)
            #expect(made.first != shared.first)
            #expect(made.first == (try await Self.currentID(client, as: bob)))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aListSharedThroughTheStoreAsAnotherInstanceWouldReachesTheStreamAtOnce() async throws {
        // Rechecks too rare to be what brings the events: the store's news of the list do.
        let server = try await SignInTests.server(
            ["ann", "bob"], configuration: WebAppConfiguration(listsRecheckInterval: 600))
        let store = try #require(server.webApp.lists?.store)
        try await server.test { client in
            let ann = try await API.signIn("ann", client, server: server)
            let bob = try await API.signIn("bob", client, server: server)
            let list = try await API.makeList("Groceries", client, as: ann)
            // Shared through the store, not the service, as another instance would.
            // From the page bob has (no lists): see the test above.
            let shared = try await Self.nextEvent(client, server: server, as: bob, from: Self.emptyID) {
                _ = try await store.share(try #require(UUID(uuidString: list)), with: AccountName("bob"), madeAt: .distantPast, by: AccountName("ann"))
            }
            #expect(shared.count == 1)
            #expect(shared.first != Self.emptyID)
            // No longer shared: the page is empty again.
            let unshared = try await Self.nextEvent(client, server: server, as: bob, from: shared.first) {
                try await API.call(client, ann, .delete, "/api/lists/\(list)/members/bob")
            }
            #expect(unshared == [Self.emptyID])
        }
    }

    /// `watch` started, and the ids it yields collected in `seen` by `reading`.
    static func started(_ watch: ListsOverviewWatch) async -> (seen: Locked<[String]>, reading: Task<Void, Never>) {
        await watch.start()
        let seen = Locked<[String]>([])
        return (seen, Task { for await id in watch.ids { seen.withLock { $0.append(id) } } })
    }

    /// Stops `watch` and what collects its ids.
    static func stop(_ watch: ListsOverviewWatch, _ reading: Task<Void, Never>) {
        reading.cancel()
        Task { await watch.stop() }
    }

    @Test(.timeLimit(.minutes(1)))
    func aListSharedUnheardIsFoundAtTheNextRecheck() async throws {
        let inner = InMemorySharedListStore()
        let store = Unheard(inner: inner)
        let (ann, bob) = (try AccountName("ann"), try AccountName("bob"))
        let list = try await inner.create(name: "Groceries", owner: ann).id
        let watch = try await ListsOverviewWatch(
            store: store, person: bob, recheckInterval: .milliseconds(100), burstInterval: .milliseconds(10))
        let (seen, reading) = await Self.started(watch)
        defer { Self.stop(watch, reading) }
        #expect(await watch.id == Self.emptyID)
        // As an instance of an earlier version shares it: no news of it.
        try await inner.share(list, with: bob, madeAt: .distantPast, by: ann)
        try await waitUntil("the recheck to find the list") { !seen.value.isEmpty }
        #expect(seen.value == [ListsOverviewWatch.id(of: try await inner.overview(of: bob))])
    }

    /// The lists page's watch reads the overview, then hears the lists it
    /// found: a list shared with the account and changed in between (here
    /// renamed, or unshared again, right before the watch asks to hear it)
    /// is read once more, not left as it was until the next recheck.
    @Test(.timeLimit(.minutes(1)), arguments: ["rename", "unshare"])
    func aListChangedBetweenTheReadAndTheHearingIsReadAgain(change: String) async throws {
        let inner = InMemorySharedListStore()
        let store = Unheard(inner: inner, tellsOfNewLists: true)
        let (ann, bob) = (try AccountName("ann"), try AccountName("bob"))
        let list = try await inner.create(name: "Groceries", owner: ann).id
        let watch = try await ListsOverviewWatch(
            store: store, person: bob, recheckInterval: .seconds(600), burstInterval: .milliseconds(10))
        let (seen, reading) = await Self.started(watch)
        defer { Self.stop(watch, reading) }
        // The read that starting begins has ended: the share's is the only one.
        try await Task.sleep(for: .milliseconds(300))
        store.beforeUpdates.withLock { hook in
            hook = {
                if change == "rename" {
                    _ = try await inner.rename(list, to: "Weekend groceries", by: ann)
                } else {
                    _ = try await inner.unshare(list, with: bob, by: ann)
                }
            }
        }
        try await inner.share(list, with: bob, madeAt: .distantPast, by: ann)
        try await waitUntil("the watch to ask to hear the list") { store.beforeUpdates.withLock { $0 == nil } }
        let expected = ListsOverviewWatch.id(of: try await inner.overview(of: bob))
        try await waitUntil("the page to show the list as it is now") { seen.value.last == expected }
        if change == "unshare" { #expect(expected == Self.emptyID) }
    }

    /// A share and an unshare heard within one burst interval end where the
    /// watch last read, but the page may have read the share in between
    /// (its own refresh after its own change): an event still comes, with
    /// the id of what is there now, and the page compares it with its own.
    @Test(.timeLimit(.minutes(1)))
    func changesHeardThatEndWhereTheLastReadWasStillMakeAnEvent() async throws {
        let store = InMemorySharedListStore()
        let (ann, bob) = (try AccountName("ann"), try AccountName("bob"))
        let list = try await store.create(name: "Garden", owner: ann).id
        let watch = try await ListsOverviewWatch(
            store: store, person: ann, recheckInterval: .seconds(600), burstInterval: .milliseconds(500))
        let (seen, reading) = await Self.started(watch)
        defer { Self.stop(watch, reading) }
        let before = await watch.id
        // Both within the burst interval of the start's reads: read together.
        _ = try await store.share(list, with: bob, madeAt: .distantPast, by: ann)
        _ = try await store.unshare(list, with: bob, by: ann)
        // One event, or on a slow machine one per change heard; the last names the list as it is, as it was.
        try await waitUntil("an event naming the list as it was, after the changes; seen \(seen.value)", timeout: .seconds(5)) {
            seen.value.last == before
        }
        #expect(before == ListsOverviewWatch.id(of: try await store.overview(of: ann)))
    }

    /// A store that never tells of new lists, as an instance of an earlier
    /// version does not (unless `tellsOfNewLists`), and that runs
    /// `beforeUpdates` once, if set, before it lets a list be heard:
    /// everything else is `inner`'s.
    struct Unheard: SharedListStore {
        let inner: InMemorySharedListStore
        var tellsOfNewLists = false
        let beforeUpdates = Locked<(@Sendable () async throws -> Void)?>(nil)

        func create(name: String, owner: AccountName) async throws -> SharedListSummary {
            try await inner.create(name: name, owner: owner)
        }
        func rename(_ list: UUID, to name: String, by person: AccountName) async throws -> SharedListSummary {
            try await inner.rename(list, to: name, by: person)
        }
        func delete(_ list: UUID, by person: AccountName) async throws { try await inner.delete(list, by: person) }
        func share(_ list: UUID, with account: AccountName, madeAt made: Date, by person: AccountName) async throws
            -> SharedListSummary
        {
            try await inner.share(list, with: account, madeAt: made, by: person)
        }
        func unshare(_ list: UUID, with account: AccountName, by person: AccountName) async throws -> SharedListSummary {
            try await inner.unshare(list, with: account, by: person)
        }
        func lists(of person: AccountName) async throws -> [SharedListSummary] { await inner.lists(of: person) }
        func itemCounts(of person: AccountName) async throws -> [UUID: SharedListCounts] { await inner.itemCounts(of: person) }
        func items(of list: UUID, as person: AccountName) async throws -> SharedListItems { try await inner.items(of: list, as: person) }
        func perform(
            on list: UUID, by person: AccountName, answering item: UUID?,
            _ plan: @Sendable (TodoList) throws -> PlannedSharedChange
        ) async throws -> (step: SharedStep, item: TodoItem?) {
            try await inner.perform(on: list, by: person, answering: item, plan)
        }
        func undo(on list: UUID, by person: AccountName, expecting step: Int?) async throws -> SharedStep {
            try await inner.undo(on: list, by: person, expecting: step)
        }
        func redo(on list: UUID, by person: AccountName, expecting step: Int?) async throws -> SharedStep {
            try await inner.redo(on: list, by: person, expecting: step)
        }
        func nextSteps(on list: UUID, of person: AccountName) async throws -> SharedListNextSteps {
            try await inner.nextSteps(on: list, of: person)
        }
        func history(of list: UUID, as person: AccountName, before: Int?, limit: Int) async throws -> [SharedStep.Summary] {
            try await inner.history(of: list, as: person, before: before, limit: limit)
        }
        func updates(of list: UUID, as person: AccountName) async throws -> AsyncStream<SharedListUpdate> {
            let hook = beforeUpdates.withLock { hook in
                defer { hook = nil }
                return hook
            }
            try await hook?()
            return try await inner.updates(of: list, as: person)
        }
        func newLists(for person: AccountName) async -> AsyncStream<Void> {
            tellsOfNewLists ? await inner.newLists(for: person) : AsyncStream { _ in }
        }
    }
}
