import Foundation
import TodoStore

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

    /// Saves `ids` as the numbered listing, replacing the old one atomically
    /// (a temporary file renamed over it), so a reader never sees half a list.
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
        do {
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw StoreError.io(path: url.path, detail: error.localizedDescription)
        }
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
