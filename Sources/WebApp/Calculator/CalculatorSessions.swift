import Calculator

/// The calculators of the browsers that use the calculator page: one
/// ``CalculatorSession`` per session cookie, within a memory budget.
///
/// - A session is made only by a key press, undo or redo: requests that
///   carry the page's CSRF token from the page's own origin. Showing the
///   page makes none, so another site cannot fill the table with requests
///   for `/calculator` and push a person's calculator out.
/// - Each session runs on its own actor (``BrowserCalculator``): one
///   browser's long request never holds up another's.
/// - Each session keeps at most ``stepLimit`` undo steps, and all of them
///   together at most ``totalStepBudget``: past that, the least recently
///   used sessions lose their oldest undo steps first, and the page says
///   so. Beyond ``capacity`` sessions, the least recently used one goes.
actor CalculatorSessions {
    /// The name of the cookie that identifies a browser's calculator.
    static let cookieName = "rewind_calculator"

    /// The keypad every new session gets.
    let configuration: ButtonConfiguration
    /// The most sessions kept.
    let capacity: Int
    /// The most undo steps one session keeps.
    let stepLimit: Int
    /// The most undo steps all sessions keep together.
    let totalStepBudget: Int

    private var sessions: [String: Entry] = [:]
    private var clock: UInt64 = 0
    private var totalSteps = 0

    private struct Entry {
        let calculator: BrowserCalculator
        var lastUsed: UInt64
        var steps: Int
    }

    init(configuration: ButtonConfiguration, capacity: Int, stepLimit: Int = 10_000, totalStepBudget: Int = 200_000) {
        self.configuration = configuration
        self.capacity = max(capacity, 1)
        self.stepLimit = max(stepLimit, 1)
        self.totalStepBudget = max(totalStepBudget, 1)
    }

    /// The number of sessions in memory.
    var count: Int { sessions.count }

    /// The undo steps all sessions hold together.
    var stepCount: Int { totalSteps }

    /// The calculator of session `id`, or `nil` when there is none.
    func existing(_ id: String) -> BrowserCalculator? {
        guard var entry = sessions[id] else { return nil }
        clock += 1
        entry.lastUsed = clock
        sessions[id] = entry
        return entry.calculator
    }

    /// The calculator of session `id`, made (showing 0) when there is none.
    func calculator(_ id: String) -> BrowserCalculator {
        if let calculator = existing(id) { return calculator }
        clock += 1
        let calculator = BrowserCalculator(CalculatorSession(configuration: configuration, undoLimit: stepLimit))
        sessions[id] = Entry(calculator: calculator, lastUsed: clock, steps: 0)
        while sessions.count > capacity, let oldest = leastRecentlyUsed(excluding: id) {
            totalSteps -= sessions.removeValue(forKey: oldest)?.steps ?? 0
        }
        return calculator
    }

    /// Notes that session `id` now holds `steps` undo steps, and drops the
    /// oldest steps of the least recently used sessions while all of them
    /// hold more than ``totalStepBudget``.
    func account(_ id: String, steps: Int) async {
        guard var entry = sessions[id] else { return }
        totalSteps += steps - entry.steps
        entry.steps = steps
        sessions[id] = entry
        var skipped: Set<String> = []
        while totalSteps > totalStepBudget, let victim = leastRecentlyUsed(excluding: nil, skipping: skipped) {
            skipped.insert(victim)
            guard let calculator = sessions[victim]?.calculator else { continue }
            let excess = totalSteps - totalStepBudget
            let remaining = await calculator.dropOldestSteps(excess)
            // The table may have changed while the session dropped its steps.
            guard var current = sessions[victim] else { continue }
            totalSteps += remaining - current.steps
            current.steps = remaining
            sessions[victim] = current
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

/// One browser's calculator, on an actor of its own.
actor BrowserCalculator {
    private var session: CalculatorSession

    init(_ session: CalculatorSession) {
        self.session = session
    }

    /// Runs `body` on the session and returns what it returns, with the
    /// number of undo steps the session holds afterwards.
    func update<Result: Sendable>(
        _ body: @Sendable (inout CalculatorSession) throws -> Result
    ) rethrows -> (result: Result, steps: Int) {
        let result = try body(&session)
        return (result, session.stepCount)
    }

    /// Drops up to `count` of the oldest undo steps and returns how many the
    /// session still holds.
    func dropOldestSteps(_ count: Int) -> Int {
        session.dropOldestSteps(count)
        return session.stepCount
    }
}
