import HTTPTypes
import Hummingbird
import HummingbirdCore
import OpenAPIRuntime

/// Checks `?filter=` and `?sort=` of `GET /api/todos` as the pages do, so
/// that a value the list does not have is a 400 that names the parameter
/// and its allowed values (the generated decoder's error names neither).
struct ListQueryMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if operationID == Operations.ListTodos.id {
            let parameters = URI(request.path ?? "/").queryParameters
            _ = try Query.filter(parameters)
            _ = try Query.sort(parameters)
        }
        return try await next(request, body, metadata)
    }
}
