import Logging
import PostgresNIO
import TodoStore

/// The tables of the PostgreSQL store and their versioned migrations, run
/// when a store opens. The same ideas as the SQLite file
/// (docs/json-format.md, "The PostgreSQL database"):
///
/// - `rewind_schema(version)`: the migrations applied, by name.
/// - `rewind_list(id, last_seq, node, redo_top, epoch, renumberings)`: one row per list,
///   the head of its log. Every operation locks its list's row first
///   (`SELECT … FOR UPDATE`, or the `UPDATE` that opens a batch's one
///   statement), so writers on any number of instances take turns, and
///   takes each new sequence number from it inside its transaction: one
///   gap-free log per list.
/// - `rewind_item`: an item per row, a column per field, as SQLite's `item`
///   (`rank` orders the list; `due` and `location` are JSON).
/// - `rewind_step`: the append-only history log, as SQLite's `step`
///   (a row per change, undo and redo, with its forward and inverse changes).
/// - `rewind_account(key, name, password_hash, created)`: the accounts of
///   team mode (migration `accounts`).
/// - `rewind_session(id_hash, account_key, created, expires)`: their sign-in
///   sessions (migration `sessions`).
/// - `rewind_shared_list`, `rewind_shared_member`, `rewind_shared_step`,
///   `rewind_shared_writer`: the named lists of team mode (migration
///   `shared-lists`), each with a `rewind_list` row of its own (numbered
///   from 2^32, clear of the single list's) that holds its items in
///   `rewind_item`; see ``PostgresSharedListStore``.
/// - `rewind_append_adds(…)`: a batch of adds at the end of a list, after
///   whatever its log holds (migration `append-adds`, used by
///   ``PostgresLog/appendAdds(_:items:after:_:)``).
/// - `rewind_shared_save(…)`: a row of a shared list with the item rows it
///   wrote and its latest writers, when the list's row still names the row
///   before it (migration `shared-save`, used by ``PostgresSharedListStore``).
/// - `rewind_append(…)`: a batch of changes of a list, when its head is
///   still the one the batch was planned on (migration `append-call`,
///   used by ``PostgresLog/append(changes:after:items:committing:_:)``),
///   and `rewind_append_committed`, which calls it and commits.
/// - `rewind_append_adds_committed` and `rewind_shared_save_committed`:
///   procedures that call those two functions and commit before they
///   answer, for the writes run alone, outside a transaction (migration
///   `committed-calls`): their answer is the commit's confirmation.
/// - `rewind_shared_save_rows(…)` and `rewind_shared_save_rows_committed`:
///   rows of several shared lists, each saved as `rewind_shared_save` saves
///   it, by one call and one commit (migration `shared-save-rows`).
/// - `rewind_calculator(key, base, dropped, position, version, used)` and
///   `rewind_calculator_step(calculator, n, label)`: the calculators of the
///   browser page (migration `calculators`; see ``PostgresCalculatorStore``).
enum PostgresSchema {
    /// The migrations this version knows, oldest first.
    static let migrations: [(name: String, sql: [PostgresQuery])] = [
        ("v1", [
            """
            CREATE TABLE rewind_list (
                id BIGINT PRIMARY KEY,
                last_seq BIGINT NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
                node BIGINT NOT NULL DEFAULT 0 CHECK (node >= 0),
                redo_top BIGINT,
                epoch BIGINT NOT NULL DEFAULT 0
            )
            """,
            """
            CREATE TABLE rewind_item (
                list_id BIGINT NOT NULL REFERENCES rewind_list (id),
                id UUID NOT NULL,
                rank DOUBLE PRECISION NOT NULL,
                title TEXT NOT NULL CHECK (length(title) > 0),
                details TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('active', 'completed')),
                created BIGINT NOT NULL,
                changed BIGINT NOT NULL,
                due JSON,
                location JSON,
                PRIMARY KEY (list_id, id)
            )
            """,
            "CREATE INDEX rewind_item_rank ON rewind_item (list_id, rank)",
            """
            CREATE TABLE rewind_step (
                list_id BIGINT NOT NULL REFERENCES rewind_list (id),
                seq BIGINT NOT NULL CHECK (seq > 0),
                kind TEXT NOT NULL CHECK (kind IN ('do', 'undo', 'redo')),
                name TEXT NOT NULL,
                date BIGINT NOT NULL,
                author TEXT NOT NULL,
                group_key TEXT,
                before BIGINT NOT NULL CHECK (before >= 0),
                node BIGINT NOT NULL CHECK (node >= 0),
                redo_top BIGINT,
                redo_next BIGINT,
                reverts BIGINT,
                forward JSON NOT NULL,
                inverse JSON NOT NULL,
                PRIMARY KEY (list_id, seq)
            )
            """,
            "CREATE INDEX rewind_step_node ON rewind_step (list_id, node, seq)",
            "CREATE INDEX rewind_step_before ON rewind_step (list_id, before, seq)",
        ]),
        // The accounts of team mode (PostgresAccountStore): found by the
        // name in lower case, kept as typed, with the bcrypt hash of the
        // password and when the account was made (milliseconds since 1970).
        ("accounts", [
            """
            CREATE TABLE rewind_account (
                key TEXT PRIMARY KEY CHECK (length(key) > 0),
                name TEXT NOT NULL CHECK (length(name) > 0),
                password_hash TEXT NOT NULL,
                created BIGINT NOT NULL
            )
            """,
        ]),
        // The sign-in sessions of team mode (PostgresAccountStore+Sessions):
        // found by the SHA-256 of the session id (never the id itself), with
        // the account's key and when the session began and ends.
        ("sessions", [
            """
            CREATE TABLE rewind_session (
                id_hash TEXT PRIMARY KEY CHECK (length(id_hash) = 64),
                account_key TEXT NOT NULL REFERENCES rewind_account (key) ON DELETE CASCADE,
                created BIGINT NOT NULL,
                expires BIGINT NOT NULL
            )
            """,
            "CREATE INDEX rewind_session_account ON rewind_session (account_key)",
            "CREATE INDEX rewind_session_expires ON rewind_session (expires)",
        ]),
        // The named lists of team mode (PostgresSharedListStore): a row per
        // list (its id, the number of its rewind_list row, name, owner and
        // latest log row), its members, its append-only log (a row per
        // change, undo and redo, with its author) and who wrote each part
        // of each item last.
        ("shared-lists", [
            "CREATE SEQUENCE rewind_shared_list_number START WITH 4294967296",
            """
            CREATE TABLE rewind_shared_list (
                id UUID PRIMARY KEY,
                list_id BIGINT NOT NULL UNIQUE REFERENCES rewind_list (id),
                name TEXT NOT NULL CHECK (length(name) > 0),
                owner_key TEXT NOT NULL CHECK (length(owner_key) > 0),
                owner TEXT NOT NULL,
                created BIGINT NOT NULL,
                last_seq BIGINT NOT NULL DEFAULT 0 CHECK (last_seq >= 0)
            )
            """,
            "CREATE INDEX rewind_shared_list_owner ON rewind_shared_list (owner_key)",
            """
            CREATE TABLE rewind_shared_member (
                list_id BIGINT NOT NULL REFERENCES rewind_list (id),
                key TEXT NOT NULL CHECK (length(key) > 0),
                name TEXT NOT NULL,
                PRIMARY KEY (list_id, key)
            )
            """,
            "CREATE INDEX rewind_shared_member_key ON rewind_shared_member (key)",
            """
            CREATE TABLE rewind_shared_step (
                list_id BIGINT NOT NULL REFERENCES rewind_list (id),
                seq BIGINT NOT NULL CHECK (seq > 0),
                author TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('change', 'undo', 'redo')),
                reverts BIGINT CHECK ((kind = 'change') = (reverts IS NULL)),
                name TEXT NOT NULL,
                date BIGINT NOT NULL,
                coalescing_key TEXT,
                joins BIGINT,
                changes JSON NOT NULL,
                patch JSON NOT NULL,
                skipped JSON NOT NULL,
                PRIMARY KEY (list_id, seq)
            )
            """,
            """
            CREATE TABLE rewind_shared_writer (
                list_id BIGINT NOT NULL REFERENCES rewind_list (id),
                item UUID NOT NULL,
                part TEXT NOT NULL,
                seq BIGINT NOT NULL,
                author TEXT NOT NULL,
                PRIMARY KEY (list_id, item, part)
            )
            """,
        ]),
        // A batch of adds at the end of a list, wherever its log stands
        // (PostgresLog.appendAdds): an add goes after whatever another
        // instance wrote, so that instances adding to one list need not
        // read each other's rows first. Each statement of the function
        // sees what was committed before it ran, the rows of the writer
        // it waited for among them.
        ("append-adds", [
            PostgresQuery(unsafeSQL: """
            CREATE FUNCTION rewind_append_adds(
                \(appendAdds.declared)
            ) RETURNS TABLE (base_seq BIGINT, top_rank DOUBLE PRECISION, moved BOOLEAN)
            LANGUAGE plpgsql AS $$
            DECLARE
                head_seq BIGINT;
                head_node BIGINT;
                head_redo_top BIGINT;
                head_epoch BIGINT;
                highest DOUBLE PRECISION;
                added BIGINT := cardinality(p_names);
            BEGIN
                SELECT l.last_seq, l.node, l.redo_top, l.epoch INTO head_seq, head_node, head_redo_top, head_epoch
                FROM rewind_list l WHERE l.id = p_list FOR UPDATE;
                IF NOT FOUND OR head_epoch <> p_epoch OR added = 0 THEN
                    RETURN;
                END IF;
                SELECT coalesce(max(i.rank), 0) INTO highest FROM rewind_item i WHERE i.list_id = p_list;
                INSERT INTO rewind_item (list_id, id, rank, title, details, state, created, changed, due, location)
                SELECT p_list, r.id, highest + r.o, r.title, r.details, r.state, r.created, r.changed,
                       NULLIF(r.due, '')::json, NULLIF(r.location, '')::json
                FROM unnest(p_ids, p_titles, p_details, p_states, p_created, p_changed, p_dues, p_locations)
                     WITH ORDINALITY AS r(id, title, details, state, created, changed, due, location, o);
                INSERT INTO rewind_step (list_id, seq, kind, name, date, author, before, node, forward, inverse)
                SELECT p_list, head_seq + r.o, 'do', r.name, r.date, p_author,
                       CASE WHEN r.o = 1 THEN head_node ELSE head_seq + r.o - 1 END, head_seq + r.o,
                       r.forward::json, r.inverse::json
                FROM unnest(p_names, p_dates, p_forwards, p_inverses) WITH ORDINALITY AS r(name, date, forward, inverse, o);
                UPDATE rewind_list SET last_seq = head_seq + added, node = head_seq + added, redo_top = NULL WHERE id = p_list;
                PERFORM pg_notify(p_channel, p_list::text || ':' || (head_seq + added)::text);
                RETURN QUERY SELECT head_seq, highest,
                    head_seq <> p_start_seq OR head_node <> p_start_node OR head_redo_top IS DISTINCT FROM p_start_redo_top;
            END
            $$
            """),
        ]),
        // Every item row of a list numbered again (ranks 0, 1, 2, …, when a
        // double had no room left between two neighbours) is counted, so
        // that an instance holding the list reads every rank again rather
        // than place items from ranks that moved.
        ("renumberings", [
            "ALTER TABLE rewind_list ADD COLUMN renumberings BIGINT NOT NULL DEFAULT 0",
        ]),
        // A row of a shared list saved by one call, whose statements the
        // server plans once per connection, not at every change.
        ("shared-save", [
            PostgresQuery(unsafeSQL: """
            CREATE FUNCTION rewind_shared_save(
                \(sharedSave.declared)
            ) RETURNS TABLE (out_name TEXT, out_renumberings BIGINT)
            LANGUAGE plpgsql AS $$
            DECLARE
                v_id UUID;
                v_name TEXT;
                v_renumberings BIGINT;
            BEGIN
                UPDATE rewind_shared_list s SET last_seq = p_seq
                WHERE s.list_id = p_list
                  AND (p_expected IS NULL OR s.last_seq = p_expected)
                  AND (p_person IS NULL OR s.owner_key = p_person
                       OR EXISTS (SELECT 1 FROM rewind_shared_member m WHERE m.list_id = s.list_id AND m.key = p_person))
                RETURNING s.id, s.name INTO v_id, v_name;
                IF NOT FOUND THEN
                    RETURN;
                END IF;
                IF p_replaces_all THEN
                    DELETE FROM rewind_item i WHERE i.list_id = p_list AND i.id NOT IN (SELECT unnest(p_ids));
                    UPDATE rewind_list l SET renumberings = l.renumberings + 1 WHERE l.id = p_list
                    RETURNING l.renumberings INTO v_renumberings;
                ELSIF cardinality(p_deletions) > 0 THEN
                    DELETE FROM rewind_item i WHERE i.list_id = p_list AND i.id = ANY(p_deletions);
                END IF;
                \(upsertItems)
                INSERT INTO rewind_shared_step
                    (list_id, seq, author, kind, reverts, name, date, coalescing_key, joins, changes, patch, skipped)
                VALUES (p_list, p_seq, p_author, p_kind, p_reverts, p_name, p_date, p_coalescing_key, p_joins,
                        p_changes::json, p_patch::json, p_skipped::json);
                INSERT INTO rewind_shared_writer (list_id, item, part, seq, author)
                SELECT p_list, w.item, w.part, p_seq, p_author FROM unnest(p_writer_items, p_writer_parts) AS w(item, part)
                ON CONFLICT (list_id, item, part) DO UPDATE SET seq = excluded.seq, author = excluded.author;
                PERFORM pg_notify(p_channel, v_id::text || ':' || p_seq::text);
                RETURN QUERY SELECT v_name, v_renumberings;
            END
            $$
            """),
        ]),
        // The two writes that run alone, outside a transaction, called as
        // procedures that commit before they answer. A statement run alone
        // through the extended protocol commits at the `Sync` after it, once
        // its answer is written: the client cannot tell a commit that failed
        // then from one that was made without asking again. A `CALL` whose
        // procedure says `COMMIT` answers only once that commit is made, and
        // a commit that fails fails the call.
        ("committed-calls", [
            PostgresQuery(unsafeSQL: """
            CREATE PROCEDURE rewind_append_adds_committed(
                \(appendAdds.declared),
                OUT o_base_seq BIGINT, OUT o_top_rank DOUBLE PRECISION, OUT o_moved BOOLEAN
            )
            LANGUAGE plpgsql AS $$
            BEGIN
                SELECT a.base_seq, a.top_rank, a.moved INTO o_base_seq, o_top_rank, o_moved
                FROM rewind_append_adds(\(appendAdds.names)) a;
                COMMIT;
            END
            $$
            """),
            PostgresQuery(unsafeSQL: """
            CREATE PROCEDURE rewind_shared_save_committed(
                \(sharedSave.declared),
                OUT o_name TEXT, OUT o_renumberings BIGINT
            )
            LANGUAGE plpgsql AS $$
            BEGIN
                SELECT s.out_name, s.out_renumberings INTO o_name, o_renumberings
                FROM rewind_shared_save(\(sharedSave.names)) s;
                COMMIT;
            END
            $$
            """),
        ]),
        // A batch of changes of a list written alone, outside a transaction
        // (every change but a batch of adds), as one call planned once per
        // connection instead of a statement of up to five parts parsed and
        // planned at every batch, made through a procedure that commits
        // before it answers, as the two above.
        ("append-call", [
            PostgresQuery(unsafeSQL: """
            CREATE FUNCTION rewind_append(
                \(append.declared)
            ) RETURNS BOOLEAN
            LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE rewind_list l SET last_seq = p_last_seq, node = p_last_node, redo_top = NULL,
                    renumberings = l.renumberings + CASE WHEN p_replaces_all THEN 1 ELSE 0 END
                WHERE l.id = p_list AND l.last_seq = p_start_seq AND l.node = p_start_node
                  AND l.redo_top IS NOT DISTINCT FROM p_start_redo_top AND l.epoch = p_epoch;
                IF NOT FOUND THEN
                    RETURN FALSE;
                END IF;
                IF p_replaces_all THEN
                    DELETE FROM rewind_item i WHERE i.list_id = p_list AND i.id NOT IN (SELECT unnest(p_ids));
                ELSIF cardinality(p_deletions) > 0 THEN
                    DELETE FROM rewind_item i WHERE i.list_id = p_list AND i.id = ANY(p_deletions);
                END IF;
                \(upsertItems)
                INSERT INTO rewind_step (list_id, seq, kind, name, date, author, before, node, forward, inverse)
                SELECT p_list, r.seq, 'do', r.name, r.date, p_author, r.before, r.seq, r.forward::json, r.inverse::json
                FROM unnest(p_seqs, p_names, p_dates, p_befores, p_forwards, p_inverses)
                     AS r(seq, name, date, before, forward, inverse);
                PERFORM pg_notify(p_channel, p_list::text || ':' || p_last_seq::text);
                RETURN TRUE;
            END
            $$
            """),
            PostgresQuery(unsafeSQL: """
            CREATE PROCEDURE rewind_append_committed(
                \(append.declared),
                OUT o_appended BOOLEAN
            )
            LANGUAGE plpgsql AS $$
            BEGIN
                o_appended := rewind_append(\(append.names));
                COMMIT;
            END
            $$
            """),
        ]),
        // Rows of several shared lists saved by one call and one commit
        // (group commit across lists): each row as `rewind_shared_save`
        // saves it, in a subtransaction of its own, so that a row that
        // fails fails alone. Each row's items, writers and deletions are
        // its slice of the flat arrays, up to its `…_to` index; -1 and ''
        // stand for null (postgres-nio binds no array with a null in it).
        ("shared-save-rows", [
            PostgresQuery(unsafeSQL: """
            CREATE FUNCTION rewind_shared_save_rows(
                \(sharedSaveRows.declared)
            ) RETURNS TABLE (out_name TEXT, out_renumberings BIGINT, out_error TEXT)
            LANGUAGE plpgsql AS $$
            DECLARE
                v_writers INT := 0;
                v_deletions INT := 0;
                v_items INT := 0;
            BEGIN
                FOR i IN 1..coalesce(cardinality(p_lists), 0) LOOP
                    BEGIN
                        out_name := NULL;
                        out_renumberings := NULL;
                        out_error := NULL;
                        SELECT s.out_name, s.out_renumberings INTO out_name, out_renumberings
                        FROM rewind_shared_save(
                            p_lists[i], NULLIF(p_expected[i], -1), NULLIF(p_persons[i], ''), p_seqs[i], p_authors[i],
                            p_kinds[i], NULLIF(p_reverts[i], -1), p_names[i], p_dates[i], NULLIF(p_coalescing_keys[i], ''),
                            NULLIF(p_joins[i], -1), p_changes[i], p_patches[i],
                            p_skipped[i],
                            p_writer_items[v_writers + 1 : p_writers_to[i]], p_writer_parts[v_writers + 1 : p_writers_to[i]],
                            p_replaces_all[i], p_deletions[v_deletions + 1 : p_deletions_to[i]],
                            p_ids[v_items + 1 : p_items_to[i]], p_ranks[v_items + 1 : p_items_to[i]],
                            p_titles[v_items + 1 : p_items_to[i]], p_details[v_items + 1 : p_items_to[i]],
                            p_states[v_items + 1 : p_items_to[i]], p_created[v_items + 1 : p_items_to[i]],
                            p_changed[v_items + 1 : p_items_to[i]], p_dues[v_items + 1 : p_items_to[i]],
                            p_locations[v_items + 1 : p_items_to[i]], p_channel) s;
                    EXCEPTION WHEN OTHERS THEN
                        out_name := NULL;
                        out_renumberings := NULL;
                        out_error := SQLSTATE || ': ' || SQLERRM;
                    END;
                    RETURN NEXT;
                    v_writers := p_writers_to[i];
                    v_deletions := p_deletions_to[i];
                    v_items := p_items_to[i];
                END LOOP;
            END
            $$
            """),
            // Arrays of the rows' answers, in order: what was saved (`''`
            // and -1 for a row not written or failed), and each error (`''`
            // for none). A procedure answers one row, and postgres-nio
            // reads no array with a null in it.
            PostgresQuery(unsafeSQL: """
            CREATE PROCEDURE rewind_shared_save_rows_committed(
                \(sharedSaveRows.declared),
                OUT o_saved BOOLEAN[], OUT o_names TEXT[], OUT o_renumberings BIGINT[], OUT o_errors TEXT[]
            )
            LANGUAGE plpgsql AS $$
            BEGIN
                SELECT array_agg(s.out_name IS NOT NULL ORDER BY s.n), array_agg(coalesce(s.out_name, '') ORDER BY s.n),
                       array_agg(coalesce(s.out_renumberings, -1) ORDER BY s.n), array_agg(coalesce(s.out_error, '') ORDER BY s.n)
                INTO o_saved, o_names, o_renumberings, o_errors
                FROM rewind_shared_save_rows(\(sharedSaveRows.names)) WITH ORDINALITY AS s(out_name, out_renumberings, out_error, n);
                COMMIT;
            END
            $$
            """),
        ]),
        // The calculators of the browser page, so that they survive a
        // restart and any instance serves a browser: as SQLite's
        // `calculator` and `calculator_step`.
        ("calculators", [
            """
            CREATE TABLE rewind_calculator (
                key TEXT PRIMARY KEY CHECK (length(key) = 64),
                base TEXT NOT NULL,
                dropped BIGINT NOT NULL CHECK (dropped >= 0),
                position BIGINT NOT NULL CHECK (position >= dropped),
                version BIGINT NOT NULL CHECK (version > 0),
                used BIGINT NOT NULL
            )
            """,
            "CREATE INDEX rewind_calculator_used ON rewind_calculator (used)",
            """
            CREATE TABLE rewind_calculator_step (
                calculator TEXT NOT NULL REFERENCES rewind_calculator (key) ON DELETE CASCADE,
                n BIGINT NOT NULL CHECK (n > 0),
                label TEXT NOT NULL,
                PRIMARY KEY (calculator, n)
            )
            """,
        ]),
        // Each member of a shared list has the last log row written under
        // its name by an earlier account, removed since
        // (`ListAccess.earlierRows`): a version that would not read it
        // would let a new account undo the old one's steps.
        ("earlier-rows", [
            "ALTER TABLE rewind_shared_member ADD COLUMN earlier BIGINT NOT NULL DEFAULT 0 CHECK (earlier >= 0)",
        ]),
    ]

