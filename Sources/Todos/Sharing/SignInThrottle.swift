import Foundation

/// Slows down guessing: after a few failed sign-ins for one account, or from
/// one address, further attempts wait, longer after each failure. A success
/// clears the account's count. An attempt counts as failed from its start
/// (``begin(_:at:)``) until its password matched.
///
/// The throttle is a value: a store keeps it (or its counts) and passes the
/// time in, so the rule is tested without a clock.
///
/// ```swift
/// var throttle = SignInThrottle()
/// if let wait = throttle.begin(keys, at: now) { /* 429, Retry-After: wait */ }
/// // … the password matched:
/// throttle.recordSuccess(for: keys)
/// ```
public struct SignInThrottle: Equatable, Sendable {
    /// Failures allowed before attempts are slowed down.
    public let freeFailures: Int
    /// The wait after the first failure beyond the free ones, doubled after each further one.
    public let firstWait: TimeInterval
    /// The longest wait.
    public let longestWait: TimeInterval

    private var failures: [String: (count: Int, last: Date)] = [:]

    /// A throttle; the defaults allow 5 failures per key, after which each
    /// attempt waits 1 s, 2 s, 4 s … up to 15 minutes after the last
    /// failure. No fewer than 1 failure is allowed.
    public init(freeFailures: Int = 5, firstWait: TimeInterval = 1, longestWait: TimeInterval = 900) {
        self.freeFailures = max(1, freeFailures)
        self.firstWait = max(0, firstWait)
        self.longestWait = max(self.firstWait, longestWait)
    }

    /// The keys of one attempt: the account's name and the address it came from.
    public static func keys(account: String, address: String) -> [String] {
        ["account:" + accountKey(account), "address:" + address]
    }

    /// How long the attempt with `keys` must still wait at `now`, or `nil`
    /// when it may go ahead.
    public func wait(for keys: [String], at now: Date) -> TimeInterval? {
        let waits = keys.compactMap { key -> TimeInterval? in
            guard let entry = failures[key], entry.count >= freeFailures else { return nil }
            let remaining = entry.last.addingTimeInterval(delay(after: entry.count)).timeIntervalSince(now)
            return remaining > 0 ? remaining : nil
        }
        return waits.max()
    }

    /// Begins an attempt with `keys` at `now`: how long it must still wait,
    /// or `nil` when it may go ahead, counted as a failure from now on
    /// until ``recordSuccess(for:)`` says it was not one. So attempts sent
    /// all at once, before any of their passwords is checked, count
    /// against each other: no more than the free failures go ahead.
    public mutating func begin(_ keys: [String], at now: Date) -> TimeInterval? {
        if let wait = wait(for: keys, at: now) { return wait }
        recordFailure(for: keys, at: now)
        return nil
    }

    /// Counts a failed attempt for every key.
    public mutating func recordFailure(for keys: [String], at now: Date) {
        forgetQuietKeys(at: now)
        for key in keys { failures[key] = ((failures[key]?.count ?? 0) + 1, now) }
    }

    /// Clears the account's count after a successful sign-in (the address
    /// keeps its own, so one good password does not unlock guessing others).
    public mutating func recordSuccess(account: String) {
        failures["account:" + Self.accountKey(account)] = nil
    }

    /// Clears the account's count after a successful sign-in begun with
    /// ``begin(_:at:)``, and takes back the failure it counted for the
    /// address (whose other failures stay).
    public mutating func recordSuccess(for keys: [String]) {
        for key in keys {
            if key.hasPrefix("account:") {
                failures[key] = nil
            } else if let entry = failures[key] {
                failures[key] = entry.count > 1 ? (entry.count - 1, entry.last) : nil
            }
        }
    }

    /// Takes back the failure that ``begin(_:at:)`` counted for an attempt
    /// that could not be checked (the accounts could not be read): it was
    /// no guess.
    public mutating func recordUnchecked(for keys: [String]) {
        for key in keys {
            guard let entry = failures[key] else { continue }
            failures[key] = entry.count > 1 ? (entry.count - 1, entry.last) : nil
        }
    }

    /// The most keys kept before those that make no one wait any more are forgotten.
    public static let keysKeptBeforeForgetting = 10_000

    /// How many keys make ``forgetQuietKeys(at:)`` look again: twice as many
    /// as it kept the last time, so that its work is spread over the
    /// failures counted in between.
    private var keysWhenToForget = keysKeptBeforeForgetting

    /// Forgets, once many keys are kept, those whose last failure lies
    /// more than the longest wait back and that have free failures left
    /// (or a day back for the others), so that an attacker who varies names
    /// or addresses cannot make the map grow without end.
    private mutating func forgetQuietKeys(at now: Date) {
        guard failures.count >= keysWhenToForget else { return }
        // A key with its free failures spent is kept for a day, so that an
        // account under attack does not get them again after each pause.
        failures = failures.filter { _, entry in
            let quiet = now.timeIntervalSince(entry.last)
            return quiet < (entry.count >= freeFailures ? Self.slowedKeysKept : longestWait)
        }
        keysWhenToForget = max(Self.keysKeptBeforeForgetting, failures.count * 2)
    }

    /// How long a key that makes attempts wait is kept after its last failure.
    public static let slowedKeysKept: TimeInterval = 24 * 3_600

    /// An account's key: its name in lower case, cut to one character more
    /// than a name may have (a longer one is no account's).
    private static func accountKey(_ account: String) -> String {
        String(account.prefix(AccountName.maximumLength + 1)).lowercased()
    }

    /// The wait after `count` failures.
    private func delay(after count: Int) -> TimeInterval {
        let doublings = min(count - freeFailures, 30)
        return min(longestWait, firstWait * pow(2, Double(max(0, doublings))))
    }

    /// Two throttles are equal when they hold the same counts and dates.
    public static func == (a: SignInThrottle, b: SignInThrottle) -> Bool {
        a.freeFailures == b.freeFailures && a.firstWait == b.firstWait && a.longestWait == b.longestWait
            && a.failures.mapValues { "\($0.count) \($0.last.timeIntervalSince1970)" }
                == b.failures.mapValues { "\($0.count) \($0.last.timeIntervalSince1970)" }
    }
}
