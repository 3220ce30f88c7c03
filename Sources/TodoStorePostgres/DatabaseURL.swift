import Foundation
import Todos

/// Where a PostgreSQL database is, as `rewind serve --database` and
/// `REWIND_DATABASE_URL` name it:
/// `postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]`
/// (`postgresql://` too; user, password and database percent-encoded), with
/// `sslmode=verify-ca|verify-full` and `sslrootcert=FILE` too (libpq's
/// meanings), `connect_timeout=SECONDS` (libpq's, 1 to 3600) and
/// `pool_max_conns=N` (the most connections a server's pool opens, 2 to
/// 1000) as further query parameters. As libpq's, a URL without a host
/// connects through the server's Unix socket (`postgres:///todos`, in the
/// directory of `?host=/path`, else `/var/run/postgresql` or `/tmp`), and
/// one without a user logs in as the user running the program.
///
/// ```swift
/// let url = try DatabaseURL("postgres://rewind@db.example:5432/todos")
/// url.redacted    // "postgres://rewind@db.example:5432/todos", never the password
/// ```
public struct DatabaseURL: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is encrypted and the server checked (libpq's
    /// `sslmode`, five of its values, with their meanings).
    public enum TLSMode: String, Sendable, Equatable {
        /// Never encrypted.
        case disable
        /// Encrypted when the server offers it, its certificate not checked
        /// (the default, as libpq's).
        case prefer
        /// Encrypted, or no connection; the server's certificate not checked
        /// (a self-signed one is fine), so the network must be trusted to
        /// reach the right server.
        case require
        /// Encrypted, and the server's certificate signed by a trusted
        /// authority (`sslrootcert`'s, else the system's), whatever host it names.
        case verifyCA = "verify-ca"
        /// As ``verifyCA``, and the certificate names the host of the URL.
        case verifyFull = "verify-full"

        /// Whether the server's certificate is checked.
        public var verifies: Bool { self == .verifyCA || self == .verifyFull }
    }

    /// The server's host name or address; empty for a Unix socket.
    public let host: String
    /// The directory of the server's Unix socket, when the URL names no
    /// host; `nil` for TCP.
    public let socketDirectory: String?
    /// The server's port (5432 unless the URL names one).
    public let port: Int
    /// The role to log in as.
    public let username: String
    /// The role's password, if the URL holds one.
    public let password: String?
    /// The database's name.
    public let database: String
    /// How the connection is encrypted.
    public let tls: TLSMode
    /// The file of the certificates of the authorities trusted to sign the
    /// server's (`sslrootcert`, PEM), for `verify-ca` and `verify-full`;
    /// `nil`: the system's trusted authorities.
    public let sslRootCertificate: String?
    /// How long connecting, logging in included, may take (`connect_timeout`,
    /// in whole seconds); `nil` when the URL does not say.
    public let connectTimeout: Duration?
    /// The most connections a server's pool opens to the database
    /// (`pool_max_conns`, at least 2: the writing of a batch holds one while
    /// reads and session checks need another); `nil` when the URL does not say.
    public let poolMaxConnections: Int?
    /// The name each connection gives the server (`application_name`, as
    /// `pg_stat_activity` shows it); `nil` when the URL does not say.
    public let applicationName: String?

    /// The query parameters a URL may carry, and the values each takes.
    static let parametersAllowed =
        "sslmode=disable, prefer, require, verify-ca or verify-full; sslrootcert=FILE with verify-ca or verify-full;"
        + " connect_timeout=SECONDS, 1 to 3600; pool_max_conns=N, 2 to 1000; host=/DIRECTORY of the socket;"
        + " application_name=NAME, 1 to 56 printable ASCII characters"

    /// Reads `text`.
    ///
    /// - Throws: ``DatabaseURLError`` saying what is wrong and what a URL
    ///   must look like.
    public init(_ text: String) throws(DatabaseURLError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme else {
            throw DatabaseURLError(text, problem: "it is not a URL")
        }
        guard ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            throw DatabaseURLError(text, problem: "its scheme is “\(scheme)”, not postgres")
        }
        let host = components.host ?? ""
        // As libpq: no user is the user running the program.
        let user = components.user.flatMap { $0.isEmpty ? nil : $0 } ?? Self.userRunningTheProgram
        if Self.holdsStrayPercentSign(text) {
            // Which characters follow it is not said: they may be of the password.
            throw DatabaseURLError(
                text, problem: "it holds a % sign not followed by two hex digits (write a % sign as %25)")
        }
        // The path as written, so that an encoded "/" (%2F) is part of the
        // database's name, not a second segment.
        let encodedPath = components.percentEncodedPath
        let path = encodedPath.hasPrefix("/") ? String(encodedPath.dropFirst()) : encodedPath
        guard !path.isEmpty, !path.contains("/") else {
            throw DatabaseURLError(text, problem: "it names no database (the path after the host)")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw DatabaseURLError(text, problem: "its port \(port) is not between 1 and 65535")
        }
        var tls = TLSMode.prefer
        var connectTimeout: Duration?
        var poolMaxConnections: Int?
        var sslRootCertificate: String?
        var socketDirectory: String?
        var applicationName: String?
        for (part, value) in [("host", host), ("user", user), ("database", path.removingPercentEncoding ?? path)] {
            if let control = Self.firstControlCharacter(in: value) {
                throw DatabaseURLError(
                    text, problem: "its \(part) holds the control character \(TypedText.name(of: control.value)), which no part of a URL may hold")
            }
        }
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            if let control = Self.firstControlCharacter(in: item.name + value) {
                throw DatabaseURLError(
                    text, problem: "its parameter “\(TypedText.visible(item.name))” holds the control character "
                        + "\(TypedText.name(of: control.value)), which no part of a URL may hold")
            }
            let wrong = DatabaseURLError(text, problem: "“\(item.name)=\(value)” is not allowed (\(Self.parametersAllowed))")
            switch item.name {
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else { throw wrong }
                tls = mode
            case "connect_timeout":
                // libpq reads 0 as "wait for ever"; a server that does not answer must not hold a command.
                guard let seconds = Int(value), (1...3600).contains(seconds) else { throw wrong }
                connectTimeout = .seconds(seconds)
            case "host":
                // libpq's host parameter, here only as a socket's directory.
                guard value.hasPrefix("/"), host.isEmpty else {
                    throw DatabaseURLError(
                        text, problem: host.isEmpty
                            ? "“host=\(value)” is not a directory (a socket's directory starts with /; a server's name goes after the @)"
                            : "it names a host and host=\(value) too; give one")
                }
                socketDirectory = value
            case "sslrootcert":
                guard !value.isEmpty else { throw wrong }
                sslRootCertificate = value
            case "pool_max_conns":
                guard let count = Int(value), (2...1000).contains(count) else { throw wrong }
                poolMaxConnections = count
            case "application_name":
                // PostgreSQL keeps 63 bytes and shows other characters as "?"; the
                // listening connections add " listen" (7) to it.
                guard (1...56).contains(value.utf8.count), value.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) })
                else { throw wrong }
                applicationName = value
            default:
                throw DatabaseURLError(text, problem: "“\(item.name)” is not known (\(Self.parametersAllowed))")
            }
        }
        if host.isEmpty, socketDirectory == nil {
            socketDirectory = Self.defaultSocketDirectory
        }
        if sslRootCertificate != nil, !tls.verifies {
            throw DatabaseURLError(
                text, problem: "sslrootcert is used only with sslmode=verify-ca or verify-full, which check the server's certificate")
        }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? 5432
        // URLComponents decodes the user and the password itself (once).
        username = user
        password = components.password
        database = path.removingPercentEncoding ?? path
        self.tls = tls
        self.connectTimeout = connectTimeout
        self.poolMaxConnections = poolMaxConnections
        self.sslRootCertificate = sslRootCertificate
        self.socketDirectory = socketDirectory
        self.applicationName = applicationName
    }

    /// The path of the server's Unix socket: `.s.PGSQL.<port>` in
    /// ``socketDirectory``; `nil` for TCP.
    public var socketPath: String? {
        socketDirectory.map { "\($0)/.s.PGSQL.\(port)" }
    }

    /// Where PostgreSQL's socket is when the URL does not say: Debian's
    /// directory when it exists, else `/tmp` (as other builds of libpq).
    public static var defaultSocketDirectory: String {
        FileManager.default.fileExists(atPath: "/var/run/postgresql") ? "/var/run/postgresql" : "/tmp"
    }

    /// The name of the user running the program, the role a URL without a
    /// user logs in as.
    static var userRunningTheProgram: String {
        ProcessInfo.processInfo.userName
    }

    /// The first control character in `text` (tabs and line breaks
    /// included: no part of a URL may hold one), or `nil` when there is none.
    private static func firstControlCharacter(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: TypedText.isControl)
    }

    /// Whether `text` holds a "%" not followed by two hex digits.
    private static func holdsStrayPercentSign(_ text: String) -> Bool {
        let characters = Array(text)
        return characters.indices.contains { index in
            guard characters[index] == "%" else { return false }
            let next = characters[(index + 1)..<min(index + 3, characters.count)]
            return next.count < 2 || !next.allSatisfy(\.isHexDigit)
        }
    }

    /// The URL without its password: what messages and logs name.
    public var redacted: String {
        if let socketDirectory {
            return "postgres://\(username)@\(port == 5432 ? "" : ":\(port)")/\(database)?host=\(socketDirectory)"
        }
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "postgres://\(username)@\(host):\(port)/\(database)"
    }

    /// The URL without its password.
    public var description: String { redacted }
}

/// A `--database` or `REWIND_DATABASE_URL` that is not a PostgreSQL URL.
public struct DatabaseURLError: Error, Equatable, CustomStringConvertible {
    /// What was given, without a password it may hold.
    public let given: String
    /// What is wrong with it.
    public let problem: String

    init(_ given: String, problem: String) {
        self.given = TypedText.visible(Self.withoutPassword(given))
        self.problem = problem
    }

    /// One sentence: what was given, what is wrong, and what is allowed.
    public var description: String {
        "“\(given)” is not a PostgreSQL URL: \(problem). Use postgres://user[:password]@host[:port]/database."
    }

    /// `text` with anything between `://user:` and `@` hidden.
    private static func withoutPassword(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@"),
            let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
        else { return text }
        return text[..<text.index(after: colon)] + "…" + text[at...]
    }
}
