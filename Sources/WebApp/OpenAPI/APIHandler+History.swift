import Foundation
import Todos

/// `/api/history…`: undo, redo, jumps and the undo tree of the to-do list.
extension APIHandler {
    func history(_ input: Operations.History.Input) async throws -> Operations.History.Output {
        let page = try Self.historyPage(before: input.query.before, after: input.query.after, limit: input.query.limit)
        return .ok(.init(body: .json(.init(try await todos.history(), page: page))))
    }

    /// The page of the history that `before`, `after` and `limit` ask for:
    /// with both, the oldest steps between them.
    ///
    /// - Throws: ``APIError`` 400 for a limit outside 1 to 500 or a position
    ///   below what the history can hold; 422 for a `before` not above `after`.
    static func historyPage(before: Int?, after: Int?, limit: Int?) throws -> HistoryOverview.Page {
        do {
            return try .checked(before: before, after: after, limit: limit ?? HistoryOverview.Page.standardLimit)
        } catch {
            if case .range(let before, let after) = error {
                // Each parameter is valid on its own: the pair is what cannot be answered.
                throw APIError.invalidField(
                    "invalid query parameters “before” and “after”: “before” must be above “after”; no position lies between \(after) and \(before)")
            }
            let message = switch error {
            case .limit(let limit):
                "invalid query parameter “limit”: a page holds 1 to \(HistoryOverview.Page.largestLimit) steps, not \(limit)"
            case .before(let before): "invalid query parameter “before”: positions start at 1, so \(before) has none below it"
            case .after(let after): "invalid query parameter “after”: positions start at 0 (the start), not \(after)"
            case .range: "invalid query parameters “before” and “after”"
            }
            throw APIError.badRequest(message)
        }
    }

    func historyTree(_ input: Operations.HistoryTree.Input) async throws -> Operations.HistoryTree.Output {
        let limit = input.query.limit ?? HistoryOverview.Page.largestLimit
        guard (1...HistoryOverview.Page.largestLimit).contains(limit) else {
            throw APIError.badRequest(
                "invalid query parameter “limit”: a page holds 1 to \(HistoryOverview.Page.largestLimit) steps, not \(limit)"
            )
        }
        if let before = input.query.before, before < 1 {
            throw APIError.badRequest("invalid query parameter “before”: step numbers start at 1, so \(before) has none below it")
        }
        let tree = try await todos.historyTree()
        return .ok(.init(body: .json(.init(tree, steps: tree.steps(before: input.query.before.map(Int64.init), limit: limit)))))
    }

    func undo(_ input: Operations.Undo.Input) async throws -> Operations.Undo.Output {
        .ok(.init(body: .json(try await moved(.undo))))
    }

    func redo(_ input: Operations.Redo.Input) async throws -> Operations.Redo.Output {
        .ok(.init(body: .json(try await moved(.redo))))
    }

    func jump(_ input: Operations.Jump.Input) async throws -> Operations.Jump.Output {
        let body = switch input.body { case .json(let json): json }
        // The generated type reads `null` as a field left out; here it is a wrong value.
        for field in ["position", "step"] where RequestBodyMiddleware.nullFields.contains(field) {
            throw APIError.badRequest("invalid field “\(field)”: expected a whole number, found null")
        }
        switch (body.position, body.step) {
        case (let position?, nil): return .ok(.init(body: .json(try await moved(.jump(to: position)))))
        case (nil, let step?): return .ok(.init(body: .json(try await moved(.jumpToStep(Int64(step))))))
        case (.some, .some): throw APIError.badRequest("give either “position” or “step”, not both")
        case (nil, nil):
            throw APIError.badRequest("missing field: give “position” (of GET /api/history) or “step” (of GET /api/history/tree)")
        }
    }

    /// Moves the history and answers with the step crossed and the history.
    ///
    /// - Throws: ``APIError`` 409 when there is nothing to undo or redo.
    private func moved(_ request: HistoryNavigator.Request) async throws -> Components.Schemas.HistoryMove {
        let outcome = try await todos.app.send(request)
        let history = Components.Schemas.History(try await todos.history(), page: .standard)
        switch outcome {
        case .undone(let name): return .init(undone: name, history: history)
        case .redone(let name): return .init(redone: name, history: history)
        case .jumped, .jumpedToStep: return .init(history: history)
        case .nothingToUndo: throw APIError.conflict("nothing to undo")
        case .nothingToRedo: throw APIError.conflict("nothing to redo")
        }
    }
}

extension Components.Schemas.History {
    /// The steps of `overview` on `page`, its position and size, and the
    /// Undo and Redo titles.
    init(_ overview: HistoryOverview, page: HistoryOverview.Page) {
        self.init(
            steps: overview.range(of: page).map { index in
                let step = overview.steps[index]
                return .init(name: step.name, date: step.date, position: index + 1, done: index < overview.position)
            },
            position: overview.position,
            total: overview.steps.count,
            canUndo: overview.canUndo,
            canRedo: overview.canRedo,
            undoTitle: overview.undoTitle,
            redoTitle: overview.redoTitle
        )
    }
}

extension Components.Schemas.HistoryTree {
    /// The `steps` of `tree` (a page of them), oldest first, the current
    /// one and how many there are.
    init(_ tree: Todos.HistoryTree, steps: ArraySlice<Todos.HistoryTree.Step>) {
        self.init(
            steps: steps.map { step in
                .init(
                    number: Int(step.number), parent: Int(step.parent), name: step.name, date: step.date,
                    branch: .init(step.branch)
                )
            },
            current: Int(tree.current),
            total: tree.steps.count
        )
    }
}

extension Components.Schemas.HistoryTree.StepsPayloadPayload.BranchPayload {
    /// The word for `branch`.
    init(_ branch: Todos.HistoryTree.Branch) {
        switch branch {
        case .done: self = .done
        case .undone: self = .undone
        case .abandoned: self = .abandoned
        }
    }
}
