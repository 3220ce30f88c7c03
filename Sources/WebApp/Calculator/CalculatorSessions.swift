import Calculator

/// The calculators of the browsers that use the calculator page: one
/// ``CalculatorSession`` per session cookie, at most ``capacity`` of them in
/// memory; the least recently used one is dropped beyond that.
actor CalculatorSessions {
    /// The name of the cookie that identifies a browser's calculator.
    static let cookieName = "rewind_calculator"

    /// The keypad every new session gets.
    let configuration: ButtonConfiguration
    /// The most sessions kept.
    let capacity: Int

    private var sessions: [String: Entry] = [:]
    private var clock: UInt64 = 0

    private struct Entry {
        var session: CalculatorSession
        var lastUsed: UInt64
    }

    init(configuration: ButtonConfiguration, capacity: Int) {
        self.configuration = configuration
        self.capacity = max(capacity, 1)
    }

    /// The number of sessions in memory.
    var count: Int { sessions.count }

    /// Runs `body` on the session with identifier `id`, creating it (showing
    /// 0) when there is none, and returns what `body` returns.
    func withSession<Result: Sendable>(
        _ id: String,
        _ body: @Sendable (inout CalculatorSession) throws -> Result
    ) rethrows -> Result {
        clock += 1
        var entry = sessions[id] ?? Entry(session: CalculatorSession(configuration: configuration), lastUsed: clock)
        entry.lastUsed = clock
        defer {
            sessions[id] = entry
            evictBeyondCapacity()
        }
        return try body(&entry.session)
    }

    private func evictBeyondCapacity() {
        while sessions.count > capacity {
            guard let oldest = sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key else { return }
            sessions.removeValue(forKey: oldest)
        }
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
