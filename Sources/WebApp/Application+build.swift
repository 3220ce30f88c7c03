import Calculator
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import OpenAPIRuntime
import ServiceLifecycle
import TodoStore
import Todos

/// Builds the web app of `rewind serve`: the pages, the JSON API, the event
/// stream and the static files, over the to-do store the executable passes
/// in (the SQLite store normally, an in-memory one for `--in-memory`).
///
/// ```swift
/// let app = buildApplication(
///     configuration: WebAppConfiguration(port: 8080),
///     store: store,
///     calculatorConfiguration: try .shipped(),
///     assets: try .bundled()
/// )
/// try await app.runService()   // until SIGINT or SIGTERM
/// ```
///
/// - Parameters:
///   - configuration: Where to listen and what to accept.
///   - store: The to-do store; the app enters the domain only through it,
///     by the app domain's messages.
///   - calculatorConfiguration: The calculator's keypad.
///   - assets: The pages' scripts, stylesheet and icon.
///   - logger: Where the server logs; by default warnings and errors go to
///     standard error.
///   - now: The clock (injected in tests).
///   - makeID: Where new items get their ids (injected in tests).
///   - services: What must run as long as the server, started before it and
///     stopped after it (the PostgreSQL store's connection pool).
///   - teamMode: With accounts (`rewind serve --accounts`): every page, the
///     API and the event stream need a session begun at `/signin`; `nil`
///     (local mode) asks nobody to sign in.
///   - calculatorStore: Where the calculators of the browser page are kept,
///     so that they survive a restart and any instance serves a browser;
///     `nil` (the default) keeps them in memory only.
///   - onServerRunning: Called once the server listens, with the port it
///     listens on (useful with port 0).
public func buildApplication(
    configuration: WebAppConfiguration,
    store: any AppStore,
    calculatorConfiguration: ButtonConfiguration,
    assets: Assets,
    logger: Logger? = nil,
    now: @escaping @Sendable () -> Date = { Date() },
    makeID: @escaping @Sendable () -> UUID = { .random() },
    services: [any Service] = [],
    teamMode: TeamMode? = nil,
    calculatorStore: (any CalculatorStore)? = nil,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let app = WebApp(
        configuration: configuration,
        todos: TodoService(store: store, now: now, makeID: makeID),
        calculatorConfiguration: calculatorConfiguration,
        calculatorStore: calculatorStore,
        assets: assets,
        teamMode: teamMode,
        now: now,
        makeID: makeID
    )
    return app.application(logger: logger ?? WebApp.defaultLogger(), services: services, onServerRunning: onServerRunning)
}

