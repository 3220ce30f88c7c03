import ArgumentParser
import Foundation
import TodoStore
import TodoStorePostgres

/// The options every `rewind todo` subcommand takes: where the data is.
struct TodoOptions: ParsableArguments {
    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "A PostgreSQL database to keep the list in instead of the data directory: postgres://user[:password]@host[:port]/database (default: $REWIND_DATABASE_URL).",
            valueName: "url"
        )
    )
    var database: String?

    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "The data directory (default: $REWIND_DATA_DIR, else $XDG_DATA_HOME/rewind, else ~/.local/share/rewind).",
            valueName: "dir"
        ),
        completion: .directory
    )
    var dataDirectory: String?

    /// Refuses an empty `--data-dir`, which would otherwise quietly mean the default.
    func validate() throws {
        if let dataDirectory, dataDirectory.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--data-dir must name a folder; leave the option out to use the default data directory")
        }
        if database != nil, dataDirectory != nil {
            throw ValidationError("--database and --data-dir exclude each other; give one of them")
        }
    }
}

extension TodoOptions {
    /// The options as typed again after a command the CLI suggests, so that
    /// the suggestion acts on the same data: ` --data-dir DIR` or
    /// ` --database URL` (its password, which is not repeated, as
    /// `PASSWORD` to fill in), quoted for a shell; empty when neither was
    /// given.
    var repeated: String {
        if let dataDirectory { return " --data-dir " + Self.shellQuoted(dataDirectory) }
        guard let database else { return "" }
        var url = URLComponents(string: database)
        if url?.password != nil { url?.password = "PASSWORD" }
        return " --database " + Self.shellQuoted(url?.string ?? database)
    }

    /// `text` as a shell reads it back: as it is when it holds only
    /// characters no shell treats specially, else in single quotes; with a
    /// control character, in `$'…'` with the character escaped (`\x1B`),
    /// so that the suggestion does not act on the terminal it is shown on.
    static func shellQuoted(_ text: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@%=")
        if !text.isEmpty, text.allSatisfy(plain.contains), !text.hasPrefix("-") { return text }
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let escaped = text.unicodeScalars.map { scalar -> String in
            if scalar == "\\" || scalar == "'" { return "\\" + String(scalar) }
            guard scalar.properties.generalCategory == .control else { return String(scalar) }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return scalar.value < 0x80 ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        return "$'" + escaped.joined() + "'"
    }
}

extension TodoOptions {
    /// The data directory, created if needed, and the PostgreSQL database
    /// of `--database` or `REWIND_DATABASE_URL` if one is chosen (`nil`:
    /// the SQLite file of the directory).
    ///
    /// - Throws: ``TodoCommandError`` (exit status 64) for a malformed
    ///   database URL; ``StoreError`` when the directory cannot be made.
    func storage() throws -> (directory: DataDirectory, database: DatabaseURL?) {
        let (directory, url) = try chosen()
        try directory.create()
        return (directory, url)
    }

    /// The data directory, when the to-dos are kept in one (not in
    /// PostgreSQL) and it does not exist: a command that only reads then
    /// answers as for an empty one and makes nothing, so that a mistyped
    /// `--data-dir` leaves no folder behind. `nil` otherwise.
    func absentDataDirectory() throws -> DataDirectory? {
        let (directory, url) = try chosen()
        func exists(_ path: URL) -> Bool {
            // Not followed: a symbolic link to nothing is said as such when the store opens.
            (try? FileManager.default.attributesOfItem(atPath: path.path)) != nil
        }
        guard url == nil, !exists(directory.url) else { return nil }
        // Below a file, it cannot be made: opening says so.
        var above = directory.url.deletingLastPathComponent()
        while !exists(above), above.path != "/" { above = above.deletingLastPathComponent() }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: above.path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        return directory
    }

    private func chosen() throws -> (directory: DataDirectory, database: DatabaseURL?) {
        let directory = DataDirectory.resolve(explicitPath: dataDirectory)
        do {
            return (directory, try DatabaseChoice.url(option: database, otherStoreChosen: dataDirectory != nil))
        } catch {
            throw TodoCommandError.usage(error.description)
        }
    }
}

extension TodoOptions {
    /// Opens what `sqlite` makes of the data directory's database file, or
    /// what `postgres` makes of the PostgreSQL database of `--database` or
    /// `REWIND_DATABASE_URL`, whose connection pool then runs while the
    /// process does (it ends with the command).
    ///
    /// - Throws: what ``storage()`` and the two closures throw.
    func open<Opened: Sendable>(
        sqlite: (URL) async throws -> Opened, postgres: (PostgresTodoDatabase) async throws -> Opened
    ) async throws -> (directory: DataDirectory, opened: Opened) {
        let (directory, url) = try storage()
        guard let url else { return (directory, try await sqlite(directory.databaseURL)) }
        let database = try PostgresTodoDatabase(url: url, maximumConnections: 2)
        let opened = try await postgres(database)
        Task { await database.run() }
        return (directory, opened)
    }
}
