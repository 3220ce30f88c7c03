/// A message on the event stream (`GET /events`), in the Server-Sent Events
/// format that `EventSource` reads.
public enum ServerEvent: Sendable, Equatable {
    /// The to-do list or its history changed; `version` counts the changes
    /// this server has seen.
    case todosChanged(version: Int)
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
        case .todosChanged(let version):
            "event: todos\nid: \(version)\ndata: {\"version\":\(version)}\n\n"
        case .heartbeat:
            ": heartbeat\n\n"
        }
    }

    /// What a stream starts with: how long a browser waits before it
    /// reconnects (1 s, so pages catch up quickly after a restart).
    static var preamble: String { "retry: 1000\n: connected\n\n" }
}
