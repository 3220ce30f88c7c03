import Foundation
import HTTPTypes
import OpenAPIRuntime
import Todos

/// Checks the body of every operation that takes one before the generated
/// code decodes it: declared as JSON in UTF-8 (else 415), within the size
/// limit (else 413), not empty, and JSON exactly as RFC 8259 writes it (else
/// 400; Foundation's decoder would also take trailing commas, UTF-16 and
/// UTF-32), with no field given twice and none the schema lacks (400 that
/// lists the allowed ones; the generated decoder would first complain of a
/// missing field). It
/// also notes which top-level fields are `null`, which the generated types
/// cannot tell from fields left out (``nullFields``).
struct RequestBodyMiddleware: ServerMiddleware {
    /// The largest body accepted, in bytes.
    let limit: Int

    /// The top-level fields that the body of the operation being handled
    /// gave as `null`; empty outside a handler or for a body without any.
    @TaskLocal static var nullFields: Set<String> = []

    /// The operations whose request has a body (a test keeps this in step
    /// with openapi.yaml).
    static let operationsWithBody: Set<String> = [
        Operations.AddTodo.id, Operations.EditTodo.id, Operations.ToggleAll.id, Operations.Jump.id,
        Operations.PressKeys.id, Operations.CreateList.id, Operations.RenameList.id, Operations.ShareList.id,
        Operations.AddListTodo.id, Operations.EditListTodo.id, Operations.UndoListStep.id, Operations.RedoListStep.id,
        Operations.MoveTodo.id, Operations.MoveListTodo.id, Operations.ToggleListAll.id,
    ]

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard Self.operationsWithBody.contains(operationID) else { return try await next(request, body, metadata) }
        try Self.checkContentType(request.headerFields[.contentType])
        let bytes = try await collect(body, declaredLength: request.headerFields[.contentLength].flatMap(Int.init))
        guard !bytes.isEmpty else { throw APIError.badRequest("the request body is empty; expected a JSON object") }
        // The members are found by the check of the grammar: no second
        // parse into Foundation objects for every request.
        let members = try JSONBody.validate(bytes)
        // A name given twice would be read two ways (Foundation's decoder
        // takes the first value), so it is refused before anything reads it.
        var names = Set<String>()
        if let repeated = members.first(where: { !names.insert($0.name).inserted }) {
            throw APIError.badRequest("the field “\(repeated.name)” is given twice")
        }
        if let allowed = OpenAPIDocument.shipped?.bodyFields[operationID],
            let unknown = members.lazy.map(\.name).filter({ !allowed.contains($0) }).min()
        {
            throw APIError.badRequest("invalid field “\(unknown)”: unknown field; the allowed fields are \(allowed.joined(separator: ", "))")
        }
        let nulls = Set(members.filter(\.isNull).map(\.name))
        do {
            return try await Self.$nullFields.withValue(nulls) {
                try await next(request, HTTPBody(bytes), metadata)
            }
        } catch let error as ServerError where error.operationInput == nil {
            throw Self.namingTheField(error, members: members)
        }
    }

    /// `error`, or a 400 that names the field when Foundation's decoder
    /// refused a number without saying where. The body is RFC 8259 JSON by
    /// then, so such an error means a number that the field's integer type
    /// cannot hold (`1.5`, `1e30`, or `1e400`, beyond any number's range);
    /// every top-level number of this API's bodies is a whole number.
    private static func namingTheField(_ error: ServerError, members: [JSONBody.Member]) -> any Error {
        guard case .dataCorrupted(let context)? = error.underlyingError as? DecodingError, context.codingPath.isEmpty else {
            return error
        }
        let field = members.sorted { $0.name < $1.name }.first { member in
            guard let number = member.number else { return false }
            return Double(number).flatMap { Int64(exactly: $0) } == nil
        }
        guard let field else { return error }
        return APIError.badRequest("invalid field “\(field.name)”: expected a whole number")
    }

    /// Checks that a `Content-Type`, when there is one, is JSON in UTF-8.
    ///
    /// - Throws: ``APIError`` 415 that names what was declared.
    static func checkContentType(_ contentType: String?) throws {
        guard let contentType else { return }
        let lowered = contentType.lowercased()
        let mediaType = lowered.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        guard mediaType == "application/json" else {
            throw APIError(.unsupportedMediaType, "the request body must be application/json, not \(contentType)")
        }
        if let charset = lowered.range(of: "charset=") {
            let name = lowered[charset.upperBound...].prefix { $0 != ";" }.trimmingCharacters(in: .init(charactersIn: "\" "))
            guard name == "utf-8" else {
                throw APIError(.unsupportedMediaType, "the request body must be application/json in UTF-8, not charset \(name)")
            }
        }
    }

    /// The whole body, at most ``limit`` bytes of it.
    ///
    /// - Throws: ``APIError`` 413 when the body is larger.
    private func collect(_ body: HTTPBody?, declaredLength: Int?) async throws -> [UInt8] {
        let tooLarge = APIError(.contentTooLarge, "the request body is larger than the limit of \(limit) bytes")
        if let declaredLength, declaredLength > limit { throw tooLarge }
        guard let body else { return [] }
        var bytes: [UInt8] = []
        for try await chunk in body {
            guard bytes.count + chunk.count <= limit else { throw tooLarge }
            bytes += chunk
        }
        return bytes
    }
}
