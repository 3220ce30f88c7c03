import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime

/// Registers the generated API's operations on a router, as the transport of
/// swift-openapi-hummingbird does, but hands Hummingbird an answer whose
/// length is known as one buffer.
///
/// Hummingbird writes such an answer (head, body and end) in one write. An
/// answer given as a stream of parts is written part by part, each written
/// out on its own: a write for the head and one for the body of every JSON
/// answer, and an instance stopped between them leaves a proxy with a head
/// whose body never comes (a client then sees an answer cut off, not
/// nginx's 502). The generated code has the whole JSON in memory already,
/// so nothing is held longer.
struct WholeAnswerTransport<Context: RequestContext>: ServerTransport {
    /// The router the operations are added to.
    let router: Router<Context>
    /// The largest answer of known length gathered into one buffer; a larger
    /// one (none of the API's today) is written as a stream.
    var largestWholeAnswer = 64 << 20

    /// Adds `handler` as the route of `method` on `path` (a template such as
    /// `/api/todos/{id}`).
    func register(
        _ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        let largest = largestWholeAnswer
        router.on(RouterPath(path), method: method) { request, context in
            let declared = request.headers[.contentLength].flatMap(Int.init)
            let body = HTTPBody(
                request.body.map { [UInt8](buffer: $0) },
                length: declared.map { .known(Int64($0)) } ?? .unknown,
                iterationBehavior: .single)
            var parameters: [String: Substring] = [:]
            for (name, value) in context.parameters where parameters[String(name)] == nil {
                parameters[String(name)] = value
            }
            let (head, answer) = try await handler(request.head, body, ServerRequestMetadata(pathParameters: parameters))
            return Response(status: head.status, headers: head.headerFields, body: try await Self.responseBody(answer, largest: largest))
        }
    }

    /// `answer` as one buffer when its length is known and at most
    /// `largest` bytes, else as a stream of its parts.
    static func responseBody(_ answer: HTTPBody?, largest: Int) async throws -> ResponseBody {
        guard let answer else { return ResponseBody() }
        if case .known(let length) = answer.length, length <= largest {
            var buffer = ByteBuffer()
            buffer.reserveCapacity(Int(length))
            for try await part in answer { buffer.writeBytes(part) }
            return ResponseBody(byteBuffer: buffer)
        }
        let parts = answer.map { ByteBuffer(bytes: $0) }
        return ResponseBody(asyncSequence: parts)
    }
}
