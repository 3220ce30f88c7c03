import Foundation
import Todos

/// `/api/todos…`: the items.
extension APIHandler {
    func listTodos(_ input: Operations.ListTodos.Input) async throws -> Operations.ListTodos.Output {
        let filter = input.query.filter.flatMap { TodoFilter(rawValue: $0.rawValue) } ?? .all
        let sort = input.query.sort.flatMap { TodoSort(rawValue: $0.rawValue) } ?? .list
        let search = try Query.search(input.query.search)
        let (offset, limit) = try Self.itemPage(offset: input.query.offset, limit: input.query.limit)
        let (items, found, counts) = try await todos.list(
            filter, sortedBy: sort, matching: search, now: todos.now(), offset: offset, limit: limit)
        let body = Components.Schemas.TodoList(
            items: items,
            found: found,
            counts: .init(total: counts.total, active: counts.active, completed: counts.completed, overdue: counts.overdue),
            history: .init(try await todos.history(), page: .standard)
        )
        return .ok(.init(body: .json(body)))
    }

    /// The most items `GET /api/todos` and `GET /api/lists/{list}` skip (`offset`).
    static let largestOffset = 1_000_000_000
    /// The most items a page of `GET /api/todos` or `GET /api/lists/{list}` holds (`limit`).
    static let largestLimit = 1_000_000

    /// The page of items that `offset` (0 by default) and `limit` (every
    /// item by default) ask for.
    ///
    /// - Throws: ``APIError`` 400 for an offset outside 0 to
    ///   ``largestOffset`` or a limit outside 1 to ``largestLimit``.
    static func itemPage(offset: Int?, limit: Int?) throws -> (offset: Int, limit: Int?) {
        let offset = offset ?? 0
        guard (0...largestOffset).contains(offset) else {
            throw APIError.badRequest("invalid query parameter “offset”: a whole number from 0 to \(largestOffset), not \(offset)")
        }
        if let limit, !(1...largestLimit).contains(limit) {
            throw APIError.badRequest("invalid query parameter “limit”: a page holds 1 to \(largestLimit) items, not \(limit)")
        }
        return (offset, limit)
    }

    func addTodo(_ input: Operations.AddTodo.Input) async throws -> Operations.AddTodo.Output {
        let body = switch input.body { case .json(let json): json }
        let due = try dueDate(body.due, text: body.dueText, timeZone: body.timeZone)
        let draft = TodoItem.Draft(
            title: body.title, details: body.details ?? "", due: due ?? .unknown, location: body.location ?? .unknown
        )
        let item = try await todos.app.send(.create(draft, at: body.position))
        return .created(.init(body: .json(item)))
    }

    func deleteAllTodos(_ input: Operations.DeleteAllTodos.Input) async throws -> Operations.DeleteAllTodos.Output {
        let ids = try await todos.read { Array($0.todos.ids) }
        guard !ids.isEmpty else { throw APIError.conflict("there are no items to delete") }
        return .ok(.init(body: .json(.init(removed: try await todos.app.send(.removeItems(ids))))))
    }

    func toggleAll(_ input: Operations.ToggleAll.Input) async throws -> Operations.ToggleAll.Output {
        let body = switch input.body { case .json(let json): json }
        let items = try await todos.app.send(body.completed ? .completeAll : .reopenAll)
        return .ok(.init(body: .json(.init(items: items))))
    }

    func clearCompleted(_ input: Operations.ClearCompleted.Input) async throws -> Operations.ClearCompleted.Output {
        .ok(.init(body: .json(.init(removed: try await todos.app.send(.removeCompleted)))))
    }

    func getTodo(_ input: Operations.GetTodo.Input) async throws -> Operations.GetTodo.Output {
        .ok(.init(body: .json(try await todos.item(Query.itemID(input.path.id)))))
    }

