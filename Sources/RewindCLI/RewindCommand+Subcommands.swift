import ArgumentParser

extension RewindCommand {
    /// The subcommands of `rewind`, in the order `--help` lists them.
    static var subcommandList: [any ParsableCommand.Type] {
        [
            Calc.self,
            Todo.self,
            Serve.self,
            Users.self,
            Lists.self,
        ]
    }
}
