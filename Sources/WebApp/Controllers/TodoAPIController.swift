import Foundation
import Hummingbird
import Todos

/// The to-do JSON API (`/api/todos…`, `/api/history…`): every route that
/// changes something sends one request to the app domain and answers with
/// what the domain returned.
struct TodoAPIController {
    let service: TodoService
    let maxBodySize: Int

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/api/todos") { request, _ in
            let filter = try Query.filter(request)
            let sort = try Query.sort(request)
            let (items, counts) = try await service.list(filter, sortedBy: sort, now: service.now())
            return try await Responses.json(ListBody(items: items, counts: counts, history: HistoryBody(service.history())))
        }
        router.post("/api/todos") { request, _ in
            let body = try await decode(NewItemRequest.self, request)
            let due = try dueDate(body.due, text: body.dueText, timeZone: body.timeZone)
            let draft = TodoItem.Draft(
                title: body.title, details: body.details ?? "", due: due ?? .unknown, location: body.location ?? .unknown
            )
            let item = try await service.app.send(.create(draft, at: body.position))
            return try Responses.json(item, status: .created)
        }
        router.delete("/api/todos") { _, _ in
            let ids = try await service.read { Array($0.todos.ids) }
            guard !ids.isEmpty else { throw APIError.conflict("there are no items to delete") }
            return try await Responses.json(RemovedBody(removed: service.app.send(.removeItems(ids))))
        }
        router.post("/api/todos/toggle-all") { request, _ in
            let body = try await decode(ToggleAllRequest.self, request)
            return try await Responses.json(UpdatedBody(items: service.app.send(body.completed ? .finishAll : .unfinishAll)))
        }
        router.post("/api/todos/clear-completed") { _, _ in
            try Responses.json(RemovedBody(removed: await service.app.send(.clearFinished)))
        }
        router.get("/api/todos/{id}") { _, context in
            let id = try Self.id(context)
            return try await Responses.json(service.item(id))
        }
        router.patch("/api/todos/{id}") { request, context in
            let id = try Self.id(context)
            let body = try await decode(ItemEditRequest.self, request)
            let item = try await service.item(id)
            let changes = try changes(from: body, to: item)
            guard !changes.isEmpty else { return try Responses.json(item) }
            return try await changed(service.app.send(.alter(id, changes)), id: id)
        }
        router.delete("/api/todos/{id}") { _, context in
            let id = try Self.id(context)
            return try Responses.json(RemovedBody(removed: await service.app.send(.removeItems([id]))))
        }
        router.post("/api/todos/{id}/toggle") { _, context in
            let id = try Self.id(context)
            let item = try await service.item(id)
            return try await changed(service.app.send(item.isFinished ? .unfinish([id]) : .finish([id])), id: id)
        }
        router.get("/api/history") { _, _ in
            try await Responses.json(HistoryBody(service.history()))
        }
        router.get("/api/history/tree") { _, _ in
            try await Responses.json(service.historyTree())
        }
        router.post("/api/history/undo") { _, _ in
            try await moved(.undo)
        }
        router.post("/api/history/redo") { _, _ in
            try await moved(.redo)
        }
        router.post("/api/history/jump") { request, _ in
            switch try await decode(JumpRequest.self, request).target {
            case .position(let position): return try await moved(.jump(to: position))
            case .step(let number): return try await moved(.jumpToStep(number))
            }
        }
    }

    // MARK: Requests

    private func decode<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        try await JSONBody.decode(type, from: request, limit: maxBodySize, decoder: TodoJSON.makeDecoder())
    }

    /// The `{id}` of the path.
    ///
    /// - Throws: ``APIError`` 400 when it is not a UUID.
    static func id(_ context: some RequestContext) throws -> UUID {
        let text = context.parameters.get("id") ?? ""
        guard let id = UUID(uuidString: text) else {
            throw APIError.badRequest("“\(text)” is not an item id; ids are UUIDs such as 0B7E4C1A-0000-4000-8000-000000000000")
        }
        return id
    }

    /// The due date a request asks for: `due` as JSON, or `dueText` read by
    /// the domain's parser in the browser's `timeZone`; `nil` when neither.
    private func dueDate(_ due: TodoDate?, text: String?, timeZone: String?) throws -> TodoDate? {
        guard let text else { return due }
        guard due == nil else {
            throw APIError.invalidField("give either “due” or “dueText”, not both")
        }
        var zone = TimeZone.current
        if let timeZone {
            guard let named = TimeZone(identifier: timeZone) else {
                throw APIError.invalidField("invalid field “timeZone”: “\(timeZone)” is not a time zone such as Europe/Berlin")
            }
            zone = named
        }
        do {
            return try DueDateParser(now: service.now(), timeZone: zone).parse(text)
        } catch {
            throw APIError.invalidField("invalid field “dueText”: \(error.description)")
        }
    }

    /// The changes an edit asks for, leaving out fields that already have
    /// the asked value, so that saving an unchanged form records no step.
    private func changes(from edit: ItemEditRequest, to item: TodoItem) throws -> [TodoItem.Change] {
        var changes: [TodoItem.Change] = []
        if let title = edit.title, title.trimmingCharacters(in: .whitespacesAndNewlines) != item.title {
            changes.append(.title(to: title))
        }
        if let details = edit.details, details != item.details {
            changes.append(.details(to: details))
        }
        let askedDue: TodoDate?? = edit.dueText != nil
            ? .some(try dueDate(nil, text: edit.dueText, timeZone: edit.timeZone))
            : edit.due
        if edit.dueText != nil, edit.due != nil {
            throw APIError.invalidField("give either “due” or “dueText”, not both")
        }
        if let asked = askedDue {
            let due = asked ?? .unknown
            if due != item.due { changes.append(.due(to: due)) }
        }
        if let asked = edit.location {
            let location = asked ?? .unknown
            if location != item.location { changes.append(.location(to: location)) }
        }
        if let completed = edit.completed, completed != item.isFinished {
            changes.append(completed ? .finish : .unfinish)
        }
        return changes
    }

    // MARK: Answers

    /// The item with `id` among the `updated` ones.
    ///
    /// - Throws: ``APIError`` 404 when it is not there: another request
    ///   deleted it between the change and the answer.
    private func changed(_ updated: [TodoItem], id: UUID) throws -> Response {
        guard let item = updated.first(where: { $0.id == id }) else {
            throw APIError.notFound("There is no item with id \(id.uuidString).")
        }
        return try Responses.json(item)
    }

    /// Moves the history and answers with the step crossed and the history.
    ///
    /// - Throws: ``APIError`` 409 when there is nothing to undo or redo.
    private func moved(_ request: HistoryNavigator.Request) async throws -> Response {
        let body: HistoryMoveBody
        switch try await service.app.send(request) {
        case .undone(let name): body = HistoryMoveBody(undone: name, history: HistoryBody(try await service.history()))
        case .redone(let name): body = HistoryMoveBody(redone: name, history: HistoryBody(try await service.history()))
        case .jumped, .jumpedToStep: body = HistoryMoveBody(history: HistoryBody(try await service.history()))
        case .nothingToUndo: throw APIError.conflict("nothing to undo")
        case .nothingToRedo: throw APIError.conflict("nothing to redo")
        }
        return try Responses.json(body)
    }
}

