import Foundation
import Hummingbird
import Todos

/// The server-rendered pages of the to-do app and the landing page, and the
/// fragments the script swaps in when the state changed.
struct PageController {
    let service: TodoService
    let csrfToken: String
    /// The id `/events` gives the state now (``EventBroadcaster/currentEvent(mark:)``):
    /// read before a page's state, for its ``Layout/eventsSince``.
    let eventID: @Sendable () async -> String?

    /// The list's regions as `request` asks for them (`filter`, `sort`,
    /// `search`, `steps`, `rows`).
    private func listView(_ request: Request) async throws -> TodoListView {
        let (filter, sort, steps, rows) = (
            try Query.filter(request), try Query.sort(request), try Query.historySteps(request), try Query.rowWindow(request)
        )
        return try await TodoListView(
            service: service, filter: filter, sort: sort, search: try Query.search(request), historySteps: steps, window: rows
        )
    }

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/") { _, _ in
            Responses.html(LandingPage(csrfToken: csrfToken).render())
        }
        router.get("/todos") { request, _ in
            // Before the read: a change in between is told again, never missed.
            let since = await eventID()
            let view = try await listView(request)
            return await Responses.html { TodoPage(view: view, csrfToken: csrfToken, eventsSince: since).render() }
        }
        router.get("/todos/fragment") { request, _ in
            let view = try await listView(request)
            return await Responses.html { view.regions }
        }
        router.get("/todos/items/{id}") { request, context in
            let id: UUID
            switch try Query.itemOnPage(context) {
            case .id(let named):
                id = named
            case .start(let prefix, let typed):
                // The short reference `rewind todo list` prints: to the item's own address.
                let matches = try await service.read { $0.todos.ids(startingWith: prefix, limit: 4) }
                return try Query.itemAddress("/todos/items/", of: typed, matching: matches, request)
            }
            let steps = try Query.historySteps(request)
            let since = await eventID()
            var page = try await TodoDetailPage(item: service.item(id), service: service, csrfToken: csrfToken, historySteps: steps)
            page.eventsSince = since
            return Responses.html(page.render()).response(from: request, context: context)
        }
        router.get("/todos/items/{id}/fragment") { request, context in
            let (id, steps) = (try Query.itemID(context), try Query.historySteps(request))
            let page = try await TodoDetailPage(item: service.item(id), service: service, csrfToken: csrfToken, historySteps: steps)
            return Responses.html(HTML { html in
                page.regions(into: &html)
                page.historyPanel(into: &html)
            })
        }
    }
}
