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
    /// What goes to the server's log and never to the client: the details
    /// of a store's failure (a file's path, a database's address).
    public var logged: String?

    /// Creates an error answered with `status` and `message`, with `logged`
    /// for the server's log only.
    public init(_ status: HTTPResponse.Status, _ message: String, logged: String? = nil) {
        self.status = status
        self.message = message
        self.logged = logged
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
    /// 503: the store cannot read or save now; `detail` (which file, which
    /// database, what went wrong) goes to the log, not to the client.
    static func storeFailed(_ detail: String) -> APIError {
        APIError(.serviceUnavailable, storeFailedMessage, logged: detail)
    }
    /// What a client is told when the store failed.
    static let storeFailedMessage = "the data cannot be read or saved right now; try again in a moment"
    /// What a client is told when the connection to the database failed as
    /// its change was being saved, and whether it was could not be learnt.
    static let outcomeUnknownMessage =
        "whether the change was saved is not known: the connection to the database failed as it was being saved;"
        + " reload to see before making it again"
}
