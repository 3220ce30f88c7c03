import ArgumentParser
import Calculator
import Foundation
import TodoStore

extension RewindCommand {
    /// `rewind calc`: the pocket calculator, from arguments, from lines of
    /// standard input, or interactively on a terminal.
    struct Calc: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "calc",
            abstract: "A pocket calculator with unlimited undo and redo.",
            discussion: """
                Presses the keys given as arguments and prints the display. Operations run in \
                the order entered: `2 + 3 x 4 =` is 20. Numbers may be written whole (`12.5` \
                types 1 2 . 5; `-5` types 5 ±).

                Keys of the default keypad: 0-9 . + - x ÷ = % ± √ x² C ⌫ AC (aliases: * × for x, \
                / for ÷, sqrt for √, x^2 for x², +/- for ±). Pseudo-keys: `undo`, `redo`, \
                `record NAME` … `stop` to record a macro, `play NAME` to replay it as one step. \
                Keys may be written together: 12x-3= is 12 x -3 =.

                With no keys, reads keys interactively on a terminal (q quits), or reads lines \
                of keys from standard input and prints the display after each line.

                Examples:
                  rewind calc 0.1 + 0.2 =
                  rewind calc 12x-3=
                  rewind calc 1 2 + 3 = undo
                  rewind calc --json 2 + 3 x 4 =
                  echo '9 √' | rewind calc
                """
        )

        @Flag(help: "Print a JSON object (display, value, error, canUndo, canRedo, tape) instead of the display.")
        var json = false

        @Option(
            help: ArgumentHelp(
                "A button layout to use instead of the default: {\"labels\": [...], \"columnCount\": 4}.",
                valueName: "file"),
            completion: .file(extensions: ["json"]))
        var config: String?

        // `.allUnrecognized` keeps `-` and `-5` as keys instead of options.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Keys to press, in order.", valueName: "key"))
        var keys: [String] = []

        mutating func run() throws {
            let output = CalcOutput(json: json)
            var session: CalculatorSession
            do {
                session = CalculatorSession(configuration: try loadConfiguration())
            } catch {
                throw output.fail(error.description)
            }
            if let refusal = Self.unknownOption(in: keys, factory: session.factory) {
                output.warn(refusal)
                throw ExitCode.validationFailure
            }
            if !keys.isEmpty {
                // `.allUnrecognized` keeps the `--` that ends the options.
                var words = keys
                if let terminator = words.firstIndex(of: "--") { words.remove(at: terminator) }
                words = ArgumentPacking.unpacked(words)
                do {
                    try CalcInput.perform(CalcInput.parse(words, factory: session.factory), on: &session)
                } catch {
                    throw output.fail(error.description)
                }
                output.show(session)
            } else if isatty(STDOUT_FILENO) == 1, !json, let terminal = RawTerminal() {
                var interactive = CalcInteractive(session: session, terminal: terminal)
                interactive.run()
            } else {
                var lineMode = CalcLineMode(session: session, output: output)
                try lineMode.run()
            }
        }

        /// The options of `rewind calc`, as a mistyped one is compared with.
        static let options = ["--json", "--config", "--help", "--version"]

        /// Why the first word before `--` that looks like a long option
        /// (two dashes, then a letter) and is no key is refused, or `nil`:
        /// the keys take every word the parser does not know, so `--jsn`
        /// was refused as an unknown key.
        static func unknownOption(in keys: [String], factory: CommandFactory) -> String? {
            let words = ArgumentPacking.unpacked(Array(keys.prefix { $0 != "--" }))
            guard let word = words.first(where: {
                $0.hasPrefix("--") && $0.dropFirst(2).first?.isLetter == true && !factory.knows($0)
            }) else { return nil }
            let near = UnknownCommand.nearest(to: word, among: options).map { " (did you mean \($0)?)" } ?? ""
            return "unknown option “\(word)”\(near); the options of rewind calc are --json, --config FILE, --help and --version"
        }

        private func loadConfiguration() throws(ConfigurationError) -> ButtonConfiguration {
            guard let config else { return try ButtonConfiguration.shipped() }
            return try ButtonConfiguration.load(contentsOf: URL(fileURLWithPath: DataDirectory.expandingTilde(in: config)))
        }
    }
}
