import Calculator
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing
import TodoStore

@testable import WebApp

/// The browser's calculator survives a restart of the server, and is the
/// same whichever instance over one database serves it.
@Suite("Calculator kept across restarts")
struct CalculatorRestartTests {
    /// A temporary SQLite file, removed when the value goes.
    final class TemporaryFile: Sendable {
        let url: URL
        init() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-calc-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            url = directory.appendingPathComponent("rewind.sqlite")
        }
        deinit { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    }

    @Test func aRestartedServerShowsTheSameCalculatorWithItsUndoAndRedo() async throws {
        let file = try TemporaryFile()
        let first = try TestServer(calculators: try await SQLiteCalculatorStore.open(url: file.url))
        let cookie: String = try await first.test { client in
            let pressed = try await first.pressCalculatorKeys(["1", "2", "+", "3", "=", "x", "2"], client, cookie: nil)
            let cookie = try #require(TestServer.calculatorCookie(pressed))
            // Lasts a year from the last change, as the server keeps it.
            let header = try #require(pressed.headers[values: .setCookie].first)
            #expect(header.contains("Max-Age=31536000"))
            for _ in 0..<2 {
                let undone = try await client.send(
                    .post, "/api/calculator/undo", token: first.token, headers: [.cookie: cookie])
                #expect(undone.status == .ok)
            }
            return cookie
        }
        // A new server over the same file, as after a restart.
        let second = try TestServer(calculators: try await SQLiteCalculatorStore.open(url: file.url))
        try await second.test { client in
            let shown = try await client.get("/api/calculator", headers: [.cookie: cookie]).object
            #expect(shown["display"] as? String == "15")
            #expect(shown["tape"] as? [String] == ["12 + 3 = 15"])
            #expect(shown["canRedo"] as? Bool == true)
            #expect(shown["undoTitle"] as? String == "Undo Press =")
            let page = try await client.get("/calculator", headers: [.cookie: cookie])
            #expect(page.text.contains(">15</output>"))
            let redone = try await client.send(.post, "/api/calculator/redo", token: second.token, headers: [.cookie: cookie])
            #expect(redone.object["display"] as? String == "15")
            #expect(redone.object["redoTitle"] as? String == "Redo Press 2")
            // A press replaces the step still undone.
            let pressed = try await second.pressCalculatorKeys(["5", "="], client, cookie: cookie)
            #expect(pressed.object["display"] as? String == "75")
            #expect(pressed.object["canRedo"] as? Bool == false)
        }
        let third = try TestServer(calculators: try await SQLiteCalculatorStore.open(url: file.url))
        try await third.test { client in
            let shown = try await client.get("/api/calculator", headers: [.cookie: cookie]).object
            #expect(shown["display"] as? String == "75")
            #expect(shown["tape"] as? [String] == ["12 + 3 = 15", "15 × 5 = 75"])
            var displays: [String] = []
            while true {
                let undone = try await client.send(.post, "/api/calculator/undo", token: third.token, headers: [.cookie: cookie])
                guard undone.status == .ok else { break }
                displays.append(undone.object["display"] as? String ?? "?")
            }
            #expect(displays == ["5", "15", "15", "3", "12", "12", "1", "0"])
        }
    }

    @Test func twoInstancesOverOneStoreTakeTurnsAtOneCalculatorAndLoseNoPress() async throws {
        let store = InMemoryCalculatorStore()
        let a = try TestServer(calculators: store)
        let b = try TestServer(calculators: store)
        let cookie = try await a.test { client in
            try #require(TestServer.calculatorCookie(try await a.pressCalculatorKeys(["1"], client, cookie: nil)))
        }
        // Each instance keeps its copy in memory; the other's presses come
        // between, and each press goes on from the latest.
        try await a.test { clientA in
            try await b.test { clientB in
                for round in 0..<5 {
                    let onB = try await b.pressCalculatorKeys(["+", "1"], clientB, cookie: cookie)
                    #expect(onB.status == .ok)
                    let onA = try await a.pressCalculatorKeys(["+", "1", "="], clientA, cookie: cookie)
                    #expect(onA.object["display"] as? String == "\(2 * round + 3)")
                }
                // B shows A's presses, although its copy in memory was behind.
                let seen = try await clientB.get("/api/calculator", headers: [.cookie: cookie]).object
                #expect(seen["display"] as? String == "11")
                #expect((seen["tape"] as? [String])?.last == "9 + 1 + 1 = 11")
                // Its undo undoes A's last press.
                let undone = try await clientB.send(.post, "/api/calculator/undo", token: b.token, headers: [.cookie: cookie])
                #expect(undone.object["display"] as? String == "1")
                #expect(undone.object["tape"] as? [String] == ["1 + 1 + 1 = 3", "3 + 1 + 1 = 5", "5 + 1 + 1 = 7", "7 + 1 + 1 = 9"])
            }
        }
        let stored = try #require(await store.calculator(cookie.replacingOccurrences(of: "rewind_calculator=", with: "")))
        #expect(stored.steps.count == 1 + 5 * 5)
        #expect(stored.position == 1 + 5 * 5 - 1)
    }

