import Foundation
import TestSupport
import Testing

/// `rewind serve --host`: an empty value or one that holds a control
/// character is refused before the server starts, and the refusal shows the
/// value without writing its control characters to the terminal.
@Suite("rewind serve --host")
struct ServeHostTests {
    @Test func aHostWithAControlCharacterIsRefusedWithStatus64AndShownVisibly() async throws {
        let run = try await runRewind(["serve", "--port", "0", "--in-memory", "--host", "local\u{1B}[2Jhost"], timeout: 60)
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("--host “local^[[2Jhost” holds the control character U+001B"), "\(run.stderr)")
        #expect(!run.stderr.unicodeScalars.contains { $0.value == 0x1B }, "\(run.stderr)")
    }

    @Test func anEmptyHostIsRefusedWithStatus64() async throws {
        let run = try await runRewind(["serve", "--port", "0", "--in-memory", "--host", "  "], timeout: 60)
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr == "rewind serve: --host must not be empty; give an address (127.0.0.1, 0.0.0.0, ::1) or a host name\n")
    }

    @Test func aHostThatIsNoAddressIsOneLineThatSaysWhatIsAllowed() async throws {
        let run = try await runRewind(["serve", "--port", "0", "--in-memory", "--host", "not a host"], timeout: 60)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr == "rewind serve: cannot serve on not a host:0: --host takes an address of this machine (127.0.0.1, 0.0.0.0 for all, ::1) or a name of one\n")
    }

    /// A refused option is one line, not the parser's lines and the usage.
    @Test(arguments: [
        (["--port", "70000"], "rewind serve: --port must be between 0 and 65535, not 70000\n"),
        (["--in-memory", "--data-dir", "/tmp/x"], "rewind serve: --data-dir and --in-memory exclude each other; give one of them\n"),
        (["--allow-host", "http://a.example"],
         "rewind serve: --allow-host takes a name this server is reached by, such as todo.example or 192.0.2.7 (no scheme, port or path), not “http://a.example”\n"),
        (["--allow-host", "b.example:8080"],
         "rewind serve: --allow-host takes a name this server is reached by, such as todo.example or 192.0.2.7 (no scheme, port or path), not “b.example:8080”\n"),
        (["--calculator-config", " "], "rewind serve: --calculator-config must not be empty; give a keypad file, such as keypad.json\n"),
        (["--allow-host", ""],
         "rewind serve: --allow-host takes a name this server is reached by, such as todo.example or 192.0.2.7 (no scheme, port or path), not “”\n"),
    ])
    func aRefusedOptionIsOneLine(arguments: [String], stderr: String) async throws {
        let run = try await runRewind(["serve", "--port", "0"] + (arguments.contains("--data-dir") ? [] : ["--in-memory"]) + arguments, timeout: 60)
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr == stderr)
    }

    /// An empty `--data-dir` is not the default data directory in disguise
    /// (which, were it served, is a folder of the test's own here).
    @Test(arguments: ["", " "])
    func anEmptyDataDirectoryIsRefusedInOneLine(value: String) async throws {
        let fallback = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-default-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: fallback) }
        let run = try await runRewind(["serve", "--port", "0", "--data-dir", value], environment: ["REWIND_DATA_DIR": fallback.path], timeout: 20)
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr == "rewind serve: --data-dir must name a folder; leave the option out to use the default data directory\n")
        #expect(!FileManager.default.fileExists(atPath: fallback.path), "the default data directory was opened")
    }
}

/// What `rewind serve` says when it cannot start: one line that names the
/// problem and what to do, not a system call's text or the top usage.
@Suite("rewind serve start failures")
struct ServeStartFailureTests {
    @Test func aPortInUseIsNamedAsSuch() async throws {
        // The port a listening socket of this test holds.
        #if canImport(Glibc)
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let holder = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(holder, $0, length) == 0 && listen(holder, 1) == 0 && getsockname(holder, $0, &length) == 0
            }
        }
        #expect(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let run = try await runRewind(["serve", "--port", String(port), "--in-memory"], timeout: 60)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr == "rewind serve: cannot serve on 127.0.0.1:\(port): the port is in use: another program (perhaps another rewind serve) listens on it; stop it, or choose another port with --port\n")
    }

    @Test func aKeypadThatCannotBeReadIsOneLineWithStatus64() async throws {
        let run = try await runRewind(["serve", "--port", "0", "--in-memory", "--calculator-config", "/nonexistent/keys.json"], timeout: 60)
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr == "rewind serve: Invalid button configuration /nonexistent/keys.json: cannot be read (no such file)\n")
    }

    @Test func theStartSaysWhatAnOptionLeftWithoutEffectWouldHaveDone() async throws {
        let quiet = try await startLines(["serve", "--port", "0", "--in-memory", "--host", "127.0.0.1"])
        #expect(!quiet.contains("--trusted-proxy"), "\(quiet)")
        #expect(!quiet.contains("421"), "\(quiet)")
        let proxy = try await startLines(["serve", "--port", "0", "--in-memory", "--trusted-proxy", "127.0.0.1"])
        #expect(proxy.contains("--trusted-proxy changes nothing here: it throttles sign-ins, and there are none without team mode (--accounts)."), "\(proxy)")
        let everyAddress = try await startLines(["serve", "--port", "0", "--in-memory", "--host", "0.0.0.0"])
        #expect(everyAddress.contains("Other machines get 421 until the name they reach this one by is allowed: --allow-host NAME."), "\(everyAddress)")
        // A public origin names the host the proxy sends: nothing more to allow.
        let proxied = try await startLines(
            ["serve", "--port", "0", "--in-memory", "--host", "0.0.0.0", "--public-origin", "https://todo.example"])
        #expect(!proxied.contains("421"), "\(proxied)")
    }

    /// What `rewind serve` writes on standard error until it is stopped,
    /// a moment after it said it is running.
    private func startLines(_ arguments: [String]) async throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let errorURL = directory.appendingPathComponent("stderr")
        try Data().write(to: errorURL)
        let error = try FileHandle(forWritingTo: errorURL)
        defer { try? error.close() }
        let child = try ChildProcess(try rewindBinaryURL(), arguments, standardOutput: .null, standardError: .handle(error))
        func written() -> String { String(decoding: (try? Data(contentsOf: errorURL)) ?? Data(), as: UTF8.self) }
        do {
            try await waitUntil("rewind serve to start: \(written())", timeout: .seconds(60)) { written().contains("Press Ctrl+C") }
            // The lines after it are written at once, by the same call.
            try await Task.sleep(for: .milliseconds(300))
        } catch {
            child.terminate(SIGKILL)
            throw error
        }
        child.terminate()
        try await child.exited("rewind serve", timeout: .seconds(30))
        return written()
    }
}
