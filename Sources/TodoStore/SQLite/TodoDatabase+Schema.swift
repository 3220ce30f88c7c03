import Foundation
import GRDB
import Rewind
import Todos

extension TodoDatabase {
    /// The names schema v2 gave an item's states (active, completed), which
    /// v3 renames to ``TodoItem/State``'s.
    static let v2StateNames = (active: "unfinished", completed: "finished")

    /// `CREATE TABLE` of the item rows (``ItemRecord``) under `name`, whose
    /// `state` is one of `states`.
    /// With `inSharedList`, the rows are keyed by `(list, id)`, `list`
    /// naming a row of `shared_list`.
    static func createItemTable(
        named name: String, states: (active: String, completed: String), inSharedList: Bool = false
    ) -> String {
        """
        CREATE TABLE \(name) (
            \(inSharedList ? "list TEXT NOT NULL REFERENCES shared_list (id) ON DELETE CASCADE,\n    id TEXT NOT NULL," : "id TEXT PRIMARY KEY NOT NULL,")
            rank DOUBLE NOT NULL,
            title TEXT NOT NULL CHECK (length(title) > 0),
            details TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('\(states.active)', '\(states.completed)')),
            created INTEGER NOT NULL,
            changed INTEGER NOT NULL,
            due TEXT CHECK (due IS NULL OR json_valid(due)),
            location TEXT CHECK (location IS NULL OR json_valid(location))\(inSharedList ? ",\n    PRIMARY KEY (list, id)" : "")
        );
        """
    }

    /// Creates the tables of schema v2: items in columns, the history as an
    /// append-only log (``StepRecord``), and `meta(key, value)` with `epoch`,
    /// which a reset increments so that other processes know to reload.
    static func createSchemaV2(_ db: Database) throws {
        try db.execute(sql: createItemTable(named: "item", states: v2StateNames) + """
            CREATE INDEX item_rank ON item (rank);
            CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
            INSERT INTO meta (key, value) VALUES ('epoch', 0);
            """)
        try StepRecord.createTable(db)
    }

    /// Migrates a v1 database (items as JSON bodies, the history as step rows
    /// rewritten by undo and redo, a saved position) to v2, in the
    /// migrator's transaction: items keep their ids, fields and ranks; the
    /// done steps become a chain of changes and the undone ones changes
    /// followed by their undos, so that the undo and redo stacks, names and
    /// dates are as they were.
    ///
    /// v1 kept only the changes that cross a step in the direction it would
    /// be crossed next; the other direction is found by crossing it: the done
    /// steps back from the current state, the undone ones forward from it.
    static func migrateV1ToV2(_ db: Database, path: String) throws {
        let decoder = TodoJSON.makeDecoder(reading: .store)
        let encoder = TodoJSON.makeEncoder()
        func corrupt(_ detail: String) -> StoreError { .corrupt(path: path, detail: detail) }

        // The items, in list order, and their ranks.
        var items: [TodoItem] = []
        var ranks: [Double] = []
        for row in try Row.fetchAll(db, sql: "SELECT id, rank, body FROM item ORDER BY rank, id") {
            let id: String = (try? row.decode(String.self, atIndex: 0)) ?? "?"
            guard let rank = try? row.decode(Double.self, atIndex: 1), let body = try? row.decode(String.self, atIndex: 2) else {
                throw corrupt("item \(id) has no rank or body")
            }
            do {
                items.append(try decoder.decode(TodoItem.self, from: Data(body.utf8)))
            } catch {
                throw corrupt("item \(id) does not decode: \(error)")
            }
            ranks.append(rank)
        }
        let current: AppState
        do {
            current = AppState(todos: try TodoList(items: items))
        } catch {
            throw corrupt("\(error)")
        }

        // The steps and the position.
        struct OldStep {
            var name: String
            var date: Date
            var lastChangeDate: Date
            var coalescingKey: String?
            var changes: [AppState.Change]
        }
        var steps: [OldStep] = []
        for row in try Row.fetchAll(db, sql: "SELECT seq, name, date, lastChangeDate, coalescingKey, changes FROM step ORDER BY seq") {
            let seq: Int64 = (try? row.decode(Int64.self, atIndex: 0)) ?? 0
            do {
                let changes = try decoder.decode([AppState.Change].self, from: Data(try row.decode(String.self, atIndex: 5).utf8))
                steps.append(OldStep(
                    name: try row.decode(String.self, atIndex: 1),
                    date: Date(timeIntervalSinceReferenceDate: try row.decode(Double.self, atIndex: 2)),
                    lastChangeDate: Date(timeIntervalSinceReferenceDate: try row.decode(Double.self, atIndex: 3)),
                    coalescingKey: try row.decode(String?.self, atIndex: 4),
                    changes: changes))
            } catch {
                throw corrupt("history step \(seq) does not decode: \(error)")
            }
        }
        let position = try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'position'") ?? steps.count
        guard (0...steps.count).contains(position) else {
            throw corrupt("the history position \(position) lies outside its \(steps.count) steps")
        }

        // v1 kept a step's changes in the order they are crossed (last
        // first); the log keeps them in the order they are applied.
        var forward = [[AppState.Change]](repeating: [], count: steps.count)
        var inverse = [[AppState.Change]](repeating: [], count: steps.count)
        var state = current
        for index in (0..<position).reversed() {
            inverse[index] = steps[index].changes.reversed()
            do {
                forward[index] = try state.apply(all: inverse[index])
            } catch {
                throw corrupt("history step \(index + 1) (“\(steps[index].name)”) cannot be undone: \(error)")
            }
        }
        state = current
        for index in position..<steps.count {
            forward[index] = steps[index].changes.reversed()
            do {
                inverse[index] = try state.apply(all: forward[index])
            } catch {
                throw corrupt("history step \(index + 1) (“\(steps[index].name)”) cannot be redone: \(error)")
            }
        }

        try db.execute(sql: "DROP TABLE item; DROP TABLE step; DROP TABLE meta")
        try createSchemaV2(db)
        for (item, rank) in zip(current.todos.items, ranks) {
            var record = try ItemRecord(item, rank: rank, encoder: encoder)
            // The words of v2's rows, which the next migration renames.
            record.state = item.isCompleted ? v2StateNames.completed : v2StateNames.active
            try record.insert(db)
        }
        func json(_ changes: [AppState.Change]) throws -> String {
            String(decoding: try encoder.encode(changes), as: UTF8.self)
        }
        // A change per step, each on the node of the one before …
        for (index, step) in steps.enumerated() {
            let seq = Int64(index + 1)
            try StepRecord(
                seq: seq, kind: .do, name: step.name, date: ItemRecord.milliseconds(step.date),
                groupKey: step.coalescingKey, before: seq - 1, node: seq, redoTop: nil,
                forward: try json(forward[index]), inverse: try json(inverse[index])
            ).insert(db)
        }
        // … then the undos of the undone steps, newest first, each pushed on
        // the redo stack. They are dated by the newest date the file knew.
        let undoDate = ItemRecord.milliseconds(steps.map(\.lastChangeDate).max() ?? Date(timeIntervalSince1970: 0))
        var seq = Int64(steps.count)
        var redoTop: Int64?
        for index in (position..<steps.count).reversed() {
            seq += 1
            let node = Int64(index + 1)
            try StepRecord(
                seq: seq, kind: .undo, name: steps[index].name, date: undoDate, before: node, node: node - 1,
                redoTop: seq, redoNext: redoTop, reverts: node,
                forward: try json(inverse[index]), inverse: try json(forward[index])
            ).insert(db)
            redoTop = seq
        }
    }

