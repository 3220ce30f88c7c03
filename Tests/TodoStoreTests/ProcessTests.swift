import Foundation
import Testing
import TestSupport
import Todos
import TodoStore

/// Tests with a second process (`StoreProbe`) on the same database file.
@Suite("SQLite store across processes", .serialized)
struct ProcessTests {
    /// Runs the probe with `arguments`; what it prints goes to a file, so
    /// that once it is dead every line it wrote is there (a pipe's end can
    /// stay open in another child that a test running beside this one
    /// starts at the same moment, and its end of output then never comes).
    final class Probe: Sendable {
        let process: ChildProcess
        private let output: URL

        init(_ arguments: [String]) throws {
            output = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-probe-\(UUID().uuidString).out")
            guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: output.path])
            }
            let handle = try FileHandle(forWritingTo: output)
            defer { try? handle.close() }
            process = try ChildProcess(Products.storeProbe, arguments, standardOutput: .handle(handle))
        }

        deinit {
            try? FileManager.default.removeItem(at: output)
        }

        /// The complete lines printed so far.
        var lines: [String] {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            var lines = text.components(separatedBy: "\n")
            lines.removeLast()  // a line not yet ended is not yet a report
            return lines
        }

        /// Waits until the probe printed `count` lines or exited.
        func waitForLines(atLeast count: Int, timeout: Duration = .seconds(30)) async throws {
            try await waitUntil("\(count) lines from the probe; it printed \(lines.count)", timeout: timeout) {
                lines.count >= count || !process.isRunning
            }
        }

        /// Waits until the probe exited, without holding one of the few
        /// threads the tests share.
        func exited(timeout: Duration = .seconds(30)) async throws {
            try await process.exited("the probe", timeout: timeout)
        }

        /// Kills the probe and waits until it is gone: every line it wrote
        /// is then in the file.
        func kill() async throws {
            process.terminate(SIGKILL)
            try await exited()
        }
    }

    @Test func theProbeIsBuilt() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: Products.storeProbe.path), "\(Products.storeProbe.path)")
    }

    /// `churn` makes one change at a time; `burst` eight at once, which the
    /// store writes in group commits: a kill may fall inside a batch.
    @Test(arguments: ["churn", "burst"], 0..<4)
    func everyAcknowledgedChangeSurvivesKillDashNine(mode: String, round: Int) async throws {
        let fixture = try StoreFixture(.sqlite)
        let probe = try Probe([mode, fixture.fileURL.path])
        var generator = SystemRandomNumberGenerator()
        // Kill at a random moment: after some acknowledged changes, plus a random delay.
        try await probe.waitForLines(atLeast: Int.random(in: 5...60, using: &generator))
        try await Task.sleep(seconds: Double.random(in: 0...0.05, using: &generator))
        try await probe.kill()
        let acknowledged = probe.lines
        #expect(acknowledged.count >= 5, "the probe reported \(acknowledged.count) changes")

        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let state = try await store.state()
        for line in acknowledged {
            let words = line.split(separator: " ")
            guard words.count == 4, let id = UUID(uuidString: String(words[3])) else {
                Issue.record("unexpected report: \(line)")
                continue
            }
            let item = state.todos[id: id]
            #expect(item != nil, "acknowledged \(line) is missing")
            if words[2] == "complete" { #expect(item?.isCompleted == true, "acknowledged \(line) was lost") }
        }
        // The history is whole: one step per change, all done, and undoing them all empties the list.
        let history = try await store.history()
        #expect(history.steps.count >= acknowledged.count)
        #expect(history.position == history.steps.count)
        try await store.jump(to: 0)
        #expect(try await store.state().todos.isEmpty)
        try await store.jump(to: history.steps.count)
        #expect(try await store.state() == state)
    }

    @Test func aChangeInAnotherProcessReachesThisProcessesSubscribers() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: 0.05)
        let told = Counter()
        store.updated { told.increment() }

        let probe = try Probe(["add", fixture.fileURL.path, "Buy", "milk"])
        try await probe.exited()
        #expect(probe.process.terminationStatus == 0)
        try await waitUntil("the subscriber to be told") { told.value >= 1 }
        #expect(try await store.state().todos.items.map(\.title) == ["Buy milk"])
        #expect(try await store.undo() == "Add “Buy milk”")
    }

    @Test func storesOpenedLaterOnTheSameFileLeaveTheFirstOnesViewWholeWhenAnotherProcessWritesAndExits()
        async throws
    {
        // `rewind serve --accounts` opens the list, the accounts and the
        // shared lists on one file; `rewind todo` then writes and exits. If
        // opening a later store dropped this process's locks on the file,
        // the exiting process would take itself for the last one, checkpoint
        // and delete the WAL, and this process would read a damaged file.
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: 0.05)
        try await store.change(.add(try TodoItem(id: UUID(), title: "First", created: SQLiteStore.millisecondClock())))
        let accounts = try SQLiteAccountStore(url: fixture.fileURL)
        let lists = try SQLiteSharedListStore(url: fixture.fileURL)
        let told = Counter()
        store.updated { told.increment() }

        for title in ["Second", "Third"] {
            let probe = try Probe(["add", fixture.fileURL.path, title])
            try await probe.exited()
            #expect(probe.process.terminationStatus == 0)
        }
        try await waitUntil("the subscriber to be told") { told.value >= 1 }
        try await waitUntil("both items to be read") { try await store.state().todos.items.count == 3 }
        #expect(try await store.state().todos.items.map(\.title) == ["First", "Second", "Third"])
        #expect(try await accounts.list().isEmpty)
        #expect(try await lists.lists(of: AccountName("ann")).isEmpty)
    }

    @Test func concurrentWritersInTwoProcessesKeepOneConsistentHistory() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let probe = try Probe(["churn", fixture.fileURL.path])
        var ours: [UUID] = []
        for index in 0..<40 {
            let item = try TodoItem(id: UUID(), title: "Ours \(index)", created: SQLiteStore.millisecondClock())
            try await store.change(.add(item))
            ours.append(item.id)
        }
        try await probe.waitForLines(atLeast: 20)
        try await probe.kill()
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let state = try await reopened.state()
        #expect(ours.allSatisfy { state.todos.contains(id: $0) })
        try await reopened.jump(to: 0)
        #expect(try await reopened.state().todos.isEmpty)
    }
}

