import Foundation
import PostgresNIO
import Rewind
import TodoStore
import Todos

/// Group commit: the changes asked for while a batch is being written
/// wait, and the next batch writes them all. Every change is answered after
/// the commit that holds it; one wait for the server's disk serves the
/// whole batch.
///
/// A batch is applied to the list in memory first, where a change the
/// domain refuses fails alone before anything is written, and takes no
/// number. What the others did is then one statement, outside a
/// transaction, that locks the list's row, checks that no other instance
/// wrote since the list was read, takes the numbers, writes the item rows,
/// appends the log rows and notifies (``PostgresLog/append(changes:after:items:of:_:)``):
/// one round trip to the server. When another instance did write, the
/// batch is taken back in memory and applied again in a transaction that
/// locks the list's row and first applies the rows the other appended
/// (reading the whole list only when that cannot be done, or when the
/// list was never read).
extension PostgresStore {
    /// A change waiting for the next batch, and who waits for its answer.
    struct WaitingChange {
        let changes: [AppState.Change]
        let name: String?
        /// The items to answer as the change left them.
        let answering: [UUID]
        let answer: CheckedContinuation<ChangeAnswer, any Error>
    }

    /// What a change is answered once committed.
    struct ChangeAnswer: Sendable {
        /// The recorded step.
        let step: HistoryStep<AppState.Change>
        /// The items the change was asked to answer, as it left them.
        let items: [TodoItem]
    }

    /// What a batch applied in memory has to write: its log rows, and the
    /// items its changes touched (`nil` for every item).
    struct PendingChanges {
        var rows: [PostgresLog.Row] = []
        var touched: Set<UUID>? = []
        /// The inverse of each change applied, in the order applied.
        var inverses: [[AppState.Change]] = []
        /// Whether writing numbered every item row again.
        var renumbered = false
    }

    /// Queues `changes` for the next batch and waits for its commit; the
    /// answer holds those of the items with `ids` that exist after the
    /// change, as it left them.
    func submit(_ changes: [AppState.Change], named name: String?, answering ids: [UUID] = []) async throws -> ChangeAnswer {
        unansweredChanges += 1
        defer { unansweredChanges -= 1 }
        return try await withCheckedThrowingContinuation { answer in
            waitingChanges.append(WaitingChange(changes: changes, name: name, answering: ids, answer: answer))
            guard !committing else { return }
            committing = true
            Task { await self.commitWaitingChanges() }
        }
    }

    /// Commits the waiting changes in batches until none is left.
    private func commitWaitingChanges() async {
        var retrying = RetryingWhenConnectionsEnd()
        while !waitingChanges.isEmpty {
            do {
                // One connection for as long as batches follow one another.
                try await database.withPooledConnection { connection in
                    while !self.waitingChanges.isEmpty, !connection.isClosed {
                        guard await self.commitWaitingBatch(on: connection) else { return }
                    }
                }
                retrying = RetryingWhenConnectionsEnd()
            } catch {
                // The pool lent only connections the server had ended
                // (it learns of that a moment later): nothing was sent.
                if PostgresTodoDatabase.connectionEnded(error), await retrying.pause() { continue }
                // No connection came: the changes waiting fail, saying why.
                let batch = waitingChanges
                waitingChanges.removeAll()
                for change in batch { change.answer.resume(throwing: database.storeError(error)) }
            }
        }
        committing = false
    }

    /// Commits the changes waiting now as one batch, its one-statement
    /// writes on `connection`, and answers each; `false` when the batch
    /// failed (the connection may be of no more use).
    private func commitWaitingBatch(on connection: PostgresConnection) async -> Bool {
        let batch = waitingChanges
        waitingChanges.removeAll()
        let outcomes: [Result<ChangeAnswer, any Error>]
        var committed = true
        do {
            outcomes = try await exclusively { try await self.commit(batch, on: connection) }
            batchesWritten += 1
        } catch {
            outcomes = batch.map { _ in .failure(error) }
            committed = false
        }
        for (change, outcome) in zip(batch, outcomes) { change.answer.resume(with: outcome) }
        return committed
    }

