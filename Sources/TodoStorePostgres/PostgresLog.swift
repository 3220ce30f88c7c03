import Foundation
import Logging
import PostgresNIO
import Rewind
import TodoStore
import Todos

/// Reads and appends the rows of one list's history log (`rewind_step`)
/// and its head (`rewind_list`) inside a transaction of ``PostgresStore``:
/// the SQLite store's log (see `StepRecord` there for the meaning of each
/// column), with a list id in every key. A row's changes are decoded only
/// when an undo, redo or jump crosses it.
struct PostgresLog: Sendable {
    /// The list whose log this is.
    let list: Int64
    /// The database, named in errors.
    let location: String
    let logger: Logger
    /// The channel each commit notifies on (``PostgresTodoDatabase/notificationChannel``).
    let channel: String

    // MARK: The head

    /// Where the log stands, the list's epoch (counted up by a reset), and
    /// how many times its item rows were all numbered again.
    struct Head: Equatable, Sendable {
        var lastSeq: Int64
        var node: Int64
        var redoTop: Int64?
        var epoch: Int64
        var renumberings: Int64

        /// The list's epoch and the log's newest sequence number.
        var position: Position { Position(epoch: epoch, lastSeq: lastSeq) }
    }

    /// How far the log is: later in a later epoch (a reset counts the
    /// epoch up and numbers the log from 0 again), else with a higher
    /// sequence number. A list's position only ever grows.
    struct Position: Comparable, Sendable {
        var epoch: Int64
        var lastSeq: Int64

        static func < (lhs: Position, rhs: Position) -> Bool {
            (lhs.epoch, lhs.lastSeq) < (rhs.epoch, rhs.lastSeq)
        }
    }

    /// The head, its row locked until the transaction ends: writers on every
    /// instance take turns at the list.
    ///
    /// Also answers the number of the transaction (`txid_current()`), by
    /// which ``PostgresTodoDatabase/fate(of:committing:logger:)`` tells, on another connection,
    /// whether it committed when its own connection ended before the
    /// answer to its `COMMIT`.
    func lockHead(_ connection: PostgresConnection) async throws -> (head: Head, transaction: Int64) {
        let rows = try await connection.answered(
            "SELECT last_seq, node, redo_top, epoch, renumberings, txid_current() FROM rewind_list WHERE id = \(list) FOR UPDATE",
            logger: logger
        ).decode((Int64, Int64, Int64?, Int64, Int64, Int64).self)
        for try await (lastSeq, node, redoTop, epoch, renumberings, transaction) in rows {
            return (
                try checkedHead(lastSeq: lastSeq, node: node, redoTop: redoTop, epoch: epoch, renumberings: renumberings), transaction
            )
        }
        throw StoreError.corrupt(path: location, detail: "list \(list) has no row in rewind_list")
    }

    /// The head, as the transaction's snapshot (or the moment) sees it.
    func readHead(_ connection: PostgresConnection) async throws -> Head {
        try await head(connection, sql: "SELECT last_seq, node, redo_top, epoch, renumberings FROM rewind_list WHERE id = \(list)")
    }

    private func head(_ connection: PostgresConnection, sql query: PostgresQuery) async throws -> Head {
        let rows = try await connection.answered(query, logger: logger).decode((Int64, Int64, Int64?, Int64, Int64).self)
        for try await (lastSeq, node, redoTop, epoch, renumberings) in rows {
            return try checkedHead(lastSeq: lastSeq, node: node, redoTop: redoTop, epoch: epoch, renumberings: renumberings)
        }
        throw StoreError.corrupt(path: location, detail: "list \(list) has no row in rewind_list")
    }

    /// The head of a row of `rewind_list`, checked.
    private func checkedHead(lastSeq: Int64, node: Int64, redoTop: Int64?, epoch: Int64, renumberings: Int64) throws -> Head {
        guard lastSeq < Int64.max / 2, (0...lastSeq).contains(node) else {
            throw StoreError.corrupt(path: location, detail: "the history rows are not numbered 1, 2, 3, …")
        }
        return Head(lastSeq: lastSeq, node: node, redoTop: redoTop, epoch: epoch, renumberings: renumberings)
    }

    /// The next sequence number of the list, taken in the transaction: a
    /// rolled-back operation gives it back, so the log has no gaps.
    func nextSeq(_ connection: PostgresConnection) async throws -> Int64 {
        let rows = try await connection.answered(
            "UPDATE rewind_list SET last_seq = last_seq + 1 WHERE id = \(list) RETURNING last_seq", logger: logger)
        for try await seq in rows.decode(Int64.self) { return seq }
        throw StoreError.corrupt(path: location, detail: "list \(list) has no row in rewind_list")
    }

