import Foundation

/// A to-do list that several people change, each with an undo and a redo
/// of their own.
///
/// Every change, undo and redo appends a ``SharedStep`` to the log. A
/// person's Undo takes back their own latest step that is not yet taken
/// back, even when others have changed the list since; their Redo puts back
/// what they undid; only their own new change clears their redo steps.
///
/// An undo works part by part against the list as it is now
/// (``ItemPart``): a part that someone else wrote after the step is left as
/// they wrote it, and the step says so in words (``SharedStep/messages``).
/// Undoing a delete brings the item back after its nearest surviving
/// neighbour; undoing an add that someone else has changed since keeps the
/// item.
///
/// ```swift
/// var shared = SharedList()
/// try shared.perform([.add(milk)], named: "Add “Milk”", by: "ann", at: now)
/// try shared.perform([.update(milk.id, [.complete], at: now)], named: "Complete “Milk”", by: "bob", at: now)
/// let undo = try shared.undo(by: "ann", at: now)
/// undo.messages   // ["Kept “Milk”: bob changed it since."]: Milk stays
/// ```
public struct SharedList: Sendable {
    /// The list as it is now.
    public private(set) var list: TodoList
    /// Every row, oldest first; row *n* has ``SharedStep/seq`` *n*.
    public private(set) var log: [SharedStep]

    /// Who wrote each part last, and in which row.
    private var writers: [ItemPartKey: (seq: Int, author: String)] = [:]
    /// Where each removed item stood: the id it followed when it was last removed.
    private var removedAfter: [UUID: UUID?] = [:]
    /// Per person, the steps their Undo takes back, newest last; each step
    /// is its rows, first row first (more than one when changes joined it).
    private var undoable: [String: [[Int]]] = [:]
    /// Per person, the undo rows their Redo takes back, newest last.
    private var redoable: [String: [Int]] = [:]
    /// What ``takeBackLastRow()`` needs to take back the row recorded last.
    private var lastRow: RecordedRow?

    /// How long after a step's last row a change with the same coalescing
    /// key by the same person still joins that step, in seconds.
    public var coalescingWindow: TimeInterval

    /// A shared list that starts as `list` with an empty log.
    public init(list: TodoList = TodoList(), coalescingWindow: TimeInterval = 0.5) {
        self.list = list
        self.coalescingWindow = coalescingWindow
        log = []
    }

    /// Rebuilds a shared list from its log, as a store read it, starting from `list`.
    ///
    /// - Throws: ``SharingError/refused(_:)`` when a row's changes do not
    ///   apply, which means the log is not the one this list wrote.
    public init(replaying log: [SharedStep], from list: TodoList = TodoList(), coalescingWindow: TimeInterval = 0.5)
        throws(SharingError)
    {
        self.init(list: list, coalescingWindow: coalescingWindow)
        for step in log {
            record(step, inverses: try self.list.applyInPlace(step.changes))
        }
        lastRow = nil
    }

    /// Appends a row that a store read back, written after the last row
    /// this list holds (by another instance over the same database, say).
    ///
    /// - Throws: ``SharingError/refused(_:)`` when the row's changes do not
    ///   apply; ``SharingError/notTheNextRow(expected:found:)`` when the row
    ///   is not numbered right after the last one. The list is then unchanged.
    public mutating func replay(_ step: SharedStep) throws(SharingError) {
        guard step.seq == log.count + 1 else { throw .notTheNextRow(expected: log.count + 1, found: step.seq) }
        record(step, inverses: try list.applyInPlace(step.changes))
    }

    /// The step `author`'s Undo would take back, if any.
    public func nextUndo(of author: String) -> SharedStep? {
        undoable[author]?.last?.first.map { log[$0 - 1] }
    }

    /// The undo row `author`'s Redo would take back, if any.
    public func nextRedo(of author: String) -> SharedStep? {
        redoable[author]?.last.map { log[$0 - 1] }
    }