    func editTodo(_ input: Operations.EditTodo.Input) async throws -> Operations.EditTodo.Output {
        let id = try Query.itemID(input.path.id)
        let edit = switch input.body { case .json(let json): json }
        let nulls = RequestBodyMiddleware.nullFields
        // Read, checked against `was` and changed in one turn: two such
        // edits at once (two pages renaming one item) are told apart. A
        // change without `was` (or of another process) may still come between.
        guard edit.was != nil else { return .ok(.init(body: .json(try await self.edit(id, edit, nulls: nulls)))) }
        return .ok(.init(body: .json(try await todos.guardedEdits.inTurn { try await self.edit(id, edit, nulls: nulls) })))
    }

    /// Applies `edit` to the item `id` and answers the item as it is then.
    private func edit(_ id: UUID, _ edit: Components.Schemas.ItemEdit, nulls: Set<String>) async throws -> TodoItem {
        let item = try await todos.item(id)
        let changes = try changes(from: edit, nulls: nulls, to: item)
        guard !changes.isEmpty else { return item }
        return try changed(await todos.app.send(.alter(id, changes)), id: id)
    }

    func deleteTodo(_ input: Operations.DeleteTodo.Input) async throws -> Operations.DeleteTodo.Output {
        let id = try Query.itemID(input.path.id)
        return .ok(.init(body: .json(.init(removed: try await todos.app.send(.removeItems([id]))))))
    }

    func toggleItem(_ input: Operations.ToggleItem.Input) async throws -> Operations.ToggleItem.Output {
        let id = try Query.itemID(input.path.id)
        // Decided by the store on the item as it is then: two toggles at once bring it back.
        let updated = try await todos.app.send(.toggle([id]))
        return .ok(.init(body: .json(try changed(updated, id: id))))
    }

    func moveTodo(_ input: Operations.MoveTodo.Input) async throws -> Operations.MoveTodo.Output {
        let id = try Query.itemID(input.path.id)
        let body = switch input.body { case .json(let json): json }
        return .ok(.init(body: .json(try await todos.app.send(Self.moveRequest(id, body)))))
    }

    // MARK: Helpers

