import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket on 127.0.0.1 that listens and never answers: a connection
/// to it is made (the system accepts it) and then hears nothing, as from a
/// server that hangs.
public final class SilentServer: @unchecked Sendable {
    /// The port it listens on.
    public let port: Int
    private let socket: Int32

    /// Listens on a free port.
    ///
    /// - Throws: An error naming `errno` when no socket can listen.
    public init() throws {
        (socket, port) = try LoopbackSocket.listening(backlog: 8)
    }

    deinit {
        close(socket)
    }
}