    /// Writes `batch` in one statement on `connection` when it only adds
    /// items at the end, or when the list in memory is still the
    /// database's; else in a transaction that reads it again first.
    private func commit(
        _ batch: [WaitingChange], on connection: PostgresConnection
    ) async throws -> [Result<ChangeAnswer, any Error>] {
        if let outcomes = try await appendingAdds(batch, on: connection) { return outcomes }
        // A list in memory behind a commit heard of would only fail the
        // one-statement write: straight to the transaction, which reads the rows since.
        if writesInOneStatement, let inMemory = loaded, inMemory.staleRanks.isEmpty,
            inMemory.head.position == knownPosition, var current = takingLoaded()
        {
            let start = current.head
            var pending = PendingChanges()
            let outcomes = try plan(batch, &current, &pending)
            if pending.rows.isEmpty {
                // Only refusals, and no statement to check that they were
                // made against the database's list: they are made again
                // below, under its lock (the refusals left the list as it was).
                loaded = current
            } else {
                // One call that commits before it answers; when the server
                // ends the connection before the answer, the rows are looked for.
                let written: Bool?
                do {
                    written = try await writing(&pending, after: start, &current, committing: true, connection)
                } catch let stopped as ServerStoppedAnswering {
                    throw database.storeError(CommitOutcomeUnknown(givenUp: stopped))
                } catch where PostgresTodoDatabase.connectionEnded(error) {
                    guard try await wasWritten(pending.rows, lost: error) else { return try await transacting(batch) }
                    // It did commit: the next read brings the list (read
                    // again) up to date.
                    knownPosition = nil
                    notifyUpdates()
                    return outcomes
                } catch {
                    throw database.storeError(error)
                }
                if written == true {
                    noteOwnCommit(current.head.lastSeq)
                    loaded = current
                    notifyUpdates()
                    return outcomes
                }
                // Another instance wrote since the list was read, and
                // nothing was written: the batch is taken back in memory,
                // and below the other's rows are applied and the batch
                // planned again, under the list's lock.
                if current.takingBack(pending, to: start) { loaded = current }
            }
        }
        return try await transacting(batch)
    }

    /// Writes `batch` in a transaction that locks the list's row and reads
    /// what other instances wrote since first.
    private func transacting(
        _ batch: [WaitingChange]
    ) async throws -> [Result<ChangeAnswer, any Error>] {
        try await transacting(movingHead: false) { connection, loaded in
            let start = loaded.head
            var pending = PendingChanges()
            let outcomes = try self.plan(batch, &loaded, &pending)
            guard try await self.writing(&pending, after: start, &loaded, connection) else {
                throw StoreError.corrupt(path: database.url.redacted, detail: "the list's row moved while it was locked")
            }
            return outcomes
        }
    }

    /// Whether the one-statement write of `rows` committed although the
    /// server ended its connection before it answered: its first row is in
    /// the log as it was sent (the statement writes all its rows or none).
    /// Asked on a fresh connection; when that fails too, a
    /// ``CommitOutcomeUnknown`` (as a ``StoreError``) says what is not known.
    private func wasWritten(_ rows: [PostgresLog.Row], lost: any Error) async throws -> Bool {
        guard let first = rows.first else { return false }
        do {
            return try await PostgresTodoDatabase.whenConnectionsEnd {
                try await database.withPooledConnection { connection in
                    guard let saved = try await self.log.row(first.seq, connection) else { return false }
                    return saved.kind == first.kind && saved.name == first.name && saved.date == first.date
                        && saved.forward == first.forward && saved.inverse == first.inverse
                }
            }
        } catch {
            throw database.storeError(CommitOutcomeUnknown(cause: lost, reason: "asking the server failed: \(PostgresTodoDatabase.explain(error))"))
        }
    }

