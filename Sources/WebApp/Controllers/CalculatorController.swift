import Calculator
import Hummingbird

/// The calculator page. Each browser has its own calculator, found by an
/// HttpOnly, SameSite=Strict cookie, and in team mode each account
/// (``CalculatorCookieMiddleware``); its JSON API is in ``APIHandler``.
struct CalculatorController {
    let sessions: CalculatorSessions
    let csrfToken: String

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/calculator") { request, _ in
            let state = try await currentState(request)
            return Responses.html(CalculatorPage(state: state, csrfToken: csrfToken).render())
        }
    }

    /// This browser's calculator as it is, or a new one showing 0 when the
    /// browser has none yet: looking makes no session.
    private func currentState(_ request: Request) async throws -> CalculatorState {
        if let id = CalculatorCookieMiddleware.existingID(in: request.headers), let calculator = try await sessions.existing(id) {
            return try await calculator.current()
        }
        return CalculatorState(CalculatorSession(configuration: sessions.configuration))
    }
}
