import ArgumentParser

extension RewindCommand {
    /// Runs `rewind` with the process's arguments, long lists of values
    /// packed (see ``ArgumentPacking``); a command word that is not one is
    /// refused first (``UnknownCommand``).
    static func main() async {
        let arguments = HelpWord.moved(Array(CommandLine.arguments.dropFirst()))
        if let refusal = UnknownCommand.refused(arguments) {
            // `rewind` with its usage; a group's refusal in one line, as its
            // other refusals are (its usage would lack the `rewind` before it).
            if refusal.command.isEmpty { exit(withError: ValidationError(refusal.message)) }
            TodoTerminal.warn(refusal.message, command: refusal.command.joined(separator: " "))
            exit(withError: ExitCode.validationFailure)
        }
        await main(ArgumentPacking.packed(NegativeNumbers.passed(arguments)))
    }
}

/// Reads `help` after a command's name as swift-argument-parser reads it
/// before: `rewind todo help add` is `rewind help todo add`, which shows
/// the help of `rewind todo add` (`rewind todo help` took "help" for an
/// item to add, `rewind users help` for an unexpected argument).
enum HelpWord {
    /// `arguments` (without the program name) with a `help` second to a
    /// command of `rewind` moved before that command's name.
    static func moved(_ arguments: [String]) -> [String] {
        let commands = RewindCommand.configuration.subcommands.map { $0._commandName }
        guard arguments.count >= 2, arguments[1] == "help", commands.contains(arguments[0]) else { return arguments }
        return ["help", arguments[0]] + arguments.dropFirst(2)
    }
}

/// Hands a negative number to the `rewind todo` commands that take a
/// number, so that they say what is allowed: swift-argument-parser reads
/// `-1` as an unknown option, and `rewind todo undo -1` said only
/// "Unknown option '-1'" (`rewind todo done -1`: "Missing expected argument").
///
/// ```
/// todo undo -1              →  todo undo -- -1
/// todo history jump -1      →  todo history jump -- -1
/// todo history --after -1   →  todo history --after=-1
/// todo add -5 degrees --due tomorrow  →  todo add --due tomorrow -- -5 degrees
/// ```
///
/// A title word that is a negative number ("-5 degrees tonight"), or a
/// quoted title that starts with a dash ("-5 degrees tonight" as one
/// argument), is a word of the title: `todo add` gets its options first and
/// its title after `--`.
enum NegativeNumbers {
    /// The options of `rewind todo` whose value is a number.
    static let numericOptions: Set<String> = ["--limit", "--before", "--after"]
    /// The commands of `rewind todo` whose argument is a number: of steps,
    /// or of an item in the last list (where `-1` is then named as no item).
    static let countCommands: Set<String> = ["undo", "redo", "done", "undone", "rm", "show", "edit", "move"]

