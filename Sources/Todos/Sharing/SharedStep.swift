import Foundation

/// One row of a shared list's log: a change, an undo or a redo, by one
/// person. The log is append-only; an undo is a new row, never a deletion.
public struct SharedStep: Equatable, Sendable {
    /// What the row did.
    public enum Kind: Equatable, Hashable, Sendable {
        /// A change the person made.
        case change
        /// An undo of the person's row with this number.
        case undo(of: Int)
        /// A redo: takes back the person's undo row with this number.
        case redo(of: Int)
    }

    /// The row's number in the log, from 1.
    public let seq: Int
    /// Who made it.
    public let author: String
    /// The step's name, as the history shows it ("Rename “Milk”").
    public let name: String
    /// What the row did.
    public let kind: Kind
    /// The changes it applied, in order: replaying every row's changes
    /// from the first gives the list.
    public let changes: [TodoList.Change]
    /// What it did to each item it touched.
    public let patch: StepPatch
    /// The parts an undo or redo left alone, with the reason for each.
    public let skipped: [SkippedPart]
    /// When the row was appended.
    public let date: Date
    /// The key under which the person's next change of the same kind joins
    /// this step (typing a title is one step), if any.
    public let coalescingKey: String?
    /// For a change that joined the person's step before it, the first row
    /// of that step; their Undo takes back the rows of one step together.
    public let joins: Int?

    /// A row as a store read it back.
    public init(
        seq: Int, author: String, name: String, kind: Kind, changes: [TodoList.Change], patch: StepPatch,
        skipped: [SkippedPart], date: Date, coalescingKey: String? = nil, joins: Int? = nil
    ) {
        self.seq = seq
        self.author = author
        self.name = name
        self.kind = kind
        self.changes = changes
        self.patch = patch
        self.skipped = skipped
        self.date = date
        self.coalescingKey = coalescingKey
        self.joins = joins
    }

    /// What the row weighs in memory, in items: one for each item its patch
    /// touched (each entry holds the item before and after; the changes
    /// hold at most as many), and at least one. A step over every item of a
    /// long list weighs as much as the list.
    public var weight: Int { max(1, patch.entries.count) }

    /// The sentences that tell the person what this undo or redo left alone
    /// (none for a change), and that a redo of an undo that had changed
    /// nothing (every part of it was left alone) changes nothing either.
    public var messages: [String] {
        Self.messages(kind: kind, skipped: skipped, changedNothing: changes.isEmpty)
    }

    /// The messages of a row of `kind` that left `skipped` alone and
    /// applied no change when `changedNothing`, as `viewer` (an account
    /// key) reads them: what `viewer` wrote is told as “you …”, and the
    /// others by what `naming` gives for their keys.
    static func messages(
        kind: Kind, skipped: [SkippedPart], changedNothing: Bool, for viewer: String? = nil,
        naming: (String) -> String = { $0 }
    ) -> [String] {
        switch kind {
        case .change: []
        case .undo where skipped.isEmpty && changedNothing: [Self.nothingToTakeBack]
        case .undo: skipped.map { $0.sentence(undoing: true, for: viewer, naming: naming) }
        case .redo where skipped.isEmpty && changedNothing: [Self.nothingToPutBack]
        case .redo: skipped.map { $0.sentence(undoing: false, for: viewer, naming: naming) }
        }
    }

    /// What a redo of an undo that had changed nothing says.
    public static let nothingToPutBack = "Nothing to put back: the undo had changed nothing."
    /// What an undo of a step that had changed nothing (a redo that put
    /// nothing back) says.
    public static let nothingToTakeBack = "Nothing to take back: the step had changed nothing."
}

extension SharedStep {
    /// What each person's stacks need of a row: its number, author, kind
    /// and the step it joins. A store reads these of every row to open a
    /// list without decoding the rows' changes
    /// (``SharedList/init(opening:heads:writers:coalescingWindow:)``).
    public struct Head: Equatable, Sendable {
        /// The row's number in the log, from 1.
        public let seq: Int
        /// Who made it.
        public let author: String
        /// What the row did.
        public let kind: Kind
        /// For a change that joined the person's step before it, the first
        /// row of that step.
        public let joins: Int?

        /// The head of a row as a store read it back.
        public init(seq: Int, author: String, kind: Kind, joins: Int?) {
            self.seq = seq
            self.author = author
            self.kind = kind
            self.joins = joins
        }
    }

    /// This row's head.
    public var head: Head { Head(seq: seq, author: author, kind: kind, joins: joins) }
}

extension SharedStep {
    /// A row without what it changed: what the history and the Undo and
    /// Redo buttons show, and what a change that may join the person's
    /// latest step looks at. A store reads it without decoding the row's
    /// changes and patch, so that showing a row costs the same whether the
    /// row touched one item or every item of the list.
    public struct Summary: Equatable, Sendable {
        /// The row's number in the log, from 1.
        public let seq: Int
        /// Who made it.
        public let author: String
        /// The step's name, as the history shows it.
        public let name: String
        /// What the row did.
        public let kind: Kind
        /// When the row was appended.
        public let date: Date
        /// The key under which the person's next change of the same kind
        /// joins this step, if any.
        public let coalescingKey: String?
        /// For a change that joined the person's step before it, the first
        /// row of that step.
        public let joins: Int?
        /// What the row's undo or redo left alone, in sentences
        /// (``SharedStep/messages``).
        public var messages: [String] { messages(for: nil) }
        /// The parts the row's undo or redo left alone.
        public let skipped: [SkippedPart]
        /// Whether the row, an undo or a redo, applied no change (`false`
        /// for a change).
        public let changedNothing: Bool

        /// The summary of a row as a store read it back: `skipped` are the
        /// parts it left alone, and `changedNothing` says whether it applied
        /// no change (only an undo's or a redo's messages depend on it).
        public init(
            seq: Int, author: String, name: String, kind: Kind, date: Date, coalescingKey: String?, joins: Int?,
            skipped: [SkippedPart], changedNothing: Bool
        ) {
            self.seq = seq
            self.author = author
            self.name = name
            self.kind = kind
            self.date = date
            self.coalescingKey = coalescingKey
            self.joins = joins
            self.skipped = skipped
            // Only an undo's or a redo's messages depend on it.
            self.changedNothing = kind != .change && changedNothing
        }

        /// The row's messages as the person with the account key `viewer`
        /// reads them: “… you renamed it since.” for what they wrote, and
        /// others by what `naming` gives for their keys.
        public func messages(for viewer: String?, naming: (String) -> String = { $0 }) -> [String] {
            SharedStep.messages(kind: kind, skipped: skipped, changedNothing: changedNothing, for: viewer, naming: naming)
        }
    }

    /// This row's summary.
    public var summary: Summary {
        Summary(
            seq: seq, author: author, name: name, kind: kind, date: date, coalescingKey: coalescingKey, joins: joins,
            skipped: skipped, changedNothing: changes.isEmpty)
    }
}
