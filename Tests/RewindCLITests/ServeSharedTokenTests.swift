import Foundation
import Testing

@testable import RewindCLI

/// `REWIND_CSRF_TOKEN`: the token that `rewind serve` instances behind one
/// load balancer share; anything but 32 to 256 letters, digits, `-` or `_`
/// is refused before the server starts.
@Suite("rewind serve and REWIND_CSRF_TOKEN")
struct ServeSharedTokenTests {
    @Test func anUnsetOrEmptyVariableLeavesEachServerItsOwnToken() async throws {
        #expect(try SharedCSRFToken.token(environment: [:]) == nil)
        #expect(try SharedCSRFToken.token(environment: ["REWIND_CSRF_TOKEN": ""]) == nil)
    }

    @Test func aTokenOfLettersDigitsDashesAndUnderscoresIsTaken() async throws {
        let token = "0123456789abcdefABCDEF-_" + String(repeating: "z", count: 8)
        #expect(try SharedCSRFToken.token(environment: ["REWIND_CSRF_TOKEN": token]) == token)
    }

    @Test(arguments: [
        String(repeating: "a", count: 31), String(repeating: "a", count: 257),
        String(repeating: "a", count: 31) + " ", String(repeating: "a", count: 31) + "é",
        String(repeating: "a", count: 31) + "\"", String(repeating: "a", count: 31) + "\n",
    ])
    func anythingElseIsRefused(token: String) {
        #expect(throws: SharedCSRFTokenError.self) {
            try SharedCSRFToken.token(environment: ["REWIND_CSRF_TOKEN": token])
        }
    }

    @Test func theServerRefusesABadTokenWithStatus64AndWhatIsAllowed() async throws {
        let run = try await runRewind(
            ["serve", "--port", "0", "--in-memory"], environment: ["REWIND_CSRF_TOKEN": "short"], timeout: 60
        )
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr == "rewind serve: $REWIND_CSRF_TOKEN must be 32 to 256 letters, digits, '-' or '_' "
                + "(for example: openssl rand -hex 32)\n"
        )
    }
}
