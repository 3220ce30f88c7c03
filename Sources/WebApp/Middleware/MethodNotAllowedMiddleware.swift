import HTTPTypes
import Hummingbird

/// Answers a request whose path exists but not with its method (`TRACE /`,
/// `POST /todos`) with 405 and an `Allow` header that lists the path's
/// methods, instead of the router's 404; a path that no route has stays 404.
/// `HEAD` is answered for every `GET` route by the router itself.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The routed paths, split into components, with their methods.
    private let routes: [(components: [Substring], methods: Set<HTTPRequest.Method>)]
    /// The methods of each path without a `{parameter}`, by the path as a
    /// request spells it (`/api/todos`): most requests are answered by one
    /// lookup instead of a match against every route.
    private let literalRoutes: [String: Set<HTTPRequest.Method>]

    /// A middleware for the routes of `routes` (path and method of each).
    init(routes: [(path: String, method: HTTPRequest.Method)]) {
        var methodsByPath: [String: Set<HTTPRequest.Method>] = [:]
        for route in routes {
            methodsByPath[route.path, default: []].insert(route.method)
            if route.method == .get { methodsByPath[route.path, default: []].insert(.head) }
        }
        self.routes = methodsByPath.sorted { $0.key < $1.key }.map { (Self.components(of: $0.key), $0.value) }
        var literalRoutes: [String: Set<HTTPRequest.Method>] = [:]
        // The first of equal paths, as the match below picks it.
        for route in self.routes where !route.components.contains(where: Self.isParameter) {
            let path = "/" + route.components.joined(separator: "/")
            if literalRoutes[path] == nil { literalRoutes[path] = route.methods }
        }
        self.literalRoutes = literalRoutes
    }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // Before the CSRF check, so that `PUT /todos` is a 405 with or
        // without a token; nothing is read or changed on the way.
        if let methods = allowedMethods(forPath: request.uri.path), !methods.contains(request.method) {
            let allow = Self.allowHeader(methods)
            throw HTTPError(
                .methodNotAllowed,
                headers: [.allow: allow],
                message: "\(request.method) is not allowed on \(request.uri.path); allowed: \(allow)"
            )
        }
        return try await next(request, context)
    }

    /// The methods of the route the router picks for `path` (a literal
    /// component wins over a `{parameter}`, as in the router), or `nil` when
    /// no route matches it.
    func allowedMethods(forPath path: String) -> Set<HTTPRequest.Method>? {
        // A path of literal components only is the most specific match there is.
        if let methods = literalRoutes[path] { return methods }
        let components = Self.components(of: path)
        var best: (specificity: [Bool], methods: Set<HTTPRequest.Method>)?
        for route in routes where Self.matches(route.components, components) {
            let specificity = route.components.map { !Self.isParameter($0) }
            if let current = best, !specificity.lexicographicallyPrecedes(current.specificity, by: { $0 && !$1 }) {
                continue
            }
            best = (specificity, route.methods)
        }
        return best?.methods
    }

    /// `GET, HEAD, POST`: the methods in a fixed order.
    static func allowHeader(_ methods: Set<HTTPRequest.Method>) -> String {
        let order: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]
        let known = order.filter(methods.contains)
        let others = methods.subtracting(order).map(\.rawValue).sorted()
        return (known.map(\.rawValue) + others).joined(separator: ", ")
    }

    private static func components(of path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    private static func matches(_ pattern: [Substring], _ components: [Substring]) -> Bool {
        guard pattern.count == components.count else { return false }
        return zip(pattern, components).allSatisfy { pattern, component in
            isParameter(pattern) || pattern == component
        }
    }

    private static func isParameter(_ component: Substring) -> Bool {
        component.hasPrefix("{") && component.hasSuffix("}")
    }
}