    /// Migrates a v2 database to v3, in the migrator's transaction: the item
    /// rows' states get the names of ``TodoItem/State`` (`unfinished` becomes
    /// `active`, `finished` becomes `completed`), and so does the `CHECK` on
    /// them. The history log is left as it is: it is append-only, and its
    /// changes are read under either name (see `docs/json-format.md`).
    static func migrateV2ToV3(_ db: Database) throws {
        let (old, new) = (v2StateNames, (active: TodoItem.State.active.rawValue, completed: TodoItem.State.completed.rawValue))
        // SQLite cannot change a CHECK in place: the table is made again.
        try db.execute(sql: createItemTable(named: "item_v3", states: new) + """
            INSERT INTO item_v3 (id, rank, title, details, state, created, changed, due, location)
                SELECT id, rank, title, details,
                       CASE state WHEN '\(old.active)' THEN '\(new.active)' WHEN '\(old.completed)' THEN '\(new.completed)' ELSE state END,
                       created, changed, due, location
                FROM item;
            DROP TABLE item;
            ALTER TABLE item_v3 RENAME TO item;
            CREATE INDEX item_rank ON item (rank);
            """)
    }

    /// Creates the accounts' table of schema v4: a row per account, found by
    /// its name in lower case (`key`, unique), the name as typed, the bcrypt
    /// hash of its password and when it was made (milliseconds since 1970).
    static func createAccountTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE account (
                key TEXT PRIMARY KEY NOT NULL CHECK (length(key) > 0),
                name TEXT NOT NULL CHECK (length(name) > 0),
                passwordHash TEXT NOT NULL,
                created INTEGER NOT NULL
            );
            """)
    }

    /// Creates the sessions' table of schema v5: a row per sign-in session,
    /// found by the SHA-256 of its id (hexadecimal; the id itself is never
    /// kept), the account's key, and when it began and ends (milliseconds
    /// since 1970). Removing the account removes its rows.
    static func createSessionTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE session (
                idHash TEXT PRIMARY KEY NOT NULL CHECK (length(idHash) = 64),
                account TEXT NOT NULL REFERENCES account(key) ON DELETE CASCADE,
                created INTEGER NOT NULL,
                expires INTEGER NOT NULL
            );
            CREATE INDEX session_account ON session (account);
            CREATE INDEX session_expires ON session (expires);
            """)
    }

    /// The calculators of the browser page (migration `v8-calculators`):
    /// one row per calculator, by the SHA-256 of its cookie, with its base
    /// and position, and one row per kept step.
    static func createCalculatorTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE calculator (
                key TEXT PRIMARY KEY NOT NULL CHECK (length(key) = 64),
                base TEXT NOT NULL,
                dropped INTEGER NOT NULL CHECK (dropped >= 0),
                position INTEGER NOT NULL CHECK (position >= dropped),
                version INTEGER NOT NULL CHECK (version > 0),
                used INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX calculator_used ON calculator (used);
            CREATE TABLE calculator_step (
                calculator TEXT NOT NULL,
                n INTEGER NOT NULL CHECK (n > 0),
                label TEXT NOT NULL,
                PRIMARY KEY (calculator, n)
            ) WITHOUT ROWID;
            """)
    }

    /// The columns, checks and primary key of `shared_step`, as
    /// `v5-shared-lists` made it and `v7-shared-step-rowid` makes it again.
    static let sharedStepColumns = """
                list TEXT NOT NULL REFERENCES shared_list (id) ON DELETE CASCADE,
                seq INTEGER NOT NULL CHECK (seq > 0),
                author TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('change', 'undo', 'redo')),
                reverts INTEGER CHECK ((kind = 'change') = (reverts IS NULL)),
                name TEXT NOT NULL,
                date INTEGER NOT NULL,
                coalescingKey TEXT,
                joins INTEGER,
                changes TEXT NOT NULL CHECK (json_valid(changes)),
                patch TEXT NOT NULL CHECK (json_valid(patch)),
                skipped TEXT NOT NULL CHECK (json_valid(skipped)),
                PRIMARY KEY (list, seq)
        """

    /// Rebuilds `shared_step` as a table with row ids (migration
    /// `v7-shared-step-rowid`): the same columns, checks and rows, the
    /// primary key `(list, seq)` in SQLite's index of it, and the heads'
    /// index again. Run in the migrator's transaction.
    static func rebuildSharedStepWithRowIDs(_ db: Database) throws {
        let columns = "list, seq, author, kind, reverts, name, date, coalescingKey, joins, changes, patch, skipped"
        try db.execute(sql: """
            CREATE TABLE shared_step_rows (
            \(sharedStepColumns)
            );
            INSERT INTO shared_step_rows (\(columns)) SELECT \(columns) FROM shared_step ORDER BY list, seq;
            DROP TABLE shared_step;
            ALTER TABLE shared_step_rows RENAME TO shared_step;
            CREATE INDEX shared_step_head ON shared_step (list, seq, author, kind, reverts, joins);
            """)
    }

    /// Creates the tables of the named lists of team mode (migration
    /// `v5-shared-lists`):
    /// - `shared_list`: a row per list, its owner (key and name as typed)
    ///   and `lastSeq`, the number of its latest log row;
    /// - `shared_member`: the accounts each list is shared with;
    /// - `shared_item`: the items of each list in columns, as `item`;
    /// - `shared_step`: each list's append-only log (``SharedStep``): the
    ///   row's number, author, kind, the row it takes back, name, date,
    ///   coalescing key and joined step in columns, and its changes, patch
    ///   and skipped parts as JSON (`docs/shared-undo.md`);
    /// - `shared_writer`: who wrote each part of each item last, and in
    ///   which row.
    static func createSharedListTables(_ db: Database) throws {
        let states = (active: TodoItem.State.active.rawValue, completed: TodoItem.State.completed.rawValue)
        try db.execute(sql: """
            CREATE TABLE shared_list (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL CHECK (length(name) > 0),
                ownerKey TEXT NOT NULL CHECK (length(ownerKey) > 0),
                owner TEXT NOT NULL,
                created INTEGER NOT NULL,
                lastSeq INTEGER NOT NULL DEFAULT 0 CHECK (lastSeq >= 0)
            );
            CREATE INDEX shared_list_owner ON shared_list (ownerKey);
            CREATE TABLE shared_member (
                list TEXT NOT NULL REFERENCES shared_list (id) ON DELETE CASCADE,
                key TEXT NOT NULL CHECK (length(key) > 0),
                name TEXT NOT NULL,
                PRIMARY KEY (list, key)
            ) WITHOUT ROWID;
            CREATE INDEX shared_member_key ON shared_member (key);
            """ + createItemTable(named: "shared_item", states: states, inSharedList: true) + """
            CREATE INDEX shared_item_rank ON shared_item (list, rank);
            CREATE TABLE shared_step (
            \(sharedStepColumns)
            ) WITHOUT ROWID;
            CREATE TABLE shared_writer (
                list TEXT NOT NULL REFERENCES shared_list (id) ON DELETE CASCADE,
                item TEXT NOT NULL,
                part TEXT NOT NULL,
                seq INTEGER NOT NULL,
                author TEXT NOT NULL,
                PRIMARY KEY (list, item, part)
            ) WITHOUT ROWID;
            """)
    }
}
