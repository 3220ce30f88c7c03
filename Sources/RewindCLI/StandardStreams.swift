#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes to standard output and standard error without ever stopping the
/// program on a failed write (Foundation's `FileHandle.write(_:)` traps on
/// one: a closed descriptor, a full disk, a pipe whose reader left).
///
/// A result that cannot be written to standard output ends the process with
/// exit status 74 (`EX_IOERR`) and one line on standard error, after the
/// work is done: a change the command made is saved, so a script that sees
/// 74 knows not to make it again. A reader that left the pipe (`EPIPE`, with
/// `SIGPIPE` ignored) ends it quietly with status 141, as the signal would
/// have. A message that cannot be written to standard error is dropped.
enum StandardStreams {
    /// The exit status when standard output cannot be written.
    static let outputFailureStatus: Int32 = 74

    /// Writes `text` on standard output, or ends the process as the type says.
    static func output(_ text: String) {
        output(Data(text.utf8))
    }

    /// Writes `data` on standard output, or ends the process as the type says.
    static func output(_ data: Data) {
        guard let failure = write(data, to: STDOUT_FILENO) else { return }
        if failure == EPIPE { exit(128 + SIGPIPE) }
        error("rewind: could not write to standard output (\(String(cString: strerror(failure)))); "
            + "any change the command made is saved\n")
        exit(outputFailureStatus)
    }

    /// Writes `text` on standard error; a failure is ignored, there being
    /// nowhere left to say it.
    static func error(_ text: String) {
        _ = write(Data(text.utf8), to: STDERR_FILENO)
    }

    /// Writes all of `data` to `descriptor`, again after an interruption or a
    /// partial write; the `errno` of the failure, or nil when it was written.
    static func write(_ data: Data, to descriptor: Int32) -> Int32? {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int32? in
            guard var next = buffer.baseAddress else { return nil }
            var left = buffer.count
            while left > 0 {
                #if canImport(Glibc)
                let written = Glibc.write(descriptor, next, left)
                #else
                let written = Darwin.write(descriptor, next, left)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                next += written
                left -= written
            }
            return nil
        }
    }
}
