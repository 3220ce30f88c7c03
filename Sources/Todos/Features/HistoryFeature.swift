import Foundation

/// The history feature: undo, redo and jump over one store's history, to a
/// position or to a step of any branch.
/// ``AppDomain`` routes the history requests to it.
public struct HistoryFeature: Sendable {
    /// Moves through the history.
    public let navigator: HistoryNavigator

    /// Creates the feature over `store`.
    public init(store: any AppStore) {
        navigator = HistoryNavigator(store: store)
    }
}
