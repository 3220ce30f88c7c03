import Dispatch
import Foundation
import Synchronization
import HummingbirdBcrypt
import Todos

/// Makes and checks the bcrypt hashes of passwords (hummingbird-auth's
/// `HummingbirdBcrypt`), away from Swift's cooperative threads: a hash at
/// cost 12 keeps a core busy for a quarter of a second or so, which would
/// stall every other task sharing those few threads.
///
/// ```swift
/// let hash = try await PasswordHasher.standard.hash("correct horse battery")   // "$2b$12$…"
/// let right = await PasswordHasher.standard.verify("correct horse battery", against: hash)   // true
/// ```
public struct PasswordHasher: Sendable {
    /// The cost of the hashes made for people: 2¹² rounds.
    public static let standardCost = 12

    /// The costs bcrypt accepts.
    public static let costs = 4...31

    /// The hasher of the accounts: cost ``standardCost``.
    public static let standard = PasswordHasher(checkedCost: standardCost)

    /// The cost (log₂ of the rounds) of the hashes this hasher makes;
    /// ``verify(_:against:)`` reads the cost from the hash itself.
    public let cost: Int

    /// The turns of this hasher's hashes: no more at once than the machine
    /// has cores, so that a flood of sign-ins leaves the processors to the
    /// rest of the server. Each hasher has its own (a server has one).
    private let turns = Turns(max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// A hasher with `cost` (tests pass the lowest, 4, to run fast), or
    /// `nil` when bcrypt does not accept it (see ``costs``).
    public init?(cost: Int) {
        guard Self.costs.contains(cost) else { return nil }
        self.cost = cost
    }

    private init(checkedCost: Int) {
        cost = checkedCost
    }

    /// The bcrypt hash of `password`, with a new random salt.
    ///
    /// - Throws: ``AccountError/weakPassword(_:)`` when `password` holds a
    ///   NUL character, after which bcrypt would read nothing.
    public func hash(_ password: String) async throws -> String {
        try Self.refuseNUL(password)
        let cost = UInt8(cost)
        return await offCooperativeThreads { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` is the one `hash` was made from. A hash that is
    /// not bcrypt's, a password holding a NUL character, and one longer
    /// than a password may be (``PasswordRule/maximumBytes``: bcrypt would
    /// read only its start) never match.
    public func verify(_ password: String, against hash: String) async -> Bool {
        guard !password.utf8.contains(0), !hash.utf8.contains(0), password.utf8.count <= PasswordRule.maximumBytes else {
            return false
        }
        return await offCooperativeThreads { Bcrypt.verify(password, hash: hash) }
    }

    /// Refuses a password bcrypt would cut short at a NUL character.
    private static func refuseNUL(_ password: String) throws(AccountError) {
        if password.utf8.contains(0) {
            throw .weakPassword("A password may not hold the NUL character.")
        }
    }

    /// Runs `body` on a thread of Dispatch's global pool and waits for it
    /// without holding a cooperative thread, in one of ``turns``.
    private func offCooperativeThreads<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await turns.inTurn {
            await withCheckedContinuation { continuation in
                DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: body()) }
            }
        }
    }
}

/// At most a given number of holders at once; the others wait, first come
/// first served, without holding a thread.
///
/// ```swift
/// let one = Turns(1)
/// try await one.inTurn { try await readCheckAndWrite() }   // one at a time
/// ```
public final class Turns: Sendable {
    private let state: Mutex<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

    /// Turns for `count` holders at once.
    public init(_ count: Int) {
        state = Mutex((count, []))
    }

    /// Runs `body` in a turn of its own, given back when it returns or throws.
    public func inTurn<Value: Sendable>(_ body: () async throws -> Value) async rethrows -> Value {
        await take()
        defer { give() }
        return try await body()
    }

    /// Waits for a turn. Each ``take()`` needs one ``give()``.
    func take() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    /// Gives a turn back: to the first waiting, if any.
    func give() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
