import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Refuses, before anything is done, a request whose `Accept` header
/// allows no JSON: every answer of the API is `application/json`. The
/// generated code checks `Accept` only once the handler has answered, so a
/// change was made and then reported as a failure (406), which a client
/// would make again.
struct AcceptMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let accept = request.headerFields[values: .accept].joined(separator: ",")
        guard request.headerFields[.accept] == nil || Self.allowsJSON(accept) else {
            throw APIError(
                .notAcceptable,
                "the API answers in JSON only: send an Accept header that allows application/json, or none; nothing was done")
        }
        return try await next(request, body, metadata)
    }

    /// Whether the media ranges of an `Accept` header allow
    /// `application/json`: `application/json`, `application/*` or `*/*`,
    /// with a weight above 0.
    static func allowsJSON(_ accept: String) -> Bool {
        accept.split(separator: ",").contains { range in
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, ["application/json", "application/*", "*/*"].contains(type) else { return false }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return weight > 0
        }
    }
}
