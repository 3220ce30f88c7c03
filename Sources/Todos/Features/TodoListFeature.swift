import Foundation

/// The to-do list feature: the use cases that change items, over one store,
/// sharing the injected clock and id source. ``AppDomain`` routes the
/// to-do requests to them.
public struct TodoListFeature: Sendable {
    /// Adds items.
    public let adder: ItemAdder
    /// Removes items.
    public let remover: ItemRemover
    /// Changes items.
    public let updater: ItemUpdater
    /// Moves items.
    public let mover: ItemMover
    /// Imports items.
    public let importer: ListImporter

    /// Creates the feature over `store`.
    ///
    /// - Parameters:
    ///   - now: The clock that dates new items and alterations.
    ///   - makeID: Where new items get their ids.
    public init(store: any AppStore, now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID) {
        adder = ItemAdder(store: store, now: now, makeID: makeID)
        remover = ItemRemover(store: store)
        updater = ItemUpdater(store: store, now: now)
        mover = ItemMover(store: store)
        importer = ListImporter(store: store)
    }
}
