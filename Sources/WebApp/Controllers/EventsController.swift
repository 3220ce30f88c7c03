import Hummingbird
import ServiceLifecycle

/// `GET /events`: a Server-Sent Events stream that tells the page when the
/// to-do state changed, so that it fetches fresh content.
struct EventsController {
    let broadcaster: EventBroadcaster

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/events") { request, _ in
            // `?max=N` ends the stream after N change events (for scripts and tests).
            let limit = try Self.limit(request)
            guard let stream = await broadcaster.subscribe() else {
                throw APIError(.serviceUnavailable, "too many open event streams, or the server is shutting down")
            }
            let headers: HTTPFields = [
                .contentType: "text/event-stream; charset=utf-8",
                .cacheControl: "no-store",
            ]
            let broadcaster = self.broadcaster
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: ServerEvent.preamble))
                // The HTTP server is the first service told to shut down, and it waits
                // for open responses: end the streams as soon as shutdown starts.
                try await withGracefulShutdownHandler {
                    var sent = 0
                    for await event in stream {
                        try await writer.write(ByteBuffer(string: event.wireFormat))
                        if case .todosChanged = event { sent += 1 }
                        if let limit, sent >= limit { break }
                    }
                } onGracefulShutdown: {
                    Task { await broadcaster.close() }
                }
                try await writer.finish(nil)
            })
        }
    }

    private static func limit(_ request: Request) throws -> Int? {
        guard let text = request.uri.queryParameters.get("max") else { return nil }
        guard let limit = Int(text), limit > 0 else {
            throw APIError.badRequest("invalid query parameter “max”: “\(text)” is not a positive whole number")
        }
        return limit
    }
}
