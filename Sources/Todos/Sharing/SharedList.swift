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
/// A store need not hold the whole log in memory: a list opened from what
/// the store saved of it (``init(opening:heads:writers:of:coalescingWindow:)``:
/// the items, who wrote each part last, and each row's number, author and
/// kind) holds only the rows it records or is given (``hold(_:)``). An
/// operation that needs a row it does not hold throws
/// ``SharingError/rowsNotHeld(_:)`` with nothing changed; the store reads
/// those rows and asks again. What the history and the Undo and Redo
/// buttons show needs only the rows' summaries (``SharedStep/Summary``,
/// ``hold(summaries:)``), which a store reads without the rows' changes:
/// ``summariesNeeded(by:)`` names those the buttons show, and
/// ``rowsToRead(for:by:)`` what an undo, a redo or a change reads (the
/// rows an undo or redo takes back, the summaries of the step a change may
/// join). A list opened with the latest writers of its listed items only
/// (``WritersOpened/ofListedItems``) asks for those of a removed item when
/// an undo looks at it (``writersToRead(for:by:)``,
/// ``SharingError/writersNotHeld(_:)``).
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
    /// The number of the log's latest row, which is how many rows it has (0
    /// for none).
    public private(set) var seq: Int
    /// The rows held in memory, by number: every row of a list made here or
    /// replayed whole; of a list opened from its saved parts, the rows
    /// recorded since and those a store handed over (``hold(_:)``).
    private var held: [Int: SharedStep] = [:]
    /// The ``SharedStep/weight`` of the rows in ``held``, kept with it
    /// (``setHeld(_:at:)``).
    public private(set) var heldWeight = 0
    /// The summaries held of rows not held whole (``hold(summaries:)``).
    private var summaries: [Int: SharedStep.Summary] = [:]
    /// The rows up to this number were not recorded here (the list was
    /// opened from its saved parts): where an item they removed stood is
    /// read from the row that removed it. 0 for a list made here or replayed.
    private var openedAfter = 0

    /// Who wrote each part last, and in which row: of every item, or, for
    /// a list opened with the writers of its listed items only, of those in
    /// ``writersHeld`` and the parts written since.
    private(set) var writers: [ItemPartKey: (seq: Int, author: String)] = [:]
    /// The items whose latest writers are all held, for a list opened with
    /// the writers of its listed items only (``WritersOpened/ofListedItems``);
    /// `nil` when every item's are.
    private var writersHeld: Set<UUID>?
    /// Where each item removed by a row recorded here stood: the id it
    /// followed when it was last removed.
    private var removedAfter: [UUID: UUID?] = [:]
    /// Per person, the steps their Undo takes back, newest last; each step
    /// is its rows, first row first (more than one when changes joined it).
    private var undoable: [String: [[Int]]] = [:]
    /// Per person, the undo rows their Redo takes back, newest last.
    private var redoable: [String: [Int]] = [:]
    /// For an account key, the last row written under that name by an
    /// earlier account, removed since (``ListAccess/earlierRows``): rows up
    /// to it stay in the log, but the present account's Undo and Redo never
    /// take them back. A store sets it from the list's access.
    public var earlierRows: [String: Int] = [:]
    /// What ``takeBackLastRow()`` needs to take back the row recorded last.
    private var lastRow: RecordedRow?

    /// How long after a step's last row a change with the same coalescing
    /// key by the same person still joins that step, in seconds.
    public var coalescingWindow: TimeInterval

    /// A shared list that starts as `list` with an empty log.
    public init(list: TodoList = TodoList(), coalescingWindow: TimeInterval = 0.5) {
        self.list = list
        self.coalescingWindow = coalescingWindow
        seq = 0
    }

    /// Opens a list from what a store saved of it, without reading its rows:
    /// `list` as it stands after the latest row, the `heads` of every row
    /// (first row first), and the latest writer of each part. Each person's
    /// stacks are rebuilt from the heads alone; rows are read when an
    /// operation needs them (``SharingError/rowsNotHeld(_:)``).
    ///
    /// - Complexity: O(*r*) for *r* rows, with no change decoded or applied.
    /// - Throws: ``SharingError/notTheNextRow(expected:found:)`` when the
    ///   heads are not numbered 1, 2, 3… in order.
    public init(
        opening list: TodoList, heads: [SharedStep.Head], writers: [ItemPartKey: (seq: Int, author: String)],
        of opened: WritersOpened = .ofEveryItem, coalescingWindow: TimeInterval = 0.5
    ) throws(SharingError) {
        self.init(list: list, coalescingWindow: coalescingWindow)
        for head in heads {
            guard head.seq == seq + 1 else { throw .notTheNextRow(expected: seq + 1, found: head.seq) }
            seq = head.seq
            _ = moveStacks(for: head)
        }
        self.writers = writers
        if opened == .ofListedItems { writersHeld = Set(list.items.map(\.id)) }
        openedAfter = seq
    }

    /// Which items' latest writers a store hands over when it opens a list
    /// (``init(opening:heads:writers:of:coalescingWindow:)``).
    public enum WritersOpened: Equatable, Sendable {
        /// Every item's that was ever on the list.
        case ofEveryItem
        /// Only those of the items on the list now; an undo that looks at
        /// an item removed since asks for its writers
        /// (``SharingError/writersNotHeld(_:)``). A store reads what is
        /// on the list, not everything that ever was.
        case ofListedItems
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
        guard step.seq == seq + 1 else { throw .notTheNextRow(expected: seq + 1, found: step.seq) }
        record(step, inverses: try list.applyInPlace(step.changes))
    }

    /// The step `author`'s Undo would take back (its first row), if any.
    ///
    /// - Throws: ``SharingError/summariesNotHeld(_:)`` when its row's
    ///   summary is not held.
    public func nextUndo(of author: String) throws(SharingError) -> SharedStep.Summary? {
        try undoTop(of: author)?.first.map { seq throws(SharingError) in try summary(seq) }
    }

    /// The undo row `author`'s Redo would take back, if any.
    ///
    /// - Throws: ``SharingError/summariesNotHeld(_:)`` when that row's
    ///   summary is not held.
    public func nextRedo(of author: String) throws(SharingError) -> SharedStep.Summary? {
        try redoTop(of: author).map { seq throws(SharingError) in try summary(seq) }
    }

    /// The summary of the row numbered `seq`, when it or its summary is held.
    ///
    /// - Throws: ``SharingError/summariesNotHeld(_:)`` when neither is
    ///   held; ``SharingError/notTheNextRow(expected:found:)`` when the log
    ///   has no such row.
    public func summary(_ seq: Int) throws(SharingError) -> SharedStep.Summary {
        guard seq >= 1, seq <= self.seq else { throw .notTheNextRow(expected: self.seq, found: seq) }
        guard let summary = held[seq]?.summary ?? summaries[seq] else { throw .summariesNotHeld([seq]) }
        return summary
    }

    /// The summaries of the rows numbered `range` (within the log), oldest first.
    ///
    /// - Throws: ``SharingError/summariesNotHeld(_:)`` naming those not held.
    public func summaries(_ range: Range<Int>) throws(SharingError) -> [SharedStep.Summary] {
        let missing = summariesNotHeld(in: range)
        guard missing.isEmpty else { throw .summariesNotHeld(missing) }
        return range.clamped(to: 1..<(seq + 1)).compactMap { held[$0]?.summary ?? summaries[$0] }
    }

    /// The rows numbered `range` (within the log) whose summaries are not
    /// held, neither whole nor alone: what a store reads to show them.
    public func summariesNotHeld(in range: Range<Int>) -> [Int] {
        range.clamped(to: 1..<(seq + 1)).filter { !holdsSummary(of: $0) }
    }

    /// Whether row `seq` is held whole or as its summary.
    private func holdsSummary(of seq: Int) -> Bool {
        held[seq] != nil || summaries[seq] != nil
    }

    /// The row numbered `seq`, when it is held.
    ///
    /// - Throws: ``SharingError/rowsNotHeld(_:)`` when it is not held;
    ///   ``SharingError/notTheNextRow(expected:found:)`` when the log has no
    ///   such row.
    public func row(_ seq: Int) throws(SharingError) -> SharedStep {
        guard seq >= 1, seq <= self.seq else { throw .notTheNextRow(expected: self.seq, found: seq) }
        guard let row = held[seq] else { throw .rowsNotHeld([seq]) }
        return row
    }

    /// The rows numbered `range` (within the log), oldest first.
    ///
    /// - Throws: ``SharingError/rowsNotHeld(_:)`` naming those not held.
    public func rows(_ range: Range<Int>) throws(SharingError) -> [SharedStep] {
        try rows(held: Array(range.clamped(to: 1..<(seq + 1))))
    }

    /// What a person does to a list, for a store to read first what it
    /// reads (``rowsToRead(for:by:)``).
    public enum Operation: Equatable, Sendable {
        /// A change, which may join the person's latest step.
        case change
        /// An undo of the person's latest step.
        case undo
        /// A redo of the person's latest undo.
        case redo
    }

    /// The rows not held, whole or as summaries, that `operation` by
    /// `author` reads: an undo its step's rows, a redo its undo row, a
    /// change the summaries of the first and last rows of the step it may
    /// join. A store reads them before it runs the operation. An undo of a
    /// delete may still name more (where the item stood, ``SharingError/rowsNotHeld(_:)``).
    public func rowsToRead(for operation: Operation, by author: String) -> (rows: [Int], summaries: [Int]) {
        switch operation {
        case .change:
            let step = undoTop(of: author) ?? []
            let wanted = Set([step.first, step.last].compactMap(\.self))
            return ([], wanted.filter { !holdsSummary(of: $0) }.sorted())
        case .undo:
            return ((undoTop(of: author) ?? []).filter { held[$0] == nil }, [])
        case .redo:
            return ((redoTop(of: author).map { [$0] } ?? []).filter { held[$0] == nil }, [])
        }
    }

    /// The items whose latest writers are not held that `operation` by
    /// `author` looks at: those its rows touched, for an undo or a redo
    /// whose rows are held (``rowsToRead(for:by:)`` names those that are
    /// not). A store reads them after the rows and before running it.
    public func writersToRead(for operation: Operation, by author: String) -> [UUID] {
        guard let writersHeld else { return [] }
        let rows: [Int] =
            switch operation {
            case .change: []
            case .undo: undoTop(of: author) ?? []
            case .redo: redoTop(of: author).map { [$0] } ?? []
            }
        var items = Set<UUID>()
        for seq in rows {
            for entry in held[seq]?.patch.entries ?? [] where !writersHeld.contains(entry.id) { items.insert(entry.id) }
        }
        // In the order of their bytes, which is their text's (`UUID` is
        // `Comparable`); comparing `uuidString`s formats two ids each time.
        return items.sorted()
    }

    /// The rows whose summaries are not held that `author`'s Undo and Redo
    /// buttons show: what a store reads before naming them
    /// (``nextUndo(of:)``, ``nextRedo(of:)``).
    public func summariesNeeded(by author: String) -> [Int] {
        let wanted = [undoTop(of: author)?.first, redoTop(of: author)].compactMap(\.self)
        return wanted.filter { !holdsSummary(of: $0) }
    }

    /// Holds `rows`, which a store read back, so that the operations that
    /// need them can run. Rows this list does not have are ignored.
    public mutating func hold(_ rows: [SharedStep]) {
        for row in rows where row.seq >= 1 && row.seq <= seq {
            setHeld(row, at: row.seq)
            summaries[row.seq] = nil
        }
    }

    /// Holds `summaries`, which a store read back, so that the history and
    /// the next steps can show those rows. Rows this list does not have, or
    /// holds whole, are ignored.
    public mutating func hold(summaries: [SharedStep.Summary]) {
        for summary in summaries where summary.seq >= 1 && summary.seq <= seq && held[summary.seq] == nil {
            self.summaries[summary.seq] = summary
        }
    }

    /// Holds `writers`, the latest writers of the parts of `items` as a
    /// store read them back (a part nobody wrote has none), so that an undo
    /// that looks at those items can run. Parts written here since the
    /// list was opened keep the writer recorded here.
    public mutating func hold(writers: [ItemPartKey: (seq: Int, author: String)], of items: [UUID]) {
        guard writersHeld != nil else { return }
        for (key, writer) in writers where self.writers[key] == nil && !(writersHeld?.contains(key.item) ?? true) {
            self.writers[key] = writer
        }
        writersHeld?.formUnion(items)
    }

    /// How many rows are held in memory whole.
    public var heldRowCount: Int { held.count }

    /// Holds `row` as the row numbered `seq`, or lets go of that row, and
    /// keeps ``heldWeight`` with what is held.
    private mutating func setHeld(_ row: SharedStep?, at seq: Int) {
        let old = row.map { held.updateValue($0, forKey: seq) } ?? held.removeValue(forKey: seq)
        heldWeight += (row?.weight ?? 0) - (old?.weight ?? 0)
    }

    /// How many rows are held in memory as summaries alone.
    public var heldSummaryCount: Int { summaries.count }

    /// Lets go of the rows held but the newest `count` and those each
    /// person's next undo or redo reads (a few per member), to bound the
    /// memory of a list that a store reads rows of again when needed.
    /// Rows are counted by their ``SharedStep/weight``: of the newest rows,
    /// those whose weights add up to `count` stay, so that a step over
    /// every item of a long list is let go once it is no longer anyone's
    /// next undo or redo (its summary stays, as the newest `count` do). Nothing
    /// changes for the list's operations, which ask for what they need.
    ///
    /// - Complexity: O(*h*) for *h* rows held when the newest `count`
    ///   weigh `count` or less, O(*h* log *h*) when they weigh more; the
    ///   rows kept are not copied (this runs after every change).
    public mutating func forgetRows(keepingNewest count: Int) {
        guard heldWeight > count || summaries.count > count else { return }
        let oldestKept = seq - max(count, 1) + 1
        let tops = Set(undoable.values.compactMap(\.last).joined()).union(redoable.values.compactMap(\.last))
        let olderSummaries = summaries.keys.filter { $0 < oldestKept && !tops.contains($0) }
        for row in olderSummaries { summaries.removeValue(forKey: row) }
        guard heldWeight > count else { return }
        // Most often the newest rows fit: only the older ones go, no sort needed.
        var newestWeight = 0
        var older: [Int] = []
        for (row, step) in held where !tops.contains(row) {
            if row >= oldestKept { newestWeight += step.weight } else { older.append(row) }
        }
        guard newestWeight > max(count, 1) else {
            for row in older { setHeld(nil, at: row) }
            return
        }
        // Else newest first, while their weights fit in `count`; every older one after the first that does not.
        var room = max(count, 1)
        for row in held.keys.sorted(by: >) where !tops.contains(row) {
            let weight = held[row]?.weight ?? 0
            if row >= oldestKept, weight <= room {
                room -= weight
            } else {
                room = 0
                // One of the newest rows keeps its summary, for the history.
                if row >= oldestKept { summaries[row] = held[row]?.summary }
                setHeld(nil, at: row)
            }
        }
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
        let joins = try coalescingKey.flatMap { key throws(SharingError) in try joinableStep(of: author, key: key, at: date) }
        // The row says what was done: a toggle as the complete or reopen it made.
        let changes = TodoList.Change.deciding(changes, on: list)
        // Applied in place: a step costs what it touches, not the list's size.
        let recording = StepPatch.Recording(changes, on: list)
        let inverses = try list.applyInPlace(changes)
        let step = SharedStep(
            seq: seq + 1, author: author, name: name, kind: .change, changes: changes,
            patch: recording.patch(after: list), skipped: [], date: date, coalescingKey: coalescingKey, joins: joins)
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
        try takeBack(
            undoTop(of: author), redoing: false, expecting: expected, by: author, at: date,
            otherwise: .nothingToUndo(author: author))
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
        try takeBack(
            redoTop(of: author).map { [$0] }, redoing: true, expecting: expected, by: author, at: date,
            otherwise: .nothingToRedo(author: author))
    }

    /// The latest writer of `key`, if anyone has written it.
    public func latestWriter(of key: ItemPartKey) -> (seq: Int, author: String)? {
        writers[key]
    }

    /// The rows of `author`'s latest step not yet taken back, unless an
    /// earlier account of that name wrote it (``earlierRows``).
    private func undoTop(of author: String) -> [Int]? {
        guard let rows = undoable[author]?.last, let first = rows.first, first > earlierRows[author, default: 0] else {
            return nil
        }
        return rows
    }

    /// `author`'s latest undo row not yet taken back, unless an earlier
    /// account of that name wrote it (``earlierRows``).
    private func redoTop(of author: String) -> Int? {
        guard let seq = redoable[author]?.last, seq > earlierRows[author, default: 0] else { return nil }
        return seq
    }

    // MARK: - Taking a row back

    /// Takes back `target`, the top of one of `author`'s stacks, when it is
    /// the row `expected` names: an undo row for a change or redo, a redo
    /// row for an undo.
    private mutating func takeBack(
        _ rows: [Int]?, redoing: Bool, expecting expected: Int?, by author: String, at date: Date,
        otherwise missing: SharingError
    ) throws(SharingError) -> SharedStep {
        guard let rows, let target = rows.first else { throw missing }
        if let expected, expected != target { throw .notTheNextStep(asked: expected, next: target) }
        return try revert(self.rows(held: rows), by: author, at: date, kind: redoing ? .redo(of: target) : .undo(of: target))
    }

    /// The held rows numbered `seqs`, in that order.
    ///
    /// - Throws: ``SharingError/rowsNotHeld(_:)`` naming those not held.
    private func rows(held seqs: [Int]) throws(SharingError) -> [SharedStep] {
        let missing = seqs.filter { held[$0] == nil }
        guard missing.isEmpty else { throw .rowsNotHeld(missing) }
        return seqs.compactMap { held[$0] }
    }

    /// The first row of `author`'s latest step when a change with `key` at
    /// `date` may join it.
    ///
    /// - Throws: ``SharingError/summariesNotHeld(_:)`` when the summary of
    ///   that step's first or last row is not held.
    private func joinableStep(of author: String, key: String, at date: Date) throws(SharingError) -> Int? {
        guard let rows = undoTop(of: author), let first = rows.first, let last = rows.last else { return nil }
        let missing = Set([first, last].filter { !holdsSummary(of: $0) })
        guard missing.isEmpty else { throw .summariesNotHeld(missing.sorted()) }
        let firstRow = try summary(first)
        let lastRow = try summary(last)
        guard firstRow.kind == .change, firstRow.coalescingKey == key,
            case let elapsed = date.timeIntervalSince(lastRow.date), elapsed >= 0, elapsed <= coalescingWindow
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
        // Rows not held that said where a removed item stood, and items
        // whose writers are not held: the list is put back and they are
        // asked for once every entry has been seen.
        var missing = Missing()
        func apply(_ change: TodoList.Change) throws(SharingError) {
            do {
                try list.apply(change, after: &inverses)
            } catch {
                if let asked = missing.request { throw asked }
                throw error
            }
            changes.append(change)
        }
        // Read from a copy that ends before `record` changes the writers
        // (else that change would copy every writer).
        do {
            let writers = writers
            let writersHeld = writersHeld
            for target in rows.reversed() {
                for entry in target.patch.entries {
                    // The title the person knew when they made the step.
                    let known = entry.before?.item.title ?? entry.after?.item.title ?? ""
                    let otherWriter = { (part: ItemPart) -> String? in
                        let key = ItemPartKey(entry.id, part)
                        guard let writer = Self.heldWriter(of: key, in: writers, heldFor: writersHeld) else {
                            missing.writers.insert(entry.id)
                            return nil
                        }
                        return Self.writer(writer, after: target.seq, besides: author)
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
                            try apply(.insert(before.item, at: insertionPosition(after: before.after, in: list, missing: &missing)))
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
                                let place = movePosition(of: entry.id, after: before.after, in: list, missing: &missing)
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
        if let asked = missing.request {
            // Each inverse applies: it is what its change just returned.
            for inverse in inverses.reversed() { _ = try? list.apply(inverse) }
            throw asked
        }
        let step = SharedStep(
            seq: seq + 1, author: author, name: rows.first?.name ?? "", kind: kind, changes: changes,
            patch: recording.patch(after: list, of: changes), skipped: skipped.keepingLastOfEachPart(),
            date: date)
        record(step, inverses: inverses)
        return step
    }

    /// The latest writer of `key` in `writers`: `.some(nil)` when nobody
    /// wrote it, `nil` when the writers of its item are not held (they are
    /// all held when `held` is `nil`, else for the items it names).
    private static func heldWriter(
        of key: ItemPartKey, in writers: [ItemPartKey: (seq: Int, author: String)], heldFor held: Set<UUID>?
    ) -> (seq: Int, author: String)?? {
        if let writer = writers[key] { return .some(writer) }
        return held?.contains(key.item) ?? true ? .some(nil) : nil
    }

    /// Who wrote a part after row `seq`, when `writer` (its latest) is
    /// someone other than `author`.
    private static func writer(_ writer: (seq: Int, author: String)?, after seq: Int, besides author: String) -> String? {
        guard let writer, writer.seq > seq, writer.author != author else { return nil }
        return writer.author
    }

    /// The position that puts an inserted item after the nearest item that
    /// still stands of those it followed; rows needed and not held are
    /// added to `missing`.
    private func insertionPosition(after predecessor: UUID?, in list: TodoList, missing: inout Missing) -> Int {
        survivor(from: predecessor, in: list, missing: &missing).flatMap { list.position(of: $0) }.map { $0 + 1 } ?? 0
    }

    /// The position (for ``TodoList/Change/move(_:to:)``) that puts `id`
    /// after the nearest item that still stands of those it followed; rows
    /// needed and not held are added to `missing`.
    private func movePosition(of id: UUID, after predecessor: UUID?, in list: TodoList, missing: inout Missing) -> Int {
        guard let survivor = survivor(from: predecessor, in: list, missing: &missing), survivor != id,
            let anchor = list.position(of: survivor), let current = list.position(of: id)
        else { return 0 }
        return current > anchor ? anchor + 1 : anchor
    }

    /// `predecessor` if it is in `list`, else the item it followed when it
    /// was removed, and so on; `nil` for the top of the list, or when a row
    /// that says where an item stood is not held (it is added to `missing`).
    private func survivor(from predecessor: UUID?, in list: TodoList, missing: inout Missing) -> UUID? {
        var candidate = predecessor
        var visited = Set<UUID>()
        while let id = candidate, !list.contains(id: id) {
            guard visited.insert(id).inserted, let earlier = whereRemoved(id, missing: &missing) else { return nil }
            candidate = earlier
        }
        return candidate
    }

    /// The id the removed item `id` followed when it was last removed
    /// (`.some(nil)` at the top), or `nil` when it was never removed. For a
    /// removal in the rows the list was opened with, that is read from the
    /// row that last wrote the item's existence, which removed it: `nil`,
    /// and the row added to `missing`, when that row is not held.
    private func whereRemoved(_ id: UUID, missing: inout Missing) -> UUID?? {
        if let known = removedAfter[id] { return known }
        guard let latest = Self.heldWriter(of: ItemPartKey(id, .existence), in: writers, heldFor: writersHeld) else {
            missing.writers.insert(id)
            return nil
        }
        guard let writer = latest, writer.seq <= openedAfter else { return nil }
        guard let row = held[writer.seq] else {
            missing.rows.insert(writer.seq)
            return nil
        }
        guard let entry = row.patch.entries.first(where: { $0.id == id }), let before = entry.before, entry.after == nil else {
            return nil
        }
        return .some(before.after)
    }

    // MARK: - Recording a row

    /// Appends `step`, whose changes made the list as it is now (`inverses`
    /// take them back, in reverse order), and updates the writers and each
    /// person's stacks, noting how to take all of it back.
    private mutating func record(_ step: SharedStep, inverses: [TodoList.Change]) {
        var row = RecordedRow(inverses: inverses)
        seq = step.seq
        setHeld(step, at: step.seq)
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
        (row.stacks, row.redoBefore) = moveStacks(for: step.head)
        lastRow = row
    }

    /// Moves the author's stacks as the row `head` does, and returns how
    /// (with the redo stack a change cleared), to take it back.
    private mutating func moveStacks(for head: SharedStep.Head) -> (RecordedRow.Stacks, redoBefore: [Int]?) {
        switch head.kind {
        case .change:
            let stacks: RecordedRow.Stacks
            if let first = head.joins, let index = undoable[head.author]?.lastIndex(where: { $0.first == first }) {
                undoable[head.author]?[index].append(head.seq)
                stacks = .joined(index: index)
            } else {
                undoable[head.author, default: []].append([head.seq])
                stacks = .started
            }
            return (stacks, redoable.updateValue([], forKey: head.author))
        case .undo(let seq):
            let removed = undoable[head.author]?.removeLast { $0.first == seq }
            redoable[head.author, default: []].append(head.seq)
            return (.undid(removed), nil)
        case .redo(let seq):
            let removed = redoable[head.author]?.removeLast { $0 == seq }
            undoable[head.author, default: []].append([head.seq])
            return (.redid(removed), nil)
        }
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
        guard let row = lastRow, let step = held[seq] else { return false }
        lastRow = nil
        // Each inverse applies: it is what its change returned, in reverse order.
        for inverse in row.inverses.reversed() { _ = try? list.apply(inverse) }
        setHeld(nil, at: seq)
        summaries[seq] = nil
        seq -= 1
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

    /// The last row held that `author` wrote before `date`, or 0: for a
    /// store that holds every row, the ``ListAccess/earlierRows`` of an
    /// account of that name made at `date`.
    public func lastHeldRow(by author: String, before date: Date) -> Int {
        held.values.filter { $0.author == author && $0.date < date }.map(\.seq).max() ?? 0
    }

    /// Every row held, oldest first: the whole log of a list made here or
    /// replayed (for tests).
    var log: [SharedStep] { held.keys.sorted().compactMap { held[$0] } }

    /// Whether `other` holds the same list, rows, writers and stacks (for tests).
    func holdsTheSameState(as other: SharedList) -> Bool {
        func same(_ a: [ItemPartKey: (seq: Int, author: String)], _ b: [ItemPartKey: (seq: Int, author: String)]) -> Bool {
            a.count == b.count && a.allSatisfy { key, writer in b[key].map { $0 == writer } ?? false }
        }
        func nonEmpty<Value: Collection>(_ stacks: [String: Value]) -> [String: Value] { stacks.filter { !$0.value.isEmpty } }
        return list == other.list && seq == other.seq && held == other.held && same(writers, other.writers)
            && removedAfter == other.removedAfter
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

/// What an undo or a redo found it reads and the list does not hold: rows
/// that say where a removed item stood, and items whose latest writers are
/// not held.
private struct Missing {
    var rows = Set<Int>()
    var writers = Set<UUID>()

    /// What to ask a store for (the rows first), or `nil` when nothing is missing.
    var request: SharingError? {
        if !rows.isEmpty { return .rowsNotHeld(rows.sorted()) }
        if !writers.isEmpty { return .writersNotHeld(writers.sorted()) }
        return nil
    }
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
