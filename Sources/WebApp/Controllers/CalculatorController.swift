import Calculator
import Hummingbird

/// The calculator page and its API. Each browser has its own calculator,
/// found by an HttpOnly, SameSite=Strict cookie.
struct CalculatorController {
    let sessions: CalculatorSessions
    let csrfToken: String
    let maxBodySize: Int

    /// The body of `POST /api/calculator/keys`: the labels to press in order
    /// (`{"keys": ["1", "+", "2", "="]}`), or one (`{"key": "7"}`).
    struct PressRequest: Decodable {
        var keys: [String]?
        var key: String?
    }

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/calculator") { request, _ in
            try await respond(to: request) { session in
                Responses.html(CalculatorPage(state: CalculatorState(session), csrfToken: csrfToken).render())
            }
        }
        router.get("/api/calculator") { request, _ in
            try await respond(to: request) { session in try Responses.json(CalculatorState(session)) }
        }
        router.post("/api/calculator/keys") { request, _ in
            let body = try await JSONBody.decode(PressRequest.self, from: request, limit: maxBodySize)
            let labels = (body.keys ?? []) + (body.key.map { [$0] } ?? [])
            guard !labels.isEmpty else {
                throw APIError.badRequest("missing field “keys”: give the labels to press, such as {\"keys\": [\"1\", \"+\"]}")
            }
            guard labels.count <= 1_000 else {
                throw APIError.badRequest("too many keys in one request: at most 1000")
            }
            return try await respond(to: request) { session in
                do {
                    try session.press(labels)
                } catch let error as UnknownLabelError {
                    throw APIError.invalidField("invalid field “keys”: \(error.description)")
                }
                return try Responses.json(CalculatorState(session))
            }
        }
        router.post("/api/calculator/undo") { request, _ in
            try await respond(to: request) { session in
                guard session.undo() != nil else { throw APIError.conflict("nothing to undo") }
                return try Responses.json(CalculatorState(session))
            }
        }
        router.post("/api/calculator/redo") { request, _ in
            try await respond(to: request) { session in
                guard session.redo() != nil else { throw APIError.conflict("nothing to redo") }
                return try Responses.json(CalculatorState(session))
            }
        }
    }

    /// Runs `body` on this browser's calculator and adds the session cookie
    /// to its answer when the browser had none (or a malformed one).
    private func respond(
        to request: Request,
        _ body: @Sendable (inout CalculatorSession) throws -> Response
    ) async throws -> Response {
        let cookie = request.cookies[CalculatorSessions.cookieName]?.value
        let id = cookie.flatMap { CalculatorSessions.isWellFormed($0) ? $0 : nil } ?? CalculatorSessions.makeID()
        var response = try await sessions.withSession(id, body)
        if cookie != id {
            response.setCookie(
                Cookie(name: CalculatorSessions.cookieName, value: id, path: "/", httpOnly: true, sameSite: .strict)
            )
        }
        return response
    }
}
