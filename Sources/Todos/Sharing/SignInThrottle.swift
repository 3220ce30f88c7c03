import Foundation

/// Slows down guessing: after a few failed sign-ins for one account, or from
/// one address, further attempts wait, longer after each failure. A success
/// clears the account's count.
///
/// The throttle is a value: a store keeps it (or its counts) and passes the
/// time in, so the rule is tested without a clock.
///
/// ```swift
/// var throttle = SignInThrottle()
/// if let wait = throttle.wait(for: keys, at: now) { /* 429, Retry-After: wait */ }
/// throttle.recordFailure(for: keys, at: now)
/// ```
public struct SignInThrottle: Equatable, Sendable {
    /// Failures allowed before attempts are slowed down.
    public let freeFailures: Int
    /// The wait after the first failure beyond the free ones, doubled after each further one.
    public let firstWait: TimeInterval
    /// The longest wait.
    public let longestWait: TimeInterval

    private var failures: [String: (count: Int, last: Date)] = [:]

    /// A throttle; the defaults allow 5 free failures per key, then wait
    /// 1 s, 2 s, 4 s … up to 15 minutes.
    public init(freeFailures: Int = 5, firstWait: TimeInterval = 1, longestWait: TimeInterval = 900) {
        self.freeFailures = max(0, freeFailures)
        self.firstWait = max(0, firstWait)
        self.longestWait = max(self.firstWait, longestWait)
    }

    /// The keys of one attempt: the account's name and the address it came from.
    public static func keys(account: String, address: String) -> [String] {
        ["account:" + account.lowercased(), "address:" + address]
    }

    /// How long the attempt with `keys` must still wait at `now`, or `nil`
    /// when it may go ahead.
    public func wait(for keys: [String], at now: Date) -> TimeInterval? {
        let waits = keys.compactMap { key -> TimeInterval? in
            guard let entry = failures[key], entry.count > freeFailures else { return nil }
            let remaining = entry.last.addingTimeInterval(delay(after: entry.count)).timeIntervalSince(now)
            return remaining > 0 ? remaining : nil
        }
        return waits.max()
    }

    /// Counts a failed attempt for every key.
    public mutating func recordFailure(for keys: [String], at now: Date) {
        for key in keys { failures[key] = ((failures[key]?.count ?? 0) + 1, now) }
    }

    /// Clears the account's count after a successful sign-in (the address
    /// keeps its own, so one good password does not unlock guessing others).
    public mutating func recordSuccess(account: String) {
        failures["account:" + account.lowercased()] = nil
    }

    /// The wait after `count` failures.
    private func delay(after count: Int) -> TimeInterval {
        let doublings = min(count - freeFailures - 1, 30)
        return min(longestWait, firstWait * pow(2, Double(max(0, doublings))))
    }

    /// Two throttles are equal when they hold the same counts and dates.
    public static func == (a: SignInThrottle, b: SignInThrottle) -> Bool {
        a.freeFailures == b.freeFailures && a.firstWait == b.firstWait && a.longestWait == b.longestWait
            && a.failures.mapValues { "\($0.count) \($0.last.timeIntervalSince1970)" }
                == b.failures.mapValues { "\($0.count) \($0.last.timeIntervalSince1970)" }
    }
}
