import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Todos

/// Turns every error thrown below it into a JSON answer `{"error": "…"}`:
/// ``APIError`` and Hummingbird's errors keep their status, a failure of the
/// to-do domain gets the status that names it, a body that does
/// not decode is a 400 that says where, a request whose client went away
/// while sending it is logged as a client abort, and anything unexpected is a
/// 500 whose details go to the log, never to the client.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let (status, message) = Self.describe(error, request: request)
            if Self.isClientAbort(error) {
                context.logger.info(
                    "client aborted \(request.method) \(request.uri.path): the connection closed before the request body was complete"
                )
            } else if status == .internalServerError {
                context.logger.error("\(request.method) \(request.uri.path) failed: \(String(reflecting: error))")
            }
            return Self.response(status: status, message: message, headers: (error as? HTTPError)?.headers ?? [:])
        }
    }

    /// The status and message that answer `error`.
    static func describe(_ error: any Error, request: Request) -> (HTTPResponse.Status, String) {
        switch error {
        case let error as APIError:
            return (error.status, error.message)
        case let failure as TodoFailure:
            let error = TodoService.apiError(for: failure)
            return (error.status, error.message)
        case let error as HTTPError:
            return (error.status, error.body ?? Self.defaultMessage(for: error.status, request: request))
        case is NIOTooManyBytesError:
            return (.contentTooLarge, "the request body is too large")
        case _ where isClientAbort(error):
            return (.badRequest, "the connection closed before the request body was complete")
        case let error as DecodingError:
            return (.badRequest, JSONBody.describe(error))
        case let error as any HTTPResponseError:
            return (error.status, Self.defaultMessage(for: error.status, request: request))
        default:
            return (.internalServerError, "internal error")
        }
    }

    /// Whether `error` says that the client closed the connection (or sent
    /// a request that ends early) while its request was being read: the
    /// client's doing, not the server's.
    static func isClientAbort(_ error: any Error) -> Bool {
        switch error {
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
        let body = (try? encoder.encode(ErrorBody(error: message))) ?? Data(#"{"error":"error"}"#.utf8)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
