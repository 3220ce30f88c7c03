import ArgumentParser
import Calculator

/// `rewind calc` with standard input that is not a terminal: each line holds
/// keys (and pseudo-keys such as `undo`), and the display is printed after
/// each line.
///
/// A line that cannot be done (an unknown key, `play` of a macro never
/// recorded, `stop` without a recording) is reported on standard error and
/// none of its keys are pressed; the rest of the input is still read, and
/// the exit status is then 1.
struct CalcLineMode {
    var session: CalculatorSession
    let output: CalcOutput

    mutating func run() throws {
        var failed = false
        while let line = readLine() {
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            do {
                try CalcInput.perform(CalcInput.parse(words, factory: session.factory), on: &session)
                output.show(session)
            } catch {
                output.warn(error.description)
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}
