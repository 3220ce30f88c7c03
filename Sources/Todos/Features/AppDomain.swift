import Foundation

/// Creates the app domain: one message handler that passes every message to
/// every receiver and feature, as the seed's `createAppDomain` does.
///
/// It is cheap to create, so a server may create one per request with a
/// `rootHandler` that collects that request's acknowledgements.
///
/// ```swift
/// let app = createAppDomain(store: store, receivers: [], rootHandler: { print($0) },
///                           now: { Date() }, makeID: { UUID() })
/// app(.todos(.cmd(.create(draft: .init(title: "Buy milk"), at: nil))))
/// ```
public func createAppDomain(
    store: any AppStore,
    receivers: [MessageHandler],
    rootHandler: @escaping MessageHandler,
    now: @escaping @Sendable () -> Date,
    makeID: @escaping @Sendable () -> UUID
) -> MessageHandler {
    let features = [
        createTodoListFeature(store: store, now: now, makeID: makeID, output: rootHandler),
        createHistoryFeature(store: store, output: rootHandler),
    ]
    let all = receivers + features
    return { message in
        for handler in all { handler(message) }
    }
}
