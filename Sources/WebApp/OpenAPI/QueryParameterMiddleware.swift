import HTTPTypes
import Hummingbird
import HummingbirdCore
import OpenAPIRuntime

/// Checks the query parameters whose errors the generated decoder words
/// without naming them (it speaks of a body): `?filter=` and `?sort=` of
/// `GET /api/todos` as the pages check them, and the whole numbers that
/// page a history (`before`, `after`, `limit`) or a list's items
/// (`offset`, `limit`), so that a wrong value is a 400 that names the
/// parameter and what it allows.
struct QueryParameterMiddleware: ServerMiddleware {
    /// The whole-number parameters of each operation that pages.
    static let wholeNumbers: [String: [String]] = [
        Operations.History.id: ["before", "after", "limit"],
        Operations.ListHistory.id: ["before", "limit"],
        Operations.HistoryTree.id: ["before", "limit"],
        Operations.ListTodos.id: ["offset", "limit"],
        Operations.GetList.id: ["offset", "limit"],
    ]

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let parameters = URI(request.path ?? "/").queryParameters
        if operationID == Operations.ListTodos.id {
            _ = try Query.filter(parameters)
            _ = try Query.sort(parameters)
        }
        if let names = Self.wholeNumbers[operationID] {
            for name in names {
                guard let text = parameters.get(name), Int(text) == nil else { continue }
                throw APIError.badRequest("invalid query parameter “\(name)”: “\(text)” is not a whole number")
            }
        }
        return try await next(request, body, metadata)
    }
}
