import Foundation
import Logging
import PostgresNIO
import TodoStore
import Todos

/// Group commit across shared lists: a row saved alone (on the list as this
/// instance holds it, ``PostgresSharedListStore/savingRow(_:of:number:expecting:)``)
/// while another such call is on its way waits, and the next call saves
/// every row waiting, of any lists, with one commit: one wait for the
/// server's disk, and one round trip, for all of them. Each list's rows
/// still take turns (one at a time per list, in the store's turn of the
/// list), so a call holds at most one row of a list.
///
/// Each row is saved as alone, in a subtransaction of its own
/// (`rewind_shared_save_rows`): a row whose list moved on is not written,
/// and answered so, as alone; a row that fails is saved again alone, which
/// says why, while the others of its call are saved.
extension PostgresSharedListStore {
    /// A row waiting for the next call, and who waits for its answer.
    struct WaitingSave {
        let row: SharedRowSave
        let answer: CheckedContinuation<Saved?, any Error>
    }

    /// The most calls saving rows on their way at once: the rows that come
    /// meanwhile wait for one of them to be answered. More than one, so
    /// that a call waiting for a list's row lock (held by another
    /// instance's transaction) does not hold every other list's rows.
    static let mostSaveCallsOnTheirWay = 2

    /// Saves `row` in the next call, with the rows of other lists waiting
    /// then, and answers what it saved: `nil` when it wrote nothing (the
    /// list moved on, went, or the person left it).
    ///
    /// - Throws: The error of the call (a connection that ended: whether
    ///   the row was saved is then unknown), or of the row saved alone.
    func savedWithOthers(_ row: SharedRowSave) async throws -> Saved? {
        if !holdsSaves, waitingSaves.isEmpty, saveCallsOnTheirWay < Self.mostSaveCallsOnTheirWay {
            // Nothing waits: sent at once, from this task.
            saveCallsOnTheirWay += 1
            let saved = await savedAlone(row)
            saveCallsOnTheirWay -= 1
            sendWaitingSavesIfFree()
            return try saved.get()
        }
        return try await withCheckedThrowingContinuation { answer in
            waitingSaves.append(WaitingSave(row: row, answer: answer))
            sendWaitingSavesIfFree()
        }
    }

    /// Starts sending the rows waiting, unless as many calls as may be are
    /// on their way (one of them sends them when answered) or the rows are
    /// held.
    func sendWaitingSavesIfFree() {
        guard !holdsSaves, !waitingSaves.isEmpty, saveCallsOnTheirWay < Self.mostSaveCallsOnTheirWay else { return }
        saveCallsOnTheirWay += 1
        Task { await self.sendWaitingSaves() }
    }

    /// Sends calls for the rows waiting until none is left.
    private func sendWaitingSaves() async {
        while !waitingSaves.isEmpty, !holdsSaves {
            // In the order of the lists' numbers, as every call locks them
            // (one row of a list per call): two calls, of this instance or
            // another, never wait for each other's locks in a circle.
            let batch = waitingSaves.sorted { $0.row.number < $1.row.number }
            waitingSaves.removeAll()
            guard batch.count > 1 else {
                for waiting in batch { waiting.answer.resume(with: await savedAlone(waiting.row)) }
                continue
            }
            let outcomes: [RowOutcome]
            do {
                outcomes = try await database.withPooledConnection { connection in
                    try await self.saved(batch.map(\.row), connection)
                }
            } catch {
                for waiting in batch { waiting.answer.resume(throwing: error) }
                continue
            }
            callsSavingSeveralRows += 1
            var failed: [WaitingSave] = []
            for (waiting, outcome) in zip(batch, outcomes) {
                switch outcome {
                case .saved(let saved):
                    rowsSavedTogether += 1
                    waiting.answer.resume(returning: saved)
                case .notWritten:
                    waiting.answer.resume(returning: nil)
                case .failed(let error):
                    logger.debug("a row saved with others failed; saving it alone", metadata: ["error": "\(error)"])
                    failed.append(waiting)
                }
            }
            // Alone, its error is the server's own (and it may pass, after a lock timeout).
            for waiting in failed { waiting.answer.resume(with: await savedAlone(waiting.row)) }
        }
        saveCallsOnTheirWay -= 1
    }

