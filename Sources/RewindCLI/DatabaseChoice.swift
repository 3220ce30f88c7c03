import Foundation
import TodoStorePostgres

/// Which PostgreSQL database, if any, `rewind serve` and `rewind todo`
/// keep the to-dos in: `--database URL`, else `REWIND_DATABASE_URL` unless
/// `--data-dir` or `--in-memory` chose otherwise; without either, the
/// SQLite file of the data directory, as before.
enum DatabaseChoice {
    /// The environment variable that names the database.
    static let environmentVariable = "REWIND_DATABASE_URL"

    /// The database chosen, or `nil` for the data directory (or memory).
    ///
    /// - Parameter otherStoreChosen: Whether `--data-dir` or `--in-memory`
    ///   was given (they win over the environment, not over `--database`,
    ///   which the commands refuse alongside them).
    /// - Throws: ``DatabaseURLError`` naming the option or variable when
    ///   the URL is malformed.
    static func url(
        option: String?, otherStoreChosen: Bool,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(DatabaseChoiceError) -> DatabaseURL? {
        let (text, source): (String, String)
        if let option {
            (text, source) = (option, "--database")
        } else if !otherStoreChosen, let variable = environment[environmentVariable], !variable.isEmpty {
            (text, source) = (variable, "$\(environmentVariable)")
        } else {
            return nil
        }
        do {
            return try DatabaseURL(text)
        } catch {
            throw DatabaseChoiceError(source: source, error: error)
        }
    }
}

/// A malformed `--database` or `REWIND_DATABASE_URL`, named (exit status 64).
struct DatabaseChoiceError: Error, CustomStringConvertible {
    /// `--database` or `$REWIND_DATABASE_URL`.
    let source: String
    /// What is wrong with the URL.
    let error: DatabaseURLError

    /// One sentence: which setting, and what is wrong with it.
    var description: String { "\(source): \(error)" }
}