    /// Applies `changes` in order as one step by `author`, and clears
    /// `author`'s redo steps (nobody else's).
    ///
    /// With a `coalescingKey`, the changes join `author`'s latest step
    /// instead when that step is a change with the same key whose last row
    /// is at most ``coalescingWindow`` old; others' rows in between do not
    /// matter. One Undo then takes back the whole step.
    ///
    /// - Throws: ``SharingError/refused(_:)``; the list is then unchanged.
    @discardableResult
    public mutating func perform(
        _ changes: [TodoList.Change], named name: String, by author: String, at date: Date,
        coalescingKey: String? = nil
    ) throws(SharingError) -> SharedStep {
        do {
            for change in changes { try change.checkTypedText() }
        } catch {
            throw .refused(error)
        }
        // Applied in place: a step costs what it touches, not the list's size.
        let recording = StepPatch.Recording(changes, on: list)
        let inverses = try list.applyInPlace(changes)
        let step = SharedStep(
            seq: log.count + 1, author: author, name: name, kind: .change, changes: changes,
            patch: recording.patch(after: list), skipped: [], date: date, coalescingKey: coalescingKey,
            joins: coalescingKey.flatMap { joinableStep(of: author, key: $0, at: date) })
        record(step, inverses: inverses)
        return step
    }

    /// Takes back `author`'s latest step that is not yet taken back, part by
    /// part, and returns the undo row (its ``SharedStep/messages`` name the
    /// parts left alone).
    ///
    /// - Parameters:
    ///   - date: Stamped as `changed` on items only partly put back.
    ///   - expected: The row the person's Undo button named; when it is no
    ///     longer their next one (a double click), nothing changes.
    /// - Throws: ``SharingError``; the list is then unchanged.
    @discardableResult
    public mutating func undo(by author: String, at date: Date, expecting expected: Int? = nil)
        throws(SharingError) -> SharedStep
    {
        try takeBack(nextUndo(of: author), expecting: expected, by: author, at: date, otherwise: .nothingToUndo(author: author))
    }

    /// Takes back `author`'s latest undo, part by part, unless they have made
    /// a change of their own since, and returns the redo row.
    ///
    /// - Parameters:
    ///   - date: Stamped as `changed` on items only partly put back.
    ///   - expected: The undo row the person's Redo button named.
    /// - Throws: ``SharingError``; the list is then unchanged.
    @discardableResult
    public mutating func redo(by author: String, at date: Date, expecting expected: Int? = nil)
        throws(SharingError) -> SharedStep
    {
        try takeBack(nextRedo(of: author), expecting: expected, by: author, at: date, otherwise: .nothingToRedo(author: author))
    }

    /// The latest writer of `key`, if anyone has written it.
    public func latestWriter(of key: ItemPartKey) -> (seq: Int, author: String)? {
        writers[key]
    }

    // MARK: - Taking a row back

    /// Takes back `target`, the top of one of `author`'s stacks, when it is
    /// the row `expected` names: an undo row for a change or redo, a redo
    /// row for an undo.
    private mutating func takeBack(
        _ target: SharedStep?, expecting expected: Int?, by author: String, at date: Date, otherwise missing: SharingError
    ) throws(SharingError) -> SharedStep {
        guard let target else { throw missing }
        if let expected, expected != target.seq { throw .notTheNextStep(asked: expected, next: target.seq) }
        if case .undo = target.kind { return try revert([target], by: author, at: date, kind: .redo(of: target.seq)) }
        let rows = undoable[author]?.last?.map { log[$0 - 1] } ?? [target]
        return try revert(rows, by: author, at: date, kind: .undo(of: target.seq))
    }

    /// The first row of `author`'s latest step when a change with `key` at
    /// `date` may join it.
    private func joinableStep(of author: String, key: String, at date: Date) -> Int? {
        guard let rows = undoable[author]?.last, let first = rows.first, let last = rows.last,
            log[first - 1].kind == .change, log[first - 1].coalescingKey == key,
            case let elapsed = date.timeIntervalSince(log[last - 1].date), elapsed >= 0, elapsed <= coalescingWindow
        else { return nil }
        return first
    }

