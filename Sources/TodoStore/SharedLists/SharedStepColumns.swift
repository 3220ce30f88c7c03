import Foundation
import Todos

/// The columns of a shared list's log row that are not plain values of
/// ``SharedStep``, as SQLite's `shared_step` and PostgreSQL's
/// `rewind_shared_step` hold them: the kind as a word and the row it takes
/// back, the date in milliseconds since 1970, and the changes, patch and
/// skipped parts as JSON (`docs/shared-undo.md`).
package struct SharedStepColumns: Sendable {
    /// `change`, `undo` or `redo`.
    package var kind: String
    /// The row an undo or redo takes back; `nil` for a change.
    package var reverts: Int?
    /// Milliseconds since 1970.
    package var date: Int64
    /// The changes, a JSON array.
    package var changes: String
    /// The patch's entries, a JSON array.
    package var patch: String
    /// The skipped parts, a JSON array.
    package var skipped: String

    /// The columns as read back.
    package init(kind: String, reverts: Int?, date: Int64, changes: String, patch: String, skipped: String) {
        self.kind = kind
        self.reverts = reverts
        self.date = date
        self.changes = changes
        self.patch = patch
        self.skipped = skipped
    }

    /// The columns of `step`.
    package init(_ step: SharedStep, encoder: JSONEncoder) throws {
        switch step.kind {
        case .change: (kind, reverts) = ("change", nil)
        case .undo(let seq): (kind, reverts) = ("undo", seq)
        case .redo(let seq): (kind, reverts) = ("redo", seq)
        }
        date = ItemRecord.milliseconds(step.date)
        func json<Value: Encodable>(_ value: Value) throws -> String {
            String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        // The changes and patch of most rows are written directly (byte for
        // byte what the encoder writes): the encoder's generic path was a
        // tenth of a server's time adding to shared lists.
        changes = try TodoJSON.stepText(step.changes)
        patch = try TodoJSON.patchText(step.patch.entries)
        skipped = step.skipped.isEmpty ? "[]" : try json(step.skipped)
    }

    /// The row these columns hold with the plain ones.
    ///
    /// - Throws: A sentence naming what does not decode.
    package func step(
        seq: Int, author: String, name: String, coalescingKey: String?, joins: Int?, decoder: JSONDecoder
    ) throws -> SharedStep {
        let kind = try Self.kind(self.kind, reverts: reverts)
        func decoded<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
            try decoder.decode(type, from: Data(json.utf8))
        }
        return SharedStep(
            seq: seq, author: author, name: name, kind: kind,
            changes: try TodoJSON.storedListChanges(changes, orDecoding: decoder),
            patch: StepPatch(entries: try TodoJSON.storedPatch(patch, orDecoding: decoder)),
            skipped: try decoded([SkippedPart].self, skipped), date: ItemRecord.date(date), coalescingKey: coalescingKey,
            joins: joins)
    }
}

extension SharedStepColumns {
    /// The kind that the columns `kind` and `reverts` hold.
    ///
    /// - Throws: ``UndecodableRow`` when they do not match.
    package static func kind(_ kind: String, reverts: Int?) throws -> SharedStep.Kind {
        switch (kind, reverts) {
        case ("change", nil): .change
        case ("undo", let reverts?): .undo(of: reverts)
        case ("redo", let reverts?): .redo(of: reverts)
        case (let kind, let reverts): throw UndecodableRow(detail: "the kind “\(kind)” with the row \(String(describing: reverts))")
        }
    }

    /// The summary of a row from its columns: all of them but the changes
    /// and the patch, which a summary does not decode; `changedNothing`
    /// says whether the changes are an empty array (only the messages of
    /// an undo or a redo depend on it, so a store need read it only for those).
    ///
    /// - Throws: A sentence naming the row, when its kind does not match the
    ///   row it takes back or its skipped parts do not decode.
    package static func summary(
        seq: Int, author: String, kind: String, reverts: Int?, name: String, date: Int64, coalescingKey: String?,
        joins: Int?, skipped: String, changedNothing: Bool, decoder: JSONDecoder
    ) throws -> SharedStep.Summary {
        do {
            return SharedStep.Summary(
                seq: seq, author: author, name: name, kind: try self.kind(kind, reverts: reverts), date: ItemRecord.date(date),
                coalescingKey: coalescingKey, joins: joins,
                skipped: skipped == "[]" ? [] : try decoder.decode([SkippedPart].self, from: Data(skipped.utf8)),
                changedNothing: changedNothing)
        } catch {
            throw UndecodableRow(detail: "row \(seq): \(error)")
        }
    }

    /// The head of a row from its columns.
    ///
    /// - Throws: A sentence naming the row, when its kind does not match the row it takes back.
    package static func head(seq: Int, author: String, kind: String, reverts: Int?, joins: Int?) throws -> SharedStep.Head {
        do {
            return SharedStep.Head(seq: seq, author: author, kind: try self.kind(kind, reverts: reverts), joins: joins)
        } catch {
            throw UndecodableRow(detail: "row \(seq): \(error)")
        }
    }
}

/// A log row whose kind does not match the row it takes back.
package struct UndecodableRow: Error, CustomStringConvertible {
    /// What is wrong.
    package let detail: String
    /// The sentence.
    package var description: String { detail }
}
