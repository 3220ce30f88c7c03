import Foundation
import Hummingbird
import OpenAPIRuntime
import Todos

/// The JSON API: implements the `APIProtocol` that swift-openapi-generator
/// generates from `openapi.yaml`, whose types carry every request and answer.
///
/// A handler sends one request to the domain and answers with what the
/// domain returned; what the request did wrong is thrown as an ``APIError``,
/// which ``ErrorMiddleware`` answers with its status and `{"error": "…"}`.
struct APIHandler: APIProtocol {
    /// The to-do domain and its store.
    let todos: TodoService
    /// The calculators of the browsers.
    let calculators: CalculatorSessions
    /// The token that state-changing requests carry.
    let csrfToken: String
    /// The shared lists of team mode; `nil` in local mode.
    var lists: SharedListService? = nil
    /// What `GET /healthz` asks of the store; `nil` answers without asking
    /// (a handler built for one test).
    var healthCheck: HealthCheck? = nil

    func csrf(_ input: Operations.Csrf.Input) async throws -> Operations.Csrf.Output {
        // In team mode, the signed-in session's token.
        .ok(.init(body: .json(.init(
            token: SignedIn.csrfToken(server: csrfToken),
            header: RequestGuardMiddleware<BasicRequestContext>.csrfHeaderName))))
    }

    func health(_ input: Operations.Health.Input) async throws -> Operations.Health.Output {
        do {
            try await healthCheck?.check()
        } catch {
            // The details go to the log, and to the client in local mode.
            switch error {
            case .store(let failure): throw APIError.storeFailed(String(describing: failure))
            case .noAnswer(let seconds):
                let limit = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
                throw APIError.storeFailed("the store did not answer within \(limit) second\(seconds == 1 ? "" : "s")")
            }
        }
        return .ok(.init(body: .json(.init(status: .ok))))
    }
}

/// How the generated code reads and writes dates: ISO 8601 in UTC with
/// milliseconds, as the domain's JSON format writes them; read with or
/// without the milliseconds.
struct APIDateTranscoder: DateTranscoder {
    func encode(_ date: Date) throws -> String {
        ISO8601Milliseconds.string(from: date)
    }

    func decode(_ string: String) throws -> Date {
        guard let date = ISO8601Milliseconds.date(from: string) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "“\(string)” is not a date such as 2026-05-01T09:30:00.000Z")
            )
        }
        return date
    }
}

extension OpenAPIRuntime.Configuration {
    /// The runtime's settings for this API: dates as ``APIDateTranscoder``
    /// writes them, compact JSON with sorted keys.
    static var rewind: Self {
        .init(dateTranscoder: APIDateTranscoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes])
    }
}