extension WebApp {
    /// Every route, behind the security middleware; `HEAD` for every `GET`
    /// route, and 405 with `Allow` for a routed path's other methods.
    func buildRouter() -> Router<RewindRequestContext> {
        // The routes once without middleware, to know each path's methods.
        let table = Router(context: RewindRequestContext.self)
        addRoutes(to: table)
        let routes = table.routes.map { (path: $0.path.description, method: $0.method) }

        let router = Router(context: RewindRequestContext.self, options: .autoGenerateHeadEndpoints)
        // Middleware applies to the routes added after it.
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: PageTimeZoneMiddleware())
        router.add(middleware: ErrorMiddleware(showsStoreDetails: teamMode == nil))
        router.add(middleware: MethodNotAllowedMiddleware(routes: routes))
        // In team mode the session is found first: the guard checks the
        // CSRF token bound to it.
        if let teamMode {
            // A page whose session cannot be looked up (the database out of
            // reach) is answered with a page too, without the signed-in name.
            router.add(middleware: ErrorPageMiddleware(csrfToken: csrfToken, linksToLists: true))
            router.add(middleware: SessionGateMiddleware(teamMode: teamMode, now: now))
        }
        router.add(middleware: RequestGuardMiddleware(configuration: configuration, csrfToken: csrfToken))
        router.add(middleware: ErrorPageMiddleware(csrfToken: csrfToken, showsStoreDetails: teamMode == nil, linksToLists: teamMode != nil))
        addRoutes(to: router)
        return router
    }

    /// Adds the routes of every controller to `router`: the JSON API's
    /// from the code generated from openapi.yaml, the others by hand.
    private func addRoutes(to router: Router<RewindRequestContext>) {
        let (broadcaster, todos) = (broadcaster, todos)
        PageController(service: todos, csrfToken: csrfToken) {
            await broadcaster.currentEvent(mark: await todos.updateMark()).id
        }.addRoutes(to: router)
        ListsController(
            lists: lists, csrfToken: csrfToken, maxEventStreams: configuration.maxEventStreams,
            heartbeatInterval: configuration.heartbeatInterval, openStreams: listStreams, sessionStreams: sessionStreams,
            listsRecheckInterval: configuration.listsRecheckInterval
        ).addRoutes(to: router)
        if let teamMode {
            SignInController<RewindRequestContext>(
                teamMode: teamMode, csrfToken: csrfToken, secureCookies: configuration.secureCookies,
                maxBodySize: configuration.maxBodySize, trustedProxies: configuration.trustedProxies, now: now
            ).addRoutes(to: router)
        }
        CalculatorController(sessions: calculators, csrfToken: csrfToken).addRoutes(to: router)
        EventsController(broadcaster: broadcaster, todos: todos, teamMode: teamMode, now: now, sessionStreams: sessionStreams)
            .addRoutes(to: router)
        OpenAPIDocument.addRoutes(to: router)
        assets.addRoutes(to: router)
        // Registering throws only when the server URL (the default, `/`) is
        // not a URL; no request reaches this.
        do {
            try APIHandler(todos: todos, calculators: calculators, csrfToken: csrfToken, lists: lists, healthCheck: healthCheck)
                .registerHandlers(
                    on: WholeAnswerTransport(router: router),
                    configuration: .rewind,
                    middlewares: [
                        AcceptMiddleware(), RequestBodyMiddleware(limit: configuration.maxBodySize), QueryParameterMiddleware(),
                        CalculatorCookieMiddleware(
                            secure: configuration.secureCookies,
                            lifetime: calculators.store == nil ? nil : Int(CalculatorSessions.storedLifetime)),
                    ]
                )
        } catch {
            preconditionFailure("the generated API's routes do not register: \(error)")
        }
    }

    /// The application: the router, the broadcaster as a service, and the
    /// store's updates forwarded to the event streams.
    func application(
        logger: Logger,
        services: [any Service] = [],
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let requestHeadTimeout = GuardedHTTP1Channel.timeAmount(seconds: configuration.requestHeadTimeout)
        let idleTimeout = GuardedHTTP1Channel.timeAmount(seconds: configuration.idleTimeout)
        var app = Application(
            router: buildRouter(),
            server: HTTPServerBuilder { responder in
                GuardedHTTP1Channel(
                    responder: responder, requestHeadTimeout: requestHeadTimeout, idleTimeout: idleTimeout
                )
            },
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "Rewind"
            ),
            onServerRunning: { channel in
                await onServerRunning(channel.localAddress?.port ?? 0)
            },
            logger: logger
        )
        app.addServices(broadcaster, StoreUpdatesService(todos: todos, broadcaster: broadcaster))
        for service in services { app.addServices(service) }
        return app
    }
}

/// Tells the broadcaster of every change of the store while the server
/// runs, and stops listening at shutdown.
private struct StoreUpdatesService: Service {
    let todos: TodoService
    let broadcaster: EventBroadcaster

    func run() async throws {
        let updates = await todos.updates()
        let broadcaster = broadcaster
        await cancelWhenGracefulShutdown {
            for await _ in updates {
                broadcaster.noteTodosChanged(mark: await todos.updateMark())
            }
        }
    }
}
