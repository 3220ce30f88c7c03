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
            let state = await currentState(request)
            return Responses.html(CalculatorPage(state: state, csrfToken: csrfToken).render())
        }
        router.get("/api/calculator") { request, _ in
            try Responses.json(await currentState(request))
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
            return try await change(request) { session in
                do {
                    try session.press(labels)
                } catch let error as UnknownLabelError {
                    throw APIError.invalidField("invalid field “keys”: \(error.description)")
                }
            }
        }
        router.post("/api/calculator/undo") { request, _ in
            try await change(request) { session in
                guard session.undo() != nil else { throw APIError.conflict("nothing to undo") }
            }
        }
        router.post("/api/calculator/redo") { request, _ in
            try await change(request) { session in
                guard session.redo() != nil else { throw APIError.conflict("nothing to redo") }
            }
        }
    }

    /// The well-formed session id the request's cookie names, if any.
    private func sessionID(_ request: Request) -> String? {
        guard let value = request.cookies[CalculatorSessions.cookieName]?.value,
              CalculatorSessions.isWellFormed(value) else { return nil }
        return value
    }

    /// This browser's calculator as it is, or a new one showing 0 when the
    /// browser has none yet: looking makes no session.
    private func currentState(_ request: Request) async -> CalculatorState {
        if let id = sessionID(request), let calculator = await sessions.existing(id) {
            return await calculator.update { CalculatorState($0) }.result
        }
        return CalculatorState(CalculatorSession(configuration: sessions.configuration))
    }

    /// Runs `change` on this browser's calculator, made when it has none
    /// (the request has passed the CSRF and origin checks), and answers its
    /// state, with the session cookie when the browser had none.
    private func change(
        _ request: Request,
        _ change: @Sendable @escaping (inout CalculatorSession) throws -> Void
    ) async throws -> Response {
        let cookie = sessionID(request)
        let id = cookie ?? CalculatorSessions.makeID()
        let calculator = await sessions.calculator(id)
        let (state, steps) = try await calculator.update { session in
            try change(&session)
            return CalculatorState(session)
        }
        await sessions.account(id, steps: steps)
        var response = try Responses.json(state)
        if cookie != id {
            response.setCookie(
                Cookie(name: CalculatorSessions.cookieName, value: id, path: "/", httpOnly: true, sameSite: .strict)
            )
        }
        return response
    }
}