    /// Counts one more numbering of every item row of the list again
    /// (``ItemRanks/Writes/replacesAll``), in the transaction that wrote them.
    func countRenumbering(_ connection: PostgresConnection) async throws {
        try await connection.answered("UPDATE rewind_list SET renumberings = renumberings + 1 WHERE id = \(list)", logger: logger)
    }

    /// Records where the list is after an operation and, in the same
    /// statement, tells every listening instance at the commit: `NOTIFY` on
    /// ``channel`` with `<list>:<last sequence>`
    /// (`PostgresStore+Listening.swift`).
    func move(to node: Int64, redoTop: Int64?, _ connection: PostgresConnection) async throws {
        let rows = try await connection.answered("""
            WITH moved AS (UPDATE rewind_list SET node = \(node), redo_top = \(redoTop) WHERE id = \(list) RETURNING id, last_seq)
            SELECT pg_notify(\(channel), id::text || ':' || last_seq::text) FROM moved
            """, logger: logger)
        for try await _ in rows {}
    }

    /// Appends the change rows `rows` (numbered on from `start`, each
    /// moving the head to its own number), writes the item rows that
    /// `items` plans and moves the head to the last row, notifying as
    /// ``move(to:redoTop:_:)`` does: all in one call of `rewind_append`
    /// (migration `append-call`, planned once per connection), and only if
    /// the head is still `start`; `false`, with nothing written, when it is
    /// not (another instance wrote since). The call takes the list's row
    /// lock before it writes anything, so writers take turns as under
    /// ``lockHead(_:)``. `committing` when the connection is outside a
    /// transaction: the call then goes through `rewind_append_committed`,
    /// which commits before it answers, so that an answer means the rows
    /// are saved.
    func append(
        changes rows: [Row], after start: Head, items: ItemRanks.Writes, committing: Bool,
        _ connection: PostgresConnection
    ) async throws -> Bool {
        guard let last = rows.last else { return true }
        var statement = PostgresStatement()
        var arguments = [
            try statement.bind(list), try statement.bind(start.lastSeq), try statement.bind(start.node),
            try statement.bind(start.redoTop) + "::int8", try statement.bind(start.epoch),
            try statement.bind(last.seq), try statement.bind(last.node), try statement.bind(items.replacesAll),
            try statement.bind(items.deletions) + "::uuid[]",
        ]
        arguments += try PostgresItems.columns(ofRanked: items.rows, into: &statement)
        arguments += [
            try statement.bind(Self.localAuthor), try statement.bind(rows.map(\.seq)) + "::int8[]",
            try statement.bind(rows.map(\.name)) + "::text[]", try statement.bind(rows.map(\.date)) + "::int8[]",
            try statement.bind(rows.map(\.before)) + "::int8[]", try statement.bind(rows.map(\.forward)) + "::text[]",
            try statement.bind(rows.map(\.inverse)) + "::text[]", try statement.bind(channel),
        ]
        let call = arguments.joined(separator: ", ")
        statement.compose([], then: committing ? "CALL rewind_append_committed(\(call), NULL)" : "SELECT rewind_append(\(call))")
        // The whole answer is read: the call is done (and committed, when
        // `committing`) only at its end.
        var appended = false
        for try await answer in try await connection.answered(statement.query, logger: logger).decode(Bool?.self) {
            appended = answer == true
        }
        return appended
    }

    /// Where ``appendAdds(_:items:after:_:)`` put a batch of adds.
    struct AppendedAdds: Sendable {
        /// The last sequence number before the batch's rows, whose node the
        /// first of them leaves.
        var baseSeq: Int64
        /// The highest rank before the batch: its items are ranked 1, 2, …
        /// above it, in order.
        var topRank: Double
        /// Whether the head was no longer `start` (another instance wrote
        /// since): the rows then follow the other's.
        var moved: Bool
    }

