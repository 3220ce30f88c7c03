import Foundation
import Todos

/// `/api/lists…`: the shared lists of team mode, always as the signed-in
/// account; 404 in local mode.
extension APIHandler {
    /// The shared lists, or the 404 of local mode.
    private var shared: SharedListService {
        get throws {
            guard let lists else { throw SharedListService.localMode }
            return lists
        }
    }

    func listLists(_ input: Operations.ListLists.Input) async throws -> Operations.ListLists.Output {
        let lists = try await shared.overview()
        return .ok(.init(body: .json(.init(lists: lists.map { Components.Schemas.ListOverview($0.list, counts: $0.counts) }))))
    }

    func createList(_ input: Operations.CreateList.Input) async throws -> Operations.CreateList.Output {
        let body = switch input.body { case .json(let json): json }
        return .created(.init(body: .json(.init(try await shared.create(name: body.name)))))
    }

    func getList(_ input: Operations.GetList.Input) async throws -> Operations.GetList.Output {
        let id = try Query.listID(input.path.list)
        let search = try Query.search(input.query.search)
        let (offset, limit) = try Self.itemPage(offset: input.query.offset, limit: input.query.limit)
        let shared = try shared
        // The next steps first: they bring the list into the store's
        // memory, where its items are read from then.
        let next = try await shared.nextSteps(on: id)
        let items = try await shared.items(of: id)
        let summary = try await shared.summary(of: id)
        let (rows, found) = items.list.page(matching: search, now: Date(), offset: offset, limit: limit)
        return .ok(.init(body: .json(.init(
            list: .init(summary), items: rows, found: found, seq: items.seq,
            undo: next.undo.map { Components.Schemas.ListStep($0, naming: summary.access.name) },
            redo: next.redo.map { Components.Schemas.ListStep($0, naming: summary.access.name) }
        ))))
    }

    func renameList(_ input: Operations.RenameList.Input) async throws -> Operations.RenameList.Output {
        let id = try Query.listID(input.path.list)
        let body = switch input.body { case .json(let json): json }
        return .ok(.init(body: .json(.init(try await shared.rename(id, to: body.name)))))
    }

    func deleteList(_ input: Operations.DeleteList.Input) async throws -> Operations.DeleteList.Output {
        try await shared.delete(try Query.listID(input.path.list))
        return .noContent(.init())
    }

    func shareList(_ input: Operations.ShareList.Input) async throws -> Operations.ShareList.Output {
        let id = try Query.listID(input.path.list)
        let body = switch input.body { case .json(let json): json }
        return .ok(.init(body: .json(.init(try await shared.share(id, with: body.account)))))
    }

    func unshareList(_ input: Operations.UnshareList.Input) async throws -> Operations.UnshareList.Output {
        let id = try Query.listID(input.path.list)
        return .ok(.init(body: .json(.init(try await shared.unshare(id, with: input.path.account)))))
    }

    func addListTodo(_ input: Operations.AddListTodo.Input) async throws -> Operations.AddListTodo.Output {
        let id = try Query.listID(input.path.list)
        let body = switch input.body { case .json(let json): json }
        let (item, step) = try await shared.add(title: body.title, to: id)
        return .created(.init(body: .json(.init(step: .init(step), item: item))))
    }

    func editListTodo(_ input: Operations.EditListTodo.Input) async throws -> Operations.EditListTodo.Output {
        let id = try Query.listID(input.path.list)
        let itemID = try Query.itemID(input.path.id)
        let body = switch input.body { case .json(let json): json }
        // As for an item of the list: `null` clears the due date or the
        // location and leaves the other fields as they are.
        let nulls = RequestBodyMiddleware.nullFields
        let (item, step) = try await shared.edit(itemID, on: id) { item in try changes(from: body, nulls: nulls, to: item) }
        return .ok(.init(body: .json(.init(step: .init(step), item: item))))
    }

    func moveListTodo(_ input: Operations.MoveListTodo.Input) async throws -> Operations.MoveListTodo.Output {
        let id = try Query.listID(input.path.list)
        let itemID = try Query.itemID(input.path.id)
        let body = switch input.body { case .json(let json): json }
        let (item, step) = try await shared.move(itemID, on: id, Self.moveRequest(itemID, body))
        return .ok(.init(body: .json(.init(step: .init(step), item: item))))
    }

