import Foundation
import PostgresNIO
import Rewind
import Todos

/// Group commit: the changes asked for while a transaction is under way
/// wait, and the next transaction commits them all, each in a savepoint of
/// its own, so that one the domain refuses fails alone. Every change is
/// answered after the commit that holds it; one wait for the server's disk
/// serves the whole batch.
extension PostgresStore {
    /// A change waiting for the next batch, and who waits for its answer.
    struct WaitingChange {
        let changes: [AppState.Change]
        let name: String?
        let answer: CheckedContinuation<HistoryStep<AppState.Change>, any Error>
    }

    /// Queues `changes` for the next batch and waits for its commit.
    func submit(_ changes: [AppState.Change], named name: String?) async throws -> HistoryStep<AppState.Change> {
        unansweredChanges += 1
        defer { unansweredChanges -= 1 }
        return try await withCheckedThrowingContinuation { answer in
            waitingChanges.append(WaitingChange(changes: changes, name: name, answer: answer))
            guard !committing else { return }
            committing = true
            Task { await self.commitWaitingChanges() }
        }
    }

    /// Commits the waiting changes in batches until none is left.
    private func commitWaitingChanges() async {
        while !waitingChanges.isEmpty {
            let batch = waitingChanges
            waitingChanges.removeAll()
            var outcomes = [Result<HistoryStep<AppState.Change>, any Error>](
                repeating: .failure(CancellationError()), count: batch.count)
            do {
                try await write { connection, loaded in
                    for (index, change) in batch.enumerated() {
                        try await connection.query("SAVEPOINT change", logger: self.logger)
                        do {
                            outcomes[index] = .success(try await self.changing(change.changes, named: change.name, connection, &loaded))
                            try await connection.query("RELEASE SAVEPOINT change", logger: self.logger)
                        } catch let refusal where refusal is TodoError || refusal is HistoryError {
                            // Refused before anything was written or changed.
                            try await connection.query("ROLLBACK TO SAVEPOINT change", logger: self.logger)
                            outcomes[index] = .failure(refusal)
                        }
                    }
                }
                batchesWritten += 1
            } catch {
                outcomes = outcomes.map { _ in .failure(error) }
            }
            for (change, outcome) in zip(batch, outcomes) { change.answer.resume(with: outcome) }
        }
        committing = false
    }
}
