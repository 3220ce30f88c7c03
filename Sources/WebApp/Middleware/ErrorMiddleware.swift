import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import OpenAPIRuntime
import TodoStore
import Todos

/// Turns every error thrown below it into a JSON answer `{"error": "…"}`:
/// ``APIError`` and Hummingbird's errors keep their status, a failure of the
/// to-do domain or of the shared lists gets the status that names it (a
/// store that cannot be reached, such as PostgreSQL while it restarts, 503), a body that does
/// not decode is a 400 that says where (a 422 when the domain refuses a
/// well-formed value), the generated API's own errors keep their 4xx
/// status and say what was wrong, a request whose client went away
/// while sending it is logged as a client abort, and anything unexpected is a
/// 500 whose details go to the log, never to the client. A store's failure
/// is a 503 whose details (which file or database, what went wrong) go to
/// the log; in local mode, where the one person using the server also runs
/// it, they go to the page as well (a full disk is not fixed by trying again).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Whether the answer to a store's failure says what failed (local
    /// mode), not only to try again (team mode).
    var showsStoreDetails = false

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let (status, message) = Self.answer(error, request: request, context: context, showsStoreDetails: showsStoreDetails)
            return Self.response(status: status, message: message, headers: (error as? HTTPError)?.headers ?? [:])
        }
    }

    /// The status and message that answer `error`, logged as it deserves:
    /// a client's abort as information, a store's failure as a warning with
    /// its details (which go to the message too when `showsStoreDetails`),
    /// anything unexpected as an error whose details stay in the log.
    static func answer(
        _ error: any Error, request: Request, context: Context, showsStoreDetails: Bool
    ) -> (HTTPResponse.Status, String) {
        var (status, message) = describe(error, request: request)
        let logged = logged(error)
        if showsStoreDetails, let logged { message = logged }
        if isClientAbort(error) {
            context.logger.info(
                "client aborted \(request.method) \(request.uri.path): the connection closed before the request body was complete"
            )
        } else if let logged {
            context.logger.warning("\(request.method) \(request.uri.path): the store failed: \(logged)")
        } else if status == .internalServerError {
            context.logger.error("\(request.method) \(request.uri.path) failed: \(String(reflecting: error))")
        }
        return (status, message)
    }

    /// What `error` keeps for the log alone (``APIError/logged``), the
    /// generated API's wrapping or the domain's failure taken off.
    static func logged(_ error: any Error) -> String? {
        switch error {
        case let error as ServerError: logged(error.underlyingError)
        case let error as APIError: error.logged
        case let failure as TodoFailure: TodoService.apiError(for: failure).logged
        case let error as StoreError: error.description
        default: nil
        }
    }

    /// The status and message that answer `error`.
    static func describe(_ error: any Error, request: Request) -> (HTTPResponse.Status, String) {
        if let refused = APIError.sharedLists(error) { return (refused.status, refused.message) }
        switch error {
        case let error as ServerError:
            return describe(error, request: request)
        case let error as APIError:
            return (error.status, error.message)
        case let failure as TodoFailure:
            let error = TodoService.apiError(for: failure)
            return (error.status, error.message)
        case let error as HTTPError:
            return (error.status, error.body ?? Self.defaultMessage(for: error.status, request: request))
        case let error as StoreError where error.outcomeIsUnknown:
            return (.serviceUnavailable, APIError.outcomeUnknownMessage)
        case is StoreError:
            // The details (a path, a server's message) go to the log.
            return (.serviceUnavailable, APIError.storeFailedMessage)
        case is NIOTooManyBytesError:
            return (.contentTooLarge, "the request body is too large")
        case _ where isClientAbort(error):
            return (.badRequest, "the connection closed before the request body was complete")
        case let error as DecodingError:
            return describe(error, allowedFields: nil)
        case let error as any HTTPResponseError:
            return (error.status, Self.defaultMessage(for: error.status, request: request))
        default:
            return (.internalServerError, "internal error")
        }
    }

    /// The status and message for an error of the generated API: its
    /// cause's when that is one of ours or a body that does not decode, else
    /// the runtime's own 4xx with its description (a query parameter that
    /// is not one of the allowed values, a missing header), or a 500.
    private static func describe(_ error: ServerError, request: Request) -> (HTTPResponse.Status, String) {
        switch error.underlyingError {
        case let decoding as DecodingError:
            return describe(decoding, allowedFields: OpenAPIDocument.shipped?.bodyFields[error.operationID])
        case is APIError, is TodoFailure, is HTTPError, is NIOTooManyBytesError, is StoreError:
            return describe(error.underlyingError, request: request)
        case let underlying where isClientAbort(underlying) || APIError.sharedLists(underlying) != nil:
            return describe(underlying, request: request)
        default:
            guard (400..<500).contains(error.httpStatus.code) else { return (.internalServerError, "internal error") }
            return (error.httpStatus, error.causeDescription)
        }
    }

    /// A body or parameter that does not decode: 400 that says where, or 422
    /// when the domain refuses a well-formed value (a span that ends before
    /// it starts, a date past the year 9999).
    private static func describe(_ error: DecodingError, allowedFields: [String]?) -> (HTTPResponse.Status, String) {
        if case .dataCorrupted(let context) = error {
            if context.underlyingError is TodoError {
                return (.unprocessableContent, JSONBody.describe(error))
            }
            // The generated types' word for a field that the schema does not have.
            if context.debugDescription.hasPrefix("Additional properties are disabled"), let field = context.codingPath.last {
                let allowed = allowedFields.map { "; the allowed fields are \($0.joined(separator: ", "))" } ?? ""
                return (.badRequest, "invalid field “\(field.stringValue)”: unknown field\(allowed)")
            }
        }
        return (.badRequest, JSONBody.describe(error))
    }

    /// Whether `error` says that the client closed the connection (or sent
    /// a request that ends early) while its request was being read: the
    /// client's doing, not the server's.
    static func isClientAbort(_ error: any Error) -> Bool {
        switch error {
        case let error as ServerError: isClientAbort(error.underlyingError)
        case is HTTPParserError: true
        case let error as ChannelError: [.eof, .ioOnClosedChannel, .inputClosed, .alreadyClosed].contains(error)
        case let error as IOError: [ECONNRESET, EPIPE].contains(error.errnoCode)
        default: false
        }
    }

    private static func defaultMessage(for status: HTTPResponse.Status, request: Request) -> String {
        switch status {
        case .notFound: "no route for \(request.method) \(request.uri.path)"
        case .methodNotAllowed: "\(request.method) is not allowed on \(request.uri.path)"
        case .contentTooLarge: "the request body is too large"
        default: status.reasonPhrase.lowercased()
        }
    }

    /// A JSON error answer.
    static func response(status: HTTPResponse.Status, message: String, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let body = (try? encoder.encode(Components.Schemas._Error(error: message))) ?? Data(#"{"error":"error"}"#.utf8)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
