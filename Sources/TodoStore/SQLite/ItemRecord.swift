import Foundation
import GRDB
import Todos

/// One row of the `item` table: an item's fields in columns of their own,
/// and its `rank`, which orders the list.
///
/// Dates are whole milliseconds since 1970 (UTC), the precision the domain
/// keeps. Only the due date and the location, whose variants form a tree,
/// are JSON documents (in the format of `docs/json-format.md`), `NULL` when
/// unknown.
struct ItemRecord: Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "item"

    /// The columns, in the order ``init(row:)`` reads them.
    enum Columns {
        static let id = Column("id")
        static let rank = Column("rank")
        static let title = Column("title")
        static let details = Column("details")
        static let state = Column("state")
        static let created = Column("created")
        static let changed = Column("changed")
        static let due = Column("due")
        static let location = Column("location")
    }

    var id: String
    var rank: Double
    var title: String
    var details: String
    var state: String
    var created: Int64
    var changed: Int64
    var due: String?
    var location: String?

    /// The row of `item` at `rank`.
    init(_ item: TodoItem, rank: Double, encoder: JSONEncoder) throws {
        id = item.id.uuidString
        self.rank = rank
        title = item.title
        details = item.details
        state = item.state.rawValue
        created = Self.milliseconds(item.created)
        changed = Self.milliseconds(item.changed)
        due = item.due == .unknown ? nil : String(decoding: try encoder.encode(item.due), as: UTF8.self)
        location = item.location == .unknown ? nil : String(decoding: try encoder.encode(item.location), as: UTF8.self)
    }

    init(row: Row) throws {
        id = try row.decode(String.self, atIndex: 0)
        rank = try row.decode(Double.self, atIndex: 1)
        title = try row.decode(String.self, atIndex: 2)
        details = try row.decode(String.self, atIndex: 3)
        state = try row.decode(String.self, atIndex: 4)
        created = try row.decode(Int64.self, atIndex: 5)
        changed = try row.decode(Int64.self, atIndex: 6)
        due = try row.decode(String?.self, atIndex: 7)
        location = try row.decode(String?.self, atIndex: 8)
    }

    func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.rank] = rank
        container[Columns.title] = title
        container[Columns.details] = details
        container[Columns.state] = state
        container[Columns.created] = created
        container[Columns.changed] = changed
        container[Columns.due] = due
        container[Columns.location] = location
    }

    /// `SELECT` of every column in the order ``init(row:)`` reads them.
    static let selection = "id, rank, title, details, state, created, changed, due, location"

    /// The saved ranks of those of `ids` that have a row.
    ///
    /// - Complexity: One row read by key per id.
    static func ranks(of ids: Set<UUID>, _ db: Database) throws -> [UUID: Double] {
        let statement = try db.cachedStatement(sql: "SELECT rank FROM item WHERE id = ?")
        var ranks: [UUID: Double] = [:]
        ranks.reserveCapacity(ids.count)
        for id in ids {
            if let rank = try Double.fetchOne(statement, arguments: [id.uuidString]) { ranks[id] = rank }
        }
        return ranks
    }

    /// Inserts the row with a statement prepared once per connection
    /// (GRDB's `insert` builds the row's column dictionary and looks the
    /// statement up by its SQL on every call).
    func insertRow(_ db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO item (\(Self.selection)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .execute(arguments: [id, rank, title, details, state, created, changed, due, location])
    }

    /// Writes every column of the row that has this id, with a statement
    /// prepared once per connection.
    ///
    /// - Throws: GRDB's `RecordError.recordNotFound` when there is no such row.
    func updateRow(_ db: Database) throws {
        try db.cachedStatement(sql: """
            UPDATE item SET rank = ?, title = ?, details = ?, state = ?, created = ?, changed = ?, due = ?, location = ?
            WHERE id = ?
            """)
            .execute(arguments: [rank, title, details, state, created, changed, due, location, id])
        guard db.changesCount > 0 else {
            throw RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: ["id": id.databaseValue])
        }
    }

    /// The item this row holds, its due date and location decoded from
    /// `due` and `location` (decoded beforehand, many rows at once).
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` naming the item.
    func item(due: TodoDate, location: Location, path: String) throws -> TodoItem {
        guard let uuid = Self.uuid(id) else {
            throw StoreError.corrupt(path: path, detail: "an item's id “\(id)” is not a UUID")
        }
        guard let state = TodoItem.State(rawValue: state) else {
            throw StoreError.corrupt(path: path, detail: "item \(id) has the state “\(self.state)”, not active or completed")
        }
        do {
            return try TodoItem(
                restoring: uuid, title: title, details: details, state: state, due: due, location: location,
                created: Self.date(created), changed: Self.date(changed))
        } catch {
            throw StoreError.corrupt(path: path, detail: "item \(id) is invalid: \(error)")
        }
    }

    /// The item this row holds, its due date and location decoded one by
    /// one (a row read alone, not the whole list).
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` naming the item.
    func item(decoder: JSONDecoder, path: String) throws -> TodoItem {
        func decoded<Value: Decodable>(_ document: String?, _ field: String, unknown: Value) throws -> Value {
            guard let document else { return unknown }
            do {
                return try decoder.decode(Value.self, from: Data(document.utf8))
            } catch {
                throw StoreError.corrupt(path: path, detail: "the \(field) of item \(id) does not decode: \(error)")
            }
        }
        return try item(
            due: decoded(due, "due date", unknown: TodoDate.unknown), location: decoded(location, "location", unknown: Location.unknown),
            path: path)
    }

    /// The UUID that `text` spells in the canonical form the rows hold
    /// (`6F1C2E0A-3B7D-4C1E-9A55-0D2B7C9E4F10`, either case), read from its
    /// bytes; any other spelling goes to Foundation's reader. Foundation's
    /// parses with `sscanf`, which was a tenth of a CLI command at 10,000 items.
    static func uuid(_ text: String) -> UUID? {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed: Bool = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard utf8.count == 36 else { return false }
            return withUnsafeMutableBytes(of: &bytes) { out -> Bool in
                var index = 0
                var high: UInt8?
                for (offset, character) in utf8.enumerated() {
                    if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                        guard character == UInt8(ascii: "-") else { return false }
                        continue
                    }
                    let nibble: UInt8
                    switch character {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
                    case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
                    case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
                    default: return false
                    }
                    if let first = high {
                        out[index] = first << 4 | nibble
                        index += 1
                        high = nil
                    } else {
                        high = nibble
                    }
                }
                return index == 16
            }
        } ?? false
        return parsed ? UUID(uuid: bytes) : UUID(uuidString: text)
    }

    /// `date` in whole milliseconds since 1970.
    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        // Dates the domain keeps lie far inside this range; a clamp keeps a
        // wild one from trapping.
        return Int64(max(-9.0e15, min(9.0e15, value)))
    }

    /// The date `milliseconds` after 1970.
    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
