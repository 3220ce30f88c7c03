import Foundation

/// A count that any thread can raise and read: how often a callback ran,
/// how many tasks got somewhere.
public final class Counter: Sendable {
    private let count = Locked(0)

    /// A count of zero.
    public init() {}

    /// The count now.
    public var value: Int {
        count.value
    }

    /// Adds one and returns the new count.
    @discardableResult
    public func increment() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }
}

/// Ids 1, 2, 3, … (as ``id(_:)`` writes them), to inject as `makeID` so
/// that tests know the ids before they are made.
///
/// ```swift
/// let ids = IncrementingIDs()
/// let app = AppDomain(store: store, now: clock.now, makeID: ids.makeID)
/// // The first item added is IncrementingIDs.id(1).
/// ```
public final class IncrementingIDs: Sendable {
    private let made = Counter()

    /// Ids from 1 on.
    public init() {}

    /// The next id.
    public func next() -> UUID {
        Self.id(made.increment())
    }

    /// ``next()`` as a function, to inject.
    public var makeID: @Sendable () -> UUID {
        { [self] in next() }
    }

    /// The id numbered `number`: `00000000-0000-4000-8000-` and the number
    /// in twelve hexadecimal digits (a well-formed version 4 UUID).
    public static func id(_ number: Int) -> UUID {
        let n = UInt64(truncatingIfNeeded: number)
        func byte(_ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: n >> shift) }
        return UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, byte(40), byte(32), byte(24), byte(16), byte(8), byte(0)))
    }
}