    /// The parameters of `rewind_shared_save_rows` and of the procedure
    /// that calls it: those of ``sharedSave``, an array element per row,
    /// and the items', writers' and deletions' arrays of every row one
    /// after another, with the index of each row's last element.
    private static let sharedSaveRows = Parameters(
        "p_lists BIGINT[]", "p_expected BIGINT[]", "p_persons TEXT[]",
        "p_seqs BIGINT[]", "p_authors TEXT[]", "p_kinds TEXT[]", "p_reverts BIGINT[]", "p_names TEXT[]", "p_dates BIGINT[]",
        "p_coalescing_keys TEXT[]", "p_joins BIGINT[]", "p_changes TEXT[]", "p_patches TEXT[]", "p_skipped TEXT[]",
        "p_writers_to INT[]", "p_writer_items UUID[]", "p_writer_parts TEXT[]",
        "p_replaces_all BOOLEAN[]", "p_deletions_to INT[]", "p_deletions UUID[]",
        "p_items_to INT[]", "p_ids UUID[]", "p_ranks DOUBLE PRECISION[]", "p_titles TEXT[]", "p_details TEXT[]",
        "p_states TEXT[]", "p_created BIGINT[]", "p_changed BIGINT[]", "p_dues TEXT[]", "p_locations TEXT[]",
        "p_channel TEXT")

