import ArgumentParser

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
        var path: [String] = []
        while let group = commandGroups[path], path.count < arguments.count {
            let word = arguments[path.count]
            if word.hasPrefix("-") || word == "help" { return nil }
            let commands = group.configuration.subcommands.map { $0._commandName }
            guard commands.contains(word) else {
                let name = (["rewind"] + path).joined(separator: " ")
                return message(for: word, among: commands, of: name)
            }
            path.append(word)
        }
        return nil
    }

    /// "unknown command “lst” (did you mean list?); the commands of rewind
    /// users are list, add, …"; "of `name`" left out for `rewind` itself.
    static func message(for word: String, among commands: [String], of name: String = "rewind") -> String {
        let shown = TodoTerminal.visible(word)
        let near = nearest(to: word, among: commands).map { " (did you mean \($0)?)" } ?? ""
        let whose = name == "rewind" ? "the commands are" : "the commands of \(name) are"
        return "unknown command “\(shown)”\(near); \(whose) \(commands.joined(separator: ", "))"
    }

    /// The command at most two letters away from `word`, the nearest
    /// first; `nil` when none is.
    static func nearest(to word: String, among commands: [String]) -> String? {
        commands.map { ($0, distance(word, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

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