    /// Writes `batch` when every change of it adds an item at the end of
    /// the list: in one statement that appends it after whatever the log
    /// holds (``PostgresLog/appendAdds(_:items:after:_:)``), so that
    /// instances adding to one list take turns only for the time of that
    /// statement, not of a transaction that reads the other's rows first.
    /// An add does not depend on the rest of the list: applied in memory,
    /// its step and answer are the same wherever it lands.
    ///
    /// When another instance wrote since the list was read, the batch is
    /// taken back in memory: the list stays where it was read, and the
    /// next read applies the rows appended since, the batch's among them,
    /// in the log's order. `nil`, with nothing written, when the batch
    /// holds another change, a change the list refuses (made again under
    /// the list's lock, where a refusal is sure), or the list was reset
    /// meanwhile.
    private func appendingAdds(
        _ batch: [WaitingChange], on connection: PostgresConnection
    ) async throws -> [Result<ChangeAnswer, any Error>]? {
        guard writesInOneStatement, let items = Self.itemsAdded(by: batch) else { return nil }
        // A list in memory left far behind by the batches taken back is
        // brought up to date first, while the rows since are few enough to
        // be applied rather than the list read again.
        if let loaded, let known = knownPosition, known.epoch == loaded.head.epoch,
            known.lastSeq - loaded.head.lastSeq > Self.catchUpLimit / 2 {
            _ = try await current()
        }
        guard var current = takingLoaded() else { return nil }
        let start = current.head
        var pending = PendingChanges()
        let outcomes = try plan(batch, &current, &pending)
        if !pending.rows.isEmpty, !outcomes.contains(where: { if case .failure = $0 { true } else { false } }) {
            let appended: PostgresLog.AppendedAdds?
            do {
                appended = try await log.appendAdds(pending.rows, items: items, after: start, connection)
            } catch let stopped as ServerStoppedAnswering {
                throw database.storeError(CommitOutcomeUnknown(givenUp: stopped))
            } catch where PostgresTodoDatabase.connectionEnded(error) {
                // The server ended the connection before it answered (a
                // restart, or the pool lent one it had just ended).
                switch try await appendingAgain(pending, items: items, after: start, lost: error) {
                case .appended(let again):
                    appended = again
                case .committed:
                    // The statement did commit: the next read brings the
                    // list (read again) up to date.
                    knownPosition = nil
                    notifyUpdates()
                    return outcomes
                }
            } catch {
                throw database.storeError(error)
            }
            if let appended {
                let last = appended.baseSeq + Int64(pending.rows.count)
                noteOwnCommit(last)
                if !appended.moved {
                    let ranks = Dictionary(uniqueKeysWithValues: items.enumerated().map { ($1.id, appended.topRank + Double($0 + 1)) })
                    current.ranks.adopt(ranks, touched: Set(ranks.keys))
                    loaded = current
                } else {
                    let staleBefore = current.staleRanks
                    if current.takingBack(pending, to: start) {
                        if pending.rows.count == batch.count {
                            current.keep(batch.map(\.changes), after: appended.baseSeq, above: appended.topRank, staleBefore: staleBefore)
                        }
                        loaded = current
                    }
                }
                know(PostgresLog.Position(epoch: start.epoch, lastSeq: last))
                notifyUpdates()
                return outcomes
            }
        }
        if current.takingBack(pending, to: start) { loaded = current }
        return nil
    }

    /// What became of a batch of adds whose connection ended before the
    /// answer: written again, or found committed after all.
    enum AddsAgain {
        case appended(PostgresLog.AppendedAdds?)
        case committed
    }

    /// Writes the batch of adds again on a fresh connection when none of
    /// its items is saved (the statement that was lost did not commit);
    /// `.committed` when all of them are. Some saved and some not cannot
    /// come of one statement: then the error is `lost`'s, as a
    /// ``StoreError``; when the fresh connection fails too, a
    /// ``CommitOutcomeUnknown`` (as a ``StoreError``) says what is not known.
    private func appendingAgain(
        _ pending: PendingChanges, items: [TodoItem], after start: PostgresLog.Head, lost: any Error
    ) async throws -> AddsAgain {
        do {
            // Tried again as a whole when this connection ends too: the
            // check comes first.
            return try await PostgresTodoDatabase.whenConnectionsEnd {
                try await database.withPooledConnection { connection in
                    let saved = try await self.rows.ranks(of: Set(items.map(\.id)), connection)
                    if saved.count == items.count { return .committed }
                    guard saved.isEmpty else { throw PartlySaved() }
                    return .appended(try await self.log.appendAdds(pending.rows, items: items, after: start, connection))
                }
            }
        } catch is PartlySaved {
            throw database.storeError(lost)
        } catch {
            // The check could not be made: whether the lost statement committed is not known.
            throw database.storeError(CommitOutcomeUnknown(cause: lost, reason: "asking the server failed: \(PostgresTodoDatabase.explain(error))"))
        }
    }

