import Foundation
import Todos

/// The update streams of one store's shared lists, by list and person: a
/// store keeps one, confined with it, and calls ``notify(_:seq:)`` after
/// every write.
package struct SharedListUpdates: Sendable {
    private struct Subscriber: Sendable {
        let person: String
        let continuation: AsyncStream<SharedListUpdate>.Continuation
    }

    private var subscribers: [UUID: [Subscriber]] = [:]
    /// The latest row each list's streams know of.
    private var told: [UUID: Int] = [:]

    /// No streams yet.
    package init() {}

    /// A new stream of `list` for `person`, who has seen the list up to row
    /// `seq`. Updates that pile up while nobody reads are kept.
    package mutating func subscribe(to list: UUID, as person: AccountName, seq: Int) -> AsyncStream<SharedListUpdate> {
        told[list] = max(told[list] ?? 0, seq)
        let (stream, continuation) = AsyncStream.makeStream(of: SharedListUpdate.self)
        subscribers[list, default: []].append(Subscriber(person: person.key, continuation: continuation))
        return stream
    }

    /// The lists that have open streams.
    package var lists: [UUID] { Array(subscribers.keys) }

    /// Whether `list` has open streams.
    package func isHeard(_ list: UUID) -> Bool { subscribers[list]?.isEmpty == false }

    /// Tells every open stream of `list` that its latest row is `seq`, and
    /// forgets the ones whose reader stopped. A row the streams were told
    /// of already is not told again, unless `always` (the list's name or
    /// members changed).
    package mutating func notify(_ list: UUID, seq: Int, always: Bool = false) {
        guard always || seq > told[list] ?? 0 else { return }
        told[list] = max(told[list] ?? 0, seq)
        subscribers[list]?.removeAll { subscriber in
            if case .terminated = subscriber.continuation.yield(SharedListUpdate(list: list, seq: seq)) { return true }
            return false
        }
    }

    /// Ends the streams of `list`: all of them, or only `person`'s.
    package mutating func end(_ list: UUID, for person: AccountName? = nil) {
        subscribers[list]?.removeAll { subscriber in
            guard person == nil || subscriber.person == person?.key else { return false }
            subscriber.continuation.finish()
            return true
        }
        if subscribers[list]?.isEmpty == true {
            subscribers[list] = nil
            told[list] = nil
        }
    }
}