    /// Appends one row that sets every part the `rows` of one step wrote
    /// back to its value before them, newest row first, except parts that
    /// someone other than `author` wrote after the row.
    private mutating func revert(_ rows: [SharedStep], by author: String, at date: Date, kind: SharedStep.Kind)
        throws(SharingError) -> SharedStep
    {
        // The items the rows touched, as they stand before anything is put
        // back: the list changes in place, and a change refused takes back
        // those before it.
        let recording = StepPatch.Recording(rows.reversed().flatMap { $0.patch.entries.map(\.id) }, on: list)
        var changes: [TodoList.Change] = []
        var inverses: [TodoList.Change] = []
        var skipped: [SkippedPart] = []
        func apply(_ change: TodoList.Change) throws(SharingError) {
            try list.apply(change, after: &inverses)
            changes.append(change)
        }
        // Read from a copy that ends before `record` changes the writers
        // (else that change would copy every writer).
        do {
            let writers = writers
            for target in rows.reversed() {
                for entry in target.patch.entries {
                    // The title the person knew when they made the step.
                    let known = entry.before?.item.title ?? entry.after?.item.title ?? ""
                    let otherWriter = { (part: ItemPart) in
                        Self.writer(of: ItemPartKey(entry.id, part), in: writers, after: target.seq, besides: author)
                    }
                    switch (entry.before, list[id: entry.id]) {
                    case (nil, nil):
                        // The step added it and it is gone already.
                        if let by = otherWriter(.existence) {
                            skipped.append(SkippedPart(item: entry.id, title: known, reason: .deleted, by: by))
                        }
                    case (nil, let current?):
                        // The step added it: remove it, unless someone else has written any part of it since.
                        if let by = ItemPart.allCases.compactMap(otherWriter).first {
                            skipped.append(SkippedPart(item: entry.id, title: current.title, reason: .keptAdded, by: by))
                        } else {
                            try apply(.remove(entry.id))
                        }
                    case (let before?, nil):
                        if entry.after == nil {
                            // The step removed it: bring it back after its nearest surviving neighbour.
                            try apply(.insert(before.item, at: insertionPosition(after: before.after, in: list)))
                        } else if let by = otherWriter(.existence) {
                            skipped.append(SkippedPart(item: entry.id, title: known, reason: .deleted, by: by))
                        }
                    case (let before?, let current?):
                        guard entry.after != nil else { continue }
                        var fieldChanges: [TodoItem.Change] = []
                        var skippedHere = false
                        for part in entry.parts {
                            if let by = otherWriter(part) {
                                skippedHere = true
                                skipped.append(
                                    SkippedPart(
                                        item: entry.id, title: known, reason: .written(part), by: by,
                                        isCompletedNow: current.isCompleted))
                            } else if part == .position {
                                let place = movePosition(of: entry.id, after: before.after, in: list)
                                if list.position(of: entry.id) != place { try apply(.move(entry.id, to: place)) }
                            } else if let change = part.change(toValueOf: before.item), part.differs(current, before.item) {
                                fieldChanges.append(change)
                            }
                        }
                        if !fieldChanges.isEmpty {
                            // Put back exactly, `changed` included, when no part was left alone.
                            try apply(.update(entry.id, fieldChanges, at: skippedHere ? date : before.item.changed))
                        }
                    }
                }
            }
        }
        let step = SharedStep(
            seq: log.count + 1, author: author, name: rows.first?.name ?? "", kind: kind, changes: changes,
            patch: recording.patch(after: list, of: changes), skipped: skipped.keepingLastOfEachPart(),
            date: date)
        record(step, inverses: inverses)
        return step
    }

    /// Who wrote `key` after row `seq`, when that is someone other than `author`.
    private static func writer(
        of key: ItemPartKey, in writers: [ItemPartKey: (seq: Int, author: String)], after seq: Int, besides author: String
    ) -> String? {
        guard let writer = writers[key], writer.seq > seq, writer.author != author else { return nil }
        return writer.author
    }

