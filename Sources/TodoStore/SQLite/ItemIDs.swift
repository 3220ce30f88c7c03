import Foundation
import GRDB

/// The ids of the items a store's file holds, searched by key in the
/// table's index on them, without reading any item: how the CLI finds the
/// item that the start of an id names, and how short a reference can be.
///
/// Ids are compared as their canonical text (`6F1C2E0A-3B7D-…`), in which
/// the order of the text is the order of the hex digits.
///
/// ```swift
/// let matches = try await store.searchIDs { ids in try ids.ids(startingWith: "6f1c", limit: 4) }
/// ```
public struct ItemIDs {
    private let db: Database

    init(_ db: Database) {
        self.db = db
    }

    /// Whether an item has `id`.
    ///
    /// - Complexity: O(log *n*).
    public func contains(_ id: UUID) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM item WHERE id = ?)"), arguments: [id.uuidString])
            ?? false
    }

    /// Up to `limit` ids that start with `hexDigits` (0–9 and a–f in either
    /// case, without hyphens; `nil` for anything else), in order.
    ///
    /// - Complexity: O(log *n* + `limit`).
    public func ids(startingWith hexDigits: String, limit: Int) throws -> [UUID] {
        guard let prefix = Self.canonicalText(ofDigits: hexDigits) else { return [] }
        // Every character of an id sorts below "Z"; an id a person edited
        // into lower case is found by the second range.
        let texts = try String.fetchAll(
            db.cachedStatement(sql: """
                SELECT id FROM item WHERE (id >= ?1 AND id < ?1 || 'Z') OR (id >= lower(?1) AND id < lower(?1) || 'z')
                ORDER BY upper(id) LIMIT ?2
                """),
            arguments: [prefix, limit])
        return texts.compactMap(ItemRecord.uuid)
    }

    /// Every id, in order.
    ///
    /// - Complexity: O(*n*), from the index of ids alone.
    public func all() throws -> [UUID] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM item ORDER BY id")).compactMap(ItemRecord.uuid)
    }

    /// The ids just before and just after `id` in order (`id` itself left
    /// out, whether or not an item has it).
    ///
    /// - Complexity: O(log *n*).
    public func neighbours(of id: UUID) throws -> (before: UUID?, after: UUID?) {
        let text = id.uuidString
        let before = try String.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM item WHERE id < ? ORDER BY id DESC LIMIT 1"), arguments: [text])
        let after = try String.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM item WHERE id > ? ORDER BY id LIMIT 1"), arguments: [text])
        return (before.flatMap(ItemRecord.uuid), after.flatMap(ItemRecord.uuid))
    }

    /// The start of an id's canonical text that `digits` spell: upper case,
    /// with the hyphens after the 8th, 12th, 16th and 20th digit.
    static func canonicalText(ofDigits digits: String) -> String? {
        guard digits.count <= 32, digits.allSatisfy(\.isHexDigit) else { return nil }
        var text = ""
        for (index, digit) in digits.uppercased().enumerated() {
            if [8, 12, 16, 20].contains(index) { text.append("-") }
            text.append(digit)
        }
        return text
    }
}

extension SQLiteStore {
    /// Runs `body` with the ids of the items as the file holds them, on the
    /// store's queue, and returns what it returns.
    ///
    /// - Throws: What `body` throws, or ``StoreError`` when the file cannot be read.
    public func searchIDs<Result: Sendable>(_ body: @escaping @Sendable (ItemIDs) throws -> Result) async throws -> Result {
        let path = database.url.path
        return try await onQueue {
            try TodoDatabase.readingSaved(path: path) {
                try self.database.queue.read { db in try body(ItemIDs(db)) }
            }
        }
    }
}
