import ArgumentParser
import Foundation

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
        )
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
