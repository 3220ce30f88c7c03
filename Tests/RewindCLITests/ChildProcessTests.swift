import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tests' way of starting programs (`rewind`, the store probe, `mount`).
@Suite("Starting programs in tests")
struct ChildProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    @Test func theProgramsOutputErrorAndExitStatusComeBack() async throws {
        let run = try await runProcess(Self.shell, ["-c", "read line; echo \"got $line\"; echo oops >&2; exit 3"], stdin: "milk\n")
        #expect(run.status == 3)
        #expect(run.stdout == "got milk\n")
        #expect(run.stderr == "oops\n")
    }

    @Test func aSignalThatEndsTheProgramIsToldApart() async throws {
        let child = try ChildProcess(Self.shell, ["-c", "kill -KILL $$"])
        try await child.exited(timeout: .seconds(10))
        #expect(child.termination == .signal(SIGKILL))
        #expect(child.terminationStatus == SIGKILL)
    }

    /// A pipe's end that the program kept would keep another test's reader
    /// from ever seeing the end of its output.
    @Test func theProgramGetsNoOtherDescriptorOfTheTests() async throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        let run = try await runProcess(Self.shell, ["-c", "for fd in \(ends[0]) \(ends[1]); do [ -e /proc/$$/fd/$fd ] && echo \"kept $fd\"; done; exit 0"])
        #expect(run.status == 0)
        #expect(run.stdout == "")
    }

    #if os(Linux)
    /// Whether signal `number` is in the mask `hex` that `/proc/PID/status` shows.
    static func masked(_ hex: String, _ number: Int32) -> Bool {
        guard let mask = UInt64(hex, radix: 16) else { return false }
        return mask & (1 << UInt64(number - 1)) != 0
    }

    @Test func theProgramHasNoSignalBlockedAndSigpipeAtItsDefault() async throws {
        // Servers in this test process ignore SIGPIPE; a program it starts must not.
        signal(SIGPIPE, SIG_IGN)
        let run = try await runProcess(URL(fileURLWithPath: "/bin/grep"), ["-E", "^Sig(Blk|Ign):", "/proc/self/status"])
        let fields = Dictionary(uniqueKeysWithValues: run.lines.map { line in
            let parts = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        })
        #expect(fields["SigBlk"].map { UInt64($0, radix: 16) } == 0)
        #expect(fields["SigIgn"].map { Self.masked($0, SIGPIPE) } == false)
    }
    #endif

    @Test func aProgramPastItsTimeIsEndedAndNamed() async throws {
        let child = try ChildProcess(Self.shell, ["-c", "sleep 30"])
        await #expect(throws: WaitTimeout.self) {
            try await child.exited("the sleeper", timeout: .milliseconds(300))
        }
        #expect(child.termination == .signal(SIGTERM))
    }

    @Test func aMissingProgramIsAnErrorNamingIt() throws {
        #expect {
            _ = try ChildProcess(URL(fileURLWithPath: "/nonexistent/rewind"), [])
        } throws: { error in
            "\(error)".contains("/nonexistent/rewind")
        }
    }
}
