import Foundation
import GRDB
import TestSupport
import Testing
import Todos
@testable import TodoStore

@Suite("SQLite store: item rows")
struct ItemRecordTests {
    @Test func idsReadFromTheirBytesEqualFoundationsReading() {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<2_000 {
            let uuid = UUID(uuid: (
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator)))
            #expect(ItemRecord.uuid(uuid.uuidString) == uuid)
            #expect(ItemRecord.uuid(uuid.uuidString.lowercased()) == uuid)
        }
    }

    @Test(arguments: [
        "", "not a uuid", "6F1C2E0A-3B7D-4C1E-9A55-0D2B7C9E4F1", "6F1C2E0A-3B7D-4C1E-9A55-0D2B7C9E4F100",
        "6F1C2E0A_3B7D-4C1E-9A55-0D2B7C9E4F10", "6F1C2E0G-3B7D-4C1E-9A55-0D2B7C9E4F10", "6F1C2E0A3B7D-4C1E-9A55-0D2B7C9E4F10-",
    ])
    func anythingElseIsReadAsFoundationReadsIt(text: String) {
        #expect(ItemRecord.uuid(text) == UUID(uuidString: text))
    }

    /// The store writes its rows with statements of its own; they must put
    /// every column where GRDB's record methods put it.
    @Test func rowsWrittenByTheStoresStatementsEqualThoseGRDBWrites() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try TodoDatabase.createSchemaV2(db)
            try TodoDatabase.migrateV2ToV3(db)
            let encoder = TodoJSON.makeEncoder()
            let created = Date(timeIntervalSince1970: 1_790_000_000.123)
            let plain = try ItemRecord(
                TodoItem(id: UUID(), title: "Buy milk", created: created), rank: 1, encoder: encoder)
            let full = try ItemRecord(
                TodoItem(
                    id: UUID(), title: "Dentist", details: "Bring the card", state: .completed,
                    due: .date(created.addingTimeInterval(86_400)),
                    location: .address(.init(street: "1 Main St", city: "Springfield", zipCode: "12345", country: "US")),
                    created: created, changed: created.addingTimeInterval(5)),
                rank: -2.5, encoder: encoder)
            for record in [plain, full] {
                try expectTheSameRow(record, key: \.id, otherKey: UUID().uuidString, db) { try $0.insertRow(db) }
            }
            var changed = plain
            changed.title = "Buy oat milk"
            changed.rank = 0.5
            changed.state = TodoItem.State.completed.rawValue
            changed.due = full.due
            changed.changed += 1_000
            try changed.updateRow(db)
            #expect(try ItemRecord.fetchOne(db, key: plain.id) == changed)
            #expect(try ItemRecord.fetchOne(db, key: full.id) == full, "the other row is untouched")
            var missing = plain
            missing.id = UUID().uuidString
            #expect(throws: RecordError.self) { try missing.updateRow(db) }
            #expect(try ItemRecord.fetchCount(db) == 4)
        }
    }

    @Test func historyRowsWrittenByTheStoresStatementEqualThoseGRDBWrites() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try TodoDatabase.createSchemaV2(db)
            try TodoDatabase.migrateV2ToV3(db)
            let records = [
                StepRecord(
                    seq: 1, kind: .do, name: "Add “Buy milk”", date: 1_790_000_000_123, groupKey: "typing", before: 0, node: 1,
                    redoTop: nil, forward: #"[{"op":"removeFinished"}]"#, inverse: "[]"),
                StepRecord(
                    seq: 2, kind: .undo, name: "Add “Buy milk”", date: 1_790_000_000_456, before: 1, node: 0, redoTop: 2,
                    redoNext: nil, reverts: 1, forward: "[]", inverse: #"[{"op":"removeFinished"}]"#),
            ]
            for record in records {
                try expectTheSameRow(record, key: \.seq, otherKey: record.seq + 100, db) { try $0.insertRow(db) }
            }
        }
    }

    /// Writes `record` with `write` and a copy of it under `otherKey` with
    /// GRDB's `insert`, and expects both rows to read back as `record`.
    private func expectTheSameRow<Record: FetchableRecord & PersistableRecord & Equatable, Key: DatabaseValueConvertible>(
        _ record: Record, key: WritableKeyPath<Record, Key>, otherKey: Key, _ db: Database, write: (Record) throws -> Void
    ) throws {
        try write(record)
        var byGRDB = record
        byGRDB[keyPath: key] = otherKey
        try byGRDB.insert(db)
        #expect(try Record.fetchOne(db, key: record[keyPath: key]) == record)
        var expected = try #require(try Record.fetchOne(db, key: otherKey))
        expected[keyPath: key] = record[keyPath: key]
        #expect(expected == record)
    }
}
