import ArgumentParser
import Testing
@testable import RewindCLI

/// Every command names itself. Without a name, ArgumentParser makes one
/// from the type's name with `String(describing:)`, whose dynamic casts
/// search every protocol conformance of the binary (the web server's
/// included): that search was a seventh of the time of a `rewind todo`
/// command before every command had its name.
@Suite("Command names")
struct CommandNameTests {
    @Test func everyCommandAndSubcommandSetsItsName() {
        var unnamed: [String] = []
        var names: [String] = []
        func visit(_ command: any ParsableCommand.Type) {
            if let name = command.configuration.commandName { names.append(name) } else { unnamed.append("\(command)") }
            for subcommand in command.configuration.subcommands { visit(subcommand) }
        }
        visit(RewindCommand.self)
        #expect(unnamed.isEmpty, "commands without a commandName: \(unnamed)")
        #expect(names.contains("todo") && names.contains("undo") && names.contains("calc"))
    }
}
