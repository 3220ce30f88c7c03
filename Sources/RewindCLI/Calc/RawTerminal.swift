#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal settings to put back if the process is stopped by a signal
/// while the terminal is raw. Only written before the handlers are
/// installed and read from them, hence the unchecked access.
nonisolated(unsafe) private var terminalSettingsToRestore: termios?

/// Standard input switched to raw mode (keys arrive one by one, unechoed,
/// Ctrl-C and Ctrl-Z as plain bytes) until ``restore()``.
///
/// The settings are put back by ``restore()``, and also when the process
/// receives SIGTERM, SIGHUP or SIGQUIT.
struct RawTerminal {
    private let original: termios

    /// Switches standard input to raw mode, or returns `nil` when it is not
    /// a terminal.
    init?() {
        var settings = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0 else { return nil }
        original = settings
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        terminalSettingsToRestore = settings
        for signalNumber in [SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { received in
                if var settings = terminalSettingsToRestore {
                    tcsetattr(STDIN_FILENO, TCSANOW, &settings)
                }
                // Leave the alternate screen and show the cursor again.
                let reset: StaticString = "\u{1B}[?25h\u{1B}[?1049l"
                _ = write(STDOUT_FILENO, reset.utf8Start, reset.utf8CodeUnitCount)
                _exit(128 + received)
            }
        }
        // TCSADRAIN, not TCSAFLUSH: keys typed ahead are kept.
        guard tcsetattr(STDIN_FILENO, TCSADRAIN, &raw) == 0 else { return nil }
    }

    /// Puts the terminal settings back as they were.
    func restore() {
        var settings = original
        tcsetattr(STDIN_FILENO, TCSADRAIN, &settings)
        for signalNumber in [SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber, SIG_DFL)
        }
    }

    /// The bytes of the next key press (several for an escape sequence or a
    /// multi-byte character), or `nil` at end of input or on a read error.
    func readKey() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 32)
        while true {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count > 0 { return Array(buffer[0 ..< count]) }
            if count < 0, errno == EINTR { continue }
            return nil
        }
    }
}
