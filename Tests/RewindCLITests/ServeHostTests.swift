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
        #expect(run.stderr.contains("--host must not be empty"), "\(run.stderr)")
    }
}
