import Dispatch
import Synchronization

/// One timer for every wait that must not last for ever: a query whose
/// connection may close before the server answers, a lease from the pool
/// while the server cannot be reached. Each wait registers a check, which
/// the watch calls every ``tick`` until the check says it is done.
///
/// A timer of each wait's own (a task that sleeps) cost a timer set and
/// cancelled for every query, which under load took more processor time
/// than the queries' own work in the store; one watch costs one wake-up per
/// tick while any wait is watched, and none while none is. It ticks on a
/// dispatch queue of its own, not in Swift's cooperative pool: work that
/// holds the pool's threads (a blocking call, a long queue of tasks) does
/// not delay the checks that end waits.
///
/// ```swift
/// let key = WaitWatch.shared.watch { now in
///     if answer.isGiven { return true }
///     if now >= deadline { answer.give(.failure(TimedOut())); return true }
///     return false
/// }
/// defer { WaitWatch.shared.end(key) }
/// ```
final class WaitWatch: Sendable {
    /// The watch of this process.
    static let shared = WaitWatch()

    /// How often the checks are called.
    static let tick: Duration = .milliseconds(100)

    /// A check: called with the time of the tick; `true` when its wait is
    /// over and it need not be called again.
    typealias Check = @Sendable (ContinuousClock.Instant) -> Bool

    private struct State {
        var nextKey: UInt64 = 0
        var checks: [UInt64: Check] = [:]
        /// Whether a task is ticking (it ends when no check is left).
        var ticking = false
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "rewind.wait-watch")

    /// Calls `check` at every tick from now on until it returns `true` or
    /// ``end(_:)`` is called with the key returned.
    func watch(_ check: @escaping Check) -> UInt64 {
        let (key, start) = state.withLock { state in
            let key = state.nextKey
            state.nextKey += 1
            state.checks[key] = check
            defer { state.ticking = true }
            return (key, !state.ticking)
        }
        if start { scheduleTick() }
        return key
    }

    /// Stops calling the check registered under `key` (nothing when it is
    /// no longer registered).
    func end(_ key: UInt64) {
        _ = state.withLock { $0.checks.removeValue(forKey: key) }
    }

    /// How many checks are registered (for the tests).
    var watched: Int { state.withLock { $0.checks.count } }

    /// Calls ``tick()`` one tick from now.
    private func scheduleTick() {
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(Self.tick / .nanoseconds(1)))) { [self] in tick() }
    }

    /// Calls the checks, and the next tick while any check is left.
    private func tick() {
        let checks = state.withLock { state -> [(key: UInt64, value: Check)]? in
            guard !state.checks.isEmpty else {
                state.ticking = false
                return nil
            }
            return Array(state.checks)
        }
        guard let checks else { return }
        let now = ContinuousClock.now
        let done = checks.filter { $0.value(now) }.map(\.key)
        if !done.isEmpty {
            state.withLock { state in
                for key in done { state.checks.removeValue(forKey: key) }
            }
        }
        scheduleTick()
    }
}
