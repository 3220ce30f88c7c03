import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP proxy on 127.0.0.1 in front of a server on 127.0.0.1, which can be
/// frozen: while frozen it passes nothing on in either direction and
/// accepts no new connection, yet keeps every connection open, as a server
/// whose machine stopped (or a network that drops everything) looks to a
/// client. Thawed, it passes on what waited. Call ``stop()`` when done:
/// its threads run until then.
public final class FreezableProxy: Sendable {
    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private let targetPort: Int

    private struct State {
        var frozen = false
        var stopped = false
        /// The sockets of the connections open, each with how many of its
        /// two copying threads still run.
        var connections: [Int32: Int] = [:]
    }

    private let state = Mutex(State())

    /// Listens on a free port, and passes each connection on to `targetPort`.
    ///
    /// - Throws: An error naming `errno` when no socket can listen.
    public init(forwardingTo targetPort: Int) throws {
        (listener, port) = try LoopbackSocket.listening(backlog: 64)
        self.targetPort = targetPort
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// Stops passing anything on, and accepting connections.
    public func freeze() { state.withLock { $0.frozen = true } }

    /// Passes on again what waited, and accepts the connections that waited.
    public func thaw() { state.withLock { $0.frozen = false } }

    /// Closes the listening socket and every connection.
    public func stop() {
        // Under the lock, so that a copying thread cannot close a socket
        // (and its number be given to another) between the two.
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            for socket in state.connections.keys { shutdown(socket, Int32(SHUT_RDWR)) }
        }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private var frozen: Bool { state.withLock { $0.frozen } }
    private var stopped: Bool { state.withLock { $0.stopped } }

    private func acceptConnections() {
        while !stopped {
            guard !frozenNow(), readable(listener), !frozen else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let server = LoopbackSocket.make()
            let connected = LoopbackSocket.connect(server, to: targetPort)
            guard connected else {
                close(client)
                close(server)
                continue
            }
            state.withLock { $0.connections[client] = 2 }
            Thread.detachNewThread { [self] in pass(from: client, to: server, pair: client) }
            Thread.detachNewThread { [self] in pass(from: server, to: client, pair: client) }
        }
        close(listener)
    }

    /// Copies what `source` sends to `destination` while not frozen, until
    /// either ends; then ends both. The second of a connection's two
    /// threads to end (`pair` names the connection) closes its sockets.
    private func pass(from source: Int32, to destination: Int32, pair: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        copying: while !stopped {
            guard !frozenNow(), readable(source), !frozen else { continue }
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes { LoopbackSocket.send(destination, $0.baseAddress?.advanced(by: sent), count - sent) }
                guard written > 0 else { break copying }
                sent += written
            }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
        state.withLock { state in
            let left = (state.connections[pair] ?? 1) - 1
            state.connections[pair] = left > 0 ? left : nil
            if left <= 0 {
                close(source)
                close(destination)
            }
        }
    }

    /// Whether the proxy is frozen; if so, after a pause (the threads wait,
    /// rather than spin, while it is).
    private func frozenNow() -> Bool {
        guard frozen else { return false }
        usleep(20_000)
        return true
    }

    /// Whether `socket` has something to read (or has ended) within 50 ms.
    private func readable(_ socket: Int32) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 50) > 0
    }
}