    /// Appends the change rows `rows` of a batch whose changes all add
    /// `items` (in order) at the end of the list, wherever the log stands,
    /// and moves the head to the last row, notifying as
    /// ``move(to:redoTop:_:)`` does: one call (`rewind_append_adds`,
    /// migration `append-adds`) that locks the list's row, numbers the rows
    /// after the newest and ranks the items above the highest, made outside
    /// a transaction through `rewind_append_adds_committed` (migration
    /// `committed-calls`), which commits before it answers: an answer means
    /// the rows are saved. `start` is where the batch was planned: the
    /// answer says whether the log was still there. `nil`, with nothing
    /// written, when the list was reset since (its epoch moved).
    func appendAdds(_ rows: [Row], items: [TodoItem], after start: Head, _ connection: PostgresConnection) async throws -> AppendedAdds? {
        var statement = PostgresStatement()
        var arguments = [
            try statement.bind(list), try statement.bind(start.epoch), try statement.bind(start.lastSeq),
            try statement.bind(start.node), try statement.bind(start.redoTop) + "::int8",
            try statement.bind(Self.localAuthor), try statement.bind(channel),
            try statement.bind(rows.map(\.name)) + "::text[]", try statement.bind(rows.map(\.date)) + "::int8[]",
            try statement.bind(rows.map(\.forward)) + "::text[]", try statement.bind(rows.map(\.inverse)) + "::text[]",
        ]
        arguments += try PostgresItems.columns(of: items, into: &statement)
        arguments += ["NULL", "NULL", "NULL"]  // its OUT parameters
        statement.compose([], then: "CALL rewind_append_adds_committed(\(arguments.joined(separator: ", ")))")
        // The whole answer is read: the call is done, and committed, only at its end.
        var appended: AppendedAdds?
        for try await (baseSeq, topRank, moved) in try await connection.answered(statement.query, logger: logger)
            .decode((Int64?, Double?, Bool?).self) {
            if let baseSeq, let topRank, let moved { appended = AppendedAdds(baseSeq: baseSeq, topRank: topRank, moved: moved) }
        }
        return appended
    }

    /// Empties the log and counts the epoch up.
    func reset(_ connection: PostgresConnection) async throws -> Head {
        try await connection.answered("DELETE FROM rewind_step WHERE list_id = \(list)", logger: logger)
        try await connection.answered("DELETE FROM rewind_item WHERE list_id = \(list)", logger: logger)
        return try await head(connection, sql: """
            UPDATE rewind_list SET last_seq = 0, node = 0, redo_top = NULL, epoch = epoch + 1 WHERE id = \(list)
            RETURNING last_seq, node, redo_top, epoch, renumberings
            """)
    }

    // MARK: Rows

    /// One row of the log with its changes (still JSON).
    struct Row: Sendable {
        var seq: Int64
        var kind: String
        var name: String
        var date: Int64
        var before: Int64
        var node: Int64
        var redoTop: Int64?
        var redoNext: Int64?
        var reverts: Int64?
        var forward: String
        var inverse: String
    }

    /// Appends `row`.
    func append(_ row: Row, _ connection: PostgresConnection) async throws {
        try await connection.answered("""
            INSERT INTO rewind_step (list_id, seq, kind, name, date, author, before, node, redo_top, redo_next, reverts, forward, inverse)
            VALUES (\(list), \(row.seq), \(row.kind), \(row.name), \(row.date), \(Self.localAuthor), \(row.before), \(row.node),
                    \(row.redoTop), \(row.redoNext), \(row.reverts), \(row.forward)::json, \(row.inverse)::json)
            """, logger: logger)
    }

    /// The author of every change until accounts exist (as SQLite's log).
    static let localAuthor = "local"

    /// The newest row that moved forward into `node`: the row an undo at
    /// `node` reverts. `nil` at node 0, or when the cap pruned every such row.
    func forwardRow(into node: Int64, _ connection: PostgresConnection) async throws -> Row? {
        guard node > 0 else { return nil }
        return try await row(connection, """
            SELECT \(unescaped: Self.rowColumns) FROM rewind_step
            WHERE list_id = \(list) AND node = \(node) AND kind <> 'undo' ORDER BY seq DESC LIMIT 1
            """)
    }

    /// The row numbered `seq`, if it is still in the log.
    func row(_ seq: Int64, _ connection: PostgresConnection) async throws -> Row? {
        try await row(connection, "SELECT \(unescaped: Self.rowColumns) FROM rewind_step WHERE list_id = \(list) AND seq = \(seq)")
    }

    /// The newest undo row that left `node`: applying its inverse enters
    /// `node` again from its parent.
    func newestUndo(leaving node: Int64, _ connection: PostgresConnection) async throws -> Row? {
        try await row(connection, """
            SELECT \(unescaped: Self.rowColumns) FROM rewind_step
            WHERE list_id = \(list) AND before = \(node) AND kind = 'undo' ORDER BY seq DESC LIMIT 1
            """)
    }

    /// The newest undo row that came back into `node` from one of its
    /// children: its inverse goes forward again along the branch last left
    /// there, and its `redo_next` holds what that branch had left to redo.
    func newestUndo(into node: Int64, _ connection: PostgresConnection) async throws -> Row? {
        try await row(connection, """
            SELECT \(unescaped: Self.rowColumns) FROM rewind_step
            WHERE list_id = \(list) AND node = \(node) AND kind = 'undo' ORDER BY seq DESC LIMIT 1
            """)
    }

