/// A message on the event stream (`GET /events`), in the Server-Sent Events
/// format that `EventSource` reads.
public enum ServerEvent: Sendable, Equatable {
    /// The to-do list or its history changed; `version` counts the changes
    /// this server has seen, and `id` names where the list stands (the
    /// store's ``Todos/AppStore/updateMark()``, or this server's count):
    /// a reconnecting `EventSource` sends it back as `Last-Event-ID`.
    /// Without `id`, the id is `version`.
    case todosChanged(version: Int, id: String? = nil)
    /// A comment line that keeps an idle stream open and lets the server
    /// notice a closed connection.
    case heartbeat

    /// The event as it goes on the wire, ending with the blank line that ends
    /// an event.
    ///
    /// ```
    /// event: todos
    /// id: 7
    /// data: {"version":7}
    /// ```
    public var wireFormat: String {
        switch self {
        case .todosChanged(let version, let id):
            "event: todos\nid: \(id ?? String(version))\ndata: {\"version\":\(version)}\n\n"
        case .heartbeat:
            ": heartbeat\n\n"
        }
    }

    /// What a stream starts with: how long a browser waits before it
    /// reconnects (1 s, so pages catch up quickly after a restart).
    /// The id the event carries on the wire, `nil` for a heartbeat.
    var id: String? {
        switch self {
        case .todosChanged(let version, let id): id ?? String(version)
        case .heartbeat: nil
        }
    }

    static var preamble: String { "retry: 1000\n: connected\n\n" }
}
