import Calculator
import Foundation
import Logging
import TodoStore

/// The calculators of the browsers that use the calculator page: one
/// ``CalculatorSession`` per session cookie, kept in a ``CalculatorStore``
/// (so that it survives a restart, and any instance over the same database
/// serves the browser) and in memory within a budget.
///
/// - A session is made only by a key press, undo or redo: requests that
///   carry the page's CSRF token from the page's own origin. Showing the
///   page makes none, so another site cannot fill the table with requests
///   for `/calculator` and push a person's calculator out.
/// - Each session runs on its own actor (``BrowserCalculator``): one
///   browser's long request never holds up another's.
/// - Each session keeps at most ``stepLimit`` undo steps, and all of them
///   together at most ``totalStepBudget`` in memory: past that, the least
///   recently used sessions lose their oldest undo steps first (in the
///   store too), and the page says so. Beyond ``capacity`` sessions, the
///   least recently used one leaves memory; the store still has it.
/// - The store forgets a calculator unused for ``storedLifetime``, and all
///   but the ``storedCapacity`` most recently used ones, looked at at the
///   first change after start and then once a day.
actor CalculatorSessions {
    /// The name of the cookie that identifies a browser's calculator.
    static let cookieName = "rewind_calculator"

    /// How long a calculator nobody uses is kept, in seconds (a year); the
    /// cookie lasts as long from the last change.
    static let storedLifetime: TimeInterval = 365 * 86_400

    /// The keypad every new session gets.
    let configuration: ButtonConfiguration
    /// The most sessions kept in memory.
    let capacity: Int
    /// The most undo steps one session keeps.
    let stepLimit: Int
    /// The most undo steps all sessions keep together in memory.
    let totalStepBudget: Int
    /// Where the sessions are kept; `nil`: in memory only.
    let store: (any CalculatorStore)?
    /// The most calculators the store keeps.
    let storedCapacity: Int
    private let now: @Sendable () -> Date
    private let logger: Logger

    private var sessions: [String: Entry] = [:]
    /// The sessions being read from the store, so that two requests of one
    /// browser read it once.
    private var loading: [String: Task<BrowserCalculator?, any Error>] = [:]
    private var clock: UInt64 = 0
    private var totalSteps = 0
    /// When the store last forgot unused calculators.
    private var lastSweep: Date?
    /// Whether an ``account(_:steps:of:)`` call is dropping steps.
    private var trimming = false

    private struct Entry {
        let calculator: BrowserCalculator
        var lastUsed: UInt64
        var steps: Int
    }

    init(
        configuration: ButtonConfiguration, capacity: Int, stepLimit: Int = 10_000, totalStepBudget: Int = 200_000,
        store: (any CalculatorStore)? = nil, storedCapacity: Int = 10_000, now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = WebApp.defaultLogger()
    ) {
        self.configuration = configuration
        self.capacity = max(capacity, 1)
        self.stepLimit = max(stepLimit, 1)
        self.totalStepBudget = max(totalStepBudget, 1)
        self.store = store
        self.storedCapacity = max(storedCapacity, 1)
        self.now = now
        self.logger = logger
    }

    /// The number of sessions in memory.
    var count: Int { sessions.count }

    /// The undo steps all sessions in memory hold together.
    var stepCount: Int { totalSteps }

    /// The calculator of session `id`, from memory or the store, or `nil`
    /// when there is none.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    func existing(_ id: String) async throws -> BrowserCalculator? {
        if let calculator = touch(id) { return calculator }
        guard let store else { return nil }
        if let pending = loading[id] {
            // Another request of the same browser reads it: use what it read.
            guard let loaded = try await pending.value else { return touch(id) }
            return loaded
        }
        let task = Task { [configuration, stepLimit, now, logger] in
            try await Self.load(id, from: store, configuration: configuration, stepLimit: stepLimit, now: now, logger: logger)
        }
        loading[id] = task
        defer { loading[id] = nil }
        // Another request may have made the session meanwhile.
        guard let loaded = try await task.value else { return touch(id) }
        if let calculator = touch(id) { return calculator }
        insert(loaded, id: id, steps: await loaded.stepCount)
        return loaded
    }

    /// The calculator of session `id`, made (showing 0) when there is none.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    func calculator(_ id: String) async throws -> BrowserCalculator {
        await sweepIfDue()
        if let calculator = try await existing(id) { return calculator }
        let calculator = BrowserCalculator(
            id: id, session: CalculatorSession(configuration: configuration, undoLimit: stepLimit), version: 0,
            store: store, configuration: configuration, stepLimit: stepLimit, now: now, logger: logger)
        insert(calculator, id: id, steps: 0)
        return calculator
    }

    private func touch(_ id: String) -> BrowserCalculator? {
        guard var entry = sessions[id] else { return nil }
        clock += 1
        entry.lastUsed = clock
        sessions[id] = entry
        return entry.calculator
    }

    private func insert(_ calculator: BrowserCalculator, id: String, steps: Int) {
        clock += 1
        sessions[id] = Entry(calculator: calculator, lastUsed: clock, steps: steps)
        totalSteps += steps
        while sessions.count > capacity, let oldest = leastRecentlyUsed(excluding: id) {
            totalSteps -= sessions.removeValue(forKey: oldest)?.steps ?? 0
        }
    }

    /// The session `id` as the store keeps it, or `nil` when it keeps none.
    /// A kept calculator this version cannot make again (a step that
    /// replays differently) is logged and started again at 0, and the next
    /// change replaces it; one whose rows are damaged is refused
    /// (``StoreError/corrupt(path:detail:)``) and left as it is.
    private static func load(
        _ id: String, from store: any CalculatorStore, configuration: ButtonConfiguration, stepLimit: Int,
        now: @escaping @Sendable () -> Date, logger: Logger
    ) async throws -> BrowserCalculator? {
        guard let stored = try await store.calculator(id) else { return nil }
        let calculator = BrowserCalculator(
            id: id, session: CalculatorSession(configuration: configuration, undoLimit: stepLimit), version: 0,
            store: store, configuration: configuration, stepLimit: stepLimit, now: now, logger: logger)
        await calculator.restore(stored)
        return calculator
    }

    /// Notes that `calculator`, session `id`'s, now holds `steps` undo
    /// steps, and drops the oldest steps of the least recently used
    /// sessions while all of them hold more than ``totalStepBudget``.
    ///
    /// A calculator that has left memory since (another one for `id` may
    /// have been read from the store meanwhile) is not counted. While one
    /// call drops steps, another only counts: the first looks at the total
    /// again after each session, so two never drop for the same excess.
    func account(_ id: String, steps: Int, of calculator: BrowserCalculator) async {
        guard var entry = sessions[id], entry.calculator === calculator else { return }
        totalSteps += steps - entry.steps
        entry.steps = steps
        sessions[id] = entry
        guard !trimming else { return }
        trimming = true
        defer { trimming = false }
        var skipped: Set<String> = []
        while totalSteps > totalStepBudget, let victim = leastRecentlyUsed(excluding: nil, skipping: skipped) {
            skipped.insert(victim)
            guard let calculator = sessions[victim]?.calculator else { continue }
            let excess = totalSteps - totalStepBudget
            let remaining = await calculator.dropOldestSteps(excess)
            // The table may have changed while the session dropped its steps.
            guard var current = sessions[victim], current.calculator === calculator else { continue }
            totalSteps += remaining - current.steps
            current.steps = remaining
            sessions[victim] = current
        }
    }

    /// Asks the store to forget unused calculators, at the first change and
    /// then once a day; a failure is logged and tried again the next day.
    private func sweepIfDue() async {
        guard let store else { return }
        let now = now()
        if let lastSweep, now.timeIntervalSince(lastSweep) < 86_400 { return }
        lastSweep = now
        do {
            try await store.forgetCalculators(
                unusedSince: now.addingTimeInterval(-Self.storedLifetime), keepingAtMost: storedCapacity)
        } catch {
            logger.warning("unused calculators could not be forgotten: \(error)")
        }
    }

    private func leastRecentlyUsed(excluding excluded: String?, skipping skipped: Set<String> = []) -> String? {
        sessions.lazy.filter { $0.key != excluded && !skipped.contains($0.key) }
            .min { $0.value.lastUsed < $1.value.lastUsed }?.key
    }

    /// A new random session identifier: 32 hexadecimal digits (128 bits).
    static func makeID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Whether `id` looks like an identifier this server hands out; other
    /// cookie values are replaced with a new session.
    static func isWellFormed(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