    @Test func anInstanceThatStillHoldsAForgottenCalculatorShowsTheNewOneMadeElsewhere() async throws {
        let store = InMemoryCalculatorStore()
        let a = try TestServer(calculators: store)
        let b = try TestServer(calculators: store)
        let cookie = try await a.test { client in
            let cookie = try #require(TestServer.calculatorCookie(try await a.pressCalculatorKeys(["1"], client, cookie: nil)))
            for keys in [["+"], ["2"], ["="]] { _ = try await a.pressCalculatorKeys(keys, client, cookie: cookie) }
            return cookie
        }
        let id = cookie.replacingOccurrences(of: "rewind_calculator=", with: "")
        // The store forgets it (past the most kept), while A still holds its copy.
        #expect(await store.forgetCalculators(unusedSince: TestServer.now, keepingAtMost: 0) == 1)
        try await a.test { client in
            // Forgotten: 0, as any other instance shows it.
            let shown = try await client.get("/api/calculator", headers: [.cookie: cookie]).object
            #expect(shown["display"] as? String == "0")
        }
        // A press on A again, then forgotten again; B makes a new one with as many saves as A's copy had.
        try await a.test { client in
            for keys in [["1"], ["+"], ["2"], ["="]] { _ = try await a.pressCalculatorKeys(keys, client, cookie: cookie) }
        }
        let held = try #require(await store.version(id))
        #expect(await store.forgetCalculators(unusedSince: TestServer.now, keepingAtMost: 0) == 1)
        try await b.test { client in
            for keys in [["9"], ["x"], ["9"], ["="]] { _ = try await b.pressCalculatorKeys(keys, client, cookie: cookie) }
        }
        // The new calculator does not count through the old one's versions.
        #expect(try #require(await store.version(id)) != held)
        try await a.test { client in
            let shown = try await client.get("/api/calculator", headers: [.cookie: cookie]).object
            #expect(shown["display"] as? String == "81")
            #expect(shown["tape"] as? [String] == ["9 × 9 = 81"])
            let pressed = try await a.pressCalculatorKeys(["+", "1", "="], client, cookie: cookie)
            #expect(pressed.object["display"] as? String == "82")
        }
        #expect(await store.calculator(id)?.steps == ["9", "x", "9", "=", "+", "1", "="])
    }

    /// A store whose saves fail while ``failing`` is set.
    final class FailingStore: CalculatorStore {
        let inner = InMemoryCalculatorStore()
        let failing = Locked(false)

        func calculator(_ id: String) async throws -> StoredCalculator? { await inner.calculator(id) }
        func version(_ id: String) async throws -> Int? { await inner.version(id) }
        func save(_ id: String, _ save: CalculatorSave, at now: Date) async throws -> Int? {
            if failing.withLock({ $0 }) { throw StoreError.io(path: "test", detail: "the disk is gone") }
            return await inner.save(id, save, at: now)
        }
        func forgetCalculators(unusedSince date: Date, keepingAtMost limit: Int) async throws -> Int {
            await inner.forgetCalculators(unusedSince: date, keepingAtMost: limit)
        }
    }

