import Foundation
import Synchronization
import Todos

/// What `GET /healthz` asks: whether the store answers now
/// (``AppStore/checkReachable()``), within a time limit.
///
/// Requests that come while the store is being asked share its answer, so
/// that a load balancer's checks (or anyone's, since the path is open)
/// never ask the database more than once at a time. A store that does not
/// answer within the limit is reported as such, and its call is left to end
/// on its own; the next checks wait for that same call, with a limit of
/// their own, instead of asking again.
actor HealthCheck {
    /// Why the store is not healthy.
    enum Failure: Error {
        /// The store said what is wrong (its error).
        case store(any Error)
        /// No answer within the limit, in seconds.
        case noAnswer(within: Double)
    }

    private let store: any AppStore
    private let limit: Double
    /// The store's call under way, if any.
    private var asking: Task<Result<Void, any Error>, Never>?

    /// A check of `store` that waits at most `limit` seconds for it.
    init(store: any AppStore, limit: Double) {
        self.store = store
        self.limit = limit
    }

    /// Returns when the store answered within the limit.
    ///
    /// - Throws: ``Failure``.
    func check() async throws(Failure) {
        let call = asking ?? startAsking()
        let outcome = await Self.value(of: call, within: limit)
        switch outcome {
        case .answered(.success): return
        case .answered(.failure(let error)): throw .store(error)
        case .timedOut: throw .noAnswer(within: limit)
        }
    }

    /// Asks the store in a task of its own, forgotten once it answers.
    private func startAsking() -> Task<Result<Void, any Error>, Never> {
        let store = store
        let call = Task {
            let result: Result<Void, any Error>
            do {
                try await store.checkReachable()
                result = .success(())
            } catch {
                result = .failure(error)
            }
            self.finished()
            return result
        }
        asking = call
        return call
    }

    private func finished() {
        asking = nil
    }

    private enum Outcome: Sendable {
        case answered(Result<Void, any Error>)
        case timedOut
    }

    /// What `call` answers, or ``Outcome/timedOut`` once `limit` seconds
    /// have passed; `call` is not cancelled, and the wait for the limit
    /// ends as soon as it answers.
    private static func value(of call: Task<Result<Void, any Error>, Never>, within limit: Double) async -> Outcome {
        let race = Race()
        return await withCheckedContinuation { continuation in
            race.start(continuation)
            race.keepClock(Task {
                try? await Task.sleep(for: .seconds(limit))
                if !Task.isCancelled { race.decide(.timedOut) }
            })
            Task {
                let result = await call.value
                race.decide(.answered(result))
                race.stopClock()
            }
        }
    }

    /// The first of an answer and the time limit, decided once.
    private final class Race: Sendable {
        private let waiting = Mutex<CheckedContinuation<Outcome, Never>?>(nil)
        private let clock = Mutex<Task<Void, Never>?>(nil)

        func start(_ continuation: CheckedContinuation<Outcome, Never>) {
            waiting.withLock { $0 = continuation }
        }

        func keepClock(_ task: Task<Void, Never>) {
            clock.withLock { $0 = task }
        }

        func stopClock() {
            clock.withLock { $0 }?.cancel()
        }

        func decide(_ outcome: Outcome) {
            waiting.withLock { $0.take() }?.resume(returning: outcome)
        }
    }
}
