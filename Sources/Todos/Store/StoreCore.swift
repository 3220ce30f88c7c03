import Foundation
import Rewind

/// The synchronous heart of a store: the app state and its undo history
/// in memory, in a `History<AppState>`, with every operation written to an
/// optional ``StoreJournal`` and reverted when the journal fails. The stores
/// build on it (``InMemoryStore`` without a journal, the persistent stores
/// of the `TodoStore` module with one).
///
/// ```swift
/// let core = StoreCore(now: { clock.now })
/// try core.change([.add(milk)], named: nil)
/// core.history().undoTitle     // "Undo Add “Buy milk”"
/// try core.undo()
/// ```
///
/// It is not thread-safe: confine it to one actor or queue, as
/// ``InMemoryStore`` does.
public final class StoreCore {
    private let limit: Int?
    private let now: @Sendable () -> Date
    private let journal: (any StoreJournal)?
    private var timeline: History<AppState>
    private var pendingEvents: [HistoryEvent<AppState.Change>] = []

    /// Creates a core holding `state` and no history.
    ///
    /// - Parameters:
    ///   - limit: The most undo steps to keep; `nil` keeps all.
    ///   - now: The clock that dates steps; dates are rounded to milliseconds.
    ///   - journal: Where to write each operation durably, if anywhere.
    public convenience init(
        _ state: AppState = AppState(), limit: Int? = nil,
        now: @escaping @Sendable () -> Date, journal: (any StoreJournal)? = nil
    ) {
        self.init(emptyHistoryOf: state, limit: limit, now: now, journal: journal)
    }

    /// Restores a saved core: `state` is the state after `steps[..<position]`.
    ///
    /// - Throws: ``HistoryError/invalidRestoredPosition(_:stepCount:)``.
    public convenience init(
        _ state: AppState, steps: [HistoryStep<AppState.Change>], position: Int,
        limit: Int? = nil, now: @escaping @Sendable () -> Date, journal: (any StoreJournal)? = nil
    ) throws {
        self.init(emptyHistoryOf: state, limit: limit, now: now, journal: journal)
        timeline = try restoredHistory(state, steps: steps, position: position)
    }

    private init(
        emptyHistoryOf state: AppState, limit: Int?, now: @escaping @Sendable () -> Date, journal: (any StoreJournal)?
    ) {
        self.limit = limit
        // Steps are dated to the millisecond, like everything the JSON format keeps.
        self.now = { now().roundedToMilliseconds }
        self.journal = journal
        // Set once before `observed`, which needs every property set.
        timeline = History(state, limit: limit, now: self.now)
        timeline = observed(timeline)
    }

    /// A history of `steps` at `position` after which the state is `state`,
    /// whose events this core records.
    ///
    /// - Throws: ``HistoryError/invalidRestoredPosition(_:stepCount:)``.
    private func restoredHistory(
        _ state: AppState, steps: [HistoryStep<AppState.Change>], position: Int
    ) throws -> History<AppState> {
        observed(try History(state, steps: steps, position: position, limit: limit, now: now))
    }

    private func observed(_ history: History<AppState>) -> History<AppState> {
        history.observe { [weak self] event in self?.pendingEvents.append(event) }
        return history
    }

    // MARK: Reading

    /// The current state.
    public func state() -> AppState {
        timeline.model
    }

    /// Runs `body` with the current state without copying it.
    public func read<Result>(_ body: (AppState) throws -> Result) rethrows -> Result {
        try body(timeline.model)
    }

    /// The named steps and the current position.
    ///
    /// - Complexity: O(*n*) in the number of steps.
    public func history() -> HistoryOverview {
        HistoryOverview(timeline)
    }

    /// The history as a tree: one line, numbered by position, since the
    /// core drops the redo steps a new change replaces
    /// (``HistoryTree/init(linear:)``).
    ///
    /// - Complexity: O(*n*) in the number of steps.
    public func historyTree() -> HistoryTree {
        HistoryTree(linear: history())
    }

    /// Every saved step with its changes, oldest first, and the position:
    /// what a persistent store writes when it saves the whole history.
    public func steps() -> (steps: [HistoryStep<AppState.Change>], position: Int) {
        (timeline.steps, timeline.position)
    }

    // MARK: Changing

    /// Applies `changes` as one undo step; see ``AppStore/change(_:named:)``.
    ///
    /// - Complexity: That of the changes (O(1) to add or alter an item) plus
    ///   O(1) to record the step.
    @discardableResult
    public func change(_ changes: [AppState.Change], named name: String?) throws -> HistoryStep<AppState.Change> {
        try operate(.change) {
            guard !changes.isEmpty else { throw TodoError.nothingToChange("no change was given") }
            let changes = AppState.Change.deciding(changes) { [timeline] in timeline.model.todos[id: $0]?.isCompleted }
            let before = RedoTail(timeline, limit: limit)
            let stepName = name ?? timeline.model.stepName(for: changes)
            try timeline.perform(changes, named: stepName)
            let performed = pendingEvents.lazy.compactMap { event -> HistoryStep<AppState.Change>? in
                if case .performed(let step, _, _, _) = event { return step }
                return nil
            }.first
            return (performed ?? HistoryStep(name: stepName, date: now(), changes: []), { [self] in
                _ = try timeline.undo()
                timeline = try restoredHistory(timeline.model, steps: before.restoring(timeline), position: before.position)
            })
        }
    }

