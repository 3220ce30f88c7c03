import Foundation
import Todos

/// The update streams of one store's shared lists, by list and person: a
/// store keeps one, confined with it, and calls ``notify(_:seq:)`` after
/// every write.
package struct SharedListUpdates: Sendable {
    private struct Subscriber: Sendable {
        let id: UUID
        let person: String
        let continuation: AsyncStream<SharedListUpdate>.Continuation
    }

    private var subscribers: [UUID: [Subscriber]] = [:]
    /// The latest row each list's streams know of.
    private var told: [UUID: Int] = [:]

    /// No streams yet.
    package init() {}

    /// A new stream of `list` for `person`, who has seen the list up to row
    /// `seq`. Updates that pile up while nobody reads are kept. When the
    /// stream's reader stops (or the stream is ended), `ended` is called
    /// with its id, on any thread: the store then calls ``forget(_:of:)``,
    /// so that it stops following a list nobody reads.
    ///
    /// When `seq` is past the row the open streams were told of (another
    /// process or instance appended it, and the store has not told them
    /// yet), they are told of it now: a later ``notify(_:seq:always:)`` of
    /// that row would find it told already.
    package mutating func subscribe(
        to list: UUID, as person: AccountName, seq: Int, ended: @escaping @Sendable (UUID) -> Void
    ) -> AsyncStream<SharedListUpdate> {
        if seq > told[list] ?? 0, subscribers[list]?.isEmpty == false { notify(list, seq: seq) }
        told[list] = max(told[list] ?? 0, seq)
        let (stream, continuation) = AsyncStream.makeStream(of: SharedListUpdate.self)
        let id = UUID()
        continuation.onTermination = { _ in ended(id) }
        subscribers[list, default: []].append(Subscriber(id: id, person: person.key, continuation: continuation))
        return stream
    }

    /// Forgets the stream `id` of `list`, whose reader stopped.
    package mutating func forget(_ id: UUID, of list: UUID) {
        subscribers[list]?.removeAll { $0.id == id }
        forgetUnheard(list)
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
        forgetUnheard(list)
    }

    /// Ends the streams of `list` of everyone whose key is not in `keys`
    /// (those who can no longer open it).
    package mutating func end(_ list: UUID, forEveryoneBut keys: Set<String>) {
        subscribers[list]?.removeAll { subscriber in
            guard !keys.contains(subscriber.person) else { return false }
            subscriber.continuation.finish()
            return true
        }
        forgetUnheard(list)
    }

    /// Forgets `list` when it has no streams left.
    private mutating func forgetUnheard(_ list: UUID) {
        guard subscribers[list]?.isEmpty == true else { return }
        subscribers[list] = nil
        told[list] = nil
    }
}
