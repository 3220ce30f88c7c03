import Foundation

/// What one step of a shared list did to each item it touched: the item
/// before and after, with its place. Undo and redo work from a patch, part
/// by part, so a step can be taken back in part when others have written
/// some of its parts since.
public struct StepPatch: Equatable, Sendable {
    /// One touched item.
    public struct Entry: Equatable, Sendable {
        /// The item's id.
        public let id: UUID
        /// The item and its place before the step, `nil` when the step added it.
        public let before: PlacedItem?
        /// The item and its place after the step, `nil` when the step removed it.
        public let after: PlacedItem?
        /// Whether the step moved the item (a changed neighbour alone is no move).
        public let moved: Bool

        /// The parts the step wrote: existence for an add or a delete; else
        /// each field that differs, and the position after a move.
        public var parts: [ItemPart] {
            switch (before, after) {
            case (nil, nil): []
            case (nil, _), (_, nil): [.existence]
            case (let before?, let after?):
                (moved && before.after != after.after ? [.position] : [])
                    + ItemPart.fields.filter { $0.differs(before.item, after.item) }
            }
        }
    }

    /// The touched items, in the order they stood before the step (added
    /// items last, in the order they were added).
    public let entries: [Entry]

    /// A patch of these entries, as a store read it back.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Every part the step wrote.
    public var parts: [ItemPartKey] {
        entries.flatMap { entry in entry.parts.map { ItemPartKey(entry.id, $0) } }
    }

    /// Whether the step wrote nothing.
    public var isEmpty: Bool { parts.isEmpty }

    /// The patch of `changes` applied to `list`, which becomes `altered`.
    ///
    /// - Complexity: O(*k* log *n*) for *k* touched items.
    static func between(_ list: TodoList, _ altered: TodoList, changes: [TodoList.Change]) -> StepPatch {
        Recording(changes, on: list).patch(after: altered)
    }

    /// What a patch needs of the list before its changes, taken before they
    /// are applied in place: each touched item with its place and position.
    struct Recording {
        private var touched: [(id: UUID, before: PlacedItem?, position: Int?)] = []
        private var moved = Set<UUID>()

        /// Records the items `changes` will touch in `list`, as they stand.
        ///
        /// - Complexity: O(*k* log *n*) for *k* touched items.
        init(_ changes: [TodoList.Change], on list: TodoList) {
            self.init(changes.flatMap { $0.touchedIDs(in: list) }, on: list)
            for change in changes {
                if case .move(let id, _) = change { moved.insert(id) }
            }
        }

        /// Records the items `ids` name in `list`, as they stand: those that
        /// changes worked out one by one may touch.
        init(_ ids: [UUID], on list: TodoList) {
            var seen = Set<UUID>()
            for id in ids where seen.insert(id).inserted {
                let before = PlacedItem.find(id, in: list)
                touched.append((id, before, before.flatMap { _ in list.position(of: id) }))
            }
        }

        /// The patch, given the list after the changes.
        func patch(after altered: TodoList) -> StepPatch {
            patch(after: altered, touching: nil, moved: moved)
        }

        /// The patch of `changes`, which touched only recorded items, given
        /// the list after them.
        func patch(after altered: TodoList, of changes: [TodoList.Change]) -> StepPatch {
            var touching = Set<UUID>()
            var moved = Set<UUID>()
            for change in changes {
                if case .move(let id, _) = change { moved.insert(id) }
                touching.formUnion(change.touchedIDs(in: altered))
            }
            return patch(after: altered, touching: touching, moved: moved)
        }

        /// The patch of the recorded items in `touching` (all when `nil`).
        private func patch(after altered: TodoList, touching: Set<UUID>?, moved: Set<UUID>) -> StepPatch {
            // Items that stood in the list first, by position; added ones after, in order.
            let ordered = touched.enumerated().filter { touching?.contains($0.element.id) ?? true }.sorted { a, b in
                (a.element.position ?? Int.max, a.offset) < (b.element.position ?? Int.max, b.offset)
            }
            return StepPatch(
                entries: ordered.map { _, touched in
                    Entry(
                        id: touched.id, before: touched.before, after: PlacedItem.find(touched.id, in: altered),
                        moved: moved.contains(touched.id))
                })
        }
    }
}

extension TodoList.Change {
    /// The ids of the items this change touches when applied to `list`.
    func touchedIDs(in list: TodoList) -> [UUID] {
        switch self {
        case .add(let item), .insert(let item, _): [item.id]
        case .remove(let id), .update(let id, _, _), .move(let id, _): [id]
        case .removeItems(let ids): ids
        case .restore(let placements): placements.map(\.item.id)
        case .replace(let items): items.map(\.id)
        case .completeAll: list.items.filter { !$0.isCompleted }.map(\.id)
        case .reopenAll, .removeCompleted: list.items.filter(\.isCompleted).map(\.id)
        }
    }
}