    @Test func aPressTheStoreCouldNotSaveIsNotShownAndTheNextOneGoesOnFromTheSavedCalculator() async throws {
        let store = FailingStore()
        let server = try TestServer(calculators: store)
        try await server.test { client in
            let cookie = try #require(TestServer.calculatorCookie(try await server.pressCalculatorKeys(["1"], client, cookie: nil)))
            store.failing.withLock { $0 = true }
            let refused = try await server.pressCalculatorKeys(["2"], client, cookie: cookie)
            #expect(refused.status == .serviceUnavailable)
            let undone = try await client.send(.post, "/api/calculator/undo", token: server.token, headers: [.cookie: cookie])
            #expect(undone.status == .serviceUnavailable)
            store.failing.withLock { $0 = false }
            #expect(try await client.get("/api/calculator", headers: [.cookie: cookie]).object["display"] as? String == "1")
            let pressed = try await server.pressCalculatorKeys(["3"], client, cookie: cookie)
            #expect(pressed.object["display"] as? String == "13")
            #expect(await store.inner.calculator(cookie.replacingOccurrences(of: "rewind_calculator=", with: ""))?.steps == ["1", "3"])
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomPressesUndosAndRedosAtASmallLimitAreMadeAgainWholeFromTheFile(seed: UInt64) async throws {
        let file = try TemporaryFile()
        let store = try await SQLiteCalculatorStore.open(url: file.url)
        let sessions = CalculatorSessions(configuration: try .shipped(), capacity: 10, stepLimit: 4, store: store)
        let id = "ab000000000000000000000000000000"
        var generator = SeededGenerator(seed: seed)
        let labels = ["1", "2", "+", "x", "=", "-", "√"]
        let calculator = try await sessions.calculator(id)
        for round in 0..<200 {
            let choice = Int.random(in: 0..<10, using: &generator)
            let label = labels.randomElement(using: &generator) ?? "1"
            _ = try? await calculator.change { session in
                switch choice {
                case 0..<5: return (try? session.press([label])) ?? []
                case 5..<8:
                    session.undo()
                    return []
                default:
                    session.redo()
                    return []
                }
            }
            let shown = await calculator.state
            // Another server over the same file makes it again from its rows.
            let again = CalculatorSessions(configuration: try .shipped(), capacity: 10, stepLimit: 4, store: store)
            guard let restored = try await again.existing(id) else {
                // Nothing saved yet: nothing was pressed.
                #expect(shown.snapshot == CalculatorSession(configuration: try .shipped()).snapshot)
                continue
            }
            let state = await restored.state
            #expect(state.snapshot == shown.snapshot, "seed \(seed), round \(round)")
            #expect(state.droppedSteps == shown.droppedSteps, "seed \(seed), round \(round)")
            #expect(state.undoTitle == shown.undoTitle, "seed \(seed), round \(round)")
            #expect(state.redoTitle == shown.redoTitle, "seed \(seed), round \(round)")
        }
    }

    @Test func aCalculatorNobodyUsedForAYearIsForgotten() async throws {
        let store = InMemoryCalculatorStore()
        let clock = Locked(TestServer.now)
        let server = try TestServer(calculators: store, now: { clock.withLock { $0 } })
        let cookie = try await server.test { client in
            try #require(TestServer.calculatorCookie(try await server.pressCalculatorKeys(["7"], client, cookie: nil)))
        }
        let id = cookie.replacingOccurrences(of: "rewind_calculator=", with: "")
        #expect(await store.calculator(id)?.steps == ["7"])
        // A year and a day later, another browser's press makes the daily sweep.
        clock.withLock { $0 = $0.addingTimeInterval(366 * 86_400) }
        try await server.test { client in
            _ = try await server.pressCalculatorKeys(["1"], client, cookie: nil)
        }
        #expect(await store.calculator(id) == nil)
    }

    @Test func withoutAStoreTheCookieLastsAsLongAsTheBrowserAndIsSetOnce() async throws {
        let server = try TestServer()
        try await server.test { client in
            let pressed = try await server.pressCalculatorKeys(["7"], client, cookie: nil)
            let header = try #require(pressed.headers[values: .setCookie].first)
            #expect(!header.contains("Max-Age"))
            let cookie = try #require(TestServer.calculatorCookie(pressed))
            let again = try await server.pressCalculatorKeys(["8"], client, cookie: cookie)
            #expect(again.headers[values: .setCookie].isEmpty)
        }
    }
}