    /// The parameters of `rewind_append_adds` and of the procedure that calls it.
    private static let appendAdds = Parameters(
        "p_list BIGINT", "p_epoch BIGINT", "p_start_seq BIGINT", "p_start_node BIGINT", "p_start_redo_top BIGINT",
        "p_author TEXT", "p_channel TEXT",
        "p_names TEXT[]", "p_dates BIGINT[]", "p_forwards TEXT[]", "p_inverses TEXT[]",
        "p_ids UUID[]", "p_titles TEXT[]", "p_details TEXT[]", "p_states TEXT[]", "p_created BIGINT[]", "p_changed BIGINT[]",
        "p_dues TEXT[]", "p_locations TEXT[]")

    /// The parameters of `rewind_shared_save` and of the procedure that calls it.
    private static let sharedSave = Parameters(
        "p_list BIGINT", "p_expected BIGINT", "p_person TEXT",
        "p_seq BIGINT", "p_author TEXT", "p_kind TEXT", "p_reverts BIGINT", "p_name TEXT", "p_date BIGINT",
        "p_coalescing_key TEXT", "p_joins BIGINT", "p_changes TEXT", "p_patch TEXT", "p_skipped TEXT",
        "p_writer_items UUID[]", "p_writer_parts TEXT[]", "p_replaces_all BOOLEAN", "p_deletions UUID[]",
        "p_ids UUID[]", "p_ranks DOUBLE PRECISION[]", "p_titles TEXT[]", "p_details TEXT[]", "p_states TEXT[]",
        "p_created BIGINT[]", "p_changed BIGINT[]", "p_dues TEXT[]", "p_locations TEXT[]", "p_channel TEXT")

