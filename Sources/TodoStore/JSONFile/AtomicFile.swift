import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that it is always either the old or the new content,
/// never half of one: the data goes to a temporary file beside it, is flushed
/// to the disk, and then renamed over the old file.
///
/// ```swift
/// try AtomicFile.replaceRegularFile(at: URL(fileURLWithPath: "todos.json"), with: document)
/// ```
public enum AtomicFile {
    /// Replaces the file at `url` with `data`, durably, readable by its owner only.
    ///
    /// - Throws: ``StoreError/io(path:detail:)`` or ``StoreError/diskFull(path:)``;
    ///   the old file is then intact.
    static func write(_ data: Data, to url: URL) throws {
        try write(data, to: url, mode: 0o600)
    }

    /// Writes `data` as the regular file at `url`: a new file is readable by
    /// its owner only (0600, made so, never widened later); an existing
    /// regular file keeps its permissions. Anything else at `url` is refused
    /// and left as it is: a symbolic link (not followed), a directory, a
    /// FIFO, a device or socket, and a file with other hard links (which
    /// would otherwise keep the old content, or change with it).
    ///
    /// - Throws: ``StoreError/notARegularFile(path:kind:)`` for a path that
    ///   names something else; ``StoreError/io(path:detail:)`` or
    ///   ``StoreError/diskFull(path:)`` when writing fails, the old file intact.
    public static func replaceRegularFile(at url: URL, with data: Data) throws {
        var status = stat()
        guard lstat(url.path, &status) == 0 else {
            guard errno == ENOENT else { throw failure(url, "cannot look at the file") }
            return try write(data, to: url, mode: 0o600)
        }
        if let kind = kindOfNonRegularFile(status) {
            throw StoreError.notARegularFile(path: url.path, kind: kind)
        }
        try write(data, to: url, mode: status.st_mode & 0o7777)
    }

    /// What the file of `status` is, when it is not a regular file with one link.
    static func kindOfNonRegularFile(_ status: stat) -> String? {
        switch status.st_mode & S_IFMT {
        case S_IFREG: status.st_nlink > 1 ? "a file with \(status.st_nlink) hard links" : nil
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    private static func write(_ data: Data, to url: URL, mode: mode_t) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        // Owner-only from the start; the kept mode is set before any content is written.
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw StoreError.io(path: url.path, detail: "the folder \(directory.path) does not exist") }
            throw failure(url, "cannot create a temporary file")
        }
        var written = 0
        let ok = fchmod(descriptor, mode) == 0 && data.withUnsafeBytes { buffer -> Bool in
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
        let flushError = errno
        close(descriptor)
        guard flushed else {
            unlink(temporary.path)
            errno = flushError
            throw failure(url, "cannot write the new content")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let renameError = errno
            unlink(temporary.path)
            errno = renameError
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
        if errno == ENOSPC || errno == EDQUOT { return StoreError.diskFull(path: url.path) }
        return StoreError.io(path: url.path, detail: "\(what) (\(String(cString: strerror(errno))))")
    }
}
