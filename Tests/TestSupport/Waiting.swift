import Foundation

/// A condition a test waited for did not come true in time.
public struct WaitTimeout: Error, CustomStringConvertible {
    /// What was waited for, and for how long.
    public let description: String
}

/// Waits until `condition` holds, checking it every `interval`.
///
/// For what another task, thread or process does in its own time: waiting
/// for the thing itself rather than sleeping a fixed time is faster when it
/// comes quickly and does not fail when the machine is slow.
///
/// ```swift
/// try await waitUntil("one subscriber") { await broadcaster.subscriberCount == 1 }
/// ```
///
/// - Parameters:
///   - description: What the test waits for, read only on a timeout; it can
///     name what was seen instead.
///   - timeout: How long to wait before giving up.
/// - Throws: ``WaitTimeout``, saying what did not happen; or what
///   `condition` threw.
public func waitUntil(
    _ description: @autoclosure () -> String,
    timeout: Duration = .seconds(10),
    interval: Duration = .milliseconds(10),
    _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while try await !condition() {
        guard clock.now < deadline else {
            throw WaitTimeout(description: "timed out after \(timeout) waiting for \(description())")
        }
        try await Task.sleep(for: interval)
    }
}
