import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import OpenAPIRuntime

/// Checks the query parameters whose errors the generated decoder words
/// without naming them (it speaks of a body): `?filter=` and `?sort=` of
/// `GET /api/todos` as the pages check them, and the whole numbers that
/// page a history (`before`, `after`, `limit`) or a list's items
/// (`offset`, `limit`), so that a wrong value is a 400 that names the
/// parameter and what it allows; a value whose percent-encoding does not
/// decode is a 400 too, and so is one the operation does not take. A
/// parameter given twice (`?search=milk&search=tea`)
/// is refused for every operation: the generated decoder would take the
/// first and drop the other without a word.
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
        let uri = URI(request.path ?? "/")
        try Self.checkPairs(uri.query)
        let parameters = uri.queryParameters
        var names = Set<Substring>()
        for (name, _) in parameters where !name.isEmpty && !names.insert(name).inserted {
            throw APIError.badRequest("query parameter “\(name)” is given more than once; give it once")
        }
        // One the operation does not take (`?filter=` of a shared list) was dropped without a word.
        if let allowed = OpenAPIDocument.shipped?.queryParameters[operationID],
            let unknown = names.map(String.init).filter({ !allowed.contains($0) }).min()
        {
            let takes = allowed.isEmpty ? "it takes none" : "it takes " + allowed.sorted().joined(separator: ", ")
            throw APIError.badRequest("unknown query parameter “\(unknown.prefix(60))”; \(takes)")
        }
        if operationID == Operations.ListTodos.id {
            _ = try Query.filter(parameters)
            _ = try Query.sort(parameters)
        }
        if let names = Self.wholeNumbers[operationID] {
            for name in names {
                // Swift reads "+1" as 1, the generated decoder does not (it spoke of a body).
                guard let text = parameters.get(name), Int(text) == nil || text.hasPrefix("+") else { continue }
                throw APIError.badRequest(
                    "invalid query parameter “\(name)”: “\(text)” is not a whole number"
                        + (text.hasPrefix("+") ? " as the API reads one: digits, without a plus sign" : ""))
            }
        }
        return try await next(request, body, metadata)
    }

    /// Refuses a query that is not `name=value` pairs joined by `&` (a
    /// trailing `&` aside), which the generated decoder answered with 500:
    /// `?a`, `?&filter=all`, `?filter=all&&limit=5`.
    static func checkPairs(_ query: String?) throws {
        guard let query, !query.isEmpty else { return }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false)
        for (index, pair) in pairs.enumerated() where !pair.contains("=") {
            if pair.isEmpty, index == pairs.count - 1 { continue }
            let shown = pair.isEmpty ? "an empty parameter (“&&” or a leading “&”)" : "“\(pair.prefix(60))”"
            throw APIError.badRequest("malformed query: \(shown) is not name=value; give each parameter as name=value, joined by &")
        }
        // A value whose percent-encoding does not decode (`search=milk%ZZ`)
        // was dropped by the generated decoder without a word: the whole
        // list answered a search.
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].contains("%"), parts[1].removingPercentEncoding == nil else { continue }
            throw APIError.badRequest(
                "invalid query parameter “\(parts[0].prefix(60))”: “\(parts[1].prefix(60))” is not valid percent-encoding; "
                    + "each % is followed by two hex digits, and the bytes they give are UTF-8")
        }
    }
}
