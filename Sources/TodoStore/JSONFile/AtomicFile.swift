import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that it is always either the old or the new content,
/// never half of one: the data goes to a temporary file beside it, is flushed
/// to the disk, and then renamed over the old file.
enum AtomicFile {
    /// Replaces the file at `url` with `data`, durably.
    ///
    /// - Throws: ``StoreError/io(path:detail:)``; the old file is then intact.
    static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw failure(url, "cannot create a temporary file") }
        var written = 0
        let ok = data.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            while written < buffer.count {
                let result = Foundation.write(descriptor, base + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += result
            }
            return true
        }
        let flushed = ok && fsync(descriptor) == 0
        close(descriptor)
        guard flushed else {
            unlink(temporary.path)
            throw failure(url, "cannot write the new content")
        }
        guard rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw failure(url, "cannot replace the old file")
        }
        // Make the rename itself durable.
        let directoryDescriptor = open(directory.path, O_RDONLY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    private static func failure(_ url: URL, _ what: String) -> StoreError {
        StoreError.io(path: url.path, detail: "\(what) (\(String(cString: strerror(errno))))")
    }
}
