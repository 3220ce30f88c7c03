import Logging

/// A log handler that hands every event, at every level, to `receive`: a
/// test reads what was logged (a server's messages, a driver's trace).
///
/// ```swift
/// let logger = Logger(label: "test") { _ in EventLogHandler { event in seen.append(event.message.description) } }
/// ```
public struct EventLogHandler: LogHandler {
    private let receive: @Sendable (LogEvent) -> Void
    /// The handler's own metadata (added to nothing: events carry theirs).
    public var metadata: Logger.Metadata = [:]
    /// Every level, trace included.
    public var logLevel: Logger.Level = .trace

    /// A handler that calls `receive` with each event.
    public init(_ receive: @escaping @Sendable (LogEvent) -> Void) {
        self.receive = receive
    }

    /// The handler's metadata value for `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Hands `event` to `receive`.
    public func log(event: LogEvent) {
        receive(event)
    }
}