/// The query parameters of list views.
enum Query {
    /// `?filter=all|active|completed|overdue`, `all` by default.
    static func filter(_ request: Request) throws -> TodoFilter {
        guard let text = request.uri.queryParameters.get("filter"), !text.isEmpty else { return .all }
        guard let filter = TodoFilter(rawValue: text) else {
            throw APIError.badRequest(
                "invalid query parameter “filter”: “\(text)” is not one of \(TodoFilter.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return filter
    }

    /// `?sort=list|smart` (or `order=`), `list` by default.
    static func sort(_ request: Request) throws -> TodoSort {
        let parameters = request.uri.queryParameters
        guard let text = parameters.get("sort") ?? parameters.get("order"), !text.isEmpty else { return .list }
        guard let sort = TodoSort(rawValue: text) else {
            throw APIError.badRequest(
                "invalid query parameter “sort”: “\(text)” is not one of \(TodoSort.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return sort
    }
}

/// `GET /api/todos`.
struct ListBody: Encodable {
    var items: [TodoItem]
    var counts: TodoCounts
    var history: HistoryBody
}

/// Answers of deletions: the items as they were.
struct RemovedBody: Encodable {
    var removed: [TodoItem]
}

/// Answers of changes of several items: their new versions.
struct UpdatedBody: Encodable {
    var items: [TodoItem]
}

/// `GET /api/history`: the steps, the position, and the Undo and Redo titles.
struct HistoryBody: Encodable {
    struct Step: Encodable {
        /// The step's name.
        var name: String
        /// When it was performed.
        var date: Date
        /// The position after the step: jumping there makes it the newest done step.
        var position: Int
        /// Whether the step is done (before the current position).
        var done: Bool
    }

    var steps: [Step]
    var position: Int
    var canUndo: Bool
    var canRedo: Bool
    var undoTitle: String
    var redoTitle: String

    init(_ overview: HistoryOverview) {
        steps = overview.steps.enumerated().map { index, step in
            Step(name: step.name, date: step.date, position: index + 1, done: index < overview.position)
        }
        position = overview.position
        canUndo = overview.canUndo
        canRedo = overview.canRedo
        undoTitle = overview.undoTitle
        redoTitle = overview.redoTitle
    }
}

/// Answers of undo, redo and jump.
struct HistoryMoveBody: Encodable {
    var undone: String?
    var redone: String?
    var history: HistoryBody

    private enum CodingKeys: String, CodingKey { case undone, redone, history }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(undone, forKey: .undone)
        try container.encodeIfPresent(redone, forKey: .redone)
        try container.encode(history, forKey: .history)
    }
}