    /// The parameters of `rewind_append` and of the procedure that calls it.
    private static let append = Parameters(
        "p_list BIGINT", "p_start_seq BIGINT", "p_start_node BIGINT", "p_start_redo_top BIGINT", "p_epoch BIGINT",
        "p_last_seq BIGINT", "p_last_node BIGINT", "p_replaces_all BOOLEAN", "p_deletions UUID[]",
        "p_ids UUID[]", "p_ranks DOUBLE PRECISION[]", "p_titles TEXT[]", "p_details TEXT[]", "p_states TEXT[]",
        "p_created BIGINT[]", "p_changed BIGINT[]", "p_dues TEXT[]", "p_locations TEXT[]",
        "p_author TEXT", "p_seqs BIGINT[]", "p_names TEXT[]", "p_dates BIGINT[]", "p_befores BIGINT[]",
        "p_forwards TEXT[]", "p_inverses TEXT[]", "p_channel TEXT")

    /// The statement of `rewind_shared_save` and `rewind_append` that
    /// writes the item rows of their `p_ids`, `p_ranks`, … arrays.
    private static let upsertItems = [
        "INSERT INTO rewind_item (list_id, id, rank, title, details, state, created, changed, due, location)",
        "SELECT p_list, r.id, r.rank, r.title, r.details, r.state, r.created, r.changed,",
        "       NULLIF(r.due, '')::json, NULLIF(r.location, '')::json",
        "FROM unnest(p_ids, p_ranks, p_titles, p_details, p_states, p_created, p_changed, p_dues, p_locations)",
        "     AS r(id, rank, title, details, state, created, changed, due, location)",
        "ON CONFLICT (list_id, id) DO UPDATE SET",
        "    rank = excluded.rank, title = excluded.title, details = excluded.details, state = excluded.state,",
        "    created = excluded.created, changed = excluded.changed, due = excluded.due, location = excluded.location;",
    ].joined(separator: "\n                ")

