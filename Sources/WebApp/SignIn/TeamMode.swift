import Foundation
import Synchronization
import TodoStore
import Todos

/// What `rewind serve --accounts` adds: every page, the API and the event
/// stream need a signed-in session, made at `/signin` against the accounts
/// of `rewind users` and kept in the same database; and the named lists
/// that accounts share, each person with their own undo (`/lists`,
/// `/api/lists`).
///
/// ```swift
/// let app = buildApplication(
///     configuration: configuration, store: store, calculatorConfiguration: keypad, assets: assets,
///     teamMode: TeamMode(
///         sessions: try await SQLiteAccountStore.open(url: databaseURL),
///         lists: try await SQLiteSharedListStore.open(url: databaseURL))
/// )
/// ```
public struct TeamMode: Sendable {
    /// The accounts and their sessions.
    public let sessions: any SessionStore
    /// The shared lists.
    public let lists: any SharedListStore
    /// Checks passwords against the stored bcrypt hashes (and makes the
    /// hash an unknown account is checked against, so that it takes as long).
    public let hasher: PasswordHasher
    /// How long a session lasts from sign-in.
    public let sessionLifetime: TimeInterval
    /// Failed sign-ins per account and per address, kept by this instance.
    let attempts: SignInAttempts
    /// The sessions this instance checked within the last `sessionRecheck` seconds.
    let recentSessions: RecentSessions

    /// How long this instance trusts a session it found signed in before it
    /// asks the database again: a session ended elsewhere (another
    /// instance, `rewind users passwd` or `rm`) is refused here within it.
    public static let standardSessionRecheck: TimeInterval = 1

    /// Team mode over `sessions` and `lists` (in memory by default); tests
    /// pass a cheaper `hasher` and a shorter `sessionLifetime` or `throttle`.
    /// A session found signed in is trusted for `sessionRecheck` seconds
    /// (0: every request asks the database).
    public init(
        sessions: any SessionStore,
        lists: any SharedListStore = InMemorySharedListStore(),
        hasher: PasswordHasher = .standard,
        sessionLifetime: TimeInterval = SessionLifetime.standard,
        throttle: SignInThrottle = SignInThrottle(),
        sessionRecheck: TimeInterval = TeamMode.standardSessionRecheck
    ) {
        self.sessions = sessions
        self.lists = lists
        self.hasher = hasher
        self.sessionLifetime = sessionLifetime
        self.attempts = SignInAttempts(throttle: throttle, hasher: hasher)
        self.recentSessions = RecentSessions(interval: sessionRecheck)
    }

    /// The session `id` at `now`: one this instance checked within the
    /// recheck interval, or else the store's answer (remembered when found).
    func signedInSession(_ id: SessionID, at now: Date) async throws -> Session? {
        if let session = recentSessions.session(id, at: now) { return session }
        guard let session = try await sessions.session(id, at: now) else { return nil }
        recentSessions.remember(session, for: id, at: now)
        return session
    }

    /// Whether the session `id` is still signed in at `now`, asked of the
    /// store (an open event stream checks with every heartbeat); a store
    /// that cannot be read says no.
    func isLive(_ id: SessionID, at now: Date) async -> Bool {
        ((try? await sessions.session(id, at: now)) ?? nil) != nil
    }

    /// Ends the session `id` in the store and in this instance's memory.
    func endSession(_ id: SessionID) async throws {
        recentSessions.forget(id)
        try await sessions.endSession(id)
        recentSessions.forget(id)
    }
}

/// The sign-in throttle of one instance, and the hash that stands in for
/// an unknown account's.
final class SignInAttempts: Sendable {
    private let throttle: Mutex<SignInThrottle>
    private let dummyHash: Task<String, Never>

    init(throttle: SignInThrottle, hasher: PasswordHasher) {
        self.throttle = Mutex(throttle)
        // Made once, at the hasher's cost, so that checking a password
        // against it takes as long as against a real account's hash.
        dummyHash = Task { (try? await hasher.hash("not the password of any account")) ?? "" }
    }

    /// Begins the attempt with `keys`: how long it must still wait, or
    /// `nil` when it goes ahead, counted as a failure until it succeeds
    /// (``SignInThrottle/begin(_:at:)``).
    func begin(_ keys: [String], at now: Date) -> TimeInterval? {
        throttle.withLock { $0.begin(keys, at: now) }
    }

    /// Takes back the failure the start of an attempt that could not be
    /// checked counted.
    func recordUnchecked(for keys: [String]) {
        throttle.withLock { $0.recordUnchecked(for: keys) }
    }

    /// Clears the account's failures, and the one the attempt's start
    /// counted for its address.
    func recordSuccess(for keys: [String]) {
        throttle.withLock { $0.recordSuccess(for: keys) }
    }

    /// The hash an unknown account's password is checked against.
    var standInHash: String {
        get async { await dummyHash.value }
    }
}