    /// The list in memory for a batch to change, taken out of ``loaded``
    /// (the only reference, so that it changes in place, the history shown
    /// and the tree with it).
    private func takingLoaded() -> Loaded? {
        guard let current = loaded else { return nil }
        loaded = nil
        return current
    }

    /// The items `batch` adds at the end of the list, in order; `nil` when
    /// it holds any other change.
    private static func itemsAdded(by batch: [WaitingChange]) -> [TodoItem]? {
        var items: [TodoItem] = []
        for waiting in batch {
            for change in waiting.changes {
                guard case .todos(.add(let item)) = change else { return nil }
                items.append(item)
            }
        }
        return items
    }

    /// Applies each change of `batch` in memory, in order: the answer for
    /// each, the domain's refusal for those that fail alone. Any other
    /// error fails the whole batch (the list in memory is read again then).
    private func plan(
        _ batch: [WaitingChange], _ loaded: inout Loaded, _ pending: inout PendingChanges
    ) throws -> [Result<ChangeAnswer, any Error>] {
        var outcomes: [Result<ChangeAnswer, any Error>] = []
        for change in batch {
            do {
                let step = try planning(change.changes, named: change.name, &loaded, &pending)
                outcomes.append(.success(ChangeAnswer(step: step, items: change.answering.compactMap { loaded.state.todos[id: $0] })))
            } catch let refusal where refusal is TodoError || refusal is HistoryError {
                outcomes.append(.failure(refusal))
            }
        }
        return outcomes
    }
}

extension PostgresStore.Loaded {
    /// Takes back the batch `pending` that was applied to this list from
    /// `start` on and not written, by applying its inverses newest first;
    /// the ranks of the items it touched are then unknown until read again
    /// (``staleRanks``). `false` when the list must be read again instead:
    /// the batch touched every item, numbered the rows again, or an inverse
    /// does not apply.
    mutating func takingBack(_ pending: PostgresStore.PendingChanges, to start: PostgresLog.Head) -> Bool {
        guard let touched = pending.touched, !pending.renumbered else { return false }
        for inverse in pending.inverses.reversed() {
            do {
                _ = try state.apply(all: inverse)
            } catch {
                return false
            }
        }
        head = start
        staleRanks.formUnion(touched)
        // The batch's steps are no longer the history's: read it again when asked.
        history.forget()
        return true
    }

    /// Keeps the rows of a batch of adds just taken back (``takingBack(_:to:)``),
    /// one row for each of `rows` (the changes of each, in order), numbered
    /// after `baseSeq`, their items ranked one by one above `topRank`, as
    /// `rewind_append_adds` saved them: their ranks are then known, and no
    /// longer stale unless they were before (`staleBefore`).
    mutating func keep(_ rows: [[AppState.Change]], after baseSeq: Int64, above topRank: Double, staleBefore: Set<UUID>) {
        var rank = topRank
        var own: Set<UUID> = []
        for (offset, changes) in rows.enumerated() {
            var ranks: [UUID: Double] = [:]
            for case .todos(.add(let item)) in changes {
                rank += 1
                ranks[item.id] = rank
            }
            kept[baseSeq + Int64(offset) + 1] = PostgresStore.KeptRow(changes: changes, ranks: ranks)
            own.formUnion(ranks.keys)
        }
        staleRanks.subtract(own.subtracting(staleBefore))
    }
}

/// Some of a batch's adds are saved and some not, which one statement
/// cannot leave.
private struct PartlySaved: Error {}