    /// `row` saved by a call of its own.
    private func savedAlone(_ row: SharedRowSave) async -> Result<Saved?, any Error> {
        do {
            let statement = try row.statement(channel: channel)
            return .success(try await database.withPooledConnection { connection in
                try await self.saved(statement, connection, self.logger)
            })
        } catch {
            return .failure(error)
        }
    }

    /// What became of a row in a call that saved several.
    enum RowOutcome {
        case saved(Saved)
        case notWritten
        case failed(String)
    }

    /// Saves `rows` (of different lists) by one call of
    /// `rewind_shared_save_rows_committed`, which commits before it answers.
    private nonisolated func saved(_ rows: [SharedRowSave], _ connection: PostgresConnection) async throws -> [RowOutcome] {
        let statement = try SharedRowSave.statement(saving: rows, channel: channel)
        var outcomes: [RowOutcome]?
        // The whole answer is read: the call is done only at its end.
        for try await (saved, names, renumberings, errors) in try await connection.answered(statement.query, logger: logger)
            .decode(([Bool], [String], [Int64], [String]).self)
        {
            guard saved.count == rows.count, names.count == rows.count, renumberings.count == rows.count,
                errors.count == rows.count
            else { continue }
            outcomes = rows.indices.map { index in
                if !errors[index].isEmpty { return .failed(errors[index]) }
                guard saved[index] else { return .notWritten }
                return .saved(Saved(name: names[index], renumberings: renumberings[index] < 0 ? nil : renumberings[index]))
            }
        }
        guard let outcomes else {
            throw StoreError.corrupt(
                path: database.url.redacted, detail: "the call that saves rows of shared lists answered no row for each")
        }
        return outcomes
    }
}

/// A row of a shared list to save, with everything its saving call binds:
/// the log row, its latest writers, and the item rows it writes.
struct SharedRowSave: Sendable {
    let number: Int64
    /// The row the list's row must still name its latest, and the person
    /// who must still be allowed to change it; `nil` in the transaction
    /// that holds the list's row.
    let expecting: (seq: Int64, person: String)?
    let seq: Int64
    let author: String
    let columns: SharedStepColumns
    let name: String
    let coalescingKey: String?
    let joins: Int64?
    let writerItems: [UUID]
    let writerParts: [String]
    let replacesAll: Bool
    let deletions: [UUID]
    let items: PostgresItems.Columns

    /// The row that saves `step` with the item rows of `writes`.
    init(_ step: SharedStep, writes: ItemRanks.Writes, number: Int64, expecting: (seq: Int64, person: String)?) throws {
        self.number = number
        self.expecting = expecting
        seq = Int64(step.seq)
        author = step.author
        columns = try SharedStepColumns(step, encoder: TodoJSON.makeEncoder())
        name = step.name
        coalescingKey = step.coalescingKey
        joins = step.joins.map(Int64.init)
        let written = step.patch.parts
        writerItems = written.map(\.item)
        writerParts = written.map(\.part.rawValue)
        replacesAll = writes.replacesAll
        deletions = writes.deletions
        items = try PostgresItems.Columns(writes.rows.map(\.item), ranks: writes.rows.map(\.rank))
    }