    /// Reverts the newest done step and returns its name, or `nil` when
    /// there is nothing to undo.
    @discardableResult
    public func undo() throws -> String? {
        try operate(.undo) { [self] in
            let name = try timeline.undo()
            return (name, { [self] in if name != nil { _ = try timeline.redo() } })
        }
    }

    /// Repeats the newest undone step and returns its name, or `nil` when
    /// there is nothing to redo.
    @discardableResult
    public func redo() throws -> String? {
        try operate(.redo) { [self] in
            let name = try timeline.redo()
            return (name, { [self] in if name != nil { _ = try timeline.undo() } })
        }
    }

    /// Moves the history to `position`.
    public func jump(to position: Int) throws {
        try operate(.jump) { [self] in
            let start = timeline.position
            try timeline.jump(to: position)
            return ((), { [self] in try timeline.jump(to: start) })
        }
    }

    /// Moves the history to the step numbered `number` of ``historyTree()``:
    /// its position, 0 being the start.
    ///
    /// - Throws: ``HistoryError/stepNotFound(_:)`` when there is no such
    ///   step; nothing changes then.
    public func jump(toStep number: Int64) throws {
        guard (0...Int64(timeline.stepCount)).contains(number) else { throw HistoryError.stepNotFound(number) }
        try jump(to: Int(number))
    }

    /// Empties the state and the history.
    public func reset() throws {
        try operate(.reset) { [self] in
            let old = timeline
            timeline = observed(History(AppState(), limit: limit, now: now))
            return ((), { [self] in timeline = old })
        }
    }

    /// Replaces state and history with what another process saved, without
    /// writing to the journal.
    ///
    /// - Throws: ``HistoryError/invalidRestoredPosition(_:stepCount:)``.
    public func reload(_ state: AppState, steps: [HistoryStep<AppState.Change>], position: Int) throws {
        timeline = try restoredHistory(state, steps: steps, position: position)
    }

    // MARK: Operating

    /// Runs `body`, writes the journal entry, and reverts with the returned
    /// rollback when the journal fails; when the rollback fails too, throws
    /// ``HistoryError/revertFailed(error:revert:)`` with both errors.
    private func operate<Result>(
        _ operation: JournalEntry.Operation,
        _ body: () throws -> (Result, () throws -> Void)
    ) throws -> Result {
        pendingEvents.removeAll()
        let (value, rollback) = try body()
        let events = pendingEvents
        pendingEvents.removeAll()
        if let journal, operation == .reset || !events.isEmpty {
            let entry = JournalEntry(
                operation: operation, events: events, touchedItemIDs: Self.touched(by: events, operation),
                position: timeline.position, stepCount: timeline.stepCount
            )
            do {
                try journal.write(entry, state: timeline.model)
            } catch {
                defer { pendingEvents.removeAll() }
                do {
                    try rollback()
                } catch let revert {
                    throw HistoryError.revertFailed(error: "\(error)", revert: "\(revert)")
                }
                throw error
            }
        }
        return value
    }

    private static func touched(by events: [HistoryEvent<AppState.Change>], _ operation: JournalEntry.Operation) -> Set<UUID>? {
        guard operation != .reset else { return nil }
        var ids = Set<UUID>()
        for event in events {
            let step: HistoryStep<AppState.Change>
            switch event {
            case .performed(let s, _, _, _), .undone(let s, _), .redone(let s, _): step = s
            case .jumped, .trimmed: continue
            }
            for change in step.changes {
                guard let touched = change.touchedItemIDs else { return nil }
                ids.formUnion(touched)
            }
        }
        return ids
    }
}

/// The steps a new step would discard (redo steps, and the oldest ones over
/// the limit), kept so that a failed journal write can put them back.
private struct RedoTail {
    let position: Int
    let head: [HistoryStep<AppState.Change>]
    let tail: [HistoryStep<AppState.Change>]

    init(_ history: History<AppState>, limit: Int?) {
        position = history.position
        let trimmed = limit.map { max(0, history.position + 1 - max(0, $0)) } ?? 0
        head = (0..<min(trimmed, history.position)).compactMap { history.step(at: $0) }
        tail = (history.position..<history.stepCount).compactMap { history.step(at: $0) }
    }

    /// The full step list after the new step was undone and dropped.
    func restoring(_ history: History<AppState>) -> [HistoryStep<AppState.Change>] {
        head + history.steps.dropLast() + tail
    }
}
