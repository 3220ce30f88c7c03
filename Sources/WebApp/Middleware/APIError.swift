import Foundation
import Hummingbird

/// An error that a request caused, answered with its status and a JSON body
/// `{"error": "…"}` that names the problem.
///
/// ```swift
/// throw APIError(.notFound, "no to-do item has the id 42")
/// ```
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status of the answer, a 4xx for anything the client did.
    public var status: HTTPResponse.Status
    /// What was wrong, for a person reading the response.
    public var message: String

    /// Creates an error answered with `status` and `message`.
    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The status and the message.
    public var description: String { "\(status.code) \(message)" }

    /// 400: the request's body or parameters are not what the route takes.
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, message) }
    /// 404: nothing has the identifier in the path.
    static func notFound(_ message: String) -> APIError { APIError(.notFound, message) }
    /// 409: the request conflicts with the current state (nothing to undo, …).
    static func conflict(_ message: String) -> APIError { APIError(.conflict, message) }
    /// 422: the body is well formed but a field's value is not allowed.
    static func invalidField(_ message: String) -> APIError { APIError(.unprocessableContent, message) }
}
