import Foundation
import GRDB
import Rewind
import Todos

/// Reads and appends the rows of the history log (``StepRecord``) inside a
/// transaction of ``SQLiteStore``. A row's changes are decoded only when an
/// undo, redo or jump crosses it.
struct HistoryLog {
    /// The database file, named in errors.
    let path: String
    private let decoder = TodoJSON.makeDecoder(reading: .store)

    init(path: String) {
        self.path = path
    }

    // MARK: Reading

    /// Where the log stands, from its newest row. The newest and oldest
    /// rows are checked as opening checks the items: a row that breaks the
    /// schema's rules is damage (SQLite's `quick_check` does not look at them).
    func head(_ db: Database) throws -> LogHead {
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT seq, node, redoTop, kind, (SELECT min(seq) FROM step) FROM step ORDER BY seq DESC LIMIT 1"))
        guard let row else { return .empty }
        let head: LogHead
        let kind: String?
        let first: Int64
        do {
            head = LogHead(
                lastSeq: try row.decode(Int64.self, atIndex: 0), node: try row.decode(Int64.self, atIndex: 1),
                redoTop: try row.decode(Int64?.self, atIndex: 2))
            kind = try row.decode(String.self, atIndex: 3)
            first = try row.decode(Int64.self, atIndex: 4)
        } catch {
            throw StoreError.corrupt(path: path, detail: "the newest history row is malformed: \(error)")
        }
        guard let kind, StepRecord.Kind(rawValue: kind) != nil else {
            throw StoreError.corrupt(path: path, detail: "history row \(head.lastSeq) is of no known kind (“\(kind ?? "")”)")
        }
        // Numbers this far from 1 would overflow as rows are added: no store numbers its rows so.
        guard first >= 1, head.lastSeq < Int64.max / 2, (0...head.lastSeq).contains(head.node) else {
            throw StoreError.corrupt(path: path, detail: "the history rows are not numbered 1, 2, 3, …")
        }
        return head
    }

    /// The newest row that moved forward into `node` (its change, or a redo
    /// of it): the row an undo at `node` reverts. `nil` at node 0, or when
    /// the cap pruned every such row.
    func forwardRow(into node: Int64, _ db: Database) throws -> StepRecord? {
        guard node > 0 else { return nil }
        return try record(db, sql: "SELECT * FROM step WHERE node = ? AND kind <> 'undo' ORDER BY seq DESC LIMIT 1", node)
    }

    /// The row numbered `seq`, if it is still in the log.
    func row(_ seq: Int64, _ db: Database) throws -> StepRecord? {
        try record(db, sql: "SELECT * FROM step WHERE seq = ?", seq)
    }

    /// The rows after `seq` through `last`, in the log's order: as many
    /// as there are such rows still in the log. Their `inverse` is left
    /// empty, unread: catching up applies what the rows did, and an undo's
    /// inverse can be as large as the list.
    func rows(after seq: Int64, through last: Int64, _ db: Database) throws -> [StepRecord] {
        try readingRows {
            try StepRecord.fetchAll(
                db.cachedStatement(sql: """
                    SELECT seq, kind, name, date, author, groupKey, before, node, redoTop, redoNext, reverts, forward,
                        '' AS inverse
                    FROM step WHERE seq > ? AND seq <= ? ORDER BY seq
                    """), arguments: [seq, last])
        }
    }

    private func record(_ db: Database, sql: String, _ argument: Int64) throws -> StepRecord? {
        try readingRows { try StepRecord.fetchOne(db.cachedStatement(sql: sql), arguments: [argument]) }
    }

