import ArgumentParser
import Foundation
import TodoStore
import Todos

/// Why a `rewind todo` command stopped: one sentence for standard error and
/// the exit status that goes with it.
struct TodoCommandError: Error, CustomStringConvertible {
    /// What was wrong and what is allowed.
    let description: String
    /// The exit status: 1 when the command could not be done, 64 when the
    /// command line is wrong.
    let exitCode: ExitCode

    /// An error for something the command could not do (exit status 1).
    init(_ description: String) {
        self.init(description, exitCode: .failure)
    }

    /// An error with an explicit exit status.
    init(_ description: String, exitCode: ExitCode) {
        self.description = description
        self.exitCode = exitCode
    }

    /// An error for a wrong command line (exit status 64).
    static func usage(_ description: String) -> TodoCommandError {
        TodoCommandError(description, exitCode: .validationFailure)
    }
}

/// Runs `body`; on an error writes one line on standard error
/// (`rewind todo: …`, or `rewind users: …` for `command` "users") and
/// throws the exit code to leave with.
///
/// - Parameter exitCode: The status for errors that carry none of their own;
///   input checks pass 64, the work keeps 1.
func reportingErrors<Result>(
    exitCode: ExitCode = .failure, command: String = "todo", _ body: () throws -> Result
) throws -> Result {
    do {
        return try body()
    } catch {
        throw reported(error, exitCode: exitCode, command: command)
    }
}

/// Runs `body`, which awaits the store; on an error writes one line on
/// standard error (`rewind todo: …`, or `rewind users: …` for `command`
/// "users") and throws the exit code to leave with.
func reportingErrors<Result>(
    exitCode: ExitCode = .failure, command: String = "todo", _ body: () async throws -> Result
) async throws -> Result {
    do {
        return try await body()
    } catch {
        throw reported(error, exitCode: exitCode, command: command)
    }
}

/// Writes the line for `error`, if it needs one, and returns the exit code.
private func reported(_ error: any Error, exitCode: ExitCode, command: String) -> ExitCode {
    switch error {
    case let error as ExitCode:
        return error
    case let error as TodoCommandError:
        TodoTerminal.warn(error.description, command: command)
        return error.exitCode
    default:
        TodoTerminal.warn(sentence(for: error), command: command)
        return exitCode
    }
}

/// The sentence that explains `error` to a person.
private func sentence(for error: any Error) -> String {
    switch error {
    case let error as StoreError: error.description
    case let error as TodoFailure: error.description
    case let error as TodoError: error.description
    case let error as DueDateError: error.description
    case let error as TodoJSONError: error.description
    case let error as CustomStringConvertible: error.description
    default: error.localizedDescription
    }
}