    /// The changes of the rows after `seq` up to `last`, oldest first, as
    /// JSON arrays: what moved the list from one head to the other.
    func forwardChanges(after seq: Int64, through last: Int64, _ connection: PostgresConnection) async throws -> [String] {
        let rows = try await connection.answered("""
            SELECT forward::text FROM rewind_step
            WHERE list_id = \(list) AND seq > \(seq) AND seq <= \(last) ORDER BY seq
            """, logger: logger)
        var changes: [String] = []
        for try await forward in rows.decode(String.self) { changes.append(forward) }
        return changes
    }

    /// The columns ``Row`` is read from, in order.
    private static let rowColumns =
        "seq, kind, name, date, before, node, redo_top, redo_next, reverts, forward::text, inverse::text"

    private func row(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> Row? {
        let rows = try await connection.answered(query, logger: logger)
            .decode((Int64, String, String, Int64, Int64, Int64, Int64?, Int64?, Int64?, String, String).self)
        do {
            for try await (seq, kind, name, date, before, node, redoTop, redoNext, reverts, forward, inverse) in rows {
                return Row(
                    seq: seq, kind: kind, name: name, date: date, before: before, node: node, redoTop: redoTop,
                    redoNext: redoNext, reverts: reverts, forward: forward, inverse: inverse)
            }
        } catch let error as PostgresDecodingError {
            throw StoreError.corrupt(path: location, detail: "a history row is malformed: \(error.code)")
        }
        return nil
    }

    /// The node `node` was made on: the parent in the tree, or `nil` when
    /// no row of it is left.
    func parent(of node: Int64, _ connection: PostgresConnection) async throws -> Int64? {
        try await forwardStep(into: node, connection)?.before
    }

    /// The step shown for `node` in the undo stack: its change's row, else
    /// the newest redo of it.
    private func forwardStep(into node: Int64, _ connection: PostgresConnection) async throws -> Row? {
        guard node > 0 else { return nil }
        if let change = try await row(node, connection), change.kind == "do" { return change }
        return try await row(connection, """
            SELECT \(unescaped: Self.rowColumns) FROM rewind_step
            WHERE list_id = \(list) AND node = \(node) AND kind = 'redo' ORDER BY seq DESC LIMIT 1
            """)
    }

    // MARK: What the user sees

    /// A step shown in the history: its row's number, name and date, and the node it moved from.
    private struct Header {
        var node: Int64
        var seq: Int64
        var name: String
        var date: Int64
        var before: Int64
    }

    /// The query of the undo stack from `node` up, oldest first: each node
    /// with its row's number (its change's row, else its newest redo), name,
    /// date and parent, at most `deepest` nodes (so that damaged rows that
    /// point in a circle stop). Each level is found by the log's key: the
    /// parent is tested with `<> 0` (parents are never negative), which no
    /// index can serve, so that a planner without statistics (a fresh or
    /// restored database) does not walk the `before` index from 0 at every
    /// level, which took the square of the stack's depth (minutes at 200,000
    /// steps).
    static func undoStack(of list: Int64, from node: Int64, deepest: Int64) -> PostgresQuery {
        func forwardSeq(_ node: String) -> String {
            """
            coalesce(
                (SELECT seq FROM rewind_step AS change WHERE change.list_id = $1 AND change.seq = \(node) AND change.kind = 'do'),
                (SELECT seq FROM rewind_step AS redo WHERE redo.list_id = $1 AND redo.node = \(node) AND redo.kind = 'redo'
                 ORDER BY redo.seq DESC LIMIT 1))
            """
        }
        var upward = PostgresQuery(unsafeSQL: """
            WITH RECURSIVE up(node, seq, depth) AS (
                SELECT $2::bigint, \(forwardSeq("$2::bigint")), 0 WHERE $2::bigint > 0
                UNION ALL
                SELECT made.before, \(forwardSeq("made.before")), up.depth + 1
                FROM up JOIN rewind_step AS made ON made.list_id = $1 AND made.seq = up.seq
                WHERE made.before <> 0 AND up.depth < $3
            )
            SELECT up.node, step.seq, step.name, step.date, step.before
            FROM up JOIN rewind_step AS step ON step.list_id = $1 AND step.seq = up.seq ORDER BY up.depth DESC
            """)
        upward.binds.append(list)
        upward.binds.append(node)
        upward.binds.append(deepest)
        return upward
    }

    /// The undo stack, oldest first (each node up to the current one with
    /// the row shown for it), and the redo stack, top first (its undo rows,
    /// dated by the change they undid while it is still in the log). Each
    /// stack is one recursive query that walks the rows by key; no stack is
    /// deeper than the log has rows, so damaged rows that point in a circle
    /// stop there.
    private func stacks(_ head: Head, _ connection: PostgresConnection) async throws -> (done: [Header], undone: [Header]) {
        let deepest = head.lastSeq + 1
        let upward = Self.undoStack(of: list, from: head.node, deepest: deepest)
        var done: [Header] = []
        for try await (node, seq, name, date, before) in try await connection.answered(upward, logger: logger)
            .decode((Int64, Int64, String, Int64, Int64).self) {
            done.append(Header(node: node, seq: seq, name: name, date: date, before: before))
        }
        var undone: [Header] = []
        guard let top = head.redoTop else { return (done, undone) }
        var downward = PostgresQuery(unsafeSQL: """
            WITH RECURSIVE down(seq, depth) AS (
                SELECT $2::bigint, 0
                UNION ALL
                SELECT step.redo_next, down.depth + 1 FROM down
                JOIN rewind_step AS step ON step.list_id = $1 AND step.seq = down.seq
                WHERE step.kind = 'undo' AND step.redo_next IS NOT NULL AND down.depth < $3
            )
            SELECT step.node, step.seq, step.name, coalesce(made.date, step.date), step.before FROM down
            JOIN rewind_step AS step ON step.list_id = $1 AND step.seq = down.seq AND step.kind = 'undo'
            LEFT JOIN rewind_step AS made ON made.list_id = $1 AND made.seq = step.before
            ORDER BY down.depth
            """)
        downward.binds.append(list)
        downward.binds.append(top)
        downward.binds.append(deepest)
        for try await (node, seq, name, date, before) in try await connection.answered(downward, logger: logger)
            .decode((Int64, Int64, String, Int64, Int64).self) {
            undone.append(Header(node: node, seq: seq, name: name, date: date, before: before))
        }
        return (done, undone)
    }

    /// What the user sees: the steps of the undo stack, oldest first, then
    /// those of the redo stack, newest undone first; the position is the
    /// number of undo steps.
    func overview(_ head: Head, _ connection: PostgresConnection) async throws -> HistoryOverview {
        let (done, undone) = try await stacks(head, connection)
        let steps = (done + undone).map { HistoryOverview.Step(name: $0.name, date: Self.date($0.date)) }
        return HistoryOverview(steps: steps, position: done.count)
    }

    /// Every step (change) the log holds, oldest first, placed relative to `head`.
    ///
    /// - Complexity: O(*r*) for *r* rows, their changes not decoded.
    func tree(_ head: Head, _ connection: PostgresConnection) async throws -> HistoryTree {
        let (doneSteps, undoneSteps) = try await stacks(head, connection)
        let done = Set(doneSteps.map(\.node))
        let undone = Set(undoneSteps.map(\.before))
        var steps: [HistoryTree.Step] = []
        let rows = try await connection.answered(
            "SELECT seq, before, name, date FROM rewind_step WHERE list_id = \(list) AND kind = 'do' ORDER BY seq",
            logger: logger)
        for try await (number, parent, name, date) in rows.decode((Int64, Int64, String, Int64).self) {
            let branch: HistoryTree.Branch = done.contains(number) ? .done : undone.contains(number) ? .undone : .abandoned
            steps.append(HistoryTree.Step(number: number, parent: parent, name: name, date: Self.date(date), branch: branch))
        }
        return HistoryTree(steps: steps, current: head.node)
    }

    // MARK: Pruning

    /// Deletes the rows older than the newest `limit` steps of the undo
    /// stack, after a change; `true` when it deleted some (see the SQLite
    /// log's `prune`, which this follows).
    func prune(keepingSteps limit: Int, head: Head, _ connection: PostgresConnection) async throws -> Bool {
        var node = head.node
        var oldestKept: Int64?
        for _ in 0..<max(1, limit) {
            guard let step = try await forwardStep(into: node, connection) else { return false }
            oldestKept = step.seq
            node = step.before
        }
        guard let oldestKept, try await forwardStep(into: node, connection) != nil else { return false }
        try await connection.answered("DELETE FROM rewind_step WHERE list_id = \(list) AND seq < \(oldestKept)", logger: logger)
        return true
    }

    // MARK: Dates

    /// `date` in whole milliseconds since 1970, as the rows keep it.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64(max(-9.0e15, min(9.0e15, (date.timeIntervalSince1970 * 1000).rounded())))
    }

    /// The date `milliseconds` after 1970.
    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
