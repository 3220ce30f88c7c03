import Foundation
import Hummingbird
import HummingbirdTesting
import Rewind
import TestSupport
import Testing
import Todos

@testable import WebApp

@Suite("Event stream (GET /events)")
struct EventStreamTests {
    @Test func aChangeThroughTheAPIReachesAnOpenStream() async throws {
        let server = try TestServer()
        try await server.test { client in
            async let events = client.get("/events?max=1")
            try await waitUntil("1 open event stream") { await server.webApp.broadcaster.subscriberCount == 1 }
            try await client.send(.post, "/api/todos", json: #"{"title": "Buy milk"}"#, token: server.token)
            let response = try await events
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/event-stream; charset=utf-8")
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.text.hasPrefix("retry: 1000\n"))
            let run = server.webApp.broadcaster.run
            #expect(response.text.contains("event: todos\nid: \(run)-1\ndata: {\"version\":1}\n\n"))
        }
    }

    @Test func aChangeMadeDirectlyInTheStoreReachesTheStream() async throws {
        // What another process (the CLI) does to a shared store arrives
        // through the store's `updated` notification.
        let server = try TestServer()
        try await server.test { client in
            async let events = client.get("/events?max=1")
            try await waitUntil("1 open event stream") { await server.webApp.broadcaster.subscriberCount == 1 }
            let item = try TodoItem(id: UUID(), title: "From the CLI", created: TestServer.now)
            try await server.store.change(.add(item))
            let response = try await events
            #expect(response.text.contains("event: todos"))
        }
    }

