import Foundation

/// The progress bar of a big import, drawn on standard error when it is a
/// terminal: reading, then checking the items, then saving them in one
/// transaction. Small imports and non-terminals show nothing.
final class ImportProgress {
    /// The smallest document, in bytes, worth a progress bar (some hundred items).
    static let threshold = 64 * 1024

    /// What the import is doing.
    enum Phase {
        /// Decoding and validating the document.
        case checking
        /// Committing this many items.
        case saving(Int)
    }

    private let isShown: Bool
    private let byteCount: Int
    private var isDrawn = false

    /// A progress bar for a document of `byteCount` bytes.
    init(byteCount: Int, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.byteCount = byteCount
        isShown = isTerminal && byteCount >= Self.threshold
    }

    /// Draws the bar for `phase`.
    func show(_ phase: Phase) {
        guard isShown else { return }
        let (done, label): (Int, String) = switch phase {
        case .checking: (1, "checking \(Self.kilobytes(byteCount)) of JSON")
        case .saving(let count): (2, "saving \(count) items")
        }
        let width = 24
        let filled = width * done / 3
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        draw("Importing [\(bar)] \(done)/3 \(label)…")
    }

    /// Clears the bar.
    func clear() {
        guard isDrawn else { return }
        draw("")
        isDrawn = false
    }

    private func draw(_ text: String) {
        StandardStreams.error("\r\u{1B}[K" + text)
        isDrawn = !text.isEmpty
    }

    private static func kilobytes(_ bytes: Int) -> String {
        bytes >= 1_048_576 ? String(format: "%.1f MB", Double(bytes) / 1_048_576) : "\(bytes / 1024) KB"
    }
}
