import Foundation
import Rewind
import Todos

/// A store that keeps state and undo history in one JSON file, the seed's
/// disk store done right: every operation rewrites the file atomically
/// (temporary file, flush, rename), so the file is always whole.
///
/// The file is a ``JSONFileStore/Document``: the app state in the documented
/// format (`docs/json-format.md`) plus the history steps and position. Meant
/// for small lists and for people who like a file they can read; the SQLite
/// store writes O(1) rows per change instead of the whole file.
public final class JSONFileStore: AppStore, @unchecked Sendable {
    /// What the file holds.
    public struct Document: Codable, Sendable {
        /// The app state.
        public var state: AppState
        /// The history steps, oldest first.
        public var steps: [HistoryStep<AppState.Change>]
        /// How many steps are done.
        public var position: Int
    }

    private let core: InMemoryStore
    /// The file.
    public let url: URL

    /// Opens the store kept in the file at `url`, creating it on the first change.
    ///
    /// - Throws: ``StoreError/undecodableFile(path:detail:)`` when the file
    ///   exists but is not such a document; it is then left as it is.
    public init(url: URL, limit: Int? = nil, now: @escaping @Sendable () -> Date = SQLiteStore.millisecondClock) throws {
        self.url = url
        let journal: Journal
        if let data = FileManager.default.contents(atPath: url.path), !data.isEmpty {
            let document: Document
            do {
                document = try TodoJSON.decode(Document.self, from: data, reading: .store)
            } catch {
                throw StoreError.undecodableFile(path: url.path, detail: error.description)
            }
            journal = Journal(url: url, steps: document.steps)
            do {
                core = try InMemoryStore(document.state, steps: document.steps, position: document.position,
                                         limit: limit, now: now, journal: journal)
            } catch {
                throw StoreError.undecodableFile(path: url.path, detail: "\(error)")
            }
            // A smaller limit than the file's keeps only the newest steps.
            journal.steps = Array(document.steps.suffix(core.history().steps.count))
        } else {
            journal = Journal(url: url, steps: [])
            core = InMemoryStore(limit: limit, now: now, journal: journal)
        }
    }

    /// The current state.
    public func state() -> AppState { core.state() }
    /// Runs `body` with the current state without copying it.
    public func read<Result>(_ body: (AppState) throws -> Result) rethrows -> Result { try core.read(body) }
    /// The named steps and the current position.
    public func history() -> HistoryOverview { core.history() }
    /// Applies `changes` as one undo step, saved before it returns.
    @discardableResult
    public func change(_ changes: [AppState.Change], named name: String?) throws -> HistoryStep<AppState.Change> {
        try core.change(changes, named: name)
    }
    /// Reverts the newest done step, saved before it returns.
    @discardableResult
    public func undo() throws -> String? { try core.undo() }
    /// Repeats the newest undone step, saved before it returns.
    @discardableResult
    public func redo() throws -> String? { try core.redo() }
    /// Moves the history to `position`, saved before it returns.
    public func jump(to position: Int) throws { try core.jump(to: position) }
    /// Empties state and history, saved before it returns.
    public func reset() throws { try core.reset() }
    /// Calls `callback` after every operation.
    @discardableResult
    public func updated(_ callback: @escaping @Sendable () -> Void) -> StoreSubscription { core.updated(callback) }

    /// Empties the store and deletes its file.
    public func destroy() throws {
        try core.destroy()
        try? FileManager.default.removeItem(at: url)
    }

    /// Rewrites the whole document after each operation, keeping its own
    /// copy of the steps up to date from the entry's events. Only called
    /// under the core's lock.
    private final class Journal: StoreJournal, @unchecked Sendable {
        let url: URL
        var steps: [HistoryStep<AppState.Change>]

        init(url: URL, steps: [HistoryStep<AppState.Change>]) {
            self.url = url
            self.steps = steps
        }

        func write(_ entry: JournalEntry, state: AppState) throws {
            var steps = entry.operation == .reset ? [] : self.steps
            for event in entry.events {
                switch event {
                case .performed(let step, let index, let coalesced, _):
                    guard index <= steps.count else { throw outOfStep() }
                    if coalesced, index < steps.count {
                        steps[index] = step
                    } else {
                        steps.removeSubrange(index...)
                        steps.append(step)
                    }
                case .undone(let step, let index), .redone(let step, let index):
                    guard steps.indices.contains(index) else { throw outOfStep() }
                    steps[index] = step
                case .trimmed(let count):
                    steps.removeFirst(min(count, steps.count))
                case .jumped:
                    break
                }
            }
            let document = Document(state: state, steps: steps, position: entry.position)
            let data: Data
            do {
                data = try TodoJSON.encode(document, pretty: true)
            } catch {
                throw StoreError.io(path: url.path, detail: error.description)
            }
            try AtomicFile.write(data, to: url)
            self.steps = steps
        }

        private func outOfStep() -> StoreError {
            StoreError.io(path: url.path, detail: "the saved history is out of step with memory")
        }
    }
}