    @Test func everyOpenStreamIsTold() async throws {
        let server = try TestServer()
        try await server.test { client in
            async let first = client.get("/events?max=2")
            async let second = client.get("/events?max=2")
            try await waitUntil("2 open event streams") { await server.webApp.broadcaster.subscriberCount == 2 }
            try await client.send(.post, "/api/todos", json: #"{"title": "One"}"#, token: server.token)
            try await client.send(.post, "/api/history/undo", token: server.token)
            for response in try await [first, second] {
                #expect(response.text.components(separatedBy: "event: todos").count == 3)
            }
        }
    }

    @Test func anIdleStreamGetsHeartbeats() async throws {
        let server = try TestServer(configuration: WebAppConfiguration(heartbeatInterval: 0.02))
        try await server.test { client in
            async let events = client.get("/events?max=1")
            try await waitUntil("1 open event stream") { await server.webApp.broadcaster.subscriberCount == 1 }
            try await waitUntil("a heartbeat") { await server.webApp.broadcaster.heartbeatCount > 0 }
            try await client.send(.post, "/api/todos", json: #"{"title": "One"}"#, token: server.token)
            let text = try await events.text
            #expect(text.contains(": heartbeat\n\n"))
        }
    }

    @Test func aClosedConnectionIsForgotten() async throws {
        let server = try TestServer()
        try await server.test { client in
            let reader = Task { try await client.get("/events") }
            try await waitUntil("1 open event stream") { await server.webApp.broadcaster.subscriberCount == 1 }
            reader.cancel()
            _ = try? await reader.value
            try await waitUntil("0 open event streams") { await server.webApp.broadcaster.subscriberCount == 0 }
        }
    }

    @Test func shutdownEndsOpenStreamsAndRefusesNewOnes() async throws {
        let server = try TestServer()
        try await server.test { client in
            async let events = client.get("/events")
            try await waitUntil("1 open event stream") { await server.webApp.broadcaster.subscriberCount == 1 }
            await server.webApp.broadcaster.close()
            #expect(try await events.status == .ok)
            let refused = try await client.get("/events")
            #expect(refused.status == .serviceUnavailable)
        }
    }

    @Test func theNumberOfStreamsIsBounded() async throws {
        let server = try TestServer(configuration: WebAppConfiguration(maxEventStreams: 1))
        try await server.test { client in
            async let first = client.get("/events?max=1")
            try await waitUntil("1 open event stream") { await server.webApp.broadcaster.subscriberCount == 1 }
            let second = try await client.get("/events")
            #expect(second.status == .serviceUnavailable)
            try await client.send(.post, "/api/todos", json: #"{"title": "One"}"#, token: server.token)
            #expect(try await first.status == .ok)
        }
    }

    @Test func aMalformedLimitIsA400() async throws {
        let server = try TestServer()
        try await server.test { client in
            let response = try await client.get("/events?max=0")
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.contains("max") == true)
        }
    }

    /// The ids of the change events in an event stream's text.
    static func eventIDs(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n").compactMap { event in
            guard event.hasPrefix("event: todos\n") else { return nil }
            return event.split(separator: "\n").first { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
        }
    }

    /// The id a page's stream gets for a change (“One”); the stream is
    /// closed afterwards, as when the connection dropped.
    static func idSeenByAPage(of server: TestServer, _ client: any TestClientProtocol) async throws -> String {
        async let first = client.get("/events?max=1")
        try await waitUntil("1 open event stream") { await server.webApp.broadcaster.subscriberCount == 1 }
        try await client.send(.post, "/api/todos", json: #"{"title": "One"}"#, token: server.token)
        let seen = try #require(Self.eventIDs(try await first.text).first)
        try await waitUntil("0 open event streams") { await server.webApp.broadcaster.subscriberCount == 0 }
        return seen
    }

    /// The state a page says it shows (`<meta name="rewind-events-since">`).
    static func eventsSince(_ page: String) -> String? {
        let marker = #"<meta name="rewind-events-since" content=""#
        guard let start = page.range(of: marker)?.upperBound else { return nil }
        return String(page[start...].prefix { $0 != "\"" })
    }

    /// The id `/events` gives the state now.
    static func currentID(_ server: TestServer) async -> String {
        await server.webApp.broadcaster.currentEvent(mark: await server.webApp.todos.updateMark()).id ?? "none"
    }

    @Test(.timeLimit(.minutes(1)))
    func aPageNamesItsStateAndItsFirstStreamStartsWithTheCurrentOneWhenItMovedSince() async throws {
        let server = try TestServer()
        try await server.test { client in
            let drawn = try #require(Self.eventsSince(try await client.get("/todos").text))
            #expect(drawn == (await Self.currentID(server)))
            // A change between the page's read and its stream's start.
            try await client.send(.post, "/api/todos", json: #"{"title": "One"}"#, token: server.token)
            let current = await Self.currentID(server)
            #expect(current != drawn)
            #expect(Self.eventIDs(try await client.get("/events?max=1&since=\(drawn)").text) == [current])

            // A page drawn now, and its item's, name the current state: the stream waits for the next change.
            let now = try #require(Self.eventsSince(try await client.get("/todos").text))
            #expect(now == current)
            let added = try await client.get("/api/todos").object["items"] as? [[String: Any]]
            let item = try #require(added?.first?["id"] as? String)
            #expect(Self.eventsSince(try await client.get("/todos/items/\(item)").text) == current)
            // A reconnect's Last-Event-ID wins over the page's older `since`.
            async let resumed = client.get("/events?max=1&since=\(drawn)", headers: [.lastEventID: current])
            try await waitUntil("1 open event stream") { await server.webApp.broadcaster.subscriberCount == 1 }
            try await client.send(.post, "/api/todos", json: #"{"title": "Two"}"#, token: server.token)
            let ids = Self.eventIDs(try await resumed.text)
            #expect(ids.count == 1)
            #expect(ids.first != current)
        }
    }

    @Test func aStreamResumedWithTheCurrentIDStartsWithNothing() async throws {
        let server = try TestServer()
        try await server.test { client in
            let seen = try await Self.idSeenByAPage(of: server, client)
            // The page reconnects having seen the newest change: the next
            // event is the next change's, nothing before it.
            async let resumed = client.get("/events?max=1", headers: [.lastEventID: seen])
            try await waitUntil("1 open event stream") { await server.webApp.broadcaster.subscriberCount == 1 }
            try await client.send(.post, "/api/todos", json: #"{"title": "Two"}"#, token: server.token)
            let ids = Self.eventIDs(try await resumed.text)
            #expect(ids.count == 1)
            #expect(ids.first != seen)
        }
    }

    @Test func aStreamResumedWithAnOlderIDStartsWithTheCurrentState() async throws {
        let server = try TestServer()
        try await server.test { client in
            let seen = try await Self.idSeenByAPage(of: server, client)
            // Two changes while the page was away.
            try await client.send(.post, "/api/todos", json: #"{"title": "Two"}"#, token: server.token)
            try await client.send(.post, "/api/todos", json: #"{"title": "Three"}"#, token: server.token)
            let current = try #require(await server.webApp.broadcaster.currentEvent(mark: nil).id)
            #expect(current != seen)
            // The current state's event at once, then the next change's.
            async let resumed = client.get("/events?max=2", headers: [.lastEventID: seen])
            try await waitUntil("1 open event stream") { await server.webApp.broadcaster.subscriberCount == 1 }
            try await client.send(.post, "/api/todos", json: #"{"title": "Four"}"#, token: server.token)
            try await client.send(.post, "/api/todos", json: #"{"title": "Five"}"#, token: server.token)
            let ids = Self.eventIDs(try await resumed.text)
            #expect(ids.first == current)
            #expect(ids.count == 2)
        }
    }

    @Test func anIDFromAnotherRunOfTheServerIsOlder() async throws {
        let server = try TestServer()
        try await server.test { client in
            async let resumed = client.get("/events?max=2", headers: [.lastEventID: "1"])
            try await waitUntil("1 open event stream") { await server.webApp.broadcaster.subscriberCount == 1 }
            try await client.send(.post, "/api/todos", json: #"{"title": "One"}"#, token: server.token)
            try await client.send(.post, "/api/todos", json: #"{"title": "Two"}"#, token: server.token)
            let run = server.webApp.broadcaster.run
            #expect(Self.eventIDs(try await resumed.text).prefix(2) == ["\(run)-0", "\(run)-1"])
        }
    }

    @Test func theStoresMarkIsTheEventsIDAndAResumeComparesWithIt() async throws {
        let server = try TestServer(todos: MarkedStore())
        try await server.test { client in
            let seen = try await Self.idSeenByAPage(of: server, client)
            #expect(seen == "7.1")
            try await client.send(.post, "/api/todos", json: #"{"title": "Two"}"#, token: server.token)
            async let resumed = client.get("/events?max=2", headers: [.lastEventID: seen])
            try await waitUntil("1 open event stream") { await server.webApp.broadcaster.subscriberCount == 1 }
            try await client.send(.post, "/api/history/undo", token: server.token)
            #expect(Self.eventIDs(try await resumed.text) == ["7.2", "7.3"])
        }
    }

    @Test func aStoreMarkIsTheIDAndIsToldOnce() async throws {
        let broadcaster = EventBroadcaster(heartbeatInterval: 60, maxSubscribers: 4)
        let stream = try #require(await broadcaster.subscribe())
        await broadcaster.publishTodosChanged(mark: "1.7")
        await broadcaster.publishTodosChanged(mark: "1.7")
        await broadcaster.publishTodosChanged(mark: "1.8")
        await broadcaster.close()
        var ids: [String] = []
        for await event in stream { if let id = event.id { ids.append(id) } }
        #expect(ids == ["1.7", "1.8"])
        #expect(ServerEvent.todosChanged(version: 3, id: "1.8").wireFormat == "event: todos\nid: 1.8\ndata: {\"version\":3}\n\n")
    }

    /// Every place taken, one by a browser that went away: its stream
    /// fails at its next write, which a new stream does not wait for.
    @Test func aNewStreamMakesRoomByTellingTheOpenOnesAHeartbeat() async throws {
        let broadcaster = EventBroadcaster(heartbeatInterval: 3_600, maxSubscribers: 2)
        let live = try #require(await broadcaster.subscribe())
        // The gone browser's stream stops at the first thing it is told, as its failed write would.
        let (subscribed, isSubscribed) = AsyncStream.makeStream(of: Bool.self)
        let reader = Task {
            guard let gone = await broadcaster.subscribe() else {
                isSubscribed.yield(false)
                return
            }
            isSubscribed.yield(true)
            var iterator = gone.makeAsyncIterator()
            _ = await iterator.next()
        }
        var waiting = subscribed.makeAsyncIterator()
        #expect(await waiting.next() == true)
        #expect(await broadcaster.subscribe() == nil, "every place is taken")
        let third = await broadcaster.subscribeMakingRoom(wait: .milliseconds(50))
        #expect(third != nil)
        #expect(await broadcaster.subscriberCount == 2)
        _ = await reader.value
        _ = live
        await broadcaster.close()
        #expect(await broadcaster.subscribeMakingRoom(wait: .milliseconds(1)) == nil, "a closed broadcaster refuses")
    }

    @Test func changesWhileNoStreamIsOpenStillCountInTheVersion() async throws {
        let broadcaster = EventBroadcaster(heartbeatInterval: 60, maxSubscribers: 4)
        for _ in 0..<3 { broadcaster.noteTodosChanged() }
        // Nobody listens: no task was started, nothing published yet.
        #expect(await broadcaster.version == 0)
        let stream = try #require(await broadcaster.subscribe())
        broadcaster.noteTodosChanged()
        var iterator = stream.makeAsyncIterator()
        var event = await iterator.next()
        while event == .heartbeat { event = await iterator.next() }
        #expect(event == .todosChanged(version: 4, id: "\(broadcaster.run)-4"))
        await broadcaster.close()
    }
}

/// The in-memory store with an update mark (`<epoch>.<operations>`), as
/// the PostgreSQL store names where its log stands.
private actor MarkedStore: AppStore {
    let inner = InMemoryStore(now: { TestServer.now })
    private var operations = 0

    func updateMark() -> String? { "7.\(operations)" }

    private func counted<Result>(_ operation: () async throws -> Result) async rethrows -> Result {
        let result = try await operation()
        operations += 1
        return result
    }

    func read<Result: Sendable>(_ body: @escaping @Sendable (AppState) throws -> Result) async throws -> Result {
        try await inner.read(body)
    }
    func history() async -> HistoryOverview { await inner.history() }
    func change(_ changes: [AppState.Change], named name: String?) async throws -> HistoryStep<AppState.Change> {
        try await counted { try await inner.change(changes, named: name) }
    }
    func undo() async throws -> String? { try await counted { try await inner.undo() } }
    func redo() async throws -> String? { try await counted { try await inner.redo() } }
    func jump(to position: Int) async throws { try await counted { try await inner.jump(to: position) } }
    func historyTree() async -> HistoryTree { await inner.historyTree() }
    func jump(toStep number: Int64) async throws { try await counted { try await inner.jump(toStep: number) } }
    func reset() async throws { try await counted { try await inner.reset() } }
    func destroy() async throws { try await counted { try await inner.destroy() } }
    func updates() async -> AsyncStream<Void> { await inner.updates() }
}
