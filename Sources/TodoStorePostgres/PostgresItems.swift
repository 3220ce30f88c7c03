import Foundation
import Logging
import PostgresNIO
import TodoStore
import Todos

/// Reads and writes one list's `rewind_item` rows: a column per field, as
/// the SQLite store's `item` (dates in milliseconds since 1970; the due
/// date and the location as JSON in the format of docs/json-format.md,
/// `NULL` when unknown).
struct PostgresItems: Sendable {
    /// The list whose items these are.
    let list: Int64
    /// The database, named in errors.
    let location: String
    let logger: Logger

    /// Every item in list order, and the ranks of their rows.
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` naming the first item
    ///   that does not decode.
    func load(_ connection: PostgresConnection) async throws -> (state: AppState, ranks: [UUID: Double]) {
        let decoder = TodoJSON.makeDecoder(reading: .store)
        let rows = try await connection.answered("""
            SELECT id, rank, title, details, state, created, changed, due::text, location::text
            FROM rewind_item WHERE list_id = \(list) ORDER BY rank, id
            """, logger: logger)
        var items: [TodoItem] = []
        var ranks: [UUID: Double] = [:]
        for try await (id, rank, title, details, state, created, changed, due, location) in rows.decode(
            (UUID, Double, String, String, String, Int64, Int64, String?, String?).self) {
            func decoded<Value: Decodable>(_ document: String?, _ field: String, unknown: Value) throws -> Value {
                guard let document else { return unknown }
                do {
                    return try decoder.decode(Value.self, from: Data(document.utf8))
                } catch {
                    throw corrupt("the \(field) of item \(id) does not decode: \(error)")
                }
            }
            guard let state = TodoItem.State(rawValue: state) else {
                throw corrupt("item \(id) has the state “\(state)”, not active or completed")
            }
            do {
                items.append(try TodoItem(
                    restoring: id, title: title, details: details, state: state,
                    due: decoded(due, "due date", unknown: TodoDate.unknown),
                    location: decoded(location, "location", unknown: Location.unknown),
                    created: PostgresLog.date(created), changed: PostgresLog.date(changed)))
            } catch let error as StoreError {
                throw error
            } catch {
                throw corrupt("item \(id) is invalid: \(error)")
            }
            ranks[id] = rank
        }
        do {
            return (AppState(todos: try TodoList(items: items)), ranks)
        } catch {
            throw corrupt("\(error)")
        }
    }

    /// The saved ranks of those of `ids` whose rows exist.
    func ranks(of ids: Set<UUID>, _ connection: PostgresConnection) async throws -> [UUID: Double] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await connection.answered(
            "SELECT rank, id FROM rewind_item WHERE list_id = \(list) AND id = ANY(\(Array(ids)))", logger: logger)
        var ranks: [UUID: Double] = [:]
        for try await (rank, id) in rows.decode((Double, UUID).self) { ranks[id] = rank }
        return ranks
    }

    /// Writes what ``ItemRanks/writes(touched:list:)`` planned, in one
    /// statement however many rows it deletes and writes.
    func write(_ writes: ItemRanks.Writes, _ connection: PostgresConnection) async throws {
        var statement = PostgresStatement()
        let parts = try parts(writing: writes, into: &statement)
        guard !parts.isEmpty else { return }
        statement.compose(Self.named(parts), then: "SELECT 1")
        try await connection.answered(statement.query, logger: logger)
    }

    /// The parts of a statement (each for a common table expression) that
    /// carry out `writes`, their values bound in `statement`: the deletion
    /// of the rows of items no longer in the list, and the upsert of the
    /// rows written, each left out when it has nothing to do. The two never
    /// touch the same row, as the parts of one statement must not.
    private func parts(writing writes: ItemRanks.Writes, into statement: inout PostgresStatement) throws -> [String] {
        var parts: [String] = []
        let rows = writes.rows
        let ids = rows.map(\.item.id)
        if writes.replacesAll {
            // The list numbered again: every row not written goes (a hashed
            // subquery, not a search of the array for each row).
            parts.append("""
                DELETE FROM rewind_item WHERE list_id = \(try statement.bind(list))
                AND id NOT IN (SELECT unnest(\(try statement.bind(ids))::uuid[]))
                """)
        } else if !writes.deletions.isEmpty {
            parts.append("""
                DELETE FROM rewind_item WHERE list_id = \(try statement.bind(list))
                AND id = ANY(\(try statement.bind(writes.deletions))::uuid[])
                """)
        }
        guard !rows.isEmpty else { return parts }
        let columns = try Self.columns(ofRanked: rows, into: &statement)
        parts.append("""
            INSERT INTO rewind_item (list_id, id, rank, title, details, state, created, changed, due, location)
            SELECT \(try statement.bind(list)), row.id, row.rank, row.title, row.details, row.state, row.created, row.changed,
                   NULLIF(row.due, '')::json, NULLIF(row.location, '')::json
            FROM unnest(\(columns.joined(separator: ", ")))
                 AS row(id, rank, title, details, state, created, changed, due, location)
            ON CONFLICT (list_id, id) DO UPDATE SET
                rank = excluded.rank, title = excluded.title, details = excluded.details, state = excluded.state,
                created = excluded.created, changed = excluded.changed, due = excluded.due, location = excluded.location
            """)
        return parts
    }

    /// The fields of `items` bound in `statement`, a parameter per column
    /// (an array with an element per item): id, title, details, state,
    /// created, changed, due and location, the dates in milliseconds since
    /// 1970, the due date and the location as JSON, `""` when unknown (no
    /// JSON document is empty; `NULLIF(…, '')::json` reads it back).
    static func columns(of items: [TodoItem], into statement: inout PostgresStatement) throws -> [String] {
        try Columns(items).bound(into: &statement)
    }

    /// The columns of ``columns(of:into:)`` for `rows`, with their ranks
    /// after the ids: the arguments of `rewind_append` and
    /// `rewind_shared_save` from `p_ids` to `p_locations`.
    static func columns(ofRanked rows: [(item: TodoItem, rank: Double, isNew: Bool)], into statement: inout PostgresStatement)
        throws -> [String]
    {
        try Columns(rows.map(\.item), ranks: rows.map(\.rank)).bound(into: &statement)
    }

    /// The item rows' columns as arrays, an element per item, as
    /// ``columns(of:into:)`` binds them; those of several rows of a log one
    /// after another (``append(_:)``) for a call that saves them together.
    struct Columns: Sendable {
        private(set) var ids: [UUID] = []
        private(set) var ranks: [Double]?
        private(set) var titles: [String] = []
        private(set) var details: [String] = []
        private(set) var states: [String] = []
        private(set) var created: [Int64] = []
        private(set) var changed: [Int64] = []
        private(set) var dues: [String] = []
        private(set) var locations: [String] = []

        /// No item, with ranks or without.
        init(ranked: Bool) {
            ranks = ranked ? [] : nil
        }

        /// The columns of `items`, and their `ranks` when given.
        init(_ items: [TodoItem], ranks: [Double]? = nil) throws {
            let encoder = TodoJSON.makeEncoder()
            func json<Value: Encodable>(_ value: Value, unknown: Bool) throws -> String {
                unknown ? "" : String(decoding: try encoder.encode(value), as: UTF8.self)
            }
            ids = items.map(\.id)
            self.ranks = ranks
            titles = items.map(\.title)
            details = items.map(\.details)
            states = items.map(\.state.rawValue)
            created = items.map { PostgresLog.milliseconds($0.created) }
            changed = items.map { PostgresLog.milliseconds($0.changed) }
            dues = try items.map { try json($0.due, unknown: $0.due == .unknown) }
            locations = try items.map { try json($0.location, unknown: $0.location == .unknown) }
        }

        /// How many items.
        var count: Int { ids.count }

        /// Appends the items of `other` (ranked alike) after these.
        mutating func append(_ other: Columns) {
            ids += other.ids
            if ranks != nil { ranks? += other.ranks ?? [] }
            titles += other.titles
            details += other.details
            states += other.states
            created += other.created
            changed += other.changed
            dues += other.dues
            locations += other.locations
        }

        /// Binds every column in `statement` and returns their parameters,
        /// the ranks (when there are) after the ids.
        func bound(into statement: inout PostgresStatement) throws -> [String] {
            var columns = [
                try statement.bind(ids) + "::uuid[]",
                try statement.bind(titles) + "::text[]",
                try statement.bind(details) + "::text[]",
                try statement.bind(states) + "::text[]",
                try statement.bind(created) + "::int8[]",
                try statement.bind(changed) + "::int8[]",
                try statement.bind(dues) + "::text[]",
                try statement.bind(locations) + "::text[]",
            ]
            if let ranks { columns.insert(try statement.bind(ranks) + "::float8[]", at: 1) }
            return columns
        }
    }

    /// `parts` named `items0`, `items1`, … for ``PostgresStatement/compose(_:then:)``.
    private static func named(_ parts: [String]) -> [(name: String, sql: String)] {
        parts.enumerated().map { ("items\($0.offset)", $0.element) }
    }

    private func corrupt(_ detail: String) -> StoreError {
        .corrupt(path: location, detail: detail)
    }
}
