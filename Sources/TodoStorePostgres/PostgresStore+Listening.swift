import Foundation
import Logging
import PostgresNIO
import Todos

/// Live updates across instances: every commit that moves the list sends
/// `NOTIFY rewind, '<list>:<seq>'` inside its transaction, and each store
/// whose ``PostgresStore/updates()`` someone reads keeps one connection of
/// its own that listens on that channel.
///
/// A notification of another instance's commit moves the store's known
/// position (``PostgresStore/knownPosition``) and tells its update
/// streams; the list itself is read when someone asks for it, from the
/// rows appended since, so that an instance nobody reads from spends
/// nothing on the other's changes. A reset's notification, and every
/// (re)connection of the listener (notifications sent while it was away
/// are lost), make the store read the head, and the list when it moved,
/// at once.
extension PostgresStore {
    /// The channel of the notifications unless the database names another
    /// (``PostgresTodoDatabase/notificationChannel``).
    public static let channel = "rewind"

    /// The `application_name` of the listening connections over `database`:
    /// its own (``PostgresTodoDatabase/applicationName``) and " listen".
    static func listenerName(of database: PostgresTodoDatabase) -> String {
        database.applicationName + " listen"
    }

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

    /// Tells the update streams when the database is further along than
    /// this instance knew: after a notification, by noting how far; after
    /// a reset's notification or a (re)connection, by reading it again.
    func heard(_ event: ListenerEvent) async {
        let heardSeq: Int64?
        switch event {
        case .connected(let first):
            listenerConnections += 1
            // Notifications may have been missed meanwhile, this instance's
            // own among them.
            ownCommits.removeAll()
            // Nobody was told of a list never read; after a failure forgot
            // it, the pages may show an old one.
            guard loaded != nil || !first else { return }
            heardSeq = nil
        case .notified(let payload):
            let parts = payload.split(separator: ":")
            guard parts.count == 2, Int64(parts[0]) == list, let seq = Int64(parts[1]) else { return }
            heardSeq = seq
        }
        // After the operations under way: a notification of this
        // instance's own commit is often heard before the commit's answer,
        // and is known once that is in. Waiting for them takes no turn, so
        // that the next batch does not wait for this one to be heard.
        if let heardSeq, heardSeq > 0 {
            await afterOperationsAskedFor()
            if isOwnOrKnown(heardSeq) { return }
            if let known = knownPosition {
                // Another instance's commit in this epoch: the list is read
                // when asked for.
                know(PostgresLog.Position(epoch: known.epoch, lastSeq: heardSeq))
                notifyUpdates()
                return
            }
        }
        do {
            // A reset's notification, a (re)connection, or a list whose
            // position is unknown: read at once, in turn.
            _ = try await exclusively {
                if let heardSeq, self.isOwnOrKnown(heardSeq) { return }
                _ = try await self.current(moved: heardSeq != nil)
            }
        } catch {
            logger.warning("could not read the list after a notification: \(error)")
            // The next read reads it again, and tells the streams then.
            loaded = nil
            knownPosition = nil
            notifyUpdates()
        }
    }

    /// Whether the notification of `seq` is of a commit of this instance
    /// (forgotten once heard) or of a row this instance knows of already.
    ///
    /// Notifications come in the order of their commits, so those that
    /// queued while the list was read are of rows it read. A reset numbers
    /// the log from 0 again, and its notification (`0`) comes before those
    /// of the rows after it: it is never taken as known unless the known
    /// position is at 0 too, and reading it brings memory to the new
    /// numbering.
    private func isOwnOrKnown(_ seq: Int64) -> Bool {
        if ownCommits.remove(seq) != nil { return true }
        guard let known = knownPosition else { return false }
        return seq == known.lastSeq || (0 < seq && seq < known.lastSeq)
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
                    logger: logger, extraStartupParameters: [("application_name", listenerName(of: database))])
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