/// Commits to the file's other tables (a browser's calculator, an account,
/// a sign-in) leave the list alone: the server neither reads it again nor
/// tells its pages, while a change of the list, or a reset and as many
/// changes as before, still reaches them.
@Suite("SQLite store: other tables of the file")
struct OtherTablesTests {
    @Test func commitsToOtherTablesNeitherReadTheListAgainNorTellItsSubscribers() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: 0.02)
        try await store.change(.add(try TodoItem(id: UUID(), title: "First", created: SQLiteStore.millisecondClock())))
        let told = Counter()
        store.updated { told.increment() }
        let calculators = try SQLiteCalculatorStore(url: fixture.fileURL)
        let accounts = try SQLiteAccountStore(url: fixture.fileURL)
        var version = 0
        for n in 1...20 {
            let save = CalculatorSave(
                version: version, base: "{}", droppedSteps: 0, keptThrough: n - 1, appended: ["1"], position: n)
            version = try #require(try await calculators.save(String(repeating: "a", count: 32), save, at: Date()))
            try await Task.sleep(for: .milliseconds(10))
        }
        try await accounts.add(name: AccountName("ann"), passwordHash: "hash")
        try await Task.sleep(for: .milliseconds(200))
        #expect(told.value == 0)

        // Another connection's change of the list is still seen.
        let other = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        try await other.change(.add(try TodoItem(id: UUID(), title: "Second", created: SQLiteStore.millisecondClock())))
        try await waitUntil("the subscriber to be told") { told.value >= 1 }
        #expect(try await store.state().todos.items.map(\.title) == ["First", "Second"])

    }

    @Test func aResetAndAsManyChangesAsBeforeAreToldApartByTheEpoch() async throws {
        let fixture = try StoreFixture(.sqlite)
        // No polling: a change catches up with the file first.
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let other = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        for title in ["First", "Second"] {
            try await store.change(.add(try TodoItem(id: UUID(), title: title, created: SQLiteStore.millisecondClock())))
        }
        // The same newest log row (2, at node 2) after the reset and two adds.
        try await other.reset()
        for title in ["Uno", "Dos"] {
            try await other.change(.add(try TodoItem(id: UUID(), title: title, created: SQLiteStore.millisecondClock())))
        }
        try await store.change(.add(try TodoItem(id: UUID(), title: "Tres", created: SQLiteStore.millisecondClock())))
        #expect(try await store.state().todos.items.map(\.title) == ["Uno", "Dos", "Tres"])
    }
}
