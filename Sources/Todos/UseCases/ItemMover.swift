import Foundation

/// Moves an item to another place in the list: to a position, or just
/// before or after another item (what a person dragging a row means, and
/// what stays right when the rows shown are filtered). Answers the item as
/// it stands there.
///
/// ```swift
/// try await app.send(.move(bread.id, before: milk.id))
/// try await app.send(.move(bread.id, to: 0))          // to the top
/// ```
public struct ItemMover: UseCase {
    /// What can be asked.
    public enum Request: Equatable, Sendable {
        /// Moves the item with this id so that it ends up at a position
        /// (0 is the top).
        case move(UUID, to: Int)
        /// Moves the item with the first id to just before the item with
        /// the second.
        case moveBefore(UUID, UUID)
        /// Moves the item with the first id to just after the item with
        /// the second.
        case moveAfter(UUID, UUID)

        /// The id of the item to move.
        public var item: UUID {
            switch self {
            case .move(let id, _), .moveBefore(let id, _), .moveAfter(let id, _): id
            }
        }

        /// The item the move is relative to, if any.
        public var neighbour: UUID? {
            switch self {
            case .move: nil
            case .moveBefore(_, let neighbour), .moveAfter(_, let neighbour): neighbour
            }
        }

        /// Moves the item with `id` to just before `neighbour`.
        public static func move(_ id: UUID, before neighbour: UUID) -> Request { .moveBefore(id, neighbour) }
        /// Moves the item with `id` to just after `neighbour`.
        public static func move(_ id: UUID, after neighbour: UUID) -> Request { .moveAfter(id, neighbour) }
    }

    /// What is answered: the item moved.
    public typealias Response = TodoItem

    private let store: any AppStore

    /// Creates the use case over `store`.
    public init(store: any AppStore) {
        self.store = store
    }

    /// Moves the item and returns it.
    ///
    /// - Throws: ``TodoFailure/notFound(_:)`` for an item that is not in the
    ///   list, ``TodoFailure/invalid(_:)`` for a position outside it or a
    ///   neighbour that is not in it (or is the item itself), and
    ///   ``TodoFailure/nothingToChange(_:)`` when the item is already there
    ///   (no step is made for it).
    public func request(to request: Request) async throws(TodoFailure) -> TodoItem {
        let id = request.item
        let named = [id] + (request.neighbour.map { [$0] } ?? [])
        // The rows named, not the whole list: a store that keeps its list
        // in rows counts them.
        let placed = try await TodoFailure.classifying { try await store.positions(of: named) }
        let titles = Dictionary(try await store.items(named).map { ($0.id, $0.title) }, uniquingKeysWith: { $1 })
        let target = try await TodoFailure.classifying {
            try Self.position(for: request, among: placed) { titles[$0] ?? "" }
        }
        _ = try await store.perform([.move(id, to: target)])
        // Another client may have deleted it in the meantime.
        guard let item = try await store.items([id]).first else { throw .notFound([id]) }
        return item
    }

    /// Where `request` puts its item in `list`, counted in the list as it
    /// is (the item's own place included): what a shared list's move asks
    /// of its store.
    ///
    /// - Throws: ``TodoError/itemNotFound(_:)``, ``TodoError/neighbourNotFound(_:)``,
    ///   ``TodoError/movedNextToItself(_:)``, or ``TodoError/nothingToChange(_:)``
    ///   when the item is already there, ``TodoError/positionOutOfRange(_:valid:)``
    ///   for a position outside the list.
    public static func position(for request: Request, in list: TodoList) throws(TodoError) -> Int {
        try position(for: request, among: ListPositions(of: [request.item] + (request.neighbour.map { [$0] } ?? []), in: list)) {
            list[id: $0]?.title ?? ""
        }
    }

    /// ``position(for:in:)`` from where the item and its neighbour stand;
    /// `title` names an item in the message of a move that changes nothing.
    static func position(
        for request: Request, among placed: ListPositions, title: (UUID) -> String
    ) throws(TodoError) -> Int {
        let id = request.item
        guard let current = placed.positions[id] else { throw .itemNotFound(id) }
        switch request {
        case .move(_, let target):
            guard (0..<placed.count).contains(target) else {
                throw .positionOutOfRange(target, valid: 0...(placed.count - 1))
            }
            guard target != current else {
                let place = switch target {
                case 0: "at the top"
                case placed.count - 1: "at the bottom"
                default: "at position \(target) (0 is the top)"
                }
                throw .nothingToChange("“\(title(id))” is already \(place)")
            }
            return target
        case .moveBefore(_, let neighbour), .moveAfter(_, let neighbour):
            guard neighbour != id else { throw .movedNextToItself(id) }
            guard let next = placed.positions[neighbour] else { throw .neighbourNotFound(neighbour) }
            // The neighbour's place once the item has left its own.
            let base = next > current ? next - 1 : next
            let target = if case .moveAfter = request { base + 1 } else { base }
            guard target != current else {
                let side = if case .moveAfter = request { "after" } else { "before" }
                throw .nothingToChange("“\(title(id))” is already \(side) “\(title(neighbour))”")
            }
            return target
        }
    }
}
