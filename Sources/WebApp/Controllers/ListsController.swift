import Foundation
import Hummingbird
import ServiceLifecycle
import Synchronization
import TodoStore
import Todos

/// The pages of team mode's shared lists: `/lists`, `/lists/{list}`, the
/// fragments their scripts swap in, `/lists/events`, a Server-Sent Events
/// stream of what the lists page shows, and `/lists/{list}/events`, one of
/// the list's changes. Every one answers 404
/// in local mode, and for a list the signed-in account cannot open.
struct ListsController {
    /// The shared lists; `nil` in local mode.
    let lists: SharedListService?
    /// The server's token (team mode replaces it with the session's).
    let csrfToken: String
    /// How many list event streams may be open at once.
    let maxEventStreams: Int
    /// How often an idle stream gets a comment, and its session is checked.
    let heartbeatInterval: Double
    /// The streams open now.
    let openStreams: StreamCount
    /// The streams each session has open, with `/events`'.
    let sessionStreams: SessionStreams
    /// How often a lists page's stream reads the account's lists again
    /// although it heard nothing, in seconds (0.1 at least, a day at most).
    let listsRecheckInterval: Double

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/lists") { _, _ in
            let lists = try shared
            let page = ListsPage(lists: try await lists.overview(), person: try lists.person, csrfToken: csrfToken)
            return Responses.html(page.render())
        }
        router.get("/lists/fragment") { _, _ in
            let lists = try shared
            let page = ListsPage(lists: try await lists.overview(), person: try lists.person, csrfToken: csrfToken)
            return Responses.html(HTML { page.regions(into: &$0) })
        }
        router.get("/lists/events") { request, _ in
            let limit = try Query.eventLimit(request)
            return try await reservingStream { place in try await listsEvents(request: request, limit: limit, place: place) }
        }
        router.get("/lists/{list}") { request, context in
            // The short id `rewind lists` prints: to the list's own address.
            if let (prefix, typed) = Query.listStart(context) {
                return try Query.listAddress(of: typed, matching: try await shared.lists(startingWith: prefix, limit: 4), request)
            }
            let page = try await listPage(request, context)
            return Responses.html(page.render()).response(from: request, context: context)
        }
        router.get("/lists/{list}/fragment") { request, context in
            let page = try await listPage(request, context)
            return Responses.html(page.regions)
        }
        router.get("/lists/{list}/items/{id}") { request, context in
            // The short reference `rewind todo --list … list` prints: to the item's own address.
            if case .start(let prefix, let typed) = try Query.itemOnPage(context) {
                let list = try Query.listID(context)
                let matches = try await shared.items(of: list).list.ids(startingWith: prefix, limit: 4)
                return try Query.itemAddress("/lists/\(list.uuidString)/items/", of: typed, matching: matches, request)
            }
            return Responses.html(try await itemPage(context).render()).response(from: request, context: context)
        }
        router.get("/lists/{list}/items/{id}/fragment") { _, context in
            let page = try await itemPage(context)
            return Responses.html(HTML { page.regions(into: &$0) })
        }
        router.get("/lists/{list}/events") { request, context in
            let (id, limit) = (try Query.listID(context), try Query.eventLimit(request))
            return try await reservingStream { place in try await events(of: id, request: request, limit: limit, place: place) }
        }
    }

    /// The detail page of the item `/lists/{list}/items/{id}` names.
    /// A shared list's page as `request` asks for it (`filter`, `search`,
    /// `steps`, `rows`).
    private func listPage(_ request: Request, _ context: some RequestContext) async throws -> SharedListPage {
        let (steps, search, rows) = (
            try Query.historySteps(request, default: SharedListPage.historyLength), try Query.search(request),
            try Query.rowWindow(request)
        )
        return try await SharedListPage(
            lists: try shared, id: try Query.listOnPage(context), csrfToken: csrfToken, filter: try Query.filter(request),
            search: search, historySteps: steps, window: rows
        )
    }

    private func itemPage(_ context: some RequestContext) async throws -> TodoDetailPage {
        let lists = try shared
        let (list, itemID) = (try Query.listID(context), try Query.itemID(context))
        let summary = try await lists.summary(of: list)
        return TodoDetailPage(
            item: try await lists.item(itemID, on: list), list: summary, next: try await lists.nextSteps(on: list),
            now: lists.now(), csrfToken: csrfToken
        )
    }

    /// The shared lists, or the 404 of local mode.
    private var shared: SharedListService {
        get throws {
            guard let lists else { throw SharedListService.localMode }
            return lists
        }
    }

    /// `event: list` after every step, rename or change of members, its id
    /// the list's latest step number and a digest of its name and members
    /// (``ListsOverviewWatch/listEventID(seq:of:)``); a comment now and then
    /// so that proxies keep the connection. A reconnecting client's
    /// `Last-Event-ID` that is not the current id gets the current event
    /// first. The stream ends when the list is deleted or the account loses
    /// access, when the session ends (checked with every heartbeat), after
    /// `limit` change events, or when the server shuts down.
    private func events(of id: UUID, request: Request, limit: Int?, place: StreamPlace) async throws -> Response {
        let lists = try shared
        // Subscribing checks membership (404) before anything is sent.
        let updates = try await lists.updates(of: id)
        let seq = try await lists.items(of: id).seq
        let summary = try await lists.summary(of: id)
        let current = ListsOverviewWatch.listEventID(seq: seq, of: summary)
        let first = Query.eventsSeen(request).flatMap { $0 == current ? nil : Self.event(id: current, seq: seq) }
        return try stream(first: first, limit: limit, lists: lists, place: place) { continuation in
            let forward = Task {
                var (last, shown) = (seq, summary)
                for await update in updates {
                    // No step (a rename, a share): what the id digests is read again.
                    if update.seq == last, let fresh = try? await lists.summary(of: id) { shown = fresh }
                    last = update.seq
                    continuation.yield(Self.event(id: ListsOverviewWatch.listEventID(seq: update.seq, of: shown), seq: update.seq))
                }
                continuation.finish()
            }
            return { forward.cancel() }
        }
    }

    /// `event: lists` whenever what the lists page shows changed (a list's
    /// name, owner, members or counts; a list made, deleted, shared with
    /// the account or no longer), with a digest of it as the id: at once
    /// for what the store tells (any instance's steps, renames, changes of
    /// members, deletions, lists made or shared), then at most one a
    /// burst interval (``ListsOverviewWatch``). A reconnecting
    /// client's `Last-Event-ID` that is not the current digest gets the
    /// current event first. Ends as ``events(of:request:limit:)`` does,
    /// except that it outlives any one list.
    private func listsEvents(request: Request, limit: Int?, place: StreamPlace) async throws -> Response {
        let lists = try shared
        let watch = try await ListsOverviewWatch(
            store: lists.store, person: try lists.person,
            recheckInterval: .milliseconds(Int((min(max(listsRecheckInterval, 0.1), 86_400) * 1000).rounded())))
        let current = await watch.id
        let first = Query.eventsSeen(request).flatMap { $0 == current ? nil : current }
        return try stream(first: first.map(Self.listsEvent(id:)), limit: limit, lists: lists, place: place) { continuation in
            let forward = Task {
                await watch.start()
                for await id in watch.ids { continuation.yield(Self.listsEvent(id: id)) }
            }
            return {
                forward.cancel()
                Task { await watch.stop() }
            }
        }
    }

    /// Takes one of the ``maxEventStreams`` streams before the stream's
    /// first reads (a refused request costs no read of the store), and
    /// gives it back when `body` throws; the stream gives it back when it
    /// ends.
    ///
    /// - Throws: ``APIError`` 503 when ``maxEventStreams`` are open.
    private func reservingStream(_ body: (StreamPlace) async throws -> Response) async throws -> Response {
        let session = SignedIn.current?.id
        guard let place = sessionStreams.take(session) else { throw SessionStreams.tooMany }
        guard openStreams.open(limit: maxEventStreams) else {
            throw APIError(.serviceUnavailable, "too many open event streams, or the server is shutting down")
        }
        let openStreams = openStreams
        place.also { openStreams.close() }
        return try await body(place)
    }

    /// An event stream of the signed-in session: `first` (when not `nil`),
    /// then what `feed` yields (it gets the stream's continuation and
    /// answers how to stop it), with a heartbeat comment every
    /// ``heartbeatInterval`` that also checks the session. It ends when the
    /// feed finishes, the session ends, after `limit` events, or at
    /// shutdown. Its place among the ``maxEventStreams`` was taken by
    /// ``reservingStream(_:)``, and is given back when it ends.
    private func stream(
        first: String?, limit: Int?, lists: SharedListService, place: StreamPlace,
        feed: @escaping @Sendable (AsyncStream<String>.Continuation) -> @Sendable () -> Void
    ) throws -> Response {
        let session = SignedIn.current?.id
        let interval = heartbeatInterval
        let headers: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"]
        // The place goes back when this body does: after the stream, or
        // without it having run (a HEAD, a client gone before the head).
        return Response(status: .ok, headers: headers, body: ResponseBody { [place] writer in
            withExtendedLifetime(place) {}
            let (events, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
            let stopFeed = feed(continuation)
            let heartbeat = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(interval))
                    // A signed-out or expired session hears no more.
                    if let session, await !lists.isLive(session) {
                        continuation.finish()
                        return
                    }
                    continuation.yield(ServerEvent.heartbeat.wireFormat)
                }
            }
            defer {
                stopFeed()
                heartbeat.cancel()
            }
            try await writer.write(ByteBuffer(string: ServerEvent.preamble))
            var sent = 0
            if let first {
                try await writer.write(ByteBuffer(string: first))
                sent += 1
            }
            try await withGracefulShutdownHandler {
                var iterator = events.makeAsyncIterator()
                while limit.map({ sent < $0 }) ?? true, let event = await iterator.next() {
                    try await writer.write(ByteBuffer(string: event))
                    if event.hasPrefix("event:") { sent += 1 }
                }
            } onGracefulShutdown: {
                continuation.finish()
            }
            try await writer.finish(nil)
        })
    }

    /// One change event of a list whose latest step is `seq`, with the id
    /// ``ListsOverviewWatch/listEventID(seq:of:)`` gives.
    static func event(id: String, seq: Int) -> String {
        "event: list\nid: \(id)\ndata: {\"seq\":\(seq)}\n\n"
    }

    /// One change event of the lists page, whose overview's digest is `id`.
    static func listsEvent(id: String) -> String {
        "event: lists\nid: \(id)\ndata: {}\n\n"
    }
}

