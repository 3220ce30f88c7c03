import ArgumentParser
import Testing
@testable import RewindCLI

/// The shells' completion scripts complete a file where a file goes and a
/// folder where a folder goes, as a shell does without a script: before,
/// installing one took that away.
@Suite("Completion scripts")
struct CompletionScriptTests {
    /// The lines of the bash function `name` in `script`, up to the next function.
    static func function(_ name: String, in script: String) -> String {
        guard let start = script.range(of: "\n\(name)() {") else { return "" }
        let rest = script[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n}\n")?.lowerBound ?? rest.endIndex)])
    }

    @Test func bashCompletesFilesAndFolders() {
        let bash = RewindCommand.completionScript(for: .bash)
        #expect(Self.function("_rewind_todo_export", in: bash).contains("__rewind_add_completions -f"))
        #expect(Self.function("_rewind_todo_import", in: bash).contains("__rewind_add_completions -f"))
        #expect(Self.function("_rewind_todo_list", in: bash).contains("'--data-dir')\n        __rewind_add_completions -d"))
        #expect(Self.function("_rewind_calc", in: bash).contains("'--config')\n        __rewind_add_completions -o plusdirs -fX '!*.@(json)'"))
        let serve = Self.function("_rewind_serve", in: bash)
        #expect(serve.contains("'--data-dir')\n        __rewind_add_completions -d"))
        #expect(serve.contains("'--calculator-config')\n        __rewind_add_completions -o plusdirs -fX '!*.@(json)'"))
    }

    @Test func zshAndFishCompleteFilesAndFolders() {
        let zsh = RewindCommand.completionScript(for: .zsh)
        #expect(zsh.contains("_files -/"))
        #expect(zsh.contains("_files -g '\\''*.json'\\''") || zsh.contains("*.json"))
        let fish = RewindCommand.completionScript(for: .fish)
        #expect(fish.contains("__fish_complete_directories"))
    }
}
