import Foundation
import TodoStore
import Todos

/// The ids of the items the last `rewind todo list` numbered, in order, kept
/// in `last-list.json` in the data directory so that a later command can
/// take "3" to mean the third item shown.
struct LastListing {
    /// The file's name in the data directory.
    static let fileName = "last-list.json"

    /// Where the listing is kept.
    let url: URL

    /// The listing of the data directory `directory`.
    init(directory: DataDirectory) {
        url = directory.url.appendingPathComponent(Self.fileName)
    }

    /// The file of `person`'s last listing of the shared list `list`: each
    /// person numbers each list by what they last saw of it.
    init(directory: DataDirectory, sharedList list: UUID, person: AccountName) {
        url = directory.url.appendingPathComponent("last-list.\(list.uuidString.lowercased()).\(person.key).json")
    }

    /// Saves `ids` as the numbered listing, replacing the old one atomically
    /// (a temporary file renamed over it), so a reader never sees half a list.
    ///
    /// The file is a cache of what was shown, not data: it is not flushed to
    /// the disk (no `fsync`), which would make every `list` wait for it. A
    /// crash may lose the newest listing, never leave half of one.
    ///
    /// - Complexity: O(*n*).
    func save(_ ids: [UUID]) throws {
        // Written by hand: ten thousand ids take a fraction of JSONEncoder's time.
        var text = "{\"ids\":["
        text.reserveCapacity(ids.count * 39 + 16)
        for (index, id) in ids.enumerated() {
            if index > 0 { text += "," }
            text += "\"" + id.uuidString + "\""
        }
        text += "]}\n"
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(Self.fileName).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max))")
        do {
            try Self.writeNewFile(Array(text.utf8), at: temporary.path)
            guard rename(temporary.path, url.path) == 0 else { throw SystemCallError.current("rename") }
        } catch {
            unlink(temporary.path)
            throw StoreError.io(path: url.path, detail: "\(error)")
        }
    }

    /// Writes `bytes` to a new file at `path`, readable by its owner only.
    private static func writeNewFile(_ bytes: [UInt8], at path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SystemCallError.current("open") }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError.current("write")
            }
            written += count
        }
    }

    /// Removes the saved listing, so that no number refers to an older list.
    func forget() {
        unlink(url.path)
    }

    /// The numbered ids, or `nil` when no list was shown yet (or the file
    /// cannot be read, which counts as no list).
    func load() -> [UUID]? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return (try? JSONDecoder().decode(File.self, from: data))?.ids
    }

    private struct File: Decodable {
        let ids: [UUID]
    }
}

/// A failed system call and what `errno` said.
private struct SystemCallError: Error, CustomStringConvertible {
    let call: String
    let code: Int32

    /// The error of the system call `call` that just failed.
    static func current(_ call: String) -> SystemCallError {
        SystemCallError(call: call, code: errno)
    }

    var description: String {
        "\(call): \(String(cString: strerror(code)))"
    }
}
