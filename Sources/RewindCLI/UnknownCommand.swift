import ArgumentParser
import Todos

/// Refuses a command word that is not one, naming the nearest command when
/// one is near: swift-argument-parser said only "Unexpected argument
/// 'srve'", with the usage of `rewind` or of the default subcommand.
///
/// ```
/// rewind srve        →  unknown command “srve” (did you mean serve?); the commands are calc, todo, serve, users, lists
/// rewind users lst   →  unknown command “lst” (did you mean list?); the commands of rewind users are …
/// ```
enum UnknownCommand {
    /// The commands that take subcommands, by the words that lead to them.
    static let commandGroups: [[String]: any ParsableCommand.Type] = [
        []: RewindCommand.self,
        ["users"]: RewindCommand.Users.self,
        ["lists"]: RewindCommand.Lists.self,
    ]

    /// Why `arguments` (without the program name) are refused, or `nil`
    /// when their command words are commands (or cannot be told apart from
    /// values: an option before them). `rewind todo` checks its own words
    /// (``RewindCommand/Todo/List``), which may be an item to add.
    static func refusal(of arguments: [String]) -> String? {
        refused(arguments)?.message
    }

    /// ``refusal(of:)``, with the words of the command whose subcommand
    /// the word was not (`[]` for `rewind` itself, `["users"]`).
    static func refused(_ arguments: [String]) -> (message: String, command: [String])? {
        var path: [String] = []
        while let group = commandGroups[path], path.count < arguments.count {
            let word = arguments[path.count]
            if path.isEmpty, let misplaced = misplacedOption(word, in: arguments, commands: group.configuration.subcommands) {
                return (misplaced, [])
            }
            if word.hasPrefix("-") || word == "help" { return nil }
            let commands = group.configuration.subcommands.map { $0._commandName }
            guard commands.contains(word) else {
                let name = (["rewind"] + path).joined(separator: " ")
                return (message(for: word, among: commands, of: name), path)
            }
            path.append(word)
        }
        return nil
    }

    /// The options `rewind` itself takes.
    static let ownOptions: Set<String> = ["--help", "-h", "--version", "--generate-completion-script", "--experimental-dump-help"]

    /// Why `word`, an option given before a command's name
    /// (`rewind --data-dir DIR todo list`), is refused, or `nil` when it is
    /// no such option: the options belong to the commands, after their names.
    static func misplacedOption(_ word: String, in arguments: [String], commands: [any ParsableCommand.Type]) -> String? {
        let name = String(word.prefix { $0 != "=" })
        guard name.hasPrefix("-"), !ownOptions.contains(name) else { return nil }
        let names = Set(commands.map { $0._commandName })
        guard let command = arguments.first(where: names.contains) else { return nil }
        return "\(TypedText.visible(name)) is an option of a command, not of rewind: give it after the command's name, "
            + "as in rewind \(command) \(name) …"
    }

    /// "unknown command “lst” (did you mean list?); the commands of rewind
    /// users are list, add, …"; "of `name`" left out for `rewind` itself.
    static func message(for word: String, among commands: [String], of name: String = "rewind") -> String {
        let shown = TypedText.visible(word)
        let near = nearest(to: word, among: commands).map { " (did you mean \($0)?)" } ?? ""
        let whose = name == "rewind" ? "the commands are" : "the commands of \(name) are"
        return "unknown command “\(shown)”\(near); \(whose) \(commands.joined(separator: ", "))"
    }

    /// The command that `word` names in other words (`remove` for `rm`),
    /// else the command at most two letters away from it, the nearest
    /// first; `nil` when none is.
    static func nearest(to word: String, among commands: [String]) -> String? {
        if let meant = synonym(of: word, among: commands) { return meant }
        return commands.map { ($0, distance(word, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    /// "unknown option “--srot” (did you mean --sort?)" for the first
    /// option in `arguments` (up to a `--`) that `help`, a command's help
    /// text, does not name; `nil` when it names them all. A mistyped option
    /// followed by its value leaves the value as a word, which the command
    /// would otherwise refuse as something else.
    static func unknownOption(in arguments: some Sequence<String>, help: String) -> String? {
        var known = Set<String>()
        var rest = help[...]
        while let start = rest.range(of: "--") {
            let name = rest[start.lowerBound...].dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if let first = name.first, first.isLetter { known.insert("--" + name) }
            rest = rest[start.upperBound...]
        }
        for argument in arguments {
            if argument == "--" { return nil }
            guard argument.hasPrefix("--") else { continue }
            let name = String(argument.prefix { $0 != "=" })
            guard !known.contains(name) else { continue }
            let near = known.map { ($0, distance(name, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
            return "unknown option “\(TypedText.visible(name))”" + (near.map { " (did you mean \($0)?)" } ?? "")
        }
        return nil
    }

    /// The command among `commands` that `word` is another word for, or `nil`.
    static func synonym(of word: String, among commands: [String]) -> String? {
        let lowercased = word.lowercased()
        return commands.first { synonyms[$0]?.contains(lowercased) == true }
    }

    /// The words people use for a command, by the command: what other
    /// tools call it. A word counts only where its command is one of
    /// those given (`new` is `add` under `rewind todo`, `create` under
    /// `rewind lists`).
    static let synonyms: [String: Set<String>] = [
        "list": ["ls", "items"],
        "add": ["new", "create", "append", "insert", "make"],
        "create": ["new", "add", "make"],
        "rm": ["remove", "delete", "del", "rem", "erase", "drop", "destroy"],
        "done": ["complete", "finish", "finished", "check", "tick", "close"],
        "undone": ["uncomplete", "incomplete", "uncheck", "untick", "reopen"],
        "edit": ["change", "modify", "update", "set", "retitle"],
        "show": ["view", "info", "details", "get", "display"],
        "clear-completed": ["clear", "purge", "prune", "clear-done"],
        "history": ["log", "steps", "hist"],
        "serve": ["server", "start", "run", "web", "http"],
        "calc": ["calculator", "calculate", "calculus"],
        "todo": ["todos", "to-do", "task", "tasks"],
        "users": ["user", "accounts", "account"],
        "passwd": ["password", "pass", "pw"],
        "lists": ["shared", "share"],
    ]

    /// The number of letters to insert, delete or replace to turn `a`
    /// into `b` (Levenshtein's distance), `a` in lower case.
    static func distance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a.lowercased()), Array(b))
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        // One row of the table at a time: row[j] is the distance between
        // the letters of `a` so far and the first j letters of `b`.
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in 1...b.count {
                let above = row[j]
                row[j] = min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}
