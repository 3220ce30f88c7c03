import Foundation

/// A clock that tests move by hand, to inject as `now`.
///
/// It stands still until ``advance(by:)`` is called, or, made with a
/// `tick`, moves on by that much before every reading, so that each date it
/// gives is later than the one before.
///
/// ```swift
/// let clock = TestClock()
/// let history = History(NumberList(), now: clock.now)
/// clock.advance(by: 0.3)
/// ```
public final class TestClock: Sendable {
    /// 2026-06-01T10:00:00Z, a Monday: where a clock starts unless told.
    public static let start = Date(timeIntervalSince1970: 1_780_308_000)

    private let current: Locked<Date>
    private let tick: TimeInterval

    /// A clock at `start` that moves `tick` seconds at every reading of
    /// ``now`` (0: only when advanced).
    public init(_ start: Date = TestClock.start, tick: TimeInterval = 0) {
        current = Locked(start)
        self.tick = tick
    }

    /// The date now, without moving the clock.
    public var date: Date {
        current.value
    }

    /// Moves the clock `seconds` forward.
    public func advance(by seconds: TimeInterval = 60) {
        current.withLock { $0 += seconds }
    }

    /// The clock as a function, to inject where code asks for `now`; every
    /// call first moves the clock on by its tick.
    public var now: @Sendable () -> Date {
        { [current, tick] in
            current.withLock {
                $0 += tick
                return $0
            }
        }
    }
}
