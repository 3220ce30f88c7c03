import ArgumentParser

/// The options every `rewind todo` subcommand takes: where the data is.
struct TodoOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "The data directory (default: $REWIND_DATA_DIR, else $XDG_DATA_HOME/rewind, else ~/.local/share/rewind).",
            valueName: "dir"
        )
    )
    var dataDirectory: String?
}
