import Foundation
import Hummingbird
import Todos

/// The server-rendered pages of the to-do app and the landing page, and the
/// fragments the script swaps in when the state changed.
struct PageController {
    let service: TodoService
    let csrfToken: String

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/") { _, _ in
            Responses.html(LandingPage(csrfToken: csrfToken).render())
        }
        router.get("/todos") { request, _ in
            let view = try TodoListView(service: service, filter: Query.filter(request), sort: Query.sort(request))
            return Responses.html(TodoPage(view: view, csrfToken: csrfToken).render())
        }
        router.get("/todos/fragment") { request, _ in
            let view = try TodoListView(service: service, filter: Query.filter(request), sort: Query.sort(request))
            return Responses.html(view.regions)
        }
        router.get("/todos/items/{id}") { _, context in
            let item = try service.item(TodoAPIController.id(context))
            return Responses.html(TodoDetailPage(item: item, service: service, csrfToken: csrfToken).render())
        }
        router.get("/todos/items/{id}/fragment") { _, context in
            let item = try service.item(TodoAPIController.id(context))
            let page = TodoDetailPage(item: item, service: service, csrfToken: csrfToken)
            return Responses.html(HTML.joined([page.regions, HistoryPanel(history: page.history).render()]))
        }
        router.get("/api/csrf") { _, _ in
            try Responses.json(["token": csrfToken, "header": RequestGuardMiddleware<BasicRequestContext>.csrfHeaderName])
        }
    }
}
