import ArgumentParser
import Foundation
import Todos

extension RewindCommand.Todo {
    /// `rewind todo move`: moves an item just before or after another, or
    /// to the top or the bottom of the list, as one undo step.
    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move",
            abstract: "Move an item before or after another, or to the top or the bottom.",
            discussion: """
                One undo step. The list's own order is the one `rewind todo list` shows without \
                --sort, and the to-do page in its "List" order.

                Examples:
                  rewind todo move 4 --before 1
                  rewind todo move 3f2a --after 2
                  rewind todo move 5 --top
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var team: TeamOptions

        @Argument(help: ArgumentHelp("The item to move: a number from the last list, or the start of its id.", valueName: "ref"))
        var item: String

        @Option(help: ArgumentHelp("Put it just before this item.", valueName: "ref"))
        var before: String?

        @Option(help: ArgumentHelp("Put it just after this item.", valueName: "ref"))
        var after: String?

        @Flag(help: "Put it at the top of the list.")
        var top = false

        @Flag(help: "Put it at the bottom of the list.")
        var bottom = false

        @Flag(help: "Print the moved item as JSON.")
        var json = false

        func validate() throws {
            switch [before != nil, after != nil, top, bottom].count(where: { $0 }) {
            case 0: throw ValidationError("say where the item goes: --before REF, --after REF, --top or --bottom")
            case 1: return
            default: throw ValidationError("give one of --before, --after, --top or --bottom, not two of them")
            }
        }

        mutating func run() async throws {
            try await reportingErrors {
                do {
                    try await move()
                } catch TodoFailure.nothingToChange(let reason) {
                    // Already there: said, and not a failure (as `done` of a completed item).
                    TodoTerminal.note("Nothing to change: \(reason).")
                } catch TodoFailure.invalid(.movedNextToItself(let id)) {
                    throw TodoCommandError.usage(TodoError.movedNextToItself(id).description)
                }
            }
        }

        /// Moves the item; throws what the domain refused as it is.
        private func move() async throws {
            let target = try team.target()
            if let target {
                let shared = try await SharedTodoSession.open(options: options, target: target)
                let list = try await shared.items()
                let request = try request(in: list.count) { try Self.one(shared.resolve([$0], in: list)) }
                let position: Int
                do {
                    position = try ItemMover.position(for: request, in: list)
                } catch {
                    throw TodoFailure(error)
                }
                let id = request.item
                try await shared.perform([.move(id, to: position)], on: list)
                let after = try await shared.items()
                guard let moved = after[id: id] else { throw TodoFailure.notFound([id]) }
                return try report(moved, request, neighbour: request.neighbour.flatMap { after[id: $0] }, references: ShortReferences(list: after))
            }
            // The rows named and the number of rows, not the whole list.
            let session = try await TodoSession.open(options: options)
            var ids: [String: UUID] = [:]
            for reference in [item, before, after].compactMap(\.self) {
                ids[reference] = try Self.one(await session.resolve([reference]))
            }
            // The number of rows only for --bottom.
            let count = bottom ? try await session.store.positions(of: []).count : 0
            let request = try request(in: count) { reference in try Self.one(ids[reference].map { [$0] } ?? []) }
            let moved = try await session.app.send(request)
            let neighbour = try await request.neighbour.asyncFlatMap { try await session.store.items(withIDs: [$0]).first }
            let references = try await session.references(for: [moved.id] + (neighbour.map { [$0.id] } ?? []))
            try report(moved, request, neighbour: neighbour, references: references)
        }

        /// The one id of what a reference resolved to.
        private static func one(_ ids: [UUID]) throws -> UUID {
            guard let id = ids.first else { throw TodoCommandError.usage("name the item by a number of the last list or the start of its id") }
            return id
        }

        /// What the options ask, in a list of `count` items; `resolve` finds
        /// the item a reference names.
        private func request(in count: Int, resolve: (String) throws -> UUID) throws -> ItemMover.Request {
            let id = try resolve(item)
            if let before { return .move(id, before: try resolve(before)) }
            if let after { return .move(id, after: try resolve(after)) }
            return .move(id, to: top ? 0 : max(count - 1, 0))
        }

        /// Says where the item went: before or after its neighbour, or to
        /// the top or the bottom.
        private func report(
            _ moved: TodoItem, _ request: ItemMover.Request, neighbour: TodoItem?, references: ShortReferences
        ) throws {
            if json { return try JSONOutput.print(JSONOutput.items([moved], references: references)) }
            let text = ItemText(terminal: .standardOutput())
            let place = switch (request, neighbour) {
            case (.moveBefore, let neighbour?): "before " + text.named(neighbour, references: references)
            case (.moveAfter, let neighbour?): "after " + text.named(neighbour, references: references)
            case (.move, _): top ? "to the top" : "to the bottom"
            default: "next to an item deleted meanwhile"
            }
            TodoTerminal.print(lines: ["Moved " + text.named(moved, references: references) + " " + place])
        }
    }
}

extension Optional {
    /// The value given to the asynchronous `transform`, or `nil`.
    fileprivate func asyncFlatMap<Mapped>(_ transform: (Wrapped) async throws -> Mapped?) async rethrows -> Mapped? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