    /// The call that saves this row alone: `rewind_shared_save`, through
    /// `rewind_shared_save_committed` when it expects a row (it then runs
    /// outside a transaction, and commits before it answers).
    func statement(channel: String) throws -> PostgresStatement {
        var statement = PostgresStatement()
        var arguments = [
            try statement.bind(number), try statement.bind(expecting?.seq) + "::int8",
            try statement.bind(expecting?.person) + "::text",
            try statement.bind(seq), try statement.bind(author), try statement.bind(columns.kind),
            try statement.bind(columns.reverts.map(Int64.init)) + "::int8", try statement.bind(name),
            try statement.bind(columns.date), try statement.bind(coalescingKey) + "::text",
            try statement.bind(joins) + "::int8", try statement.bind(columns.changes),
            try statement.bind(columns.patch), try statement.bind(columns.skipped),
            try statement.bind(writerItems) + "::uuid[]", try statement.bind(writerParts) + "::text[]",
            try statement.bind(replacesAll), try statement.bind(deletions) + "::uuid[]",
        ]
        arguments += try items.bound(into: &statement)
        arguments.append(try statement.bind(channel))
        let call = arguments.joined(separator: ", ")
        statement.compose(
            [],
            then: expecting == nil
                ? "SELECT out_name, out_renumberings FROM rewind_shared_save(\(call))"
                : "CALL rewind_shared_save_committed(\(call), NULL, NULL)")
        return statement
    }

    /// The call that saves `rows`, of different lists, each as alone, and
    /// commits before it answers: `rewind_shared_save_rows_committed`, every
    /// parameter an array with an element per row, or the rows' items,
    /// writers and deletions one after another, with each row's last index.
    static func statement(saving rows: [SharedRowSave], channel: String) throws -> PostgresStatement {
        var statement = PostgresStatement()
        var items = PostgresItems.Columns(ranked: true)
        var itemsTo: [Int32] = [], writersTo: [Int32] = [], deletionsTo: [Int32] = []
        var writerItems: [UUID] = [], writerParts: [String] = [], deletions: [UUID] = []
        for row in rows {
            items.append(row.items)
            itemsTo.append(Int32(items.count))
            writerItems += row.writerItems
            writerParts += row.writerParts
            writersTo.append(Int32(writerItems.count))
            deletions += row.deletions
            deletionsTo.append(Int32(deletions.count))
        }
        // -1 and "" stand for null: postgres-nio binds no array with a null in it.
        var arguments = [
            try statement.bind(rows.map(\.number)) + "::int8[]",
            try statement.bind(rows.map { $0.expecting?.seq ?? -1 }) + "::int8[]",
            try statement.bind(rows.map { $0.expecting?.person ?? "" }) + "::text[]",
            try statement.bind(rows.map(\.seq)) + "::int8[]",
            try statement.bind(rows.map(\.author)) + "::text[]",
            try statement.bind(rows.map(\.columns.kind)) + "::text[]",
            try statement.bind(rows.map { $0.columns.reverts.map(Int64.init) ?? -1 }) + "::int8[]",
            try statement.bind(rows.map(\.name)) + "::text[]",
            try statement.bind(rows.map(\.columns.date)) + "::int8[]",
            try statement.bind(rows.map { $0.coalescingKey ?? "" }) + "::text[]",
            try statement.bind(rows.map { $0.joins ?? -1 }) + "::int8[]",
            try statement.bind(rows.map(\.columns.changes)) + "::text[]",
            try statement.bind(rows.map(\.columns.patch)) + "::text[]",
            try statement.bind(rows.map(\.columns.skipped)) + "::text[]",
            try statement.bind(writersTo) + "::int4[]",
            try statement.bind(writerItems) + "::uuid[]",
            try statement.bind(writerParts) + "::text[]",
            try statement.bind(rows.map(\.replacesAll)) + "::bool[]",
            try statement.bind(deletionsTo) + "::int4[]",
            try statement.bind(deletions) + "::uuid[]",
            try statement.bind(itemsTo) + "::int4[]",
        ]
        arguments += try items.bound(into: &statement)
        arguments.append(try statement.bind(channel))
        statement.compose(
            [], then: "CALL rewind_shared_save_rows_committed(\(arguments.joined(separator: ", ")), NULL, NULL, NULL, NULL)")
        return statement
    }
}
