import Foundation
import Synchronization

/// A value that several threads read and change, one at a time: the
/// standard library's `Mutex` in a class, so that closures and other
/// objects can share it.
///
/// ```swift
/// let seen = Locked<[String]>([])
/// seen.withLock { $0.append("ping") }
/// #expect(seen.value == ["ping"])
/// ```
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// Holds `value`.
    public init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// The value now.
    public var value: Value {
        mutex.withLock { $0 }
    }

    /// Runs `body` with the value, holding the lock, and returns its result.
    public func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { value in try body(&value) }
    }
}
