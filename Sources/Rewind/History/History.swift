import Foundation

/// An unlimited undo history of a ``Reversible`` model: every step keeps the
/// changes that revert it, never a copy of the model.
///
/// ```swift
/// let history = History(TodoList())
/// try history.perform(.add(milk), named: "Add “Buy milk”")
/// history.undoTitle                 // "Undo Add “Buy milk”"
/// try history.undo()                // the list is empty again
/// try history.redo()                // and milk is back
/// ```
///
/// It offers what the best undo systems do: named steps, explicit nested
/// groups (``group(named:coalescingKey:_:)``), merging of quick consecutive
/// changes (``perform(_:named:coalescingKey:)-(Model.Change,_,_)`` with a
/// key), an optional depth ``limit``, ``jump(to:)`` any step, and events for
/// observers (``observe(_:)``). A ``HistoryStep`` is `Codable` when the
/// model's changes are, so a store can save the history and restore it with
/// ``init(_:steps:position:limit:coalescingWindow:now:)``.
///
/// A change that fails to apply throws the model's error and leaves model and
/// history exactly as they were.
///
/// A history is a reference: the model lives in it. It is not thread-safe;
/// confine it to one actor or queue. Nor may a model's `apply` use the
/// history that applies it (read its ``model``, perform, undo): the model is
/// being changed in place, and Swift's exclusive access stops the program.
/// What a change needs of the model it reads from the model it is given.
public final class History<Model: Reversible> {
    /// The model in its current state.
    public private(set) var model: Model

    /// The most steps kept, or `nil` (the default) for no limit. When a new
    /// step would exceed it, the oldest steps are dropped.
    public var limit: Int? {
        didSet { trimToLimit() }
    }

    /// How long after a step's last change a change with the same coalescing
    /// key is still merged into it, in seconds (default 0.5).
    public var coalescingWindow: TimeInterval

    private let now: () -> Date
    // Steps live in `storage[base...]`: dropping the oldest moves `base`
    // instead of shifting the array, so a limited history stays O(1) a step.
    private var storage: [HistoryStep<Model.Change>] = []
    private var base = 0
    private var cursor = 0
    private var coalescingSealed = false
    private var openGroups: [OpenGroup] = []
    private var observers: [(id: Int, handler: (HistoryEvent<Model.Change>) -> Void)] = []
    private var nextObserverID = 0

    private struct OpenGroup {
        var name: String
        var coalescingKey: String?
        var date: Date
        // Inverses in the order they were made; undo applies them last first.
        var inverses: [Model.Change] = []
    }

    /// Creates an empty history of `model`.
    ///
    /// - Parameters:
    ///   - model: The model in its initial state, before the first step.
    ///   - limit: The most steps to keep; `nil` keeps all.
    ///   - coalescingWindow: See ``coalescingWindow``.
    ///   - now: The clock that dates steps; inject a fixed one in tests.
    public init(
        _ model: Model,
        limit: Int? = nil,
        coalescingWindow: TimeInterval = 0.5,
        now: @escaping () -> Date = Date.init
    ) {
        self.model = model
        self.limit = limit
        self.coalescingWindow = coalescingWindow
        self.now = now
    }

    /// Restores a saved history: `model` must be in the state at `position`,
    /// with `steps[..<position]` done and the rest undone.
    ///
    /// - Throws: ``HistoryError/invalidRestoredPosition(_:stepCount:)`` when
    ///   `position` is not in `0...steps.count`.
    public convenience init(
        _ model: Model,
        steps: [HistoryStep<Model.Change>],
        position: Int,
        limit: Int? = nil,
        coalescingWindow: TimeInterval = 0.5,
        now: @escaping () -> Date = Date.init
    ) throws {
        guard (0...steps.count).contains(position) else {
            throw HistoryError.invalidRestoredPosition(position, stepCount: steps.count)
        }
        self.init(model, limit: limit, coalescingWindow: coalescingWindow, now: now)
        storage = steps
        cursor = position
        coalescingSealed = true
        trimToLimit()
    }