    /// The position that puts an inserted item after the nearest item that
    /// still stands of those it followed.
    private func insertionPosition(after predecessor: UUID?, in list: TodoList) -> Int {
        survivor(from: predecessor, in: list).flatMap { list.position(of: $0) }.map { $0 + 1 } ?? 0
    }

    /// The position (for ``TodoList/Change/move(_:to:)``) that puts `id`
    /// after the nearest item that still stands of those it followed.
    private func movePosition(of id: UUID, after predecessor: UUID?, in list: TodoList) -> Int {
        guard let survivor = survivor(from: predecessor, in: list), survivor != id,
            let anchor = list.position(of: survivor), let current = list.position(of: id)
        else { return 0 }
        return current > anchor ? anchor + 1 : anchor
    }

    /// `predecessor` if it is in `list`, else the item it followed when it
    /// was removed, and so on; `nil` for the top of the list.
    private func survivor(from predecessor: UUID?, in list: TodoList) -> UUID? {
        var candidate = predecessor
        var visited = Set<UUID>()
        while let id = candidate, !list.contains(id: id) {
            guard visited.insert(id).inserted, let earlier = removedAfter[id] else { return nil }
            candidate = earlier
        }
        return candidate
    }

    // MARK: - Recording a row

    /// Appends `step`, whose changes made the list as it is now (`inverses`
    /// take them back, in reverse order), and updates the writers and each
    /// person's stacks, noting how to take all of it back.
    private mutating func record(_ step: SharedStep, inverses: [TodoList.Change]) {
        var row = RecordedRow(inverses: inverses)
        log.append(step)
        for key in step.patch.parts {
            row.writers.append((key, writers[key]))
            writers[key] = (step.seq, step.author)
        }
        for entry in step.patch.entries {
            if let before = entry.before, entry.after == nil {
                row.removedAfter.append((entry.id, removedAfter[entry.id]))
                removedAfter[entry.id] = .some(before.after)
            }
        }
        switch step.kind {
        case .change:
            if let first = step.joins, let index = undoable[step.author]?.lastIndex(where: { $0.first == first }) {
                undoable[step.author]?[index].append(step.seq)
                row.stacks = .joined(index: index)
            } else {
                undoable[step.author, default: []].append([step.seq])
                row.stacks = .started
            }
            row.redoBefore = redoable.updateValue([], forKey: step.author)
        case .undo(let seq):
            row.stacks = .undid(undoable[step.author]?.removeLast { $0.first == seq })
            redoable[step.author, default: []].append(step.seq)
        case .redo(let seq):
            row.stacks = .redid(redoable[step.author]?.removeLast { $0 == seq })
            undoable[step.author, default: []].append([step.seq])
        }
        lastRow = row
    }

    /// Takes back the row that ``perform(_:named:by:at:coalescingKey:)``,
    /// ``undo(by:at:expecting:)``, ``redo(by:at:expecting:)`` or
    /// ``replay(_:)`` appended last, leaving the list, its log, the writers
    /// and every stack exactly as they were before it, in time that follows
    /// what the row touched, not the list's length: for a store whose write
    /// of the row did not land (another writer wrote first). Only that one
    /// row can be taken back.
    ///
    /// - Returns: `false`, with nothing changed, when there is no such row
    ///   (none was appended since the list was made or a row was taken back).
    @discardableResult
    public mutating func takeBackLastRow() -> Bool {
        guard let row = lastRow, let step = log.last else { return false }
        lastRow = nil
        // Each inverse applies: it is what its change returned, in reverse order.
        for inverse in row.inverses.reversed() { _ = try? list.apply(inverse) }
        log.removeLast()
        for (key, writer) in row.writers.reversed() { writers[key] = writer }
        for (id, after) in row.removedAfter.reversed() { removedAfter[id] = after }
        switch row.stacks {
        case .joined(let index):
            _ = undoable[step.author]?[index].popLast()
        case .started:
            _ = undoable[step.author]?.popLast()
        case .undid(let removed):
            _ = redoable[step.author]?.popLast()
            if case let (index, rows)? = removed { undoable[step.author, default: []].insert(rows, at: index) }
        case .redid(let removed):
            _ = undoable[step.author]?.popLast()
            if case let (index, seq)? = removed { redoable[step.author, default: []].insert(seq, at: index) }
        }
        if case .change = step.kind { redoable[step.author] = row.redoBefore }
        return true
    }

