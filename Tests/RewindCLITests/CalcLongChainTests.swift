import Foundation
import Testing

/// `rewind calc` with thousands of keys: the minus key and options anywhere
/// among them still mean what they mean, and the tape prints the chain's
/// start and end. (8,000 keys once took 13.6 s: the argument parser and
/// every undo snapshot copied what came before.)
@Suite("rewind calc with long chains")
struct CalcLongChainTests {
    @Test func tenThousandKeysWithMinusesAndOptionsAmongThem() async throws {
        let keys = Array(repeating: ["2", "-", "1", "+"], count: 2_500).flatMap { $0 }
        let run = try await runRewind(["calc"] + keys.prefix(5_000) + ["--json"] + keys.dropFirst(5_000) + ["0", "="])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(object?["display"] as? String == "2500")
        let tape = object?["tape"] as? [String]
        #expect(tape?.last?.hasPrefix("2 − 1 + 2 − 1 + ") == true)
        #expect(tape?.last?.hasSuffix("… + 0 = 2500") == true)
    }

    @Test func aFewKeysAreNotPacked() async throws {
        #expect(try await runRewind(["calc", "5", "-", "-", "3", "="]).output == "2")
        #expect(try await runRewind(["calc", "--config"]).status != 0)
    }
}