    // MARK: Reading

    /// Every step, oldest first: done steps before ``position``, undone after.
    ///
    /// - Complexity: O(*n*) in the number of steps.
    public var steps: [HistoryStep<Model.Change>] {
        Array(storage[base...])
    }

    /// The number of steps, done and undone.
    public var stepCount: Int {
        storage.count - base
    }

    /// How many steps are done: the model is in the state after
    /// `steps[position - 1]`, and 0 is the state before the first step.
    public var position: Int {
        cursor - base
    }

    /// The step at `index` (0 is the oldest), or `nil` when there is none.
    public func step(at index: Int) -> HistoryStep<Model.Change>? {
        guard index >= 0, index < stepCount else { return nil }
        return storage[base + index]
    }

    /// Whether a group is open: changes performed now join it.
    public var isGroupOpen: Bool {
        !openGroups.isEmpty
    }

    // MARK: Performing

    /// Applies `change` and records it as a step named `name`.
    ///
    /// With a `coalescingKey`, the change joins the newest step instead when
    /// that step has the same key, nothing was undone since, and its last
    /// change is at most ``coalescingWindow`` old: typing a word is one step.
    /// Inside an open group the change joins the group.
    ///
    /// Undone steps are discarded: a new step clears redo.
    ///
    /// - Returns: The step the change was recorded in, or `nil` when it
    ///   joined an open group (the step is recorded when the group closes).
    /// - Throws: The model's error; model and history are then unchanged.
    @discardableResult
    public func perform(
        _ change: Model.Change, named name: String = "", coalescingKey: String? = nil
    ) throws -> HistoryStep<Model.Change>? {
        let inverse = try model.apply(change)
        return record([inverse], named: name, coalescingKey: coalescingKey)
    }

    /// Applies `changes` in order as one step: one undo reverts them all.
    ///
    /// If one fails, those applied before it are reverted and nothing is
    /// recorded. An empty array records nothing.
    ///
    /// - Returns: The step the changes were recorded in, or `nil` when there
    ///   were none or they joined an open group.
    /// - Throws: The model's error; model and history are then unchanged,
    ///   unless reverting the changes already applied fails too:
    ///   ``HistoryError/revertFailed(error:revert:)``, and the model may
    ///   then hold some of them (nothing is recorded).
    @discardableResult
    public func perform(
        _ changes: [Model.Change], named name: String = "", coalescingKey: String? = nil
    ) throws -> HistoryStep<Model.Change>? {
        guard !changes.isEmpty else { return nil }
        let inverses = try model._cross(changes.reversed())
        return record(inverses, named: name, coalescingKey: coalescingKey)
    }

    /// Ends coalescing: the next change starts a step of its own even if it
    /// shares the newest step's key.
    public func breakCoalescing() {
        coalescingSealed = true
    }

    /// Records `inverses` as a step (or in the open group, or the newest
    /// step they coalesce with), dated `since` (a group's opening) or now.
    @discardableResult
    private func record(
        _ inverses: [Model.Change], named name: String, coalescingKey: String?, since: Date? = nil
    ) -> HistoryStep<Model.Change>? {
        let date = now()
        if !openGroups.isEmpty {
            openGroups[openGroups.count - 1].inverses.append(contentsOf: inverses)
            return nil
        }
        if let coalescingKey, canCoalesce(coalescingKey, at: date) {
            let index = cursor - 1
            storage[index].changes.append(contentsOf: inverses)
            storage[index].lastChangeDate = date
            notify(.performed(storage[index], at: index - base, coalesced: true, discardedRedo: 0))
            return storage[index]
        }
        let step = HistoryStep(
            name: name, date: since ?? date, lastChangeDate: date, coalescingKey: coalescingKey, changes: inverses)
        appendStep(step)
        return step
    }

    private func canCoalesce(_ key: String, at date: Date) -> Bool {
        guard !coalescingSealed, cursor > base, cursor == storage.count else { return false }
        let top = storage[cursor - 1]
        let age = date.timeIntervalSince(top.lastChangeDate)
        return top.coalescingKey == key && age >= 0 && age <= coalescingWindow
    }