    func toggleListAll(_ input: Operations.ToggleListAll.Input) async throws -> Operations.ToggleListAll.Output {
        let body = switch input.body { case .json(let json): json }
        let step = try await shared.setAll(on: try Query.listID(input.path.list), completed: body.completed)
        return .ok(.init(body: .json(.init(step: .init(step)))))
    }

    func clearListCompleted(_ input: Operations.ClearListCompleted.Input) async throws -> Operations.ClearListCompleted.Output {
        let step = try await shared.clearCompleted(on: try Query.listID(input.path.list))
        return .ok(.init(body: .json(.init(step: .init(step)))))
    }

    func deleteListTodo(_ input: Operations.DeleteListTodo.Input) async throws -> Operations.DeleteListTodo.Output {
        let id = try Query.listID(input.path.list)
        let step = try await shared.remove(try Query.itemID(input.path.id), from: id)
        return .ok(.init(body: .json(.init(step: .init(step)))))
    }

    func undoListStep(_ input: Operations.UndoListStep.Input) async throws -> Operations.UndoListStep.Output {
        let id = try Query.listID(input.path.list)
        let body = switch input.body { case .json(let json): json }
        try Self.refuseNulls(["step"])
        let step = try await shared.undo(on: id, expecting: body.step)
        return .ok(.init(body: .json(.init(step: .init(step.summary, naming: try await shared.summary(of: id).access.name)))))
    }

    func redoListStep(_ input: Operations.RedoListStep.Input) async throws -> Operations.RedoListStep.Output {
        let id = try Query.listID(input.path.list)
        let body = switch input.body { case .json(let json): json }
        try Self.refuseNulls(["step"])
        let step = try await shared.redo(on: id, expecting: body.step)
        return .ok(.init(body: .json(.init(step: .init(step.summary, naming: try await shared.summary(of: id).access.name)))))
    }

    func listHistory(_ input: Operations.ListHistory.Input) async throws -> Operations.ListHistory.Output {
        let id = try Query.listID(input.path.list)
        let limit = input.query.limit ?? SharedListService.historyPage
        guard (1...SharedListSummary.largestHistoryPage).contains(limit) else {
            throw APIError.badRequest(
                "invalid query parameter “limit”: a page holds 1 to \(SharedListSummary.largestHistoryPage) steps, not \(limit)")
        }
        if let before = input.query.before, before < 1 {
            throw APIError.badRequest("invalid query parameter “before”: steps are numbered from 1, so \(before) names none")
        }
        let steps = try await shared.history(of: id, before: input.query.before, limit: limit)
        let access = try await shared.summary(of: id).access
        return .ok(.init(body: .json(.init(steps: steps.map { Components.Schemas.ListStep($0, naming: access.name) }))))
    }
}

extension APIHandler {
    /// Refuses a body that gives any of `fields` as `null`: the generated
    /// types read `null` as a field left out, but these fields are never
    /// nullable.
    ///
    /// - Throws: ``APIError`` 400 naming the first such field.
    static func refuseNulls(_ fields: [String]) throws {
        if let field = fields.first(where: RequestBodyMiddleware.nullFields.contains) {
            throw APIError.badRequest("invalid field “\(field)”: null is not allowed; leave the field out instead")
        }
    }
}

extension Components.Schemas.ListSummary {
    /// The list as its members see it.
    init(_ summary: SharedListSummary) {
        self.init(
            id: summary.id.uuidString, name: summary.name, owner: summary.owner.text,
            members: summary.members.map(\.text))
    }
}

extension Components.Schemas.ListOverview {
    /// The list as its members see it, with how many items it holds.
    init(_ summary: SharedListSummary, counts: SharedListCounts) {
        self.init(
            value1: .init(summary),
            value2: .init(itemCount: counts.items, completedCount: counts.completed))
    }
}

extension Components.Schemas.ListStep {
    /// The step, with what an undo or a redo left alone in words.
    init(_ step: SharedStep) {
        self.init(step.summary)
    }

    /// The step as its summary shows it; `naming` gives the name its
    /// messages show for an account key (the account as it was made).
    init(_ step: SharedStep.Summary, naming: (String) -> String = { $0 }) {
        let (kind, takesBack): (KindPayload, Int?) = switch step.kind {
        case .change: (.change, nil)
        case .undo(let seq): (.undo, seq)
        case .redo(let seq): (.redo, seq)
        }
        self.init(
            seq: step.seq, author: step.author, name: step.name, kind: kind, takesBack: takesBack, date: step.date,
            messages: step.messages(for: nil, naming: naming))
    }
}
