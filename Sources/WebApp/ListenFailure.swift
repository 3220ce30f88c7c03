import Foundation
import NIOCore

/// Why a server could not listen, in words a person can act on: the
/// failures of binding a port that people meet (a port in use, an address
/// this machine does not have, a port below 1024 without the right).
public enum ListenFailure {
    /// A sentence for `error` when it is such a failure to bind; `nil` for
    /// any other error, which is then shown as it is.
    public static func explanation(of error: any Error) -> String? {
        // A host that is no address and no name this machine can resolve.
        if error is SocketAddressError || error is SocketAddressError.UnknownHost {
            return "--host takes an address of this machine (127.0.0.1, 0.0.0.0 for all, ::1) or a name of one"
        }
        guard let error = error as? IOError else { return nil }
        switch error.errnoCode {
        case EADDRINUSE:
            return "the port is in use: another program (perhaps another rewind serve) listens on it; stop it, or choose another port with --port"
        case EADDRNOTAVAIL:
            return "this machine has no such address; give one of its own with --host (127.0.0.1, or 0.0.0.0 for all)"
        case EACCES:
            return "this user may not listen on that port (ports below 1024 need privileges); choose a port from 1024 up with --port"
        default:
            return nil
        }
    }
}
