import Foundation
import Rewind
import Todos

/// A store that keeps state and undo history in one JSON file: every
/// operation rewrites the file atomically
/// (temporary file, flush, rename), so the file is always whole.
///
/// The file is a ``JSONFileStore/Document``: the app state in the documented
/// format (`docs/json-format.md`) plus the history steps and position. Meant
/// for small lists and for people who like a file they can read; the SQLite
/// store writes O(1) rows per change instead of the whole file.
///
/// It is an actor on an executor of its own (``StoreExecutor``), so that
/// writing the file holds none of the threads of Swift's cooperative pool.
public actor JSONFileStore: AppStore {
    /// What the file holds.
    public struct Document: Codable, Sendable {
        /// The app state.
        public var state: AppState
        /// The history steps, oldest first.
        public var steps: [HistoryStep<AppState.Change>]
        /// How many steps are done.
        public var position: Int
    }

    private let executor = StoreExecutor(label: "rewind.store.json")
    private let core: StoreCore
    private var updateStreams = StoreUpdates()
    /// The file.
    public let url: URL

    /// The executor the store's work runs on.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Opens the store kept in the file at `url`, creating it on the first change.
    ///
    /// - Throws: ``StoreError/undecodableFile(path:detail:)`` when the file
    ///   exists but is not such a document; it is then left as it is.
    public init(url: URL, limit: Int? = nil, now: @escaping @Sendable () -> Date = SQLiteStore.millisecondClock) throws {
        self.url = url
        if let data = FileManager.default.contents(atPath: url.path), !data.isEmpty {
            let document: Document
            do {
                document = try TodoJSON.decode(Document.self, from: data, reading: .store)
            } catch {
                throw StoreError.undecodableFile(path: url.path, detail: error.description)
            }
            let journal = Journal(url: url, steps: document.steps)
            let core: StoreCore
            do {
                core = try StoreCore(document.state, steps: document.steps, position: document.position,
                                     limit: limit, now: now, journal: journal)
            } catch {
                throw StoreError.undecodableFile(path: url.path, detail: "\(error)")
            }
            // A smaller limit than the file's keeps only the newest steps.
            journal.steps = Array(document.steps.suffix(core.history().steps.count))
            self.core = core
        } else {
            core = StoreCore(limit: limit, now: now, journal: Journal(url: url, steps: []))
        }
    }

    /// Runs `body` with the current state without copying it.
    public func read<Result: Sendable>(_ body: @escaping @Sendable (AppState) throws -> Result) throws -> Result {
        try core.read(body)
    }
    /// The named steps and the current position.
    public func history() -> HistoryOverview { core.history() }
    /// Applies `changes` as one undo step, saved before it returns.
    @discardableResult
    public func change(_ changes: [AppState.Change], named name: String?) throws -> HistoryStep<AppState.Change> {
        try notifying { try core.change(changes, named: name) }
    }

    /// Applies `changes` as one undo step and answers those of the items
    /// with `ids` that exist after it, in the same turn of the actor.
    public func change(
        _ changes: [AppState.Change], named name: String?, answering ids: [UUID]
    ) throws -> (step: HistoryStep<AppState.Change>, items: [TodoItem]) {
        let step = try change(changes, named: name)
        return (step, core.read { state in ids.compactMap { state.todos[id: $0] } })
    }
    /// Reverts the newest done step, saved before it returns.
    @discardableResult
    public func undo() throws -> String? { try notifying { try core.undo() } }
    /// Repeats the newest undone step, saved before it returns.
    @discardableResult
    public func redo() throws -> String? { try notifying { try core.redo() } }
    /// Moves the history to `position`, saved before it returns.
    public func jump(to position: Int) throws { try notifying { try core.jump(to: position) } }
    /// The history as a tree without abandoned branches: the file keeps
    /// no redo steps that a new change replaced (``HistoryTree/init(linear:)``).
    public func historyTree() -> HistoryTree { core.historyTree() }
    /// Moves the history to the step numbered `number` of ``historyTree()``
    /// (its position), saved before it returns.
    ///
    /// - Throws: ``HistoryError/stepNotFound(_:)`` when there is no such step.
    public func jump(toStep number: Int64) throws { try notifying { try core.jump(toStep: number) } }
    /// Empties state and history, saved before it returns.
    public func reset() throws { try notifying { try core.reset() } }
    /// A stream with an element after every operation.
    public func updates() -> AsyncStream<Void> { updateStreams.subscribe() }

    /// Empties the store, deletes its file, and ends every update stream.
    public func destroy() throws {
        try reset()
        updateStreams.endAll()
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            // A file that is already gone is destroyed; one that stays is not.
            guard !FileManager.default.fileExists(atPath: url.path) else {
                throw StoreError.io(path: url.path, detail: "the file cannot be deleted: \(error.localizedDescription)")
            }
        }
    }

    private func notifying<Result>(_ body: () throws -> Result) throws -> Result {
        let result = try body()
        updateStreams.notify()
        return result
    }

    /// Rewrites the whole document after each operation, keeping its own
    /// copy of the steps up to date from the entry's events. It lives with
    /// the core, on the store's executor.
    private final class Journal: StoreJournal {
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
