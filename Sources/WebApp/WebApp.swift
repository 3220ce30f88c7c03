import Calculator
import Foundation
import Logging
import TodoStore

/// The parts of the web app and how they are wired; tests build one to
/// reach the broadcaster and the sessions.
struct WebApp: Sendable {
    let configuration: WebAppConfiguration
    let todos: TodoService
    let broadcaster: EventBroadcaster
    let calculators: CalculatorSessions
    /// The files under `/assets/`.
    let assets: Assets
    /// The token state-changing requests carry: the configuration's, else
    /// new at every start.
    let csrfToken: String
    /// Sign-in and sessions, in team mode; `nil` in local mode.
    let teamMode: TeamMode?
    /// The shared lists of team mode; `nil` in local mode.
    let lists: SharedListService?
    /// The shared lists' event streams open now.
    let listStreams = StreamCount()
    /// The event streams each session of team mode has open.
    let sessionStreams = SessionStreams()
    /// What `GET /healthz` asks of the store.
    let healthCheck: HealthCheck
    /// The clock sessions are begun and checked by.
    let now: @Sendable () -> Date

    init(
        configuration: WebAppConfiguration,
        todos: TodoService,
        calculatorConfiguration: ButtonConfiguration,
        calculatorStore: (any CalculatorStore)? = nil,
        assets: Assets,
        teamMode: TeamMode? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        makeID: @escaping @Sendable () -> UUID = { .random() }
    ) {
        self.configuration = configuration
        self.todos = todos
        self.healthCheck = HealthCheck(store: todos.store, limit: configuration.healthCheckTimeout)
        self.broadcaster = EventBroadcaster(
            heartbeatInterval: configuration.heartbeatInterval, maxSubscribers: configuration.maxEventStreams
        )
        self.calculators = CalculatorSessions(
            configuration: calculatorConfiguration, capacity: configuration.maxCalculatorSessions,
            store: calculatorStore, now: now
        )
        self.assets = assets
        self.csrfToken = configuration.csrfToken ?? CalculatorSessions.makeID()
        self.teamMode = teamMode
        self.lists = SharedListService(teamMode: teamMode, now: now, makeID: makeID)
        self.now = now
    }

    /// Warnings and errors, to standard error.
    static func defaultLogger() -> Logger {
        var logger = Logger(label: "rewind.serve")
        logger.logLevel = .warning
        return logger
    }
}