    private func appendStep(_ step: HistoryStep<Model.Change>) {
        let discarded = storage.count - cursor
        storage.removeSubrange(cursor...)
        storage.append(step)
        cursor += 1
        coalescingSealed = false
        notify(.performed(step, at: cursor - 1 - base, coalesced: false, discardedRedo: discarded))
        trimToLimit()
    }

    private func trimToLimit() {
        guard let limit else { return }
        let excess = min(stepCount - max(limit, 0), cursor - base)
        guard excess > 0 else { return }
        base += excess
        if base > 64 && base * 2 > storage.count {
            storage.removeFirst(base)
            cursor -= base
            base = 0
        }
        notify(.trimmed(count: excess))
    }

    // MARK: Groups

    /// Opens a group: changes performed until the matching ``endGroup()``
    /// become one step. Groups nest; an inner group joins its outer one.
    ///
    /// - Parameters:
    ///   - name: The step's name; an inner group's name is used only when the
    ///     outer one has none.
    ///   - coalescingKey: The key under which the closed group merges into
    ///     the newest step, as a single change with a key does; an inner
    ///     group's key is not used.
    public func beginGroup(named name: String = "", coalescingKey: String? = nil) {
        openGroups.append(OpenGroup(name: name, coalescingKey: coalescingKey, date: now()))
    }

    /// Closes the innermost open group. Closing the outermost one records its
    /// changes as one step (a group with no changes records nothing), dated
    /// when the group was opened (its ``HistoryStep/lastChangeDate``: now).
    ///
    /// - Throws: ``HistoryError/noOpenGroup`` when no group is open.
    public func endGroup() throws {
        guard let group = openGroups.popLast() else { throw HistoryError.noOpenGroup }
        if !openGroups.isEmpty {
            let outer = openGroups.count - 1
            openGroups[outer].inverses.append(contentsOf: group.inverses)
            if openGroups[outer].name.isEmpty { openGroups[outer].name = group.name }
            return
        }
        guard !group.inverses.isEmpty else { return }
        record(group.inverses, named: group.name, coalescingKey: group.coalescingKey, since: group.date)
    }

    /// Runs `body` inside a group, so that everything it performs is one
    /// step. If `body` throws, every change it made is reverted and the error
    /// is rethrown; if reverting fails too (the model's inverse of a change
    /// it made does not apply), ``HistoryError/revertFailed(error:revert:)``
    /// is thrown instead.
    ///
    /// ```swift
    /// try history.group(named: "Complete 3 items") { history in
    ///     for id in ids { try history.perform(.complete(id)) }
    /// }
    /// ```
    @discardableResult
    public func group<Result>(
        named name: String = "",
        coalescingKey: String? = nil,
        _ body: (History<Model>) throws -> Result
    ) throws -> Result {
        beginGroup(named: name, coalescingKey: coalescingKey)
        let depth = openGroups.count
        let result: Result
        do {
            result = try body(self)
        } catch {
            // Close whatever the body left open, then revert this group's changes.
            if openGroups.count >= depth {
                let inverses = openGroups[(depth - 1)...].flatMap(\.inverses)
                openGroups.removeSubrange((depth - 1)...)
                do {
                    _ = try model._cross(inverses)
                } catch let revert {
                    throw HistoryError.revertFailed(error: "\(error)", revert: "\(revert)")
                }
            }
            throw error
        }
        while openGroups.count > depth { try endGroup() }
        try endGroup()
        return result
    }

    // MARK: Undo, redo, jump

    /// Reverts the newest done step and returns its name, or returns `nil`
    /// when there is nothing to undo.
    ///
    /// - Throws: ``HistoryError/groupOpen(name:)`` while a group is open, or
    ///   the model's error; model and history are then unchanged, unless
    ///   putting back the step's changes already reverted fails too:
    ///   ``HistoryError/revertFailed(error:revert:)``, and the model may then
    ///   be partly reverted (the history's position does not move).
    @discardableResult
    public func undo() throws -> String? {
        try checkNoOpenGroup()
        guard cursor > base else { return nil }
        let index = try undoStep()
        return storage[index].name
    }

