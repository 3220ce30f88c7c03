import Foundation
import Todos

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The settings to put back if a signal stops the process while a
/// password is typed unechoed. Only written before the handlers are
/// installed and read from them, hence the unchecked access.
nonisolated(unsafe) private var echoingSettings: termios?

/// Where `rewind users` reads passwords and answers: the terminal (a
/// password not echoed), or one line of standard input for scripts. A
/// password is never written anywhere.
enum PasswordInput {
    /// The longest line read; a longer one is refused (a password has at
    /// most 72 bytes).
    static let lineLimit = 1024

    /// Whether standard input is a terminal to ask on.
    static var isTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// A new password for `name`: one line of standard input with
    /// `fromStandardInput`, else typed twice on the terminal, unechoed;
    /// checked against ``PasswordRule``.
    ///
    /// - Throws: ``TodoCommandError`` (exit status 64) when there is no
    ///   terminal to ask on, nothing was typed, the two differ, or the
    ///   password breaks the rules.
    static func newPassword(for name: AccountName, fromStandardInput: Bool) throws -> String {
        let password: String
        if fromStandardInput {
            // Unechoed, too, when standard input is a terminal.
            guard let line = try line(hidden: true) else {
                throw TodoCommandError.usage("--password-stdin: standard input held no password; nothing was saved.")
            }
            password = line
        } else {
            guard isTerminal else {
                throw TodoCommandError.usage(
                    "there is no terminal to ask for the password on; pass it as one line of standard input with --password-stdin. Nothing was saved.")
            }
            password = try typed("Password for \(name.text): ")
            try check(password)
            guard try typed("The same password again: ") == password else {
                throw TodoCommandError.usage("the two passwords differ; nothing was saved.")
            }
        }
        try check(password)
        return password
    }

    /// Asks `question` on the terminal and reads the answer: whether it is
    /// yes (`y` or `yes`, any case).
    static func confirm(_ question: String) throws -> Bool {
        let answer = try line(hidden: false, prompt: question + " [y/N] ") ?? ""
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// Checks `password` against the rules, as a wrong input.
    private static func check(_ password: String) throws {
        do {
            try PasswordRule.check(password)
            guard !password.utf8.contains(0) else {
                throw AccountError.weakPassword("A password may not hold the NUL character.")
            }
        } catch {
            throw TodoCommandError.usage("\(error) Nothing was saved.")
        }
    }

    /// Asks with `question` and reads a password typed unechoed.
    private static func typed(_ question: String) throws -> String {
        guard let password = try line(hidden: true, prompt: question) else {
            throw TodoCommandError.usage("no password was typed; nothing was saved.")
        }
        return password
    }

    /// One line of standard input without its line break (`nil` at the end
    /// of input), after `prompt` on standard error, with the terminal's echo
    /// off while it is typed when `hidden` (switched off before the prompt
    /// shows, so that nothing typed after it is echoed); the settings are
    /// put back afterwards, and on SIGINT, SIGTERM, SIGHUP or SIGQUIT.
    ///
    /// - Throws: ``TodoCommandError`` (exit status 64) for a line longer than
    ///   ``lineLimit`` bytes or one that is not UTF-8.
    private static func line(hidden: Bool, prompt: String = "") throws -> String? {
        var original = termios()
        let hiding = hidden && tcgetattr(STDIN_FILENO, &original) == 0
        if hiding {
            echoingSettings = original
            for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
                signal(signalNumber) { received in
                    // TCSAFLUSH: half a password typed is dropped, not left for the shell.
                    if var settings = echoingSettings { tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings) }
                    _ = write(STDERR_FILENO, "\n", 1)
                    _exit(128 + received)
                }
            }
            var quiet = original
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        if !prompt.isEmpty { StandardStreams.error(prompt) }
        defer {
            if hiding {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
                for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { signal(signalNumber, SIG_DFL) }
            }
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else {
                if bytes.isEmpty { return nil }
                break
            }
            if byte == UInt8(ascii: "\n") { break }
            guard bytes.count < lineLimit else {
                throw TodoCommandError.usage("the line read is longer than \(lineLimit) bytes; nothing was saved.")
            }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TodoCommandError.usage("the line read is not UTF-8 text; nothing was saved.")
        }
        return text
    }
}
