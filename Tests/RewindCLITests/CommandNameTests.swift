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

/// A command word that is not one is refused, naming the nearest command.
@Suite("Unknown commands")
struct UnknownCommandTests {
    @Test func helpAfterACommandsNameShowsItsHelp() async throws {
        let add = try await runRewind(["todo", "help", "add"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.hasPrefix("OVERVIEW: Add an item."), "\(add.stdout)")
        let users = try await runRewind(["users", "help"])
        #expect(users.status == 0, "\(users.stderr)")
        #expect(users.stdout.contains("USAGE: rewind users"), "\(users.stdout)")
        #expect(HelpWord.moved(["todo", "add", "help"]) == ["todo", "add", "help"], "an item called help stays one")
    }

    @Test func aMistypedCommandNamesTheNearestOneAtEveryLevel() {
        #expect(UnknownCommand.refusal(of: ["srve"])
            == "unknown command “srve” (did you mean serve?); the commands are calc, todo, serve, users, lists")
        #expect(UnknownCommand.refusal(of: ["users", "lst"])
            == "unknown command “lst” (did you mean list?); the commands of rewind users are list, add, passwd, rm")
        #expect(UnknownCommand.refusal(of: ["lists", "shwo", "--as", "ann"])?.hasPrefix("unknown command “shwo” (did you mean show?)") == true)
        #expect(UnknownCommand.refusal(of: ["banana"]) == "unknown command “banana”; the commands are calc, todo, serve, users, lists")
        #expect(UnknownCommand.refusal(of: ["\u{1B}[31m"])?.contains("\u{1B}") == false, "a control character is shown, not sent")
    }

    @Test func aWordThatOtherToolsUseNamesTheCommand() {
        #expect(UnknownCommand.refusal(of: ["server"])?.hasPrefix("unknown command “server” (did you mean serve?)") == true)
        #expect(UnknownCommand.refusal(of: ["users", "delete", "ann"])?.hasPrefix("unknown command “delete” (did you mean rm?)") == true)
        #expect(UnknownCommand.refusal(of: ["lists", "new", "Groceries"])?.hasPrefix("unknown command “new” (did you mean create?)") == true)
        let todo = RewindCommand.Todo.configuration.subcommands.map { $0._commandName }
        for (word, meant) in [("remove", "rm"), ("Complete", "done"), ("reopen", "undone"), ("ls", "list"), ("new", "add"), ("clear", "clear-completed"), ("log", "history")] {
            #expect(UnknownCommand.nearest(to: word, among: todo) == meant, "\(word)")
        }
        #expect(UnknownCommand.nearest(to: "banana", among: todo) == nil)
    }

    /// A command's option given before the command's name was only an
    /// "Unknown option" of rewind; now the refusal says where it goes.
    @Test func aCommandsOptionBeforeItsNameSaysWhereItGoes() async throws {
        #expect(UnknownCommand.refusal(of: ["--data-dir", "/tmp/x", "todo", "list"])
            == "--data-dir is an option of a command, not of rewind: give it after the command's name, as in rewind todo --data-dir …")
        #expect(UnknownCommand.refusal(of: ["--port=9000", "serve"])?.hasSuffix("as in rewind serve --port …") == true)
        #expect(UnknownCommand.refusal(of: ["--help", "todo"]) == nil)
        let run = try await runRewind(["--data-dir", "/tmp/x", "todo", "list"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--data-dir is an option of a command, not of rewind"), "\(run.stderr)")
    }

    @Test func commandsOptionsAndValuesPass() {
        for arguments in [
            [], ["todo", "add", "x"], ["calc", "2", "+", "3"], ["users"], ["users", "add", "ann"], ["lists", "--as", "ann", "create", "x"],
            ["--version"], ["help", "todo"], ["serve", "--port", "8080"], ["todo", "lst"],
        ] {
            #expect(UnknownCommand.refusal(of: arguments) == nil, "\(arguments)")
        }
    }

    @Test func theProcessExitsWith64() async throws {
        let run = try await runRewind(["tood", "list"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("unknown command “tood” (did you mean todo?)"))
        let group = try await runRewind(["users", "remove", "ann"])
        #expect(group.status == 64)
        #expect(group.stderr == "rewind users: unknown command “remove” (did you mean rm?); the commands of rewind users are list, add, passwd, rm\n")
    }

    @Test func distanceCountsTheLettersToChange() {
        #expect(UnknownCommand.distance("lst", "list") == 1)
        #expect(UnknownCommand.distance("LIST", "list") == 0)
        #expect(UnknownCommand.distance("histroy", "history") == 2)
        #expect(UnknownCommand.distance("", "rm") == 2)
        #expect(UnknownCommand.distance("kitten", "sitting") == 3)
    }
}