/// How many event streams each session of team mode has open (`/events`,
/// `/lists/events` and the lists' streams together), so that one account
/// cannot take every place of the server's ``WebAppConfiguration/maxEventStreams``
/// and stop everyone else's pages from following their lists.
final class SessionStreams: Sendable {
    /// The most streams one session may have open: a person's tabs, many times over.
    static let limit = 32

    private let counts = Mutex([SessionID: Int]())

    /// Counts one more stream of `session` (none counted without one: local
    /// mode), unless it has ``limit`` open.
    func open(_ session: SessionID?) -> Bool {
        guard let session else { return true }
        return counts.withLock { counts in
            let open = counts[session, default: 0]
            guard open < Self.limit else { return false }
            counts[session] = open + 1
            return true
        }
    }

    /// Counts one stream of `session` fewer.
    func close(_ session: SessionID?) {
        guard let session else { return }
        counts.withLock { counts in
            let open = counts[session, default: 0] - 1
            counts[session] = open > 0 ? open : nil
        }
    }

    /// Takes a place for a stream of `session`, given back when the last
    /// reference to it goes; `nil` when the session has ``limit`` open.
    func take(_ session: SessionID?) -> StreamPlace? {
        guard open(session) else { return nil }
        return StreamPlace { [self] in close(session) }
    }

    /// The refusal of a stream past ``limit``.
    static var tooMany: APIError {
        APIError(
            .tooManyRequests,
            "this session has \(limit) event streams open already (a page open in as many tabs); close some of them and reload")
    }
}

/// An event stream's place among those a server and a session may have
/// open: given back when the last reference to it goes, so that a response
/// whose body never runs (a `HEAD`, a client gone) gives it back too.
final class StreamPlace: Sendable {
    private let releases: Mutex<[@Sendable () -> Void]>

    init(_ release: @escaping @Sendable () -> Void) {
        releases = Mutex([release])
    }

    /// Gives back `release` too when the place goes.
    func also(_ release: @escaping @Sendable () -> Void) {
        releases.withLock { $0.append(release) }
    }

    deinit {
        for release in releases.withLock({ $0 }) { release() }
    }
}

/// How many list event streams are open.
final class StreamCount: Sendable {
    private let count = Mutex(0)

    /// The streams open now.
    var current: Int { count.withLock { $0 } }

    /// Counts one more stream, unless `limit` are open.
    func open(limit: Int) -> Bool {
        count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Counts one stream fewer.
    func close() {
        count.withLock { $0 -= 1 }
    }
}
