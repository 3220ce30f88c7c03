import ArgumentParser

/// The `rewind` command: the entry point of every front end in the terminal.
@main
struct RewindCommand: AsyncParsableCommand {
    /// The version printed by `rewind --version`.
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "rewind",
        abstract: "Command-driven apps with unlimited undo and redo, kept across restarts (the to-dos' and the browser calculator's).",
        discussion: """
            Rewind is an undo engine for Swift value types and two apps built on it:
            a calculator and a to-do manager.

            Examples:
              rewind calc 0.1 + 0.2 =
              rewind calc 12 + 3 = undo
              rewind todo add "Buy milk" --due tomorrow
              rewind serve
              rewind users add ann
            """,
        version: version,
        subcommands: RewindCommand.subcommandList
    )
}
