import Foundation
import Hummingbird
import Todos
import NIOCore

/// Reads JSON request bodies within the size limit, with errors that name
/// the problem.
enum JSONBody {
    /// Decodes the body of `request` as `T`.
    ///
    /// - Throws: ``APIError`` 413 when the body exceeds `limit` bytes, 415
    ///   when it is declared as something other than JSON, 400 when it is not
    ///   RFC 8259 JSON in UTF-8 or lacks a field, naming the field.
    static func decode<T: Decodable>(
        _ type: T.Type,
        from request: Request,
        limit: Int,
        decoder: JSONDecoder = JSONDecoder()
    ) async throws -> T {
        if let contentType = request.headers[.contentType],
            !contentType.lowercased().hasPrefix("application/json")
        {
            throw APIError(.unsupportedMediaType, "the request body must be application/json, not \(contentType)")
        }
        if let contentType = request.headers[.contentType]?.lowercased(), let charset = contentType.range(of: "charset=") {
            let name = contentType[charset.upperBound...].prefix { $0 != ";" }.trimmingCharacters(in: .init(charactersIn: "\" "))
            guard name == "utf-8" else {
                throw APIError(.unsupportedMediaType, "the request body must be application/json in UTF-8, not charset \(name)")
            }
        }
        let data = try await collect(request, limit: limit)
        guard !data.isEmpty else { throw APIError.badRequest("the request body is empty; expected a JSON object") }
        try validate(Array(data))
        do {
            return try decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            // A well-formed value the domain refuses (a span that ends before
            // it starts, a date past the year 9999) is 422, as when it comes
            // from a field the handler reads itself; malformed JSON is 400.
            if case .dataCorrupted(let context) = error, context.underlyingError is TodoError {
                throw APIError.invalidField(describe(error))
            }
            throw APIError.badRequest(describe(error))
        }
    }

    /// The whole body of `request` as bytes, at most `limit` of them.
    ///
    /// - Throws: ``APIError`` 413 when the body is larger.
    static func collect(_ request: Request, limit: Int) async throws -> Data {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw tooLarge(limit)
        }
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw tooLarge(limit)
        }
    }

    private static func tooLarge(_ limit: Int) -> APIError {
        APIError(.contentTooLarge, "the request body is larger than the limit of \(limit) bytes")
    }

    /// A sentence that says what a decoding error found wrong, and where.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let names = codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.isEmpty ? "body" : "field “\(names.joined(separator: ".").replacingOccurrences(of: ".[", with: "["))”"
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return "malformed JSON: the request body is not valid JSON"
            }
            return "invalid \(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "missing \(path(context.codingPath + [key]))"
        case .typeMismatch(let type, let context):
            return "invalid \(path(context.codingPath)): expected \(describe(type))"
        case .valueNotFound(let type, let context):
            return "invalid \(path(context.codingPath)): expected \(describe(type)), found null"
        @unknown default:
            return "malformed JSON"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Double.Type: "a number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "a JSON object"
        default: "a \(type)"
        }
    }
}
