import Foundation
import Testing

/// `rewind serve --accounts`: team mode needs an account to sign in with,
/// and the accounts of a data directory or database.
@Suite("rewind serve --accounts")
struct ServeTeamModeTests {
    @Test func withoutAnAccountTheServerDoesNotStartAndSaysToMakeOneWithStatus1() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-team-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await runRewind(["serve", "--accounts", "--port", "0", "--data-dir", directory.path], timeout: 60)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.isEmpty)
        let file = directory.appendingPathComponent("rewind.sqlite").path
        #expect(
            run.stderr == "rewind serve: team mode needs an account to sign in with, and \(file) has none; "
                + "make one first with `rewind users add NAME --data-dir \(directory.path)`\n")
    }

    @Test func accountsInMemoryAreRefusedWithStatus64() async throws {
        let run = try await runRewind(["serve", "--accounts", "--in-memory", "--port", "0"], timeout: 60)
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("--accounts needs the accounts of a data directory or database; it excludes --in-memory"))
    }
}
