import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program running on a pseudo-terminal of its own: the test types on
/// the terminal's keyboard, reads what the program wrote to the screen, and
/// reads the terminal's settings.
final class PseudoTerminal {
    /// The program.
    let process: ChildProcess
    /// The side the test types on and reads from.
    private let controller: Int32
    /// The side the program has as standard input, output and error.
    private let device: Int32
    private var written: [UInt8] = []

    /// Starts `executable` with `arguments` on a new terminal.
    init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        var controller: Int32 = -1
        var device: Int32 = -1
        guard openpty(&controller, &device, nil, nil, nil) == 0 else {
            throw RunRewindError(description: "no pseudo-terminal: \(Self.lastError)")
        }
        self.controller = controller
        self.device = device
        // Reads take what is there and never wait: the test waits by polling.
        _ = fcntl(controller, F_SETFL, fcntl(controller, F_GETFL) | O_NONBLOCK)
        do {
            process = try ChildProcess(
                executable, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                standardInput: .descriptor(device), standardOutput: .descriptor(device), standardError: .descriptor(device))
        } catch {
            close(controller)
            close(device)
            throw error
        }
    }

    deinit {
        if process.isRunning {
            process.terminate(SIGKILL)
            process.waitUntilExit()
        }
        close(controller)
        close(device)
    }

    /// Everything the program wrote to the terminal so far.
    var screen: String {
        readAvailable()
        return String(decoding: written, as: UTF8.self)
    }

    /// Types `keys` (the bytes of the text, as a terminal sends them).
    func type(_ keys: String) {
        let bytes = Array(keys.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
            if count > 0 { sent += count } else if errno != EAGAIN && errno != EINTR { return }
        }
    }

    /// Whether the terminal is in canonical mode (lines, not keys) and
    /// echoes what is typed: as a shell leaves it, and a full-screen program
    /// must leave it.
    var isCookedAndEchoing: Bool {
        var settings = termios()
        guard tcgetattr(device, &settings) == 0 else { return false }
        return settings.c_lflag & tcflag_t(ICANON) != 0 && settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Waits until the program exited; terminates it after `timeout`.
    func waitForExit(timeout: Duration = .seconds(10)) async throws {
        try await process.exited("the program", timeout: timeout)
    }

    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            written += buffer[..<count]
        }
    }

    private static var lastError: String { String(cString: strerror(errno)) }
}
