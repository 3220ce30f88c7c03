import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a program could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    /// What failed, with the system's reason.
    public let description: String
}

/// A program a test starts, watches and waits for, started with
/// `posix_spawn` rather than Foundation's `Process`.
///
/// `Process.run()` on Linux reads past a buffer now and then while it
/// lists the open descriptors to close (swift-corelibs-foundation pull
/// request 5472, not in every toolchain), and the whole test process then
/// crashes. This type asks the C library to close them instead.
///
/// The program gets the given standard input, output and error, and no
/// other descriptor of the test process (a pipe's end held by a program
/// that another test started would keep that test from ever reading its
/// end of output). It runs in a process group of its own, with no signal
/// blocked and the usual signals at their default actions.
///
/// ```swift
/// let child = try ChildProcess(URL(fileURLWithPath: "/bin/true"), [])
/// try await child.exited(timeout: .seconds(5))
/// #expect(child.terminationStatus == 0)
/// ```
public final class ChildProcess: Sendable {
    /// Where one of the program's standard streams goes.
    public enum Stream: Sendable {
        /// The test process's own stream of that number.
        case inherited
        /// `/dev/null`.
        case null
        /// The test process's open descriptor (which stays the test's to close).
        case descriptor(Int32)

        /// The stream of a `FileHandle` (which stays the test's to close).
        public static func handle(_ handle: FileHandle) -> Stream {
            .descriptor(handle.fileDescriptor)
        }
    }

    /// How the program ended.
    public enum Termination: Sendable, Equatable {
        /// It exited with this status.
        case exit(Int32)
        /// A signal of this number ended it.
        case signal(Int32)
        /// Something else in the test process collected its status first.
        case unknown
    }

    /// The program's process identifier.
    public let processIdentifier: pid_t
    /// How it ended, once collected.
    private let ended = Locked<Termination?>(nil)

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - environment: The program's whole environment; `nil` passes the
    ///     test process's own.
    ///   - standardInput: Where it reads; `/dev/null` unless told.
    ///   - standardOutput: Where it writes; the test's own unless told.
    ///   - standardError: Where it writes errors; the test's own unless told.
    /// - Throws: ``ChildProcessError`` when the program cannot be started
    ///   (no such file, not executable).
    public init(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String]? = nil,
        standardInput: Stream = .null,
        standardOutput: Stream = .inherited,
        standardError: Stream = .inherited
    ) throws {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        try Self.check(posix_spawn_file_actions_init(&actions), "posix_spawn_file_actions_init")
        defer { posix_spawn_file_actions_destroy(&actions) }
        try Self.check(posix_spawnattr_init(&attributes), "posix_spawnattr_init")
        defer { posix_spawnattr_destroy(&attributes) }

        for (target, stream) in [(STDIN_FILENO, standardInput), (STDOUT_FILENO, standardOutput), (STDERR_FILENO, standardError)] {
            switch stream {
            case .inherited:
                break
            case .null:
                try Self.check(
                    posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0),
                    "posix_spawn_file_actions_addopen")
            case .descriptor(let descriptor):
                try Self.check(posix_spawn_file_actions_adddup2(&actions, descriptor, target), "posix_spawn_file_actions_adddup2")
            }
        }

        var flags = Int32(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #else
        try Self.closeOthers(&actions)
        #endif
        try Self.check(posix_spawnattr_setflags(&attributes, Int16(flags)), "posix_spawnattr_setflags")
        try Self.check(posix_spawnattr_setpgroup(&attributes, 0), "posix_spawnattr_setpgroup")
        var none = sigset_t()
        sigemptyset(&none)
        try Self.check(posix_spawnattr_setsigmask(&attributes, &none), "posix_spawnattr_setsigmask")
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        try Self.check(posix_spawnattr_setsigdefault(&attributes, &defaults), "posix_spawnattr_setsigdefault")

        let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid = pid_t()
        let started = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard started == 0 else {
            throw ChildProcessError(description: "cannot start \(executable.path): \(String(cString: strerror(started)))")
        }
        processIdentifier = pid
    }

    deinit {
        // A program still running when its test lets go of it is ended, and
        // collected, so that no zombie is left.
        if ended.value == nil {
            _ = kill(processIdentifier, SIGKILL)
            waitUntilExit()
        }
    }

    /// Whether the program is still running. Collects its status once it ended.
    public var isRunning: Bool {
        collect(blocking: false) == nil
    }

    /// How the program ended; `nil` while it runs.
    public var termination: Termination? {
        collect(blocking: false)
    }

    /// The status it exited with, or the number of the signal that ended
    /// it, as Foundation's `Process` gives it; -1 while it runs.
    public var terminationStatus: Int32 {
        switch termination {
        case .exit(let status)?, .signal(let status)?: status
        case .unknown?, nil: -1
        }
    }

    /// Sends the program `signal` (`SIGTERM` unless told).
    public func terminate(_ signal: Int32 = SIGTERM) {
        guard ended.value == nil else { return }
        _ = kill(processIdentifier, signal)
    }

    /// Waits until the program ended, blocking the thread: only for a
    /// program known to have ended, or one that ends in milliseconds.
    public func waitUntilExit() {
        _ = collect(blocking: true)
    }

    /// Waits until the program ended, without holding a thread (the tests
    /// share Swift's few cooperative threads). After `timeout` it sends
    /// `SIGTERM`, then `SIGKILL` if that is not enough, and throws.
    ///
    /// - Parameter name: What the program is, for the error.
    /// - Throws: ``WaitTimeout`` naming the program.
    public func exited(_ name: @autoclosure () -> String = "the program", timeout: Duration = .seconds(30)) async throws {
        do {
            try await waitUntil("\(name()) to exit", timeout: timeout) { !isRunning }
        } catch {
            terminate()
            do {
                try await waitUntil("\(name()) to end after SIGTERM", timeout: .seconds(5)) { !isRunning }
            } catch {
                terminate(SIGKILL)
                try? await waitUntil("\(name()) to end after SIGKILL") { !isRunning }
            }
            throw error
        }
    }

    /// Collects the program's status with `waitpid`, once; the lock keeps
    /// two threads from collecting it twice.
    private func collect(blocking: Bool) -> Termination? {
        ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            while true {
                let result = waitpid(processIdentifier, &status, blocking ? 0 : WNOHANG)
                if result == processIdentifier { break }
                if result == -1 && errno == EINTR { continue }
                // Running (0), or no longer ours to collect (-1).
                if result == 0 { return nil }
                ended = .unknown
                return ended
            }
            let low = status & 0x7f
            ended = low == 0 ? .exit((status >> 8) & 0xff) : .signal(low)
            return ended
        }
    }

    private static func check(_ result: Int32, _ call: String) throws {
        guard result == 0 else {
            throw ChildProcessError(description: "\(call) failed: \(String(cString: strerror(result)))")
        }
    }

    #if !canImport(Darwin)
    /// Closes every descriptor from 3 up in the program, after the standard
    /// streams were put in place: with glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34 and later, which
    /// the C module does not declare), else one by one as `/proc` lists them.
    private static func closeOthers(_ actions: inout posix_spawn_file_actions_t) throws {
        if let closeFrom {
            try check(closeFrom(&actions, 3), "posix_spawn_file_actions_addclosefrom_np")
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > STDERR_FILENO {
            try check(posix_spawn_file_actions_addclose(&actions, descriptor), "posix_spawn_file_actions_addclose")
        }
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np`, if it has one.
    private static let closeFrom: CloseFrom? = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }
    #endif
}
