import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// TCP sockets on 127.0.0.1, for test servers that misbehave on purpose.
enum LoopbackSocket {
    /// Why no socket could listen.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        let description: String
    }

    /// A new TCP socket (not yet bound or connected).
    static func make() -> Int32 {
        #if canImport(Glibc)
            Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
            var yes: Int32 = 1
            setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            return socket
        #endif
    }

    /// Sends `count` bytes from `bytes` on `socket`, as `write` does, but
    /// without the signal that a closed peer raises (it would end the tests).
    static func send(_ socket: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.send(socket, bytes, count, Int32(MSG_NOSIGNAL))
        #else
            Darwin.send(socket, bytes, count, 0)
        #endif
    }

    /// The address of `port` on 127.0.0.1.
    static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    /// A socket that listens on a free port of 127.0.0.1, and that port.
    static func listening(backlog: Int32) throws -> (socket: Int32, port: Int) {
        let socket = make()
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard bound == 0, named == 0, listen(socket, backlog) == 0 else {
            close(socket)
            throw Failure(description: "cannot listen on 127.0.0.1: errno \(errno)")
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Connects `socket` to `port` on 127.0.0.1; whether it did.
    static func connect(_ socket: Int32, to port: Int) -> Bool {
        var address = address(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                    Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                    Darwin.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        } == 0
    }
}
