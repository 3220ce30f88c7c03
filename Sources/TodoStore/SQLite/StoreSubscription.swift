/// A subscription to a store's updates through ``SQLiteStore/updated(_:)``;
/// ``cancel()`` ends it.
public final class StoreSubscription: Sendable {
    private let onCancel: @Sendable () -> Void

    /// Creates a subscription that runs `onCancel` when cancelled.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops the updates.
    public func cancel() {
        onCancel()
    }
}
