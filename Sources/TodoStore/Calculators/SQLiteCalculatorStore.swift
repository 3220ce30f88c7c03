import Foundation
import GRDB
import Todos

/// The calculators of the browser page in the SQLite file of the list
/// (tables `calculator` and `calculator_step`, migration `v8-calculators`):
/// a press writes one step row and the calculator's row, in one transaction.
///
/// Its work runs on a thread of its own, never on Swift's cooperative pool.
///
/// ```swift
/// let calculators = try await SQLiteCalculatorStore.open(url: DataDirectory.resolve().databaseURL)
/// let stored = try await calculators.calculator(cookie)
/// ```
public actor SQLiteCalculatorStore: CalculatorStore {
    private let database: TodoDatabase
    private let executor = StoreExecutor(label: "rewind.sqlite.calculators")

    /// Runs the store's work on a thread of its own, not Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Opens the database file at `url`, creating it or adding the
    /// calculators' tables if needed.
    ///
    /// - Throws: ``StoreError`` when the file is not a Rewind database, is
    ///   from a newer version, or is damaged; the file is then unchanged.
    public init(url: URL) throws {
        database = try TodoDatabase(url: url, checkingEveryPage: false)
    }

    /// Opens the database file at `url` as ``init(url:)`` does, away from
    /// Swift's cooperative pool.
    public static func open(url: URL) async throws -> SQLiteCalculatorStore {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try SQLiteCalculatorStore(url: url) })
            }
        }
    }

    /// See ``CalculatorStore/calculator(_:)``.
    public func calculator(_ id: String) throws -> StoredCalculator? {
        let key = Self.key(id)
        let path = database.url.path
        return try database.reading { db -> StoredCalculator? in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT base, dropped, position, version FROM calculator WHERE key = ?", arguments: [key])
            else { return nil }
            let steps = try Row.fetchAll(
                db, sql: "SELECT n, label FROM calculator_step WHERE calculator = ? ORDER BY n", arguments: [key]
            ).map { (number: $0[0] as Int, label: $0[1] as String) }
            return try Self.checked(
                base: row[0], droppedSteps: row[1], position: row[2], version: row[3], steps: steps, path: path)
        }
    }

    /// See ``CalculatorStore/version(_:)``.
    public func version(_ id: String) throws -> Int? {
        let key = Self.key(id)
        return try database.reading { db in
            try Int.fetchOne(db, sql: "SELECT version FROM calculator WHERE key = ?", arguments: [key])
        }
    }

    /// See ``CalculatorStore/save(_:_:at:)``.
    public func save(_ id: String, _ save: CalculatorSave, at now: Date) throws -> Int? {
        let key = Self.key(id)
        let used = Int64((now.timeIntervalSince1970 * 1000).rounded())
        return try database.writing { db -> Int? in
            let version = try Int.fetchOne(db, sql: "SELECT version FROM calculator WHERE key = ?", arguments: [key]) ?? 0
            guard version == save.version else { return nil }
            let next = version == 0 ? StoredCalculator.firstVersion() : version + 1
            if version == 0 {
                try db.execute(
                    sql: "INSERT INTO calculator (key, base, dropped, position, version, used) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [key, save.base ?? "", save.droppedSteps, save.position, next, used])
            } else {
                try db.execute(
                    sql: """
                        UPDATE calculator SET base = coalesce(?, base), dropped = ?, position = ?, version = version + 1,
                            used = ?
                        WHERE key = ?
                        """,
                    arguments: [save.base, save.droppedSteps, save.position, used, key])
            }
            if let kept = save.keptThrough {
                try db.execute(sql: "DELETE FROM calculator_step WHERE calculator = ? AND n > ?", arguments: [key, kept])
            }
            if !save.appended.isEmpty {
                let last = try save.keptThrough ?? Int.fetchOne(
                    db, sql: "SELECT max(n) FROM calculator_step WHERE calculator = ?", arguments: [key])
                let first = (last ?? save.droppedSteps) + 1
                let insert = try db.cachedStatement(sql: "INSERT INTO calculator_step (calculator, n, label) VALUES (?, ?, ?)")
                for (offset, label) in save.appended.enumerated() {
                    try insert.execute(arguments: [key, first + offset, label])
                }
            }
            if save.droppedSteps > 0 {
                try db.execute(
                    sql: "DELETE FROM calculator_step WHERE calculator = ? AND n <= ?", arguments: [key, save.droppedSteps])
            }
            return next
        }
    }

    /// See ``CalculatorStore/forgetCalculators(unusedSince:keepingAtMost:)``.
    @discardableResult
    public func forgetCalculators(unusedSince date: Date, keepingAtMost limit: Int) throws -> Int {
        let cutoff = Int64((date.timeIntervalSince1970 * 1000).rounded())
        return try database.writing { db in
            let old = try String.fetchAll(
                db,
                sql: """
                    SELECT key FROM calculator WHERE used < ?
                    UNION SELECT key FROM (SELECT key FROM calculator ORDER BY used DESC LIMIT -1 OFFSET ?)
                    """,
                arguments: [cutoff, max(0, limit)])
            let deleteSteps = try db.cachedStatement(sql: "DELETE FROM calculator_step WHERE calculator = ?")
            let deleteCalculator = try db.cachedStatement(sql: "DELETE FROM calculator WHERE key = ?")
            for key in old {
                try deleteSteps.execute(arguments: [key])
                try deleteCalculator.execute(arguments: [key])
            }
            return old.count
        }
    }
}
