import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing
import TestSupport

/// A TCP connection to the live server that sends exactly the bytes a test
/// gives (half a request head, a body cut short, an absolute-form target)
/// and collects what comes back.
struct RawConnection: Sendable {
    private let channel: any Channel
    private let received: NIOLockedValueBox<String>

    /// Opens a connection to `127.0.0.1:port`, and sends `first` as soon as
    /// it is open: from the connection's event loop, so that a test whose
    /// task waits for a thread (the suite runs in parallel) still sends it
    /// well within the server's shortest timeout, which starts at the
    /// connection.
    static func open(port: Int, sending first: String? = nil) async throws -> RawConnection {
        let received = NIOLockedValueBox("")
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(received: received))
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .flatMap { channel in
                guard let first else { return channel.eventLoop.makeSucceededFuture(channel) }
                return channel.writeAndFlush(ByteBuffer(string: first)).map { channel }
            }
            .get()
        return RawConnection(channel: channel, received: received)
    }

    /// Sends `text` as it is.
    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// Everything the server sent so far.
    var text: String { received.withLockedValue { $0 } }

    /// Whether the connection is still open.
    var isOpen: Bool { channel.isActive }

    /// Waits until the server closes the connection; closes it from this
    /// side and throws if the server has not within 10 s.
    func waitUntilClosed() async throws {
        do {
            try await waitUntil("the server to close the connection") { !isOpen }
        } catch {
            close()
            throw error
        }
    }

    /// Waits until what the server sent satisfies `condition`.
    func waitUntilReceived(_ condition: @escaping @Sendable (String) -> Bool) async throws {
        try await waitUntil("an answer from the server; it sent \(text.debugDescription)") { condition(text) }
    }

    /// Closes the connection from this side.
    func close() {
        channel.close(promise: nil)
    }

    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let received: NIOLockedValueBox<String>

        init(received: NIOLockedValueBox<String>) {
            self.received = received
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let text = String(buffer: unwrapInboundIn(data))
            received.withLockedValue { $0 += text }
        }
    }
}

/// Keeps every log message, so that a test can read what the server logged.
final class LogCapture: Sendable {
    private let entries = NIOLockedValueBox<[(level: Logger.Level, message: String)]>([])

    /// A logger that writes here, at every level.
    var logger: Logger {
        var logger = Logger(label: "WebAppTests") { _ in
            EventLogHandler { event in self.append(event.level, event.message.description) }
        }
        logger.logLevel = .trace
        return logger
    }

    /// The messages logged so far, with their levels.
    var messages: [(level: Logger.Level, message: String)] { entries.withLockedValue { $0 } }

    fileprivate func append(_ level: Logger.Level, _ message: String) {
        entries.withLockedValue { $0.append((level, message)) }
    }
}
