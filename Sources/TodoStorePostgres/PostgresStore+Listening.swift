import Foundation
import Logging
import PostgresNIO
import Todos

/// Live updates across instances: every commit that moves the list sends
/// `NOTIFY rewind, '<list>:<seq>'` inside its transaction, and each store
/// whose ``PostgresStore/updates()`` someone reads keeps one connection of
/// its own that listens on that channel. A notification for a sequence
/// other than the one in memory, and every (re)connection of the listener
/// (notifications sent while it was away are lost), make the store read
/// the head again, and the list when it moved, and tell its update streams.
extension PostgresStore {
    /// The channel of the notifications unless the database names another
    /// (``PostgresTodoDatabase/notificationChannel``).
    public static let channel = "rewind"

    /// The `application_name` of the listening connections.
    static let listenerName = "rewind listen"

    /// Starts the listener unless it runs already.
    func startListening() {
        guard listener == nil else { return }
        let database = database
        let logger = logger
        // Weakly: the store ends the listener when it goes.
        let handle: @Sendable (ListenerEvent) async -> Void = { [weak self] event in await self?.heard(event) }
        listener = Task { await Self.listen(to: database, channel: database.notificationChannel, logger: logger, handle) }
    }

    /// What the listener heard.
    enum ListenerEvent: Sendable {
        /// It (re)connected; `first` on its first connection.
        case connected(first: Bool)
        /// A notification of the channel, its payload as sent.
        case notified(String)
    }

    /// Reads again and tells the update streams when the database is further
    /// along than the list in memory.
    func heard(_ event: ListenerEvent) async {
        var heardSeq: Int64?
        switch event {
        case .connected(let first):
            listenerConnections += 1
            // Notifications may have been missed meanwhile, this instance's
            // own among them.
            ownCommits.removeAll()
            // Nobody was told of a list never read; after a failure forgot
            // it, the pages may show an old one.
            guard loaded != nil || !first else { return }
        case .notified(let payload):
            let parts = payload.split(separator: ":")
            guard parts.count == 2, Int64(parts[0]) == list, let seq = Int64(parts[1]) else { return }
            if isOwnOrKnown(seq) { return }
            heardSeq = seq
        }
        do {
            // Tells the update streams when it reads the list again. A
            // notification of this instance's own commit is often heard
            // before the commit's answer: after the operations under way,
            // it is known, and nothing is read.
            _ = try await exclusively {
                if let heardSeq, self.isOwnOrKnown(heardSeq) { return }
                _ = try await self.current(moved: heardSeq != nil)
            }
        } catch {
            logger.warning("could not read the list after a notification: \(error)")
            // The next read reads it again, and tells the streams then.
            loaded = nil
            knownHead = nil
            notifyUpdates()
        }
    }

    /// Whether the notification of `seq` is of a commit of this instance
    /// (forgotten once heard) or of a row the list in memory already holds.
    ///
    /// Notifications come in the order of their commits, so those that
    /// queued while the list was read are of rows it read: skipping them
    /// saves a read for each. A reset numbers the log from 0 again, and its
    /// notification (`0`) comes before those of the rows after it: it is
    /// never taken as known unless memory is at 0 too, and reading it
    /// brings memory to the new numbering.
    private func isOwnOrKnown(_ seq: Int64) -> Bool {
        if ownCommits.remove(seq) != nil { return true }
        guard let head = loaded?.head else { return false }
        return seq == head.lastSeq || (0 < seq && seq < head.lastSeq)
    }

    /// Notes that this instance committed up to `seq`, whose notification
    /// the listener will hear; at most ``ownCommitsKept`` are kept
    /// unheard (a listener that is not running hears none).
    func noteOwnCommit(_ seq: Int64) {
        guard listener != nil else { return }
        if ownCommits.count >= Self.ownCommitsKept { ownCommits.removeAll() }
        ownCommits.insert(seq)
    }

    /// The most own commits remembered while their notifications are awaited.
    static let ownCommitsKept = 1_000

    /// Keeps one connection listening on `channel` until the task is
    /// cancelled, connecting again after 0.1 s, doubling to 5 s, when it
    /// cannot connect or the connection drops.
    static func listen(
        to database: PostgresTodoDatabase, channel: String, logger: Logger,
        _ handle: @escaping @Sendable (ListenerEvent) async -> Void
    ) async {
        let shortest = Duration.milliseconds(100)
        var delay = shortest
        var first = true
        while !Task.isCancelled {
            do {
                let connection = try await database.connect(
                    logger: logger, extraStartupParameters: [("application_name", listenerName)])
                do {
                    try await connection.listen(on: channel) { notifications in
                        delay = shortest
                        await handle(.connected(first: first))
                        first = false
                        for try await notification in notifications {
                            await handle(.notified(notification.payload))
                        }
                    }
                } catch {
                    logger.debug("the listening connection dropped: \(error)")
                }
                try? await connection.close()
            } catch {
                logger.debug("the listening connection could not connect: \(error)")
            }
            guard !Task.isCancelled else { return }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(5))
        }
    }
}
