import ArgumentParser

extension RewindCommand {
    /// `rewind todo`: the to-do manager in the terminal. Every subcommand
    /// enters the same app domain as the web app and keeps its data, undo
    /// history included, in the data directory's SQLite database.
    struct Todo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "todo",
            abstract: "A to-do list with unlimited undo and redo that survive restarts.",
            discussion: """
                Items are kept in the data directory: --data-dir, else $REWIND_DATA_DIR, else \
                $XDG_DATA_HOME/rewind, else ~/.local/share/rewind. Every change is one named \
                step of an undo history saved with the items, so `undo` works after a restart \
                and several processes (the CLI and `rewind serve`) can share one directory.

                References (REF): the number shown by the last `rewind todo list`, or the \
                start of an item's id (at least 4 hex digits; hyphens and case do not matter). \
                Numbers can shift when the list changes; an id prefix always names the same \
                item. An unknown or ambiguous reference is an error and changes nothing.

                Team mode: add, list, show, done, undone, edit, move, rm, clear-completed, undo, redo, history and \
                export take --as NAME --list LIST to work on a shared list (see `rewind lists`) as that \
                account; undo and redo then take back that person's own steps only.

                Exit status: 0 on success; 1 when the command could not be done (unknown or \
                ambiguous reference, unreadable data or file); 64 when the command line is \
                wrong (bad option value, due date or coordinate, empty title).

                Examples:
                  rewind todo add "Buy milk" --due tomorrow
                  rewind todo list
                  rewind todo done 1
                  rewind todo undo
                  rewind todo history
                  rewind todo undo --as ann --list groceries
                """,
            subcommands: [
                List.self, Add.self, Show.self, Edit.self, Done.self, Undone.self, Move.self, Remove.self,
                ClearCompleted.self, Undo.self, Redo.self, History.self, Export.self, Import.self,
            ],
            defaultSubcommand: List.self
        )

        /// The subcommands' options given before the subcommand's name
        /// (`rewind todo --database URL add …`): the subcommand reads them as its own.
        @OptionGroup var options: TodoOptions
        /// `--as` and `--list` given before the subcommand's name.
        @OptionGroup var team: TeamOptions
    }
}
