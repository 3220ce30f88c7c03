import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Todos

@testable import WebApp

@Suite("To-do API")
struct TodoAPITests {
    private func add(_ title: String, _ client: some TestClientProtocol, _ server: TestServer) async throws -> String {
        let response = try await client.send(.post, "/api/todos", json: #"{"title": \#(jsonString(title))}"#, token: server.token)
        #expect(response.status == .created)
        return try #require(response.object["id"] as? String)
    }

    private func jsonString(_ text: String) -> String {
        String(data: (try? JSONEncoder().encode(text)) ?? Data(), encoding: .utf8) ?? "\"\""
    }

    @Test func anAcceptThatAllowsNoJSONIsRefusedBeforeAnythingIsDone() async throws {
        let server = try TestServer()
        try await server.test { client in
            for accept in ["text/plain", "text/html", "application/json;q=0", "application/xml, text/*"] {
                let response = try await client.send(
                    .post, "/api/todos", json: #"{"title": "Buy milk"}"#, token: server.token, headers: [.accept: accept])
                #expect(response.status == .notAcceptable, "\(accept)")
                #expect(response.errorMessage?.hasPrefix("the API answers in JSON only") == true, "\(accept)")
                #expect(try await client.send(.post, "/api/history/undo", token: server.token, headers: [.accept: accept]).status
                    == .notAcceptable)
            }
            // Nothing was added, so there was nothing to undo either.
            #expect(try await client.get("/api/todos").object["found"] as? Int == 0)
            for accept in ["application/json", "*/*", "text/html, application/*;q=0.5", "APPLICATION/JSON; charset=utf-8"] {
                let response = try await client.send(
                    .post, "/api/todos", json: #"{"title": "Buy milk"}"#, token: server.token, headers: [.accept: accept])
                #expect(response.status == .created, "\(accept)")
            }
        }
    }

    @Suite("GET /api/todos")
    struct List {
        @Test func emptyListHasZeroCountsAndNoHistory() async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.get("/api/todos")
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                let body = response.object
                #expect((body["items"] as? [Any])?.isEmpty == true)
                #expect((body["counts"] as? [String: Int])?["total"] == 0)
                #expect((body["history"] as? [String: Any])?["undoTitle"] as? String == "Undo")
            }
        }

        @Test func filtersAndSmartOrder() async throws {
            let server = try TestServer()
            try await server.test { client in
                let api = TodoAPITests()
                let first = try await api.add("First", client, server)
                _ = try await api.add("Second", client, server)
                try await client.send(.patch, "/api/todos/\(first)", json: #"{"completed": true}"#, token: server.token)
                let active = try await client.get("/api/todos?filter=active").object["items"] as? [[String: Any]]
                #expect(active?.map { $0["title"] as? String } == ["Second"])
                let completed = try await client.get("/api/todos?filter=completed").object["items"] as? [[String: Any]]
                #expect(completed?.map { $0["title"] as? String } == ["First"])
                let smart = try await client.get("/api/todos?sort=smart").object["items"] as? [[String: Any]]
                #expect(smart?.map { $0["title"] as? String } == ["Second", "First"])
            }
        }

        @Test func searchFindsTheItemsThatContainEveryWord() async throws {
            let server = try TestServer()
            try await server.test { client in
                let api = TodoAPITests()
                let milk = try await api.add("Buy milk", client, server)
                _ = try await api.add("Call the Café", client, server)
                try await client.send(.patch, "/api/todos/\(milk)", json: #"{"details": "and cafe beans"}"#, token: server.token)
                func titles(_ query: String) async throws -> [String?]? {
                    let items = try await client.get("/api/todos?" + query).object["items"] as? [[String: Any]]
                    return items?.map { $0["title"] as? String }
                }
                #expect(try await titles("search=cafe") == ["Buy milk", "Call the Café"])
                #expect(try await titles("search=CAFÉ%20beans") == ["Buy milk"])
                #expect(try await titles("search=cafe+call") == ["Call the Café"], "a + is a space")
                #expect(try await titles("search=cafe&filter=completed") == [])
                #expect(try await titles("search=") == ["Buy milk", "Call the Café"])
                let body = try await client.get("/api/todos?search=beans").object
                #expect((body["counts"] as? [String: Int])?["total"] == 2, "the whole list's counts")
                let long = try await client.get("/api/todos?search=" + String(repeating: "a", count: 201))
                #expect(long.status == .badRequest)
                #expect(long.errorMessage == "invalid query parameter “search”: a search is at most 200 characters long, not 201")
                // What the schema allows and the search refuses: 422.
                let words = (1...21).map { "w\($0)" }.joined(separator: "%20")
                let many = try await client.get("/api/todos?search=" + words)
                #expect(many.status == .unprocessableContent)
                #expect(many.errorMessage == "invalid query parameter “search”: a search has at most 20 different words, not 21")
                #expect(try await client.get("/api/todos?search=%1B").status == .unprocessableContent)
            }
        }

        @Test func offsetAndLimitPageTheItemsAndFoundCountsThemAll() async throws {
            let server = try TestServer()
            try await server.test { client in
                let api = TodoAPITests()
                var ids: [String] = []
                for title in ["One", "Two", "Three", "Four", "Five"] { ids.append(try await api.add(title, client, server)) }
                func page(_ query: String) async throws -> (titles: [String?]?, found: Int?) {
                    let body = try await client.get("/api/todos?" + query).object
                    return ((body["items"] as? [[String: Any]])?.map { $0["title"] as? String }, body["found"] as? Int)
                }
                #expect(try await page("") == (["One", "Two", "Three", "Four", "Five"], 5))
                #expect(try await page("limit=2") == (["One", "Two"], 5))
                #expect(try await page("offset=2&limit=2") == (["Three", "Four"], 5))
                #expect(try await page("offset=4&limit=2") == (["Five"], 5))
                #expect(try await page("offset=9") == ([], 5))
                #expect(try await page("offset=1&limit=2&search=o") == (["Two", "Four"], 3), "One, Two, Four")
                try await client.send(.patch, "/api/todos/\(ids[0])", json: #"{"completed": true}"#, token: server.token)
                #expect(try await page("limit=1&sort=smart") == (["Two"], 5), "active items first")
                #expect(try await page("offset=4&sort=smart") == (["One"], 5))
                for (query, name) in [
                    ("limit=0", "limit"), ("limit=1000001", "limit"), ("offset=-1", "offset"),
                    ("offset=99999999999999999999", "offset"), ("limit=1e3", "limit"),
                ] {
                    let refused = try await client.get("/api/todos?" + query)
                    #expect(refused.status == .badRequest, "\(query)")
                    #expect(refused.errorMessage?.contains("“\(name)”") == true, "\(refused.errorMessage ?? "")")
                }
            }
        }

        @Test func unknownFilterIsA400ThatNamesIt() async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.get("/api/todos?filter=someday")
                #expect(response.status == .badRequest)
                #expect(response.errorMessage?.contains("filter") == true)
                let sort = try await client.get("/api/todos?sort=random")
                #expect(sort.status == .badRequest)
                #expect(sort.errorMessage?.contains("sort") == true)
            }
        }
    }

    @Suite("POST /api/todos")
    struct Add {
        @Test func addsATrimmedTitleAtTheEnd() async throws {
            let server = try TestServer()
            try await server.test { client in
                _ = try await TodoAPITests().add("Buy milk", client, server)
                let response = try await client.send(.post, "/api/todos", json: #"{"title": "  Buy bread  "}"#, token: server.token)
                #expect(response.status == .created)
                #expect(response.object["title"] as? String == "Buy bread")
                #expect(try await server.store.state().todos.items.map(\.title) == ["Buy milk", "Buy bread"])
            }
        }

        @Test func addsWithEveryField() async throws {
            let server = try TestServer()
            try await server.test { client in
                let json = #"""
                    {"title": "Meet", "details": "line 1\nline 2",
                     "due": {"kind": "span", "start": "2027-02-01T09:00:00.000Z", "end": "2027-02-01T10:00:00.000Z"},
                     "location": {"kind": "directions", "steps": ["north", "left"]}, "position": 0}
                    """#
                let response = try await client.send(.post, "/api/todos", json: json, token: server.token)
                #expect(response.status == .created)
                let item = try #require(try await server.store.state().todos.items.first)
                #expect(item.details == "line 1\nline 2")
                #expect(item.location == .directions(.init(steps: ["north", "left"])))
                #expect(item.due.deadline == ISO8601DateFormatter().date(from: "2027-02-01T10:00:00Z"))
            }
        }

        @Test func dueTextIsReadByTheDomainsParserInTheGivenTimeZone() async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.send(
                    .post, "/api/todos", json: #"{"title": "Call", "dueText": "2027-03-01 14:30", "timeZone": "UTC"}"#,
                    token: server.token
                )
                #expect(response.status == .created)
                #expect(try await server.store.state().todos.items.first?.due == .date(ISO8601DateFormatter().date(from: "2027-03-01T14:30:00Z")!))
            }
        }

        @Test(arguments: [
            (#"{"title": "x", "dueText": "someday"}"#, "dueText"),
            (#"{"title": "x", "dueText": "tomorrow", "timeZone": "Mars/Olympus"}"#, "timeZone"),
            // Without a dueText to read in it too: a client that names a wrong zone is told (it was taken without a word).
            (#"{"title": "x", "timeZone": "Nowhere/Nope"}"#, "“Nowhere/Nope” is not a time zone"),
            (#"{"title": "   "}"#, "title must not be empty"),
            (#"{"title": "x", "location": {"kind": "coordinate", "latitude": 91, "longitude": 0}}"#, "latitude"),
            // PostgreSQL cannot store U+0000: refused for every store, before any is asked.
            (#"{"title": "Milk\u0000"}"#, "The control character U+0000 is not allowed in the title"),
            (#"{"title": "x", "details": "bell \u0007"}"#, "The control character U+0007 is not allowed in the details"),
            (#"{"title": "x", "location": {"kind": "directions", "steps": ["left", "\u001b[2J"]}}"#, "step 2 of the directions"),
        ])
        func invalidFieldsAre4xxThatNameThem(json: String, named: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.send(.post, "/api/todos", json: json, token: server.token)
                #expect((400...499).contains(response.status.code))
                #expect(response.errorMessage?.contains(named) == true, "\(response.errorMessage ?? "")")
                #expect(try await server.store.state().todos.isEmpty)
            }
        }

        @Test(arguments: [
            (#"{"title": "#, "malformed JSON"),
            // A number its field cannot take, rather than "not valid JSON".
            (#"{"title": "x", "due": {"kind": "duration", "start": "2031-01-01T00:00:00Z", "amount": 1.5, "unit": "day"}}"#,
             "a fraction where a whole number goes"),
            // Past what a Double holds, where any number goes.
            (#"{"title": "x", "location": {"kind": "coordinate", "latitude": 1e400, "longitude": 2}}"#,
             "a number too large for its field"),
            // What was expected, not a bare word.
            ("not json", "at byte 1: expected “null”"),
            (#"{"title": 1.}"#, "expected a digit after the decimal point"),
            (#"{"titel": "x"}"#, "titel"),
            // A member's name is read unescaped.
            (#"{"\u0074itel": "x"}"#, "invalid field “titel”: unknown field"),
            (#"{"details": "x"}"#, "title"),
            (#"{"title": 42}"#, "title"),
            (#"[1, 2]"#, "JSON object"),
            ("", "empty"),
            // A field a due date or a location of that kind does not have
            // (an open end would have been read from `"end"` misspelt).
            (#"{"title": "x", "due": {"kind": "span", "start": "2026-12-01T09:00:00Z", "ned": "2026-12-02T09:00:00Z"}}"#,
             "invalid field “due.ned”: unknown field; the allowed fields are kind, start, end"),
            (#"{"title": "x", "location": {"kind": "coordinate", "latitude": 1, "longitude": 2, "city": "Bonn"}}"#,
             "invalid field “location.city”: unknown field; the allowed fields are kind, latitude, longitude"),
        ])
        func malformedBodiesAre400s(json: String, named: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.send(.post, "/api/todos", json: json, token: server.token)
                #expect(response.status == .badRequest)
                #expect(response.errorMessage?.contains(named) == true, "\(response.errorMessage ?? "")")
            }
        }

        @Test func completingAllRefusesAFieldItDoesNotKnowAndChangesNothing() async throws {
            let server = try TestServer()
            try await server.test { client in
                try await client.send(.post, "/api/todos", json: #"{"title": "Walk"}"#, token: server.token)
                let response = try await client.send(
                    .post, "/api/todos/toggle-all", json: #"{"completed": true, "completd": false}"#, token: server.token)
                #expect(response.status == .badRequest)
                #expect(response.errorMessage == "invalid field “completd”: unknown field; the allowed fields are completed")
                #expect(try await server.store.state().todos.items.map(\.isCompleted) == [false])
            }
        }

        @Test func membersAndNullsAreKnownByTheirUnescapedNames() async throws {
            let server = try TestServer()
            try await server.test { client in
                let added = try await client.send(.post, "/api/todos", json: #"{"\u0074itle": "Walk", "due": null}"#, token: server.token)
                #expect(added.status == .created)
                let id = try #require(added.object["id"] as? String)
                try await client.send(.patch, "/api/todos/\(id)", json: #"{"dueText": "2027-02-01", "timeZone": "UTC"}"#, token: server.token)
                #expect(try await server.store.state().todos.items.first?.due != .unknown)
                try await client.send(.patch, "/api/todos/\(id)", json: #"{"d\u0075e": null}"#, token: server.token)
                #expect(try await server.store.state().todos.items.first?.due == .unknown)
            }
        }

        /// The body check and the decoder could read a name given twice
        /// differently (one the `null`, the other the value), so such a
        /// body is refused before either acts on it.
        @Test(arguments: [
            (#"{"title": null, "title": "x"}"#, "title"),
            (#"{"title": "x", "title": null}"#, "title"),
            (#"{"title": "x", "\u0074itle": "y"}"#, "title"),
            (#"{"title": "x", "due": null, "due": {"kind": "unknown"}}"#, "due"),
        ])
        func aFieldGivenTwiceIsRefused(json: String, field: String) async throws {
            try await expectRefused(json, saying: "the field “\(field)” is given twice")
        }

        /// Posts `json`, and expects 400 with `message` and nothing added.
        private func expectRefused(_ json: String, saying message: String) async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.send(.post, "/api/todos", json: json, token: server.token)
                #expect(response.status == .badRequest)
                #expect(response.errorMessage == message)
                #expect(try await server.store.state().todos.isEmpty)
            }
        }

        /// Inside an object of the body too: the decoder would take the first.
        @Test(arguments: [
            (#"{"title": "x", "due": {"kind": "date", "date": "2030-01-01T00:00:00Z", "date": "2031-05-05T00:00:00Z"}}"#, "date"),
            (#"{"title": "x", "location": {"kind": "address", "city": "A", "cit\u0079": "B"}}"#, "city"),
            (#"{"title": "x", "due": {"kind": "unknown", "kind": "date"}}"#, "kind"),
        ])
        func aFieldGivenTwiceInAnInnerObjectIsRefused(json: String, field: String) async throws {
            try await expectRefused(json, saying: "the field “\(field)” is given twice in one object")
        }

        @Test func anEditThatGivesAFieldTwiceChangesNothing() async throws {
            let server = try TestServer()
            try await server.test { client in
                let added = try await client.send(
                    .post, "/api/todos", json: #"{"title": "Walk", "dueText": "2027-02-01", "timeZone": "UTC"}"#,
                    token: server.token
                )
                let id = try #require(added.object["id"] as? String)
                let before = try await server.store.state()
                let response = try await client.send(
                    .patch, "/api/todos/\(id)", json: #"{"due": null, "title": "Run", "due": {"kind": "unknown"}}"#,
                    token: server.token
                )
                #expect(response.status == .badRequest)
                #expect(response.errorMessage == "the field “due” is given twice")
                #expect(try await server.store.state() == before)
            }
        }

        @Test func aBodyThatIsNotJSONIs415() async throws {
            let server = try TestServer()
            try await server.test { client in
                let response = try await client.send(
                    .post, "/api/todos", json: "title=x", token: server.token,
                    headers: [.contentType: "application/x-www-form-urlencoded"]
                )
                #expect(response.status == .unsupportedMediaType)
                #expect(response.errorMessage?.contains("application/json") == true)
                // A type that only starts like JSON's gets the same sentence.
                for type in ["application/jsonx", "application/json-patch+json"] {
                    let near = try await client.send(
                        .post, "/api/todos", json: #"{"title": "x"}"#, token: server.token, headers: [.contentType: type])
                    #expect(near.status == .unsupportedMediaType)
                    #expect(near.errorMessage == "the request body must be application/json, not \(type)")
                }
                let withCharset = try await client.send(
                    .post, "/api/todos", json: #"{"title": "x"}"#, token: server.token,
                    headers: [.contentType: "application/json ; charset=utf-8"])
                #expect(withCharset.status == .created)
            }
        }

        @Test func aBodyOverTheLimitIs413() async throws {
            let server = try TestServer(configuration: WebAppConfiguration(maxBodySize: 1_000))
            try await server.test { client in
                let json = #"{"title": "\#(String(repeating: "a", count: 2_000))"}"#
                let response = try await client.send(.post, "/api/todos", json: json, token: server.token)
                #expect(response.status == .contentTooLarge)
                #expect(response.errorMessage?.contains("1000 bytes") == true)
                #expect(try await server.store.state().todos.isEmpty)
            }
        }
    }

    @Suite("GET, PATCH, DELETE /api/todos/{id}")
    struct Item {
        @Test func getsOneItem() async throws {
            let server = try TestServer()
            try await server.test { client in
                let id = try await TodoAPITests().add("Buy milk", client, server)
                let response = try await client.get("/api/todos/\(id)")
                #expect(response.status == .ok)
                #expect(response.object["title"] as? String == "Buy milk")
                #expect(response.object["state"] as? String == "active")
            }
        }

        @Test func editsEveryFieldAsOneStep() async throws {
            let server = try TestServer()
            try await server.test { client in
                let id = try await TodoAPITests().add("Buy milk", client, server)
                let json = #"""
                    {"title": "Buy oat milk", "details": "2 litres", "completed": true,
                     "due": {"kind": "duration", "start": "2027-01-20T08:00:00.000Z", "amount": 2, "unit": "hours"},
                     "location": {"kind": "address", "street": "1 Main St", "city": "Springfield", "zipCode": "", "country": ""}}
                    """#
                let response = try await client.send(.patch, "/api/todos/\(id)", json: json, token: server.token)
                #expect(response.status == .ok)
                let item = try #require(try await server.store.state().todos.items.first)
                #expect(item.title == "Buy oat milk")
                #expect(item.details == "2 litres")
                #expect(item.isCompleted)
                #expect(item.due.deadline == ISO8601DateFormatter().date(from: "2027-01-20T10:00:00Z"))
                #expect(item.location == .address(.init(street: "1 Main St", city: "Springfield", zipCode: "", country: "")))
                #expect(await server.store.history().steps.count == 2)
            }
        }

        @Test func nullClearsDueDateAndLocationAndCoordinatesAreAccepted() async throws {
            let server = try TestServer()
            try await server.test { client in
                let id = try await TodoAPITests().add("Walk", client, server)
                try await client.send(
                    .patch, "/api/todos/\(id)",
                    json: #"{"dueText": "2027-02-01", "timeZone": "UTC", "location": {"kind": "coordinate", "latitude": 53.9, "longitude": 9.1}}"#,
                    token: server.token
                )
                #expect(try await server.store.state().todos.items.first?.location == .coordinate(.init(latitude: 53.9, longitude: 9.1)))
                #expect(try await server.store.state().todos.items.first?.due != .unknown)
                try await client.send(.patch, "/api/todos/\(id)", json: #"{"due": null, "location": null}"#, token: server.token)
                #expect(try await server.store.state().todos.items.first?.due == .unknown)
                #expect(try await server.store.state().todos.items.first?.location == .unknown)
            }
        }

        @Test func anUnchangedEditRecordsNoStep() async throws {
            let server = try TestServer()
            try await server.test { client in
                let id = try await TodoAPITests().add("Buy milk", client, server)
                let response = try await client.send(
                    .patch, "/api/todos/\(id)", json: #"{"title": "Buy milk", "details": "", "completed": false, "due": null}"#,
                    token: server.token
                )
                #expect(response.status == .ok)
                #expect(await server.store.history().steps.count == 1)
            }
        }

        @Test func anEditThatBeganFromAnotherTitleOrDetailsIsRefusedAndChangesNothing() async throws {
            let server = try TestServer()
            try await server.test { client in
                let id = try await TodoAPITests().add("Milk", client, server)
                // Someone renames it while another person's edit, begun from "Milk", is open.
                try await client.send(.patch, "/api/todos/\(id)", json: #"{"title": "Oat milk"}"#, token: server.token)
                let stale = try await client.send(
                    .patch, "/api/todos/\(id)", json: #"{"title": "Soy milk", "completed": true, "was": {"title": "Milk"}}"#,
                    token: server.token)
                #expect(stale.status == .conflict)
                #expect(stale.errorMessage?.contains("“Oat milk”") == true, "\(stale.errorMessage ?? "")")
                var item = try #require(try await server.store.state().todos.items.first)
                #expect(item.title == "Oat milk")
                #expect(!item.isCompleted)
                #expect(await server.store.history().steps.count == 2)
                // Begun from the title it has now, or setting only other fields, or the title it already has: saved.
                for json in [
                    #"{"details": "2 litres", "was": {"title": "Milk"}}"#, #"{"title": "Oat milk", "was": {"title": "Milk"}}"#,
                    #"{"title": "Soy milk", "was": {"title": "Oat milk"}}"#,
                ] {
                    #expect(try await client.send(.patch, "/api/todos/\(id)", json: json, token: server.token).status == .ok, "\(json)")
                }
                item = try #require(try await server.store.state().todos.items.first)
                #expect(item.title == "Soy milk")
                #expect(item.details == "2 litres")
                let details = try await client.send(
                    .patch, "/api/todos/\(id)", json: #"{"details": "1 litre", "was": {"details": "2 l"}}"#, token: server.token)
                #expect(details.status == .conflict)
                #expect(try await server.store.state().todos.items.first?.details == "2 litres")
                // A page reads CR LF as LF: the same title for this check.
                try await client.send(.patch, "/api/todos/\(id)", json: #"{"title": "Two\r\nlines"}"#, token: server.token)
                let fromPage = try await client.send(
                    .patch, "/api/todos/\(id)", json: #"{"title": "One line", "was": {"title": "Two\nlines"}}"#, token: server.token)
                #expect(fromPage.status == .ok)
                let unknown = try await client.send(
                    .patch, "/api/todos/\(id)", json: #"{"title": "X", "was": {"due": null}}"#, token: server.token)
                #expect(unknown.status == .badRequest)
                #expect(try await server.store.state().todos.items.first?.title == "One line")
            }
        }

        @Test func ofTwoRenamesBegunFromOneTitleAndSentAtOnceOneIsSavedAndTheOtherRefused() async throws {
            let server = try TestServer()
            try await server.test { client in
                let id = try await TodoAPITests().add("Milk", client, server)
                for round in 0..<10 {
                    let was = round == 0 ? "Milk" : "Round \(round - 1) b"
                    let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                        for name in ["a", "b"] {
                            group.addTask {
                                let json = #"{"title": "Round \#(round) \#(name)", "was": {"title": "\#(was)"}}"#
                                return try await client.send(.patch, "/api/todos/\(id)", json: json, token: server.token).status
                            }
                        }
                        return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                    }
                    #expect(statuses.sorted { $0.code < $1.code } == [.ok, .conflict], "round \(round): \(statuses)")
                    // The next round begins from the title saved; "b" is renamed to it for the next one.
                    try await client.send(.patch, "/api/todos/\(id)", json: #"{"title": "Round \#(round) b"}"#, token: server.token)
                }
            }
        }

        @Test func errorsOfEdits() async throws {
            let server = try TestServer()
            try await server.test { client in
                let id = try await TodoAPITests().add("Buy milk", client, server)
                let unknown = "00000000-0000-0000-0000-000000000099"
                let missing = try await client.send(.patch, "/api/todos/\(unknown)", json: #"{"title": "x"}"#, token: server.token)
                #expect(missing.status == .notFound)
                #expect(missing.errorMessage?.contains(unknown) == true)
                let malformedID = try await client.send(.patch, "/api/todos/not-an-id", json: #"{"title": "x"}"#, token: server.token)
                #expect(malformedID.status == .badRequest)
                #expect(malformedID.errorMessage?.contains("not-an-id") == true)
                let empty = try await client.send(.patch, "/api/todos/\(id)", json: #"{"title": ""}"#, token: server.token)
                #expect(empty.status == .unprocessableContent)
                let nul = try await client.send(.patch, "/api/todos/\(id)", json: #"{"title": "Buy\u0000milk"}"#, token: server.token)
                #expect(nul.status == .unprocessableContent)
                #expect(nul.errorMessage?.contains("U+0000") == true, "\(nul.errorMessage ?? "")")
                #expect(try await server.store.state().todos.items.map(\.title) == ["Buy milk"])
                let both = try await client.send(
                    .patch, "/api/todos/\(id)", json: #"{"due": null, "dueText": "tomorrow"}"#, token: server.token
                )
                #expect(both.status == .unprocessableContent)
                let unknownField = try await client.send(.patch, "/api/todos/\(id)", json: #"{"done": true}"#, token: server.token)
                #expect(unknownField.status == .badRequest)
                #expect(unknownField.errorMessage?.contains("done") == true)
                let badDue = try await client.send(
                    .patch, "/api/todos/\(id)", json: #"{"due": {"kind": "date", "date": "yesterday"}}"#, token: server.token
                )
                #expect(badDue.status == .badRequest)
                #expect(badDue.errorMessage?.contains("due.date") == true)
                #expect(try await server.store.state().todos.items.first?.title == "Buy milk")
            }
        }

        @Test func deleteRemovesAndUndoBringsItBackAtItsPosition() async throws {
            let server = try TestServer()
            try await server.test { client in
                let api = TodoAPITests()
                _ = try await api.add("One", client, server)
                let two = try await api.add("Two", client, server)
                _ = try await api.add("Three", client, server)
                let response = try await client.send(.delete, "/api/todos/\(two)", token: server.token)
                #expect(response.status == .ok)
                #expect((response.object["removed"] as? [[String: Any]])?.first?["title"] as? String == "Two")
                #expect(await server.store.history().undoTitle == "Undo Delete “Two”")
                let undo = try await client.send(.post, "/api/history/undo", token: server.token)
                #expect(undo.object["undone"] as? String == "Delete “Two”")
                #expect(try await server.store.state().todos.items.map(\.title) == ["One", "Two", "Three"])
                let again = try await client.send(.delete, "/api/todos/00000000-0000-0000-0000-000000000099", token: server.token)
                #expect(again.status == .notFound)
            }
        }

        @Test func toggleFlipsCompletion() async throws {
            let server = try TestServer()
            try await server.test { client in
                let id = try await TodoAPITests().add("Buy milk", client, server)
                let completed = try await client.send(.post, "/api/todos/\(id)/toggle", token: server.token)
                #expect(completed.object["state"] as? String == "completed")
                let reopened = try await client.send(.post, "/api/todos/\(id)/toggle", token: server.token)
                #expect(reopened.object["state"] as? String == "active")
                let missing = try await client.send(
                    .post, "/api/todos/00000000-0000-0000-0000-000000000099/toggle", token: server.token
                )
                #expect(missing.status == .notFound)
            }
        }
    }

    @Suite("POST /api/todos/{id}/toggle, several at once")
    struct TogglesAtOnce {
        @Test func eachIsDecidedOnTheItemAsTheOneBeforeLeftIt() async throws {
            let server = try TestServer()
            try await server.test { client in
                let id = try await TodoAPITests().add("Buy milk", client, server)
                let states = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<6 {
                        group.addTask {
                            let toggled = try await client.send(.post, "/api/todos/\(id)/toggle", token: server.token)
                            return toggled.object["state"] as? String ?? "status \(toggled.status.code)"
                        }
                    }
                    return try await group.reduce(into: [String]()) { $0.append($1) }
                }
                // Six toggles: three completed it and three reopened it, whatever their order.
                #expect(states.sorted() == ["active", "active", "active", "completed", "completed", "completed"])
                #expect(try await server.store.state().todos.items.map(\.state) == [.active])
                let names = await server.store.history().steps.map(\.name).dropFirst()
                #expect(Array(names) == Array(repeating: ["Complete “Buy milk”", "Reopen “Buy milk”"], count: 3).flatMap { $0 })
            }
        }
    }

    @Suite("POST /api/todos/{id}/move")
    struct Move {
        @Test func movesBeforeOrAfterAnotherItemOrToAPositionAsOneStep() async throws {
            let server = try TestServer()
            try await server.test { client in
                let api = TodoAPITests()
                let one = try await api.add("One", client, server)
                let two = try await api.add("Two", client, server)
                let three = try await api.add("Three", client, server)
                func titles() async throws -> [String] { try await server.store.state().todos.items.map(\.title) }
                let before = try await client.send(.post, "/api/todos/\(three)/move", json: #"{"before": "\#(one)"}"#, token: server.token)
                #expect(before.status == .ok)
                #expect(before.object["title"] as? String == "Three")
                #expect(try await titles() == ["Three", "One", "Two"])
                let after = try await client.send(.post, "/api/todos/\(three)/move", json: #"{"after": "\#(two)"}"#, token: server.token)
                #expect(after.status == .ok)
                #expect(try await titles() == ["One", "Two", "Three"])
                let top = try await client.send(.post, "/api/todos/\(two)/move", json: #"{"position": 0}"#, token: server.token)
                #expect(top.status == .ok)
                #expect(try await titles() == ["Two", "One", "Three"])
                let history = try await client.get("/api/history").object
                #expect(history["undoTitle"] as? String == "Undo Move “Two”")
                _ = try await client.send(.post, "/api/history/undo", token: server.token)
                #expect(try await titles() == ["One", "Two", "Three"])
            }
        }

        @Test func aMoveThatCannotBeDoneSaysWhyAndChangesNothing() async throws {
            let server = try TestServer()
            try await server.test { client in
                let api = TodoAPITests()
                let one = try await api.add("One", client, server)
                let two = try await api.add("Two", client, server)
                let stranger = "00000000-0000-0000-0000-000000000099"
                let cases: [(String, String, HTTPResponse.Status, String)] = [
                    (two, #"{"after": "\#(one)"}"#, .conflict, "“Two” is already after “One”"),
                    (one, #"{"position": 0}"#, .conflict, "“One” is already at the top"),
                    (one, #"{"position": 2}"#, .unprocessableContent, "positions run from 0 to 1"),
                    (one, #"{"before": "\#(one)"}"#, .unprocessableContent, "cannot be moved before or after itself"),
                    (one, #"{"before": "\#(stranger)"}"#, .unprocessableContent, "There is no item with id \(stranger) to move"),
                    (stranger, #"{"before": "\#(one)"}"#, .notFound, "There is no item with id \(stranger)"),
                    (one, #"{}"#, .badRequest, "missing field: give “before” or “after”"),
                    (one, #"{"before": "\#(two)", "position": 1}"#, .badRequest, "not several"),
                    (one, #"{"before": "two"}"#, .badRequest, "before"),
                    (one, #"{"position": null}"#, .badRequest, "invalid field “position”: expected a whole number, found null"),
                    (one, #"{"after": "\#(two)", "top": true}"#, .badRequest, "invalid field “top”: unknown field"),
                    (one, #"{"position": -1}"#, .unprocessableContent, "positions run from 0 to 1"),
                ]
                for (id, body, status, message) in cases {
                    let response = try await client.send(.post, "/api/todos/\(id)/move", json: body, token: server.token)
                    #expect(response.status == status, "\(body)")
                    #expect(response.errorMessage?.contains(message) == true, "\(body): \(response.errorMessage ?? "")")
                }
                #expect(try await server.store.state().todos.items.map(\.title) == ["One", "Two"])
                #expect(try await client.get("/api/history").object["position"] as? Int == 2, "no step for a refused move")
            }
        }
    }

    @Suite("Whole-list actions")
    struct WholeList {
        @Test func toggleAllCompletesThenReopensEveryItem() async throws {
            let server = try TestServer()
            try await server.test { client in
                let api = TodoAPITests()
                _ = try await api.add("One", client, server)
                _ = try await api.add("Two", client, server)
                let done = try await client.send(.post, "/api/todos/toggle-all", json: #"{"completed": true}"#, token: server.token)
                #expect(done.status == .ok)
                #expect((done.object["items"] as? [Any])?.count == 2)
                #expect(try await server.store.state().todos.items.allSatisfy { $0.isCompleted })
                let again = try await client.send(.post, "/api/todos/toggle-all", json: #"{"completed": true}"#, token: server.token)
                #expect(again.status == .conflict)
                try await client.send(.post, "/api/todos/toggle-all", json: #"{"completed": false}"#, token: server.token)
                #expect(try await !server.store.state().todos.items.contains { $0.isCompleted })
                let missing = try await client.send(.post, "/api/todos/toggle-all", json: #"{}"#, token: server.token)
                #expect(missing.status == .badRequest)
                #expect(missing.errorMessage?.contains("completed") == true)
            }
        }

        @Test func clearCompletedRemovesOnlyCompletedItemsAsOneStep() async throws {
            let server = try TestServer()
            try await server.test { client in
                let api = TodoAPITests()
                let one = try await api.add("One", client, server)
                _ = try await api.add("Two", client, server)
                try await client.send(.post, "/api/todos/\(one)/toggle", token: server.token)
                let response = try await client.send(.post, "/api/todos/clear-completed", token: server.token)
                #expect(response.status == .ok)
                #expect((response.object["removed"] as? [Any])?.count == 1)
                #expect(try await server.store.state().todos.items.map(\.title) == ["Two"])
                let nothing = try await client.send(.post, "/api/todos/clear-completed", token: server.token)
                #expect(nothing.status == .conflict)
            }
        }

        @Test func deleteAllIsOneUndoableStep() async throws {
            let server = try TestServer()
            try await server.test { client in
                let api = TodoAPITests()
                _ = try await api.add("One", client, server)
                _ = try await api.add("Two", client, server)
                let response = try await client.send(.delete, "/api/todos", token: server.token)
                #expect(response.status == .ok)
                #expect(try await server.store.state().todos.isEmpty)
                try await client.send(.post, "/api/history/undo", token: server.token)
                #expect(try await server.store.state().todos.items.map(\.title) == ["One", "Two"])
                try await client.send(.delete, "/api/todos", token: server.token)
                let empty = try await client.send(.delete, "/api/todos", token: server.token)
                #expect(empty.status == .conflict)
            }
        }
    }

    @Suite("History")
    struct HistoryRoutes {
        /// The positions of the steps of a `History` object.
        private static func positions(_ history: [String: Any]) -> [Int] {
            (history["steps"] as? [[String: Any]] ?? []).compactMap { $0["position"] as? Int }
        }

        @Test func answersCarryAPageOfTheHistoryAndGETPagesTheRest() async throws {
            let server = try TestServer()
            for number in 1...130 {
                try await server.store.change(.add(try TodoItem(id: UUID(), title: "Item \(number)", created: TestServer.now)))
            }
            try await server.test { client in
                // The newest 50 steps, and how many there are, wherever the history is carried.
                let todos = try await client.get("/api/todos").object
                let carried = try #require(todos["history"] as? [String: Any])
                #expect(Self.positions(carried) == Array(81...130))
                #expect(carried["total"] as? Int == 130)
                #expect(carried["position"] as? Int == 130)
                let history = try await client.get("/api/history").object
                #expect(Self.positions(history) == Array(81...130))

                // Undone steps are shown after the position, as many as done ones before it.
                for _ in 1...30 { try await client.send(.post, "/api/history/undo", token: server.token) }
                let undo = try await client.send(.post, "/api/history/undo", token: server.token).object
                let moved = try #require(undo["history"] as? [String: Any])
                #expect(moved["position"] as? Int == 99)
                #expect(Self.positions(moved) == Array(75...124))
                #expect((moved["steps"] as? [[String: Any]])?.first?["done"] as? Bool == true)
                #expect((moved["steps"] as? [[String: Any]])?.last?["done"] as? Bool == false)

                // Pages before the first and after the last step shown reach the rest.
                let older = try await client.get("/api/history?before=75&limit=500").object
                #expect(Self.positions(older) == Array(1...74))
                let newer = try await client.get("/api/history?after=124").object
                #expect(Self.positions(newer) == Array(125...130))
                #expect(Self.positions(try await client.get("/api/history?before=1").object) == [])
                #expect(Self.positions(try await client.get("/api/history?after=130").object) == [])
                #expect(Self.positions(try await client.get("/api/history?before=80&after=75").object) == [76, 77, 78, 79])
                #expect(Self.positions(try await client.get("/api/history?before=1&after=0").object) == [])
                #expect(Self.positions(try await client.get("/api/history?limit=3").object) == [98, 99, 100])
                #expect(Self.positions(try await client.get("/api/history?limit=4").object) == [98, 99, 100, 101])
            }
        }

        @Test func aPageOutsideWhatTheHistoryCanHoldIsRefusedSayingWhatIsAllowed() async throws {
            let server = try TestServer()
            try await server.test { client in
                for (query, words) in [
                    ("limit=0", "1 to 500"), ("limit=501", "1 to 500"), ("before=0", "positions start at 1"),
                    ("after=-1", "positions start at 0"), ("limit=many", "limit"),
                ] {
                    let response = try await client.get("/api/history?\(query)")
                    #expect(response.status == .badRequest, "\(query)")
                    #expect(response.errorMessage?.contains(words) == true, "\(query): \(response.errorMessage ?? "")")
                }
                // A parameter given twice: the second was dropped without a word.
                for query in ["limit=3&limit=4", "before=5&after=1&before=6"] {
                    let response = try await client.get("/api/history?\(query)")
                    #expect(response.status == .badRequest, "\(query)")
                    #expect(response.errorMessage?.contains("is given more than once; give it once") == true, "\(query)")
                }
                let searched = try await client.get("/api/todos?search=milk&search=tea")
                #expect(searched.status == .badRequest)
                #expect(searched.errorMessage == "query parameter “search” is given more than once; give it once")
                // A query that is not name=value pairs: 400 saying so (the decoder answered 500).
                for query in ["a", "&filter=all", "filter=all&&limit=5"] {
                    let response = try await client.get("/api/todos?\(query)")
                    #expect(response.status == .badRequest, "\(query)")
                    #expect(response.errorMessage?.hasPrefix("malformed query: ") == true, "\(query): \(response.text)")
                }
                #expect(try await client.get("/api/todos?filter=all&").status == .ok)
                // A value whose percent-encoding does not decode: 400 (the search was dropped, the whole list answered).
                for query in ["search=milk%ZZ", "search=%", "search=milk%FF", "filter=%ZZ"] {
                    let response = try await client.get("/api/todos?\(query)")
                    #expect(response.status == .badRequest, "\(query)")
                    #expect(response.errorMessage?.contains("is not valid percent-encoding") == true, "\(query): \(response.text)")
                }
                #expect(try await client.get("/api/todos?search=caf%C3%A9").status == .ok)
                // A parameter the operation does not take: 400 naming those it does (it was dropped without a word).
                let unknown = try await client.get("/api/history/tree?after=3")
                #expect(unknown.status == .badRequest)
                #expect(unknown.errorMessage == "unknown query parameter “after”; it takes before, limit")
                #expect(try await client.get("/api/csrf?x=1").errorMessage == "unknown query parameter “x”; it takes none")
                // A plus sign before a number: said of the parameter (it spoke of a body).
                let plus = try await client.get("/api/todos?limit=+1")
                #expect(plus.status == .badRequest)
                #expect(plus.errorMessage == "invalid query parameter “limit”: “+1” is not a whole number as the API reads one: digits, without a plus sign")
                // Each valid on its own, the pair cannot be answered: 422.
                for (query, words) in [("before=2&after=5", "“before” must be above “after”"), ("before=3&after=3", "between 3 and 3")] {
                    let response = try await client.get("/api/history?\(query)")
                    #expect(response.status == .unprocessableContent, "\(query)")
                    #expect(response.errorMessage?.contains(words) == true, "\(query): \(response.errorMessage ?? "")")
                }
            }
        }

        @Test func undoRedoAndJumpMoveThroughNamedSteps() async throws {
            let server = try TestServer()
            try await server.test { client in
                let api = TodoAPITests()
                _ = try await api.add("One", client, server)
                _ = try await api.add("Two", client, server)
                let history = try await client.get("/api/history").object
                #expect(history["position"] as? Int == 2)
                #expect(history["undoTitle"] as? String == "Undo Add “Two”")
                #expect((history["steps"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Add “One”", "Add “Two”"])

                let undo = try await client.send(.post, "/api/history/undo", token: server.token)
                #expect(undo.object["undone"] as? String == "Add “Two”")
                let redo = try await client.send(.post, "/api/history/redo", token: server.token)
                #expect(redo.object["redone"] as? String == "Add “Two”")
                let nothing = try await client.send(.post, "/api/history/redo", token: server.token)
                #expect(nothing.status == .conflict)
                #expect(nothing.errorMessage == "nothing to redo")

                let jump = try await client.send(.post, "/api/history/jump", json: #"{"position": 0}"#, token: server.token)
                #expect(jump.status == .ok)
                #expect(try await server.store.state().todos.isEmpty)
                let nothingToUndo = try await client.send(.post, "/api/history/undo", token: server.token)
                #expect(nothingToUndo.status == .conflict)
                let outside = try await client.send(.post, "/api/history/jump", json: #"{"position": 7}"#, token: server.token)
                #expect(outside.status == .unprocessableContent)
                #expect(outside.errorMessage?.contains("7") == true)
                let malformed = try await client.send(.post, "/api/history/jump", json: #"{"position": "one"}"#, token: server.token)
                #expect(malformed.status == .badRequest)
                #expect(malformed.errorMessage?.contains("position") == true)
            }
        }
    }

    @Test func unknownRoutesAre404JSON() async throws {
        let server = try TestServer()
        try await server.test { client in
            let response = try await client.get("/api/nothing")
            #expect(response.status == .notFound)
            #expect(response.errorMessage?.contains("/api/nothing") == true)
        }
    }
}