    /// Runs `body`, which reads log rows, naming the file in SQLite's
    /// errors; a row that does not decode is damage.
    private func readingRows<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw StoreError.database(error, path: path)
        } catch {
            throw StoreError.corrupt(path: path, detail: "a history row is malformed: \(error)")
        }
    }

    /// What the user sees: the steps of the undo stack, oldest first, then
    /// those of the redo stack, newest undone first; the position is the
    /// number of undo steps.
    ///
    /// - Complexity: O(*s*) rows read by key for *s* steps shown, in two
    ///   queries; their changes are not decoded.
    func overview(_ head: LogHead, _ db: Database) throws -> HistoryOverview {
        let (done, undone) = try stacks(head, db)
        var steps = done.map { HistoryOverview.Step(name: $0.step.name, date: ItemRecord.date($0.step.date)) }
        for undo in undone {
            steps.append(HistoryOverview.Step(name: undo.name, date: ItemRecord.date(undo.date)))
        }
        return HistoryOverview(steps: steps, position: done.count)
    }

    /// The undo stack, oldest first: each node up to the current one with
    /// the row shown for it; and the redo stack, top first: its undo rows.
    /// Each stack is one recursive query, which walks the rows by key.
    private func stacks(_ head: LogHead, _ db: Database) throws -> (done: [(node: Int64, step: Header)], undone: [Header]) {
        // No stack is deeper than the log has rows: a damaged file whose
        // rows point in a circle stops there.
        let deepest = head.lastSeq + 1
        let upward = try db.cachedStatement(sql: """
            WITH RECURSIVE up(node, seq, depth) AS (
                SELECT ?1, \(Self.forwardSeq("?1")), 0 WHERE ?1 > 0
                UNION ALL
                SELECT made.before, \(Self.forwardSeq("made.before")), up.depth + 1
                FROM up JOIN step AS made ON made.seq = up.seq
                WHERE made.before > 0 AND up.depth < ?2
            )
            SELECT up.node, \(Header.columns("step")) FROM up JOIN step ON step.seq = up.seq ORDER BY up.depth DESC
            """)
        var done: [(node: Int64, step: Header)] = []
        let rows = try Row.fetchCursor(upward, arguments: [head.node, deepest])
        while let row = try rows.next() {
            done.append((try decoded { try row.decode(Int64.self, atIndex: 0) }, try Header(row, from: 1, path: path)))
        }
        let downward = try db.cachedStatement(sql: """
            WITH RECURSIVE down(seq, depth) AS (
                SELECT ?1, 0 WHERE ?1 IS NOT NULL
                UNION ALL
                SELECT step.redoNext, down.depth + 1 FROM down JOIN step ON step.seq = down.seq
                WHERE step.kind = 'undo' AND step.redoNext IS NOT NULL AND down.depth < ?2
            )
            SELECT \(Header.columns("step")), made.date FROM down
            JOIN step ON step.seq = down.seq AND step.kind = 'undo'
            LEFT JOIN step AS made ON made.seq = step.before
            ORDER BY down.depth
            """)
        var undone: [Header] = []
        let undoRows = try Row.fetchCursor(downward, arguments: [head.redoTop, deepest])
        while let row = try undoRows.next() {
            var undo = try Header(row, from: 0, path: path)
            // The date of the step undone: its change's, while still in the log.
            if let made = try decoded({ try row.decode(Int64?.self, atIndex: 6) }) { undo.date = made }
            undone.append(undo)
        }
        return (done, undone)
    }

    /// SQL for the row shown for the node `node` in the undo stack: its
    /// change's row, else the newest redo of it (see ``forwardStep(into:_:)``).
    private static func forwardSeq(_ node: String) -> String {
        """
        coalesce(
            (SELECT seq FROM step AS change WHERE change.seq = \(node) AND change.kind = 'do'),
            (SELECT seq FROM step AS redo WHERE redo.node = \(node) AND redo.kind = 'redo' ORDER BY redo.seq DESC LIMIT 1))
        """
    }

    /// What `body` reads from a row, its failure named as damage.
    private func decoded<Value>(_ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch {
            throw StoreError.corrupt(path: path, detail: "a history row is malformed: \(error)")
        }
    }

    /// The columns of a row that say where it sits, without its changes.
    private struct Header {
        var seq: Int64
        var kind: String
        var name: String
        var date: Int64
        var before: Int64
        var redoNext: Int64?

        /// The columns ``init(_:from:path:)`` reads, of the table `table`.
        static func columns(_ table: String) -> String {
            ["seq", "kind", "name", "date", "before", "redoNext"].map { "\(table).\($0)" }.joined(separator: ", ")
        }

        /// Reads the columns of ``columns(_:)`` from `row`, starting at `first`.
        init(_ row: Row, from first: Int, path: String) throws {
            do {
                seq = try row.decode(Int64.self, atIndex: first)
                kind = try row.decode(String.self, atIndex: first + 1)
                name = try row.decode(String.self, atIndex: first + 2)
                date = try row.decode(Int64.self, atIndex: first + 3)
                before = try row.decode(Int64.self, atIndex: first + 4)
                redoNext = try row.decode(Int64?.self, atIndex: first + 5)
            } catch {
                throw StoreError.corrupt(path: path, detail: "a history row is malformed: \(error)")
            }
        }
    }

    private func header(_ seq: Int64, _ db: Database) throws -> Header? {
        try header(db, sql: "SELECT \(Header.columns("step")) FROM step WHERE seq = ?", seq)
    }

    /// The step shown for `node` in the undo stack: its change's row (name
    /// and date of when it was made), else the newest redo of it.
    private func forwardStep(into node: Int64, _ db: Database) throws -> Header? {
        guard node > 0 else { return nil }
        if let change = try header(node, db), change.kind == StepRecord.Kind.do.rawValue { return change }
        return try header(
            db, sql: "SELECT \(Header.columns("step")) FROM step WHERE node = ? AND kind = 'redo' ORDER BY seq DESC LIMIT 1",
            node)
    }

    private func header(_ db: Database, sql: String, _ argument: Int64) throws -> Header? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [argument]) else { return nil }
        return try Header(row, from: 0, path: path)
    }

    /// Every step (change) the log holds, oldest first, placed relative
    /// to `head`.
    ///
    /// - Complexity: O(*r*) for *r* rows, their changes not decoded.
    func tree(_ head: LogHead, _ db: Database) throws -> HistoryTree {
        let (doneSteps, undoneSteps) = try stacks(head, db)
        let done = Set(doneSteps.map(\.node))
        let undone = Set(undoneSteps.map(\.before))
        var steps: [HistoryTree.Step] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT seq, before, name, date FROM step WHERE kind = 'do' ORDER BY seq")
        while let row = try rows.next() {
            let number: Int64 = try row.decode(Int64.self, atIndex: 0)
            let branch: HistoryTree.Branch =
                done.contains(number) ? .done : undone.contains(number) ? .undone : .abandoned
            steps.append(HistoryTree.Step(
                number: number, parent: try row.decode(Int64.self, atIndex: 1), name: try row.decode(String.self, atIndex: 2),
                date: ItemRecord.date(try row.decode(Int64.self, atIndex: 3)), branch: branch))
        }
        return HistoryTree(steps: steps, current: head.node)
    }

    /// The node `node` was made on: the parent in the tree, or `nil` when
    /// no row of it is left.
    func parent(of node: Int64, _ db: Database) throws -> Int64? {
        try forwardStep(into: node, db)?.before
    }

    /// The newest undo row that left `node`: applying its inverse enters
    /// `node` again from its parent.
    func newestUndo(leaving node: Int64, _ db: Database) throws -> StepRecord? {
        try record(db, sql: "SELECT * FROM step WHERE before = ? AND kind = 'undo' ORDER BY seq DESC LIMIT 1", node)
    }

    /// The newest undo row that came back into `node` from one of its
    /// children: its inverse goes forward again along the branch last left
    /// there, and its `redoNext` holds what that branch had left to redo.
    func newestUndo(into node: Int64, _ db: Database) throws -> StepRecord? {
        try record(db, sql: "SELECT * FROM step WHERE node = ? AND kind = 'undo' ORDER BY seq DESC LIMIT 1", node)
    }

    // MARK: Crossing

    /// The changes of a row's `forward` or `inverse` column.
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` naming the row when
    ///   they do not decode: the undo or redo that crosses it fails, and
    ///   nothing changes.
    func changes(_ json: String, of row: StepRecord) throws -> [AppState.Change] {
        do {
            return try TodoJSON.storedChanges(json, orDecoding: decoder)
        } catch {
            throw StoreError.corrupt(
                path: path, detail: "history step \(row.seq) (“\(row.name)”) cannot be read: \(error)")
        }
    }

    /// The JSON array of `changes`.
    func json(_ changes: [AppState.Change]) throws -> String {
        try TodoJSON.stepText(changes)
    }

    /// Appends `record`.
    func append(_ record: StepRecord, _ db: Database) throws {
        try record.insertRow(db)
    }

    /// Deletes the rows older than the newest `limit` steps of the undo
    /// stack, after a change (which empties the redo stack): the history
    /// then shows at most `limit` steps, and the log keeps no row older
    /// than the oldest of them.
    ///
    /// The rows that moved into the nodes of the undo stack grow older
    /// going up the stack, so every row older than the one of the oldest
    /// kept step belongs to steps no longer shown.
    ///
    /// - Complexity: O(`limit`) rows read by key.
    func prune(keepingSteps limit: Int, head: LogHead, _ db: Database) throws -> Bool {
        var node = head.node
        var oldestKept: Int64?
        for _ in 0..<max(1, limit) {
            guard let step = try forwardStep(into: node, db) else { return false }
            oldestKept = step.seq
            node = step.before
        }
        guard let oldestKept, try forwardStep(into: node, db) != nil else { return false }
        try db.cachedStatement(sql: "DELETE FROM step WHERE seq < ?").execute(arguments: [oldestKept])
        // Counted, so that other processes read the history again.
        try TodoDatabase.countOnce(.prunings, db)
        return true
    }
}
