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
        let rows = try await connection.query("""
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

    /// Writes what ``ItemRanks/writes(touched:list:)`` planned: one
    /// statement for the rows (however many), one for the deletions.
    func write(_ writes: ItemRanks.Writes, _ connection: PostgresConnection) async throws {
        if writes.replacesAll {
            try await connection.query("DELETE FROM rewind_item WHERE list_id = \(list)", logger: logger)
        } else if !writes.deletions.isEmpty {
            try await connection.query(
                "DELETE FROM rewind_item WHERE list_id = \(list) AND id = ANY(\(writes.deletions))", logger: logger)
        }
        guard !writes.rows.isEmpty else { return }
        let encoder = TodoJSON.makeEncoder()
        func json<Value: Encodable>(_ value: Value, unknown: Bool) throws -> String {
            // "" stands for NULL in the arrays below: no JSON document is empty.
            unknown ? "" : String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        let rows = writes.rows
        let ids = rows.map(\.item.id)
        let ranks = rows.map(\.rank)
        let titles = rows.map(\.item.title)
        let details = rows.map(\.item.details)
        let states = rows.map(\.item.state.rawValue)
        let created = rows.map { PostgresLog.milliseconds($0.item.created) }
        let changed = rows.map { PostgresLog.milliseconds($0.item.changed) }
        let dues = try rows.map { try json($0.item.due, unknown: $0.item.due == .unknown) }
        let locations = try rows.map { try json($0.item.location, unknown: $0.item.location == .unknown) }
        try await connection.query("""
            INSERT INTO rewind_item (list_id, id, rank, title, details, state, created, changed, due, location)
            SELECT \(list), row.id, row.rank, row.title, row.details, row.state, row.created, row.changed,
                   NULLIF(row.due, '')::json, NULLIF(row.location, '')::json
            FROM unnest(\(ids)::uuid[], \(ranks)::float8[], \(titles)::text[], \(details)::text[], \(states)::text[],
                        \(created)::int8[], \(changed)::int8[], \(dues)::text[], \(locations)::text[])
                 AS row(id, rank, title, details, state, created, changed, due, location)
            ON CONFLICT (list_id, id) DO UPDATE SET
                rank = excluded.rank, title = excluded.title, details = excluded.details, state = excluded.state,
                created = excluded.created, changed = excluded.changed, due = excluded.due, location = excluded.location
            """, logger: logger)
    }

    private func corrupt(_ detail: String) -> StoreError {
        .corrupt(path: location, detail: detail)
    }
}