    /// Repeats the newest undone step and returns its name, or returns `nil`
    /// when there is nothing to redo.
    ///
    /// - Throws: ``HistoryError/groupOpen(name:)`` while a group is open, or
    ///   the model's error; model and history are then unchanged, unless
    ///   reverting the step's changes already repeated fails too:
    ///   ``HistoryError/revertFailed(error:revert:)``, and the model may then
    ///   be partly changed (the history's position does not move).
    @discardableResult
    public func redo() throws -> String? {
        try checkNoOpenGroup()
        guard cursor < storage.count else { return nil }
        let index = try redoStep()
        return storage[index].name
    }

    /// Moves to `position` (0 is before the first step, ``stepCount`` after
    /// the last) by undoing or redoing every step between, as a history
    /// panel does when a step is clicked.
    ///
    /// - Throws: ``HistoryError/positionOutOfRange(_:valid:)``,
    ///   ``HistoryError/groupOpen(name:)``, or the model's error; on any
    ///   error the history is back where it was, unless a step fails on the
    ///   way back too: ``HistoryError/revertFailed(error:revert:)``, and the
    ///   model and position may then lie between the two.
    public func jump(to position: Int) throws {
        try checkNoOpenGroup()
        guard (0...stepCount).contains(position) else {
            throw HistoryError.positionOutOfRange(position, valid: 0...stepCount)
        }
        let start = cursor
        let target = base + position
        guard target != start else { return }
        do {
            while cursor > target { _ = try undoStep() }
            while cursor < target { _ = try redoStep() }
        } catch {
            do {
                while cursor < start { _ = try redoStep() }
                while cursor > start { _ = try undoStep() }
            } catch let revert {
                throw HistoryError.revertFailed(error: "\(error)", revert: "\(revert)")
            }
            throw error
        }
        notify(.jumped(from: start - base, to: position))
    }

    private func checkNoOpenGroup() throws {
        if let group = openGroups.first { throw HistoryError.groupOpen(name: group.name) }
    }

    private func undoStep() throws -> Int {
        let index = cursor - 1
        storage[index].changes = try model._cross(storage[index].changes)
        cursor = index
        coalescingSealed = true
        notify(.undone(storage[index], at: index - base))
        return index
    }

    private func redoStep() throws -> Int {
        let index = cursor
        storage[index].changes = try model._cross(storage[index].changes)
        cursor = index + 1
        coalescingSealed = true
        notify(.redone(storage[index], at: index - base))
        return index
    }

    // MARK: Observation

    /// Calls `handler` after every event of this history, until the returned
    /// observation is passed to ``removeObserver(_:)``.
    ///
    /// The handler runs synchronously, after the history has changed, so it
    /// may read the history.
    @discardableResult
    public func observe(_ handler: @escaping (HistoryEvent<Model.Change>) -> Void) -> HistoryObservation {
        nextObserverID += 1
        observers.append((nextObserverID, handler))
        return HistoryObservation(id: nextObserverID)
    }

    /// Stops the observer that `observation` was returned for.
    public func removeObserver(_ observation: HistoryObservation) {
        observers.removeAll { $0.id == observation.id }
    }

    private func notify(_ event: HistoryEvent<Model.Change>) {
        for observer in observers { observer.handler(event) }
    }
}

extension History: UndoController {
    /// Whether there is a done step to undo.
    public var canUndo: Bool { cursor > base }

    /// Whether there is an undone step to redo.
    public var canRedo: Bool { cursor < storage.count }

    /// The name of the step ``undo()`` would revert.
    public var undoActionName: String? {
        canUndo ? storage[cursor - 1].name : nil
    }

    /// The name of the step ``redo()`` would repeat.
    public var redoActionName: String? {
        canRedo ? storage[cursor].name : nil
    }
}