    /// The parameters of a PL/pgSQL routine, each a name and a type.
    private struct Parameters {
        /// Each parameter as declared: its name, a space, its type.
        let declarations: [String]

        init(_ declarations: String...) { self.declarations = declarations }

        /// The declarations, for `CREATE FUNCTION` or `CREATE PROCEDURE`.
        var declared: String { declarations.joined(separator: ", ") }

        /// The names alone, to pass every parameter on to another routine.
        var names: String { declarations.map { String($0.prefix { $0 != " " }) }.joined(separator: ", ") }
    }

    /// Brings the database up to this version's schema, in one transaction
    /// that holds a lock for the purpose (instances starting together take
    /// turns), and makes sure list `list` has its row.
    ///
    /// - Throws: ``StoreError/newerSchema(path:unknownMigrations:)`` when
    ///   the database holds migrations this version does not know; nothing
    ///   is written then.
    static func migrate(
        _ connection: PostgresConnection, in database: PostgresTodoDatabase, list: Int64, logger: Logger
    ) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            // Another instance may migrate a large database for longer than
            // ``PostgresTodoDatabase/lockTimeout``: wait for it, however long.
            try await connection.answered("SET LOCAL lock_timeout = 0", logger: logger)
            try await takeMigrationLock(connection, logger: logger)
            var applied: Set<String> = []
            let exists = try await connection.answered("SELECT to_regclass('rewind_schema') IS NOT NULL", logger: logger)
                .decode(Bool.self).first { _ in true } ?? false
            if exists {
                for try await version in try await connection.answered("SELECT version FROM rewind_schema", logger: logger)
                    .decode(String.self) {
                    applied.insert(version)
                }
            }
            let known = Set(migrations.map(\.name))
            let unknown = applied.subtracting(known).sorted()
            guard unknown.isEmpty else {
                throw StoreError.newerSchema(path: database.url.redacted, unknownMigrations: unknown)
            }
            if !exists {
                try await connection.answered("CREATE TABLE rewind_schema (version TEXT PRIMARY KEY)", logger: logger)
            }
            for migration in migrations where !applied.contains(migration.name) {
                for statement in migration.sql { try await connection.answered(statement, logger: logger) }
                try await connection.answered("INSERT INTO rewind_schema (version) VALUES (\(migration.name))", logger: logger)
            }
            try await connection.answered(
                "INSERT INTO rewind_list (id) VALUES (\(list)) ON CONFLICT (id) DO NOTHING", logger: logger)
        }
    }

    /// Takes the lock the migrations of the connection's schema hold until
    /// the transaction ends: instances over one schema take turns, and
    /// those over other schemas of the database (each test has its own) do
    /// not wait for them. `public` keeps the key of every version before.
    static func takeMigrationLock(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.answered(
            """
            SELECT pg_advisory_xact_lock(CASE coalesce(current_schema(), 'public')
                WHEN 'public' THEN \(lockKey) ELSE \(lockKey) # hashtext(current_schema())::int8 END)
            """, logger: logger)
    }

    /// The advisory lock the migrations of the `public` schema hold (any
    /// number, the same for every instance); another schema's is this one
    /// mixed with a hash of its name.
    private static let lockKey: Int64 = 0x5265_7769_6e64  // "Rewind"
}
