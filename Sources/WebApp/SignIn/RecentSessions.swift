import Foundation
import Synchronization
import TodoStore

/// The sessions this instance found signed in a moment ago, so that a burst
/// of requests on one session asks the database once, not once per request.
///
/// A session found is trusted for ``interval`` from when it was checked
/// (and never past its end); after that the next request checks it again.
/// A session ended through this instance (signing out, signing in again)
/// is forgotten at once; one ended elsewhere (another instance, or `rewind
/// users passwd`/`rm` in the terminal) is refused here within ``interval``.
/// A session that was not found is never remembered, so a wrong or ended
/// cookie always reaches the database.
final class RecentSessions: Sendable {
    /// How long a checked session is trusted; 0 checks every request.
    let interval: TimeInterval
    /// At most this many sessions are remembered; past it, all are forgotten.
    static let capacity = 10_000

    private struct Entry {
        let session: Session
        let checked: Date
    }

    private let entries = Mutex<[SessionID: Entry]>([:])

    /// Remembers sessions for `interval` seconds.
    init(interval: TimeInterval) {
        self.interval = interval
    }

    /// The session `id` if it was checked within ``interval`` before `now`
    /// and has not ended by `now`.
    func session(_ id: SessionID, at now: Date) -> Session? {
        guard interval > 0 else { return nil }
        return entries.withLock { entries in
            guard let entry = entries[id] else { return nil }
            let age = now.timeIntervalSince(entry.checked)
            guard age >= 0, age < interval, entry.session.expires > now else {
                entries[id] = nil
                return nil
            }
            return entry.session
        }
    }

    /// Remembers that `session` was found for `id` at `now`.
    func remember(_ session: Session, for id: SessionID, at now: Date) {
        guard interval > 0 else { return }
        entries.withLock { entries in
            if entries.count >= Self.capacity, entries[id] == nil { entries.removeAll(keepingCapacity: true) }
            entries[id] = Entry(session: session, checked: now)
        }
    }

    /// Forgets the session `id` (it was ended through this instance).
    func forget(_ id: SessionID) {
        entries.withLock { $0[id] = nil }
    }
}
