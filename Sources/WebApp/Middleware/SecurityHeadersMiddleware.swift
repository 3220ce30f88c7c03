import Hummingbird

/// Adds the headers that keep every answer in its place: a Content Security
/// Policy that allows only this server's own script and style (no inline
/// script, no inline event handlers), no framing, no MIME sniffing, no
/// referrer, and no caching of pages and API answers.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The policy sent with every answer.
    static var contentSecurityPolicy: String { securityPolicy }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let (status, message) = ErrorMiddleware<Context>.describe(error, request: request)
            response = ErrorMiddleware<Context>.response(status: status, message: message)
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.crossOriginResourcePolicy] = "same-origin"
        response.headers[.crossOriginOpenerPolicy] = "same-origin"
        if response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}

/// The Content Security Policy of ``SecurityHeadersMiddleware``, joined once
/// (a generic type cannot hold a stored static property).
private let securityPolicy = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
].joined(separator: "; ")
