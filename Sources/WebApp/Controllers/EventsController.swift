import Foundation
import Hummingbird
import ServiceLifecycle

/// `GET /events`: a Server-Sent Events stream that tells the page when the
/// to-do state changed, so that it fetches fresh content.
///
/// Every change event has an `id:`; a reconnecting `EventSource` sends the
/// last one it saw as `Last-Event-ID` (a page's first connection names the
/// state it shows with `?since=`), and when the list has moved since, the
/// stream starts with the current state's event (the same id: nothing).
/// In team mode the stream ends when its session ends (signed out, ended by
/// `rewind users`, or expired), checked with every heartbeat.
struct EventsController {
    let broadcaster: EventBroadcaster
    let todos: TodoService
    /// Team mode's sessions, or `nil` in local mode.
    let teamMode: TeamMode?
    /// The clock sessions are checked against.
    let now: @Sendable () -> Date
    /// The streams each session has open, with the lists'.
    let sessionStreams: SessionStreams

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/events") { request, _ in
            // `?max=N` ends the stream after N change events (for scripts and tests).
            let limit = try Query.eventLimit(request)
            let session = SignedIn.current?.id
            guard let place = sessionStreams.take(session) else { throw SessionStreams.tooMany }
            guard let stream = await broadcaster.subscribeMakingRoom() else {
                throw APIError(.serviceUnavailable, "too many open event streams, or the server is shutting down")
            }
            let headers: HTTPFields = [
                .contentType: "text/event-stream; charset=utf-8",
                .cacheControl: "no-store",
            ]
            let broadcaster = self.broadcaster
            // After subscribing, so that a change in between is not missed.
            var resumed: ServerEvent?
            if let seen = Query.eventsSeen(request) {
                let current = await broadcaster.currentEvent(mark: await todos.updateMark())
                if current.id != seen { resumed = current }
            }
            let first = resumed
            let (teamMode, now) = (self.teamMode, self.now)
            // The place goes back when this body does: after the stream, or
            // without it having run (a HEAD, a client gone before the head).
            return Response(status: .ok, headers: headers, body: ResponseBody { [place] writer in
                withExtendedLifetime(place) {}
                try await writer.write(ByteBuffer(string: ServerEvent.preamble))
                // The HTTP server is the first service told to shut down, and it waits
                // for open responses: end the streams as soon as shutdown starts.
                try await withGracefulShutdownHandler {
                    var sent = 0
                    var lastID: String?
                    var iterator = stream.makeAsyncIterator()
                    if let first {
                        try await writer.write(ByteBuffer(string: first.wireFormat))
                        sent += 1
                        lastID = first.id
                    }
                    while limit.map({ sent < $0 }) ?? true, let event = await iterator.next() {
                        // Told already by the resumed stream's first event.
                        if let id = event.id, id == lastID { continue }
                        // A signed-out or expired session hears no more.
                        if event == .heartbeat, let teamMode, let session, await !teamMode.isLive(session, at: now()) {
                            break
                        }
                        try await writer.write(ByteBuffer(string: event.wireFormat))
                        if let id = event.id {
                            sent += 1
                            lastID = id
                        }
                    }
                } onGracefulShutdown: {
                    Task { await broadcaster.close() }
                }
                try await writer.finish(nil)
            })
        }
    }
}
