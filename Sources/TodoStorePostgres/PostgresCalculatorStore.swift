import Foundation
import Logging
import PostgresNIO
import TodoStore

/// The calculators of the browser page in the PostgreSQL database of the
/// list (tables `rewind_calculator` and `rewind_calculator_step`, migration
/// `calculators`), shared by every instance: a browser's calculator is the
/// same whichever instance serves it. Each save locks the calculator's row
/// and checks its version first, so two instances saving one calculator at
/// once cannot both succeed.
///
/// The pool (``PostgresTodoDatabase/client``) must run while the store is used.
public struct PostgresCalculatorStore: CalculatorStore {
    private let database: PostgresTodoDatabase
    private let logger: Logger

    private init(database: PostgresTodoDatabase, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// Opens the calculators of `database` after bringing its schema up to
    /// date, on a connection of its own (the pool need not run yet).
    ///
    /// - Throws: ``StoreError/newerSchema(path:unknownMigrations:)`` when a
    ///   newer Rewind made the database (nothing is written then), or
    ///   ``StoreError/io(path:detail:)`` when it cannot be reached or used.
    public static func open(
        _ database: PostgresTodoDatabase,
        logger: Logger = Logger(label: "rewind.postgres.calculators", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> PostgresCalculatorStore {
        try await database.withDirectConnection { connection, logger in
            try await PostgresSchema.migrate(connection, in: database, list: PostgresStore.listID, logger: logger)
        }
        return PostgresCalculatorStore(database: database, logger: logger)
    }

    /// See ``CalculatorStore/calculator(_:)``.
    public func calculator(_ id: String) async throws -> StoredCalculator? {
        let key = Self.key(id)
        let path = database.url.redacted
        let logger = logger
        do {
            return try await database.withPooledTransaction(logger: logger, snapshot: true) { connection in
                let rows = try await connection.answered(
                    "SELECT base, dropped, position, version FROM rewind_calculator WHERE key = \(key)", logger: logger)
                var head: (String, Int64, Int64, Int64)?
                for try await row in rows.decode((String, Int64, Int64, Int64).self) { head = row }
                guard let head else { return nil }
                var steps: [(number: Int, label: String)] = []
                let found = try await connection.answered(
                    "SELECT n, label FROM rewind_calculator_step WHERE calculator = \(key) ORDER BY n", logger: logger)
                for try await (number, label) in found.decode((Int64, String).self) { steps.append((Int(number), label)) }
                return try Self.checked(
                    base: head.0, droppedSteps: Int(head.1), position: Int(head.2), version: Int(head.3), steps: steps,
                    path: path)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw database.storeError(error)
        }
    }

    /// See ``CalculatorStore/version(_:)``.
    public func version(_ id: String) async throws -> Int? {
        let key = Self.key(id)
        let logger = logger
        do {
            return try await database.withPooledConnection { connection in
                let rows = try await connection.answered(
                    "SELECT version FROM rewind_calculator WHERE key = \(key)", logger: logger)
                var version: Int?
                for try await found in rows.decode(Int64.self) { version = Int(found) }
                return version
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw database.storeError(error)
        }
    }

    /// See ``CalculatorStore/save(_:_:at:)``. Not tried again when the
    /// connection ends: the first try may have committed, and a second
    /// would then be refused as made on an older version.
    public func save(_ id: String, _ save: CalculatorSave, at now: Date) async throws -> Int? {
        let key = Self.key(id)
        let used = Int64((now.timeIntervalSince1970 * 1000).rounded())
        let logger = logger
        let (dropped, position) = (Int64(save.droppedSteps), Int64(save.position))
        do {
            return try await database.withPooledTransaction(logger: logger) { connection -> Int? in
                let next = save.version == 0 ? StoredCalculator.firstVersion() : save.version + 1
                if save.version == 0 {
                    let base = save.base ?? ""
                    let first = Int64(next)
                    let inserted = try await connection.answered(
                        """
                        INSERT INTO rewind_calculator (key, base, dropped, position, version, used)
                        VALUES (\(key), \(base), \(dropped), \(position), \(first), \(used))
                        ON CONFLICT (key) DO NOTHING RETURNING key
                        """, logger: logger)
                    var made = false
                    for try await _ in inserted.decode(String.self) { made = true }
                    guard made else { return nil }
                } else {
                    let expected = Int64(save.version)
                    let updated = try await connection.answered(
                        """
                        UPDATE rewind_calculator SET base = coalesce(\(save.base), base), dropped = \(dropped),
                            position = \(position), version = version + 1, used = \(used)
                        WHERE key = \(key) AND version = \(expected) RETURNING key
                        """, logger: logger)
                    var changed = false
                    for try await _ in updated.decode(String.self) { changed = true }
                    guard changed else { return nil }
                }
                if let kept = save.keptThrough {
                    let kept = Int64(kept)
                    try await connection.answered(
                        "DELETE FROM rewind_calculator_step WHERE calculator = \(key) AND n > \(kept)", logger: logger)
                }
                if !save.appended.isEmpty {
                    var last = save.keptThrough.map(Int64.init)
                    if last == nil {
                        let found = try await connection.answered(
                            "SELECT coalesce(max(n), \(dropped)) FROM rewind_calculator_step WHERE calculator = \(key)",
                            logger: logger)
                        for try await n in found.decode(Int64.self) { last = n }
                    }
                    let first = (last ?? dropped) + 1
                    let labels = save.appended
                    try await connection.answered(
                        """
                        INSERT INTO rewind_calculator_step (calculator, n, label)
                        SELECT \(key), \(first) + s.i - 1, s.label FROM unnest(\(labels)::text[]) WITH ORDINALITY AS s(label, i)
                        """, logger: logger)
                }
                if dropped > 0 {
                    try await connection.answered(
                        "DELETE FROM rewind_calculator_step WHERE calculator = \(key) AND n <= \(dropped)", logger: logger)
                }
                return next
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw database.storeError(error)
        }
    }

    /// See ``CalculatorStore/forgetCalculators(unusedSince:keepingAtMost:)``.
    @discardableResult
    public func forgetCalculators(unusedSince date: Date, keepingAtMost limit: Int) async throws -> Int {
        let cutoff = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let limit = Int64(max(0, limit))
        let logger = logger
        do {
            return try await database.withPooledTransaction(logger: logger) { connection in
                // The steps go with their calculator (`ON DELETE CASCADE`).
                let rows = try await connection.answered(
                    """
                    DELETE FROM rewind_calculator WHERE used < \(cutoff)
                        OR key IN (SELECT key FROM rewind_calculator ORDER BY used DESC OFFSET \(limit))
                    RETURNING key
                    """, logger: logger)
                var count = 0
                for try await _ in rows.decode(String.self) { count += 1 }
                return count
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw database.storeError(error)
        }
    }
}
