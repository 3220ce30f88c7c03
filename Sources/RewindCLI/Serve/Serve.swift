import ArgumentParser
import Calculator
import Foundation
import TodoStore
import Todos
import TodoStorePostgres
import WebApp

extension RewindCommand {
    /// `rewind serve`: the web app (to-dos, calculator, JSON API) on this
    /// machine, until SIGINT or SIGTERM.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the to-do and calculator apps in the browser, with a JSON API.",
            discussion: """
                Starts a web server on 127.0.0.1:8080 (by default) and prints its address. \
                Open it in a browser: / links the apps, /todos is the to-do list, /calculator \
                the calculator, /openapi.yaml documents the API. Ctrl+C stops it cleanly.

                The to-dos live in the data directory (--data-dir, else $REWIND_DATA_DIR, \
                else $XDG_DATA_HOME/rewind, else ~/.local/share/rewind), shared with \
                `rewind todo`: a change made by either shows up in the other. Each browser's \
                calculator is kept there too, with its undo and redo. With \
                --database (or $REWIND_DATABASE_URL) they live in a PostgreSQL database \
                instead, which several servers can share. Servers behind one load balancer \
                also share the token that changes must carry: give each the same \
                $REWIND_CSRF_TOKEN (32 to 256 letters, digits, '-' or '_'). Behind a proxy \
                that ends TLS, --public-origin (or $REWIND_PUBLIC_ORIGIN) names the https:// \
                origin the browsers see, so that its pages may make changes.

                --accounts turns team mode on with SQLite; with PostgreSQL it is always on. \
                Every page, the API and the event stream then need a sign-in at /signin with \
                an account made by `rewind users add NAME`, and each person has named lists \
                to share (/lists); the server refuses to start while there is no account.

                Examples:
                  rewind serve
                  rewind serve --port 9000 --data-dir ~/todos
                  rewind serve --in-memory --calculator-config keypad.json
                  rewind serve --database postgres://rewind@db.example:5432/rewind
                  rewind serve --host 0.0.0.0 --allow-host laptop.local
                  rewind serve --host 10.0.0.5 --public-origin https://todo.example
                  rewind serve --accounts --host 0.0.0.0 --allow-host todo.lan
                  rewind serve --database postgres://rewind@db/rewind --trusted-proxy 10.0.0.2
                """
        )

        @Option(help: "The address to listen on. Other machines can reach the server only if this is not 127.0.0.1.")
        var host = "127.0.0.1"

        @Option(help: "The port to listen on (0 picks a free one).")
        var port = 8080

        @Option(
            name: .customLong("allow-host"),
            help: ArgumentHelp(
                "Another name the browser may use for this server (besides localhost, 127.0.0.1 and --host); repeatable.",
                valueName: "name"
            )
        )
        var allowedHosts: [String] = []

        @Option(
            name: .customLong("public-origin"),
            help: ArgumentHelp(
                "The origin browsers see in front of a TLS proxy (https://todo.example), whose pages may make changes; repeatable (default: $REWIND_PUBLIC_ORIGIN, comma-separated).",
                valueName: "origin"
            )
        )
        var publicOrigins: [String] = []

        @Option(
            name: .customLong("trusted-proxy"),
            help: ArgumentHelp(
                "The IP address of a proxy in front of the server; sign-ins through it are throttled by the client address it adds to X-Forwarded-For; repeatable.",
                valueName: "address"
            )
        )
        var trustedProxies: [String] = []

        @Option(help: ArgumentHelp("The data directory of the to-do list.", valueName: "dir"), completion: .directory)
        var dataDir: String?

        @Flag(help: "Keep the to-do list and the calculators in memory only; they are gone when the server stops.")
        var inMemory = false

        @Option(help: ArgumentHelp(
            "A PostgreSQL database to keep the to-do list in: postgres://user[:password]@host[:port]/database (default: $REWIND_DATABASE_URL).",
            valueName: "url"
        ))
        var database: String?

        @Flag(help: "Team mode: sign-in with the accounts of `rewind users` (always on with --database).")
        var accounts = false

        @Option(
            help: ArgumentHelp("A calculator keypad layout: {\"labels\": [...], \"columnCount\": 4}.", valueName: "file"),
            completion: .file(extensions: ["json"]))
        var calculatorConfig: String?

        func validate() throws {
            // One line each, as every other refusal of `rewind serve`.
            func refuse(_ message: String) -> ExitCode {
                StandardStreams.error("rewind serve: \(message)\n")
                return .validationFailure
            }
            guard (0...65_535).contains(port) else {
                throw refuse("--port must be between 0 and 65535, not \(port)")
            }
            if let dataDir, dataDir.trimmingCharacters(in: .whitespaces).isEmpty {
                throw refuse("--data-dir must name a folder; leave the option out to use the default data directory")
            }
            if inMemory, dataDir != nil {
                throw refuse("--data-dir and --in-memory exclude each other; give one of them")
            }
            if database != nil, inMemory || dataDir != nil {
                throw refuse("--database excludes --data-dir and --in-memory; give one of them")
            }
            if accounts, inMemory {
                throw refuse("--accounts needs the accounts of a data directory or database; it excludes --in-memory")
            }
            if host.trimmingCharacters(in: .whitespaces).isEmpty {
                throw refuse("--host must not be empty; give an address (127.0.0.1, 0.0.0.0, ::1) or a host name")
            }
            if let control = host.unicodeScalars.first(where: TypedText.isControl) {
                throw refuse(
                    "--host “\(TypedText.visible(host))” holds the control character \(TypedText.name(of: control.value)); "
                        + "give an address (127.0.0.1, 0.0.0.0, ::1) or a host name")
            }
            if let calculatorConfig, calculatorConfig.trimmingCharacters(in: .whitespaces).isEmpty {
                throw refuse("--calculator-config must not be empty; give a keypad file, such as keypad.json")
            }
            for name in allowedHosts where !Self.isHostName(name) {
                throw refuse(
                    "--allow-host takes a name this server is reached by, such as todo.example or 192.0.2.7 "
                        + "(no scheme, port or path), not “\(TypedText.visible(name))”")
            }
        }

        func run() async throws {
            let calculatorConfiguration: ButtonConfiguration
            if let calculatorConfig {
                do {
                    calculatorConfiguration = try ButtonConfiguration.load(contentsOf: URL(fileURLWithPath: DataDirectory.expandingTilde(in: calculatorConfig)))
                } catch {
                    // One line, as for the other options read here (not the top command's usage).
                    StandardStreams.error("rewind serve: \(error.description)\n")
                    throw ExitCode.validationFailure
                }
            } else {
                calculatorConfiguration = try Self.installed { () throws(ConfigurationError) in try .shipped() }
            }
            let assets = try Self.installed { () throws(AssetsError) in try Assets.bundled() }
            let databaseURL: DatabaseURL?
            do {
                databaseURL = try DatabaseChoice.url(option: database, otherStoreChosen: inMemory || dataDir != nil)
            } catch {
                StandardStreams.error("rewind serve: \(error)\n")
                throw ExitCode.validationFailure
            }
            let sharedToken: String?
            do {
                sharedToken = try SharedCSRFToken.token()
            } catch {
                StandardStreams.error("rewind serve: \(error)\n")
                throw ExitCode.validationFailure
            }
            let origins: [PublicOrigin]
            do {
                origins = try PublicOriginOption.origins(options: publicOrigins)
            } catch {
                StandardStreams.error("rewind serve: \(error)\n")
                throw ExitCode.validationFailure
            }
            let proxies: Set<String>
            do {
                proxies = try TrustedProxyOption.addresses(options: trustedProxies)
            } catch {
                StandardStreams.error("rewind serve: \(error)\n")
                throw ExitCode.validationFailure
            }
            let store: ServeStore
            let teamMode: TeamMode?
            do {
                store = try await ServeStore.open(database: databaseURL, dataDirectory: dataDir, inMemory: inMemory)
                // No account in team mode: exit status 1 (the command line
                // is right; the data directory or database lacks an account).
                teamMode = try await store.teamMode(asked: accounts)
            } catch {
                StandardStreams.error("rewind serve: \(error)\n")
                throw ExitCode.failure
            }
            defer { store.close() }

            // `[::1]`, as a Host header writes an IPv6 address, is bound as `::1`.
            let bindHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            let allowedHosts = allowedHosts
            let configuration = WebAppConfiguration(
                host: bindHost, port: port, additionalAllowedHosts: allowedHosts, csrfToken: sharedToken,
                publicOrigins: origins, trustedProxies: proxies
            )
            let (location, readOnly, isTeamMode) = (store.location, store.readOnly, teamMode != nil)
            let proxiesUnused = !proxies.isEmpty && teamMode == nil
            let app = buildApplication(
                configuration: configuration,
                store: store.store,
                calculatorConfiguration: calculatorConfiguration,
                assets: assets,
                services: store.services,
                teamMode: teamMode,
                calculatorStore: store.calculators,
                onServerRunning: { port in
                    // A server whose standard output is closed keeps serving.
                    _ = StandardStreams.write(Data("Rewind is running at \(configuration.url(port: port))\n".utf8), to: STDOUT_FILENO)
                    StandardStreams.error("To-dos: \(location). Press Ctrl+C to stop.\n")
                    if isTeamMode { StandardStreams.error("Team mode: the pages ask to sign in with an account of `rewind users`.\n") }
                    if let readOnly { StandardStreams.error("\(readOnly)\n") }
                    // Without sign-ins there is nothing to throttle by the client's address.
                    if proxiesUnused {
                        StandardStreams.error("--trusted-proxy changes nothing here: it throttles sign-ins, and there are none without team mode (--accounts).\n")
                    }
                    // Listening on every address: other machines are answered only under a name allowed.
                    if ["0.0.0.0", "::"].contains(bindHost), allowedHosts.isEmpty, origins.isEmpty {
                        StandardStreams.error(
                            "Other machines get 421 until the name they reach this one by is allowed: --allow-host NAME.\n")
                    }
                }
            )
            do {
                // Runs until SIGINT or SIGTERM, then finishes the requests in
                // flight; stops at once when the store's file turns out to be
                // damaged (checked while the server already answers).
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await app.runService() }
                    group.addTask { try await store.checked() }
                    while try await group.next() != nil {}
                }
            } catch let error as StoreError {
                StandardStreams.error("rewind serve: \(error)\n")
                throw ExitCode.failure
            } catch {
                let why = ListenFailure.explanation(of: error) ?? "\(error)"
                StandardStreams.error("rewind serve: cannot serve on \(host):\(port): \(why)\n")
                throw ExitCode.failure
            }
        }

        /// Whether `name` is a host name or address as a `Host` header names
        /// it, without its port: letters, digits, dots and hyphens, or an
        /// IPv6 address in brackets.
        static func isHostName(_ name: String) -> Bool {
            if name.hasPrefix("["), name.hasSuffix("]") {
                return name.count > 2 && name.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
            }
            return !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
        }

        /// What `load` reads from beside the binary; when it is missing, the
        /// message names the folder and where it belongs, and `serve` stops.
        private static func installed<Value, Failure: Error>(_ load: () throws(Failure) -> Value) throws -> Value {
            do {
                return try load()
            } catch {
                StandardStreams.error("rewind serve: \(error)\n")
                throw ExitCode.failure
            }
        }
    }
}
