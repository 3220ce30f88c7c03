import Foundation

/// A value that several threads read and change, one at a time.
///
/// The one place in the test support whose `Sendable` conformance the
/// compiler takes on trust: every access goes through the lock. (The
/// standard library's `Mutex` needs macOS 15; the package supports 14.)
///
/// ```swift
/// let seen = Locked<[String]>([])
/// seen.withLock { $0.append("ping") }
/// #expect(seen.value == ["ping"])
/// ```
public final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Value

    /// Holds `value`.
    public init(_ value: Value) {
        current = value
    }

    /// The value now.
    public var value: Value {
        lock.withLock { current }
    }

    /// Runs `body` with the value, holding the lock, and returns its result.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&current) }
    }
}
