import Foundation
import Todos

/// The streams of ``SharedListStore/newLists(for:)``, by account: a store
/// keeps one, confined with it, and calls ``tell(_:)`` with the account a
/// list was made for or shared with.
package struct NewListSignals: Sendable {
    private var subscribers: [String: [UUID: AsyncStream<Void>.Continuation]] = [:]

    /// No streams yet.
    package init() {}

    /// A new stream for `person`. Elements that pile up while nobody reads
    /// make one. When the stream's reader stops, `ended` is called with its
    /// id, on any thread: the store then calls ``forget(_:of:)``.
    package mutating func subscribe(_ person: AccountName, ended: @escaping @Sendable (UUID) -> Void) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { _ in ended(id) }
        subscribers[person.key, default: [:]][id] = continuation
        return stream
    }

    /// Forgets the stream `id` of the account `key`, whose reader stopped.
    package mutating func forget(_ id: UUID, of key: String) {
        subscribers[key]?[id] = nil
        if subscribers[key]?.isEmpty == true { subscribers[key] = nil }
    }

    /// The keys of the accounts that have open streams.
    package var keys: [String] { Array(subscribers.keys) }

    /// How many streams are open.
    package var count: Int { subscribers.values.reduce(0) { $0 + $1.count } }

    /// Whether no stream is open.
    package var isEmpty: Bool { subscribers.isEmpty }

    /// Tells the streams of the account `key` that it may have a new list.
    package func tell(_ key: String) {
        for continuation in (subscribers[key] ?? [:]).values { continuation.yield() }
    }

    /// Tells every open stream (after news may have gone unheard).
    package func tellEveryone() {
        for continuation in subscribers.values.flatMap(\.values) { continuation.yield() }
    }
}