    /// What a ``Components/Schemas/Move`` body asks for the item with `id`.
    ///
    /// - Throws: ``APIError`` 400 for none or several of its fields, a
    ///   `null`, or a neighbour that is not a UUID.
    static func moveRequest(_ id: UUID, _ body: Components.Schemas.Move) throws -> ItemMover.Request {
        // The generated type reads `null` as a field left out; here it is a wrong value.
        for field in ["before", "after", "position"] where RequestBodyMiddleware.nullFields.contains(field) {
            throw APIError.badRequest("invalid field “\(field)”: expected \(field == "position" ? "a whole number" : "an item's id"), found null")
        }
        switch (body.before, body.after, body.position) {
        case (let other?, nil, nil): return .move(id, before: try neighbour(other, field: "before"))
        case (nil, let other?, nil): return .move(id, after: try neighbour(other, field: "after"))
        case (nil, nil, let position?): return .move(id, to: position)
        case (nil, nil, nil): throw APIError.badRequest("missing field: give “before” or “after” (an item's id) or “position” (0 is the top)")
        default: throw APIError.badRequest("give one of “before”, “after” and “position”, not several")
        }
    }

    /// The id of the item a move names in `field`.
    ///
    /// - Throws: ``APIError`` 400 when it is not a UUID.
    private static func neighbour(_ text: String, field: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else {
            throw APIError.badRequest("invalid field “\(field)”: “\(text)” is not an item id; ids are UUIDs such as 0B7E4C1A-0000-4000-8000-000000000000")
        }
        return id
    }

    /// The due date a request asks for: `due` as JSON, or `dueText` read by
    /// the domain's parser in the browser's `timeZone`; `nil` when neither.
    private func dueDate(_ due: TodoDate?, text: String?, timeZone: String?) throws -> TodoDate? {
        let zone = try Self.zone(timeZone)
        guard let text else { return due }
        guard due == nil else {
            throw APIError.invalidField("give either “due” or “dueText”, not both")
        }
        do {
            return try DueDateParser(now: todos.now(), timeZone: zone).parse(text)
        } catch {
            throw APIError.invalidField("invalid field “dueText”: \(error.description)")
        }
    }

    /// The time zone `timeZone` names, the server's without one. Checked
    /// whenever it is given, also without a `dueText` to read in it (where
    /// it changes nothing), so that a client that names a wrong one is told.
    ///
    /// - Throws: ``APIError`` 422 for a name that is not a time zone.
    static func zone(_ timeZone: String?) throws -> TimeZone {
        guard let timeZone else { return .current }
        guard let named = TimeZone(identifier: timeZone) else {
            throw APIError.invalidField("invalid field “timeZone”: “\(timeZone)” is not a time zone such as Europe/Berlin")
        }
        return named
    }

    /// The changes an edit asks for (of an item of the list, or of a
    /// shared list's), leaving out those that set a field to the value it
    /// has (``TodoItem/effective(_:)``), so that saving an unchanged form
    /// records no step. `nulls` are the fields the body gave as `null`:
    /// `due` and `location` are cleared by it, the others are left as they are.
    func changes(
        from edit: Components.Schemas.ItemEdit, nulls: Set<String>, to item: TodoItem
    ) throws -> [TodoItem.Change] {
        var changes: [TodoItem.Change] = []
        if let title = edit.title { changes.append(.title(to: title)) }
        if let details = edit.details { changes.append(.details(to: details)) }
        _ = try Self.zone(edit.timeZone)
        let clearsDue = nulls.contains("due")
        if edit.dueText != nil, edit.due != nil || clearsDue {
            throw APIError.invalidField("give either “due” or “dueText”, not both")
        }
        if edit.dueText != nil || edit.due != nil || clearsDue {
            changes.append(.due(to: try dueDate(edit.due, text: edit.dueText, timeZone: edit.timeZone) ?? .unknown))
        }
        if edit.location != nil || nulls.contains("location") {
            changes.append(.location(to: edit.location ?? .unknown))
        }
        if let completed = edit.completed { changes.append(completed ? .complete : .reopen) }
        let effective = item.effective(changes)
        try Self.check(edit.was, against: item, changing: effective)
        return effective
    }

    /// Refuses an edit that began from values the item no longer has
    /// (`was`), for the text fields it changes: someone changed them since,
    /// and saving would replace their change unseen. A field the edit
    /// leaves alone, or sets to the value it already has, is not compared.
    ///
    /// - Throws: ``APIError`` 409 naming the field and its value now.
    static func check(
        _ was: Components.Schemas.ItemEditBase?, against item: TodoItem, changing changes: [TodoItem.Change]
    ) throws {
        guard let was else { return }
        for change in changes {
            switch change {
            case .title where was.title.map({ !Self.sameText($0, item.title) }) == true:
                throw APIError.conflict(
                    "the title was changed to “\(item.title)” since this edit began from “\(was.title ?? "")”; nothing was changed"
                        + " (send the edit again with “was” as it is now to replace it)")
            case .details where was.details.map({ !Self.sameText($0, item.details) }) == true:
                throw APIError.conflict(
                    "the details were changed since this edit began; nothing was changed"
                        + " (send the edit again with “was” as they are now to replace them)")
            default: continue
            }
        }
    }

    /// Whether two texts are the same but for how their lines end: a page
    /// reads the text it was given with every CR LF and CR as LF.
    private static func sameText(_ one: String, _ other: String) -> Bool {
        func lines(_ text: String) -> String {
            text.utf8.contains(13) ? text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n") : text
        }
        return lines(one) == lines(other)
    }

    /// The item with `id` among the `updated` ones.
    ///
    /// - Throws: ``APIError`` 404 when it is not there: another request
    ///   deleted it between the change and the answer.
    private func changed(_ updated: [TodoItem], id: UUID) throws -> TodoItem {
        guard let item = updated.first(where: { $0.id == id }) else {
            throw APIError.notFound("There is no item with id \(id.uuidString).")
        }
        return item
    }
}