    /// Whether `other` holds the same list, log, writers and stacks (for tests).
    func holdsTheSameState(as other: SharedList) -> Bool {
        func same(_ a: [ItemPartKey: (seq: Int, author: String)], _ b: [ItemPartKey: (seq: Int, author: String)]) -> Bool {
            a.count == b.count && a.allSatisfy { key, writer in b[key].map { $0 == writer } ?? false }
        }
        func nonEmpty<Value: Collection>(_ stacks: [String: Value]) -> [String: Value] { stacks.filter { !$0.value.isEmpty } }
        return list == other.list && log == other.log && same(writers, other.writers) && removedAfter == other.removedAfter
            && nonEmpty(undoable) == nonEmpty(other.undoable) && nonEmpty(redoable) == nonEmpty(other.redoable)
    }
}

/// How to take back the row a ``SharedList`` recorded last.
private struct RecordedRow: Sendable {
    /// How the author's stacks moved.
    enum Stacks: Sendable {
        /// The change joined the author's step at this index of their undo stack.
        case joined(index: Int)
        /// The change, or a redo, started a step at the top of their undo stack.
        case started
        /// The undo took this step off their undo stack (from this index)
        /// and put its row on their redo stack.
        case undid((index: Int, element: [Int])?)
        /// The redo took this undo row off their redo stack (from this
        /// index) and started a step on their undo stack.
        case redid((index: Int, element: Int)?)
    }

    /// The inverses of the row's changes, in the order the changes applied.
    var inverses: [TodoList.Change]
    /// Each part the row wrote, and its writer before the row.
    var writers: [(ItemPartKey, (seq: Int, author: String)?)] = []
    /// Each item the row removed, and where it stood when removed before.
    var removedAfter: [(UUID, UUID??)] = []
    /// How the author's stacks moved.
    var stacks = Stacks.started
    /// The author's redo stack that a change cleared.
    var redoBefore: [Int]?
}

extension TodoList {
    /// Applies `changes` in order, in place, and returns their inverses in
    /// the same order; when one is refused, the ones applied before it are
    /// taken back, leaving the list as it was.
    fileprivate mutating func applyInPlace(_ changes: [Change]) throws(SharingError) -> [Change] {
        var inverses: [Change] = []
        for change in changes { try apply(change, after: &inverses) }
        return inverses
    }

    /// Applies `change` in place after those whose inverses `inverses`
    /// holds, adding its own; when it is refused, takes them all back.
    fileprivate mutating func apply(_ change: Change, after inverses: inout [Change]) throws(SharingError) {
        do {
            inverses.append(try apply(change))
        } catch {
            // Each inverse applies: it is what its change just returned.
            for inverse in inverses.reversed() { _ = try? apply(inverse) }
            inverses = []
            throw .refused(error)
        }
    }
}

extension Array {
    /// Removes the last element that matches (the usual case is the last
    /// element itself), and returns it with the index it had.
    @discardableResult
    fileprivate mutating func removeLast(where matches: (Element) -> Bool) -> (index: Int, element: Element)? {
        guard let index = lastIndex(where: matches) else { return nil }
        return (index, remove(at: index))
    }
}

extension [SkippedPart] {
    /// One part per item and reason: the rows of a joined step are taken
    /// back newest first, so the last one names the title the step started from.
    fileprivate func keepingLastOfEachPart() -> [SkippedPart] {
        var last: [SkippedPartKey: Int] = [:]
        for (index, part) in enumerated() { last[SkippedPartKey(item: part.item, reason: part.reason)] = index }
        return last.values.sorted().map { self[$0] }
    }
}

/// An item and a reason: what tells two skipped parts apart.
private struct SkippedPartKey: Hashable {
    let item: UUID
    let reason: SkippedPart.Reason
}