    /// `arguments` (without the program name) with each negative number
    /// after a numeric option joined to it, and, for a command that takes a
    /// count, a negative number moved after `--`. Arguments that already
    /// hold `--`, and every other command, pass as they are.
    static func passed(_ arguments: [String]) -> [String] {
        guard arguments.first == "todo", !arguments.contains("--") else { return arguments }
        if arguments.dropFirst().first == "add" { return titleAfterOptions(arguments) }
        let words = commandWords(arguments)
        let takesCount = words.first.map(countCommands.contains) ?? false || words == ["history", "jump"]
        var kept: [String] = []
        var counts: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if numericOptions.contains(argument), index + 1 < arguments.count, isNegativeNumber(arguments[index + 1]) {
                kept.append(argument + "=" + arguments[index + 1])
                index += 2
                continue
            }
            if takesCount, isNegativeNumber(argument) { counts.append(argument) } else { kept.append(argument) }
            index += 1
        }
        return counts.isEmpty ? kept : kept + ["--"] + counts
    }

    /// The options a person may give before the command's name
    /// (`rewind todo --data-dir DIR undo -1`), each with a value.
    static let leadingOptions: Set<String> = ["--data-dir", "--database", "--as", "--list"]

    /// The first two words of `arguments` after `todo` that are no option
    /// nor the value of one of ``leadingOptions``: the command's name, and
    /// a subcommand's or its first argument.
    static func commandWords(_ arguments: [String]) -> [String] {
        var words: [String] = []
        var index = 1
        while index < arguments.count, words.count < 2 {
            let argument = arguments[index]
            if leadingOptions.contains(argument) {
                index += 2
                continue
            }
            if !argument.hasPrefix("-") { words.append(argument) }
            index += 1
        }
        return words
    }

    /// The options of `todo add` that take no value.
    static let addFlags: Set<String> = ["--json", "--help", "-h", "--version"]

    /// `todo add …` with its options (each with its value) first and the
    /// words of the title after `--`, when a word of the title is a negative
    /// number; else `arguments` as they are.
    static func titleAfterOptions(_ arguments: [String]) -> [String] {
        var options: [String] = []
        var words: [String] = []
        var index = 2
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("-"), !isTitleWord(argument) {
                options.append(argument)
                if !addFlags.contains(argument), !argument.contains("="), index + 1 < arguments.count {
                    options.append(arguments[index + 1])
                    index += 1
                }
            } else {
                words.append(argument)
            }
            index += 1
        }
        guard words.contains(where: isTitleWord) else { return arguments }
        return Array(arguments.prefix(2)) + options + ["--"] + words
    }

    /// Whether `argument` is a word of a title that the parser would read
    /// as options: a negative number, or one dash before text with a space
    /// (`"-5 degrees tonight"` given as one argument, which the parser read
    /// as the short options `-5`, `-d`, … `-h`, and showed the help).
    static func isTitleWord(_ argument: String) -> Bool {
        isNegativeNumber(argument)
            || (argument.hasPrefix("-") && !argument.hasPrefix("--") && argument.contains(where: \.isWhitespace))
    }

    /// Whether `argument` is a minus sign and digits, as `-1`.
    static func isNegativeNumber(_ argument: String) -> Bool {
        argument.count > 1 && argument.first == "-" && argument.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }
}

/// Hands long runs of positional values to the argument parser as one
/// argument, which the commands split again.
///
/// swift-argument-parser stores a repeated positional argument one value at
/// a time, copying what it has so far each time: `rewind todo rm` with
/// 8,000 references, or `rewind calc` with 8,000 keys, spent seconds in the
/// parser alone. Packed, the parser stores them at once: O(*k*) instead of
/// O(*k*²) for *k* values.
enum ArgumentPacking {
    /// Separates the packed values; no item reference or calculator key
    /// holds one.
    static let separator: Character = "\n"

    /// Up to this many values are passed on one by one.
    static let threshold = 32

    /// The commands whose values are packed: their options that take a value,
    /// and whether a word starting with `-` that is no option is a value
    /// (the calculator's `-` key) rather than an option.
    private static let commands: [[String]: (optionsWithValue: Set<String>, dashValues: Bool)] = [
        ["todo", "rm"]: (["--data-dir"], false),
        ["todo", "done"]: (["--data-dir"], false),
        ["todo", "undone"]: (["--data-dir"], false),
        ["calc"]: (["--config"], true),
    ]

    /// The options of those commands that take no value.
    private static let flags: Set<String> = ["--json", "--help", "-h", "--version"]

    /// `arguments` (without the program name), with the values of a command
    /// above joined into one argument after `--` when there are more than
    /// ``threshold``.
    static func packed(_ arguments: [String]) -> [String] {
        guard arguments.count > threshold,
              let (path, command) = commands.first(where: { arguments.starts(with: $0.key) })
        else { return arguments }
        var kept = path
        var values: [String] = []
        var index = path.count
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                values += arguments[(index + 1)...]
                break
            }
            let name = String(argument.prefix { $0 != "=" })
            if command.optionsWithValue.contains(name) {
                kept.append(argument)
                if name == argument, index + 1 < arguments.count {
                    kept.append(arguments[index + 1])
                    index += 1
                }
            } else if flags.contains(argument) || (argument.hasPrefix("-") && !command.dashValues) {
                kept.append(argument)
            } else {
                values.append(argument)
            }
            index += 1
        }
        guard values.count > threshold, !values.contains(where: { $0.contains(separator) }) else { return arguments }
        return kept + ["--", values.joined(separator: String(separator))]
    }

    /// The values `packed` joined, one per element again.
    static func unpacked(_ values: [String]) -> [String] {
        values.flatMap { value in
            value.contains(separator) ? value.split(separator: separator).map(String.init) : [value]
        }
    }
}
