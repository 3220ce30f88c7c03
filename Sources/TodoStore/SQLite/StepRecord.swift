import Foundation
import GRDB

/// One row of the history log, the `step` table. The log is append-only:
/// a change, an undo and a redo each append a row, and no row is ever
/// rewritten (an optional cap deletes the oldest rows).
///
/// The history is a tree of *nodes*: node 0 is where the log starts, and
/// every change makes a node numbered by its row's `seq`, child of the node
/// it was made on. Each row records the move it made, from node `before` to
/// node `node`, and the changes that made it (`forward`) and that revert it
/// (`inverse`), both JSON arrays of changes applied in order
/// (`Reversible.apply(all:)`). So a row is complete in itself: undo and redo
/// apply what a row says, and need no other row to still exist.
///
/// - A **do** row is a change: it moves from the current node to the new node `seq`.
/// - An **undo** row moves from a node back to its parent; `reverts` is the
///   row whose move it takes back.
/// - A **redo** row moves from a node to the child that an undo row left;
///   `reverts` is that undo row.
///
/// What the user sees is a linear history: the *undo stack* is the path
/// from the current node up to the oldest node still in the log; the *redo
/// stack* is a stack of undo rows, kept as a linked list in the log itself:
/// every row stores the top of the stack after it (`redoTop`), and an undo
/// row the top before it (`redoNext`). A change empties the stack; the
/// abandoned branch stays in the log.
struct StepRecord: Equatable, Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "step"

    /// What a row did.
    enum Kind: String {
        case `do`, undo, redo
    }

    /// The row's number: rows are appended in `seq` order.
    var seq: Int64
    /// `do`, `undo` or `redo`.
    var kind: String
    /// The name of the step (for an undo or redo row, of the step it crosses).
    var name: String
    /// When the row was appended, in milliseconds since 1970.
    var date: Int64
    /// Who made it (one local author until accounts exist).
    var author: String
    /// The group the change belongs to, if any (steps of one group are
    /// coalesced into one in the user's history).
    var groupKey: String?
    /// The node the row moved from.
    var before: Int64
    /// The node the row moved to.
    var node: Int64
    /// The undo row at the top of the redo stack after this row.
    var redoTop: Int64?
    /// For an undo row, the top of the redo stack before it.
    var redoNext: Int64?
    /// For an undo or redo row, the row it takes back.
    var reverts: Int64?
    /// The changes the row applied, as a JSON array.
    var forward: String
    /// The changes that revert the row, as a JSON array.
    var inverse: String

    /// The author of every change until accounts exist.
    static let localAuthor = "local"

    init(
        seq: Int64, kind: Kind, name: String, date: Int64, groupKey: String? = nil, before: Int64, node: Int64,
        redoTop: Int64?, redoNext: Int64? = nil, reverts: Int64? = nil, forward: String, inverse: String
    ) {
        self.seq = seq
        self.kind = kind.rawValue
        self.name = name
        self.date = date
        author = Self.localAuthor
        self.groupKey = groupKey
        self.before = before
        self.node = node
        self.redoTop = redoTop
        self.redoNext = redoNext
        self.reverts = reverts
        self.forward = forward
        self.inverse = inverse
    }

    /// Appends the row with a statement prepared once per connection
    /// (GRDB's `insert` encodes a `Codable` record column by column through
    /// its record encoder on every call).
    func insertRow(_ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO step (seq, kind, name, date, author, groupKey, before, node, redoTop, redoNext, reverts, forward, inverse)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
            .execute(arguments: [
                seq, kind, name, date, author, groupKey, before, node, redoTop, redoNext, reverts, forward, inverse,
            ])
    }

    /// Creates the table and its index.
    static func createTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE step (
                seq INTEGER PRIMARY KEY NOT NULL CHECK (seq > 0),
                kind TEXT NOT NULL CHECK (kind IN ('do', 'undo', 'redo')),
                name TEXT NOT NULL,
                date INTEGER NOT NULL,
                author TEXT NOT NULL,
                groupKey TEXT,
                before INTEGER NOT NULL CHECK (before >= 0),
                node INTEGER NOT NULL CHECK (node >= 0),
                redoTop INTEGER,
                redoNext INTEGER,
                reverts INTEGER,
                forward TEXT NOT NULL CHECK (json_valid(forward)),
                inverse TEXT NOT NULL CHECK (json_valid(inverse))
            );
            CREATE INDEX step_node ON step (node, seq);
            CREATE INDEX step_before ON step (before, seq);
            """)
    }
}

/// Where the log stands: its newest row, the current node and the top of
/// the redo stack. Read from the newest row alone.
struct LogHead: Equatable, Sendable {
    /// The newest row's `seq` (0 when the log is empty).
    var lastSeq: Int64
    /// The current node (0 before the first change).
    var node: Int64
    /// The undo row at the top of the redo stack, if any.
    var redoTop: Int64?

    /// The head of an empty log.
    static let empty = LogHead(lastSeq: 0, node: 0, redoTop: nil)
}
