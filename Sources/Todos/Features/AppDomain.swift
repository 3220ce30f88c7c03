import Foundation

/// The app domain: the one entry point of every user interface (the web
/// app and the CLI) into the to-do app. It routes each request to the use
/// case of its feature, shows it to the receivers first, and returns the
/// use case's answer, or throws the ``TodoFailure`` that changed nothing.
///
/// It is cheap to create and holds no state of its own beyond the store.
///
/// ```swift
/// let app = AppDomain(store: store, now: { Date() }, makeID: { UUID() })
/// let milk = try await app.send(.create(.init(title: "Buy milk"), at: nil))   // the item
/// let completed = try await app.send(.complete([milk.id]))                          // [the item, completed]
/// try await app.send(.undo)                                                  // .undone(name: "Complete “Buy milk”")
/// ```
public struct AppDomain: Sendable {
    /// The to-do list feature.
    public let todos: TodoListFeature
    /// The history feature.
    public let history: HistoryFeature
    private let receivers: [MessageHandler]

    /// Creates the app domain over `store`.
    ///
    /// - Parameters:
    ///   - receivers: Functions that see every request before it is handled.
    ///   - now: The clock that dates new items and alterations.
    ///   - makeID: Where new items get their ids.
    public init(
        store: any AppStore,
        receivers: [MessageHandler] = [],
        now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID
    ) {
        todos = TodoListFeature(store: store, now: now, makeID: makeID)
        history = HistoryFeature(store: store)
        self.receivers = receivers
    }

    /// Adds an item and returns it.
    @discardableResult
    public func send(_ request: ItemAdder.Request) async throws(TodoFailure) -> TodoItem {
        try await send(request, to: todos.adder, as: .todos(.add(request)))
    }

    /// Removes items and returns them as they were.
    @discardableResult
    public func send(_ request: ItemRemover.Request) async throws(TodoFailure) -> [TodoItem] {
        try await send(request, to: todos.remover, as: .todos(.remove(request)))
    }

    /// Changes items and returns their new versions.
    @discardableResult
    public func send(_ request: ItemUpdater.Request) async throws(TodoFailure) -> [TodoItem] {
        try await send(request, to: todos.updater, as: .todos(.update(request)))
    }

    /// Moves an item and returns it.
    @discardableResult
    public func send(_ request: ItemMover.Request) async throws(TodoFailure) -> TodoItem {
        try await send(request, to: todos.mover, as: .todos(.move(request)))
    }

    /// Imports items and says how many, and how many it removed.
    @discardableResult
    public func send(_ request: ListImporter.Request) async throws(TodoFailure) -> ListImporter.Response {
        try await send(request, to: todos.importer, as: .todos(.import(request)))
    }

    /// Undoes, redoes or jumps, and says what happened.
    @discardableResult
    public func send(_ request: HistoryNavigator.Request) async throws(TodoFailure) -> HistoryNavigator.Response {
        try await send(request, to: history.navigator, as: .history(request))
    }

    private func send<Case: UseCase>(
        _ request: Case.Request, to useCase: Case, as message: Message
    ) async throws(TodoFailure) -> Case.Response {
        for receiver in receivers { receiver(message) }
        return try await useCase.request(to: request)
    }
}
