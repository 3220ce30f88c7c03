import Foundation
import Todos

/// What `GET /healthz` asks: whether the store answers now
/// (``AppStore/checkReachable()``), within a time limit.
///
/// Checks that come while the store is being asked share its answer, so
/// that a load balancer's checks (or anyone's, since the path is open)
/// never ask the store more than once at a time. A question not answered
/// within the limit answers its checks ``Failure/noAnswer(within:)``, and
/// every check that comes while it stays unanswered gets that at once,
/// without asking again; the next check after its answer asks anew.
///
/// One clock watches the limit of the question under way, however many
/// checks come: a timer per check would be kept by the system until its
/// deadline, answered or not, and a flood of checks would fill memory with
/// them.
actor HealthCheck {
    /// Why the store is not healthy.
    enum Failure: Error {
        /// The store said what is wrong (its error).
        case store(any Error)
        /// No answer within the limit, in seconds.
        case noAnswer(within: Double)
    }

    /// What a check learns.
    private enum Outcome: Sendable {
        case answered(Result<Void, any Error>)
        case timedOut
    }

    /// The question to the store under way.
    private struct Question {
        /// Its number, counted from 1.
        let number: Int
        /// When it stops being waited for.
        let deadline: ContinuousClock.Instant
        /// Whether its deadline passed before its answer.
        var timedOut = false
        /// The checks waiting for its answer.
        var waiting: [CheckedContinuation<Outcome, Never>] = []
    }

    private let store: any AppStore
    private let limit: Double
    private var question: Question?
    private var questionsAsked = 0
    private var clockRuns = false

    /// A check of `store` that waits at most `limit` seconds for it.
    init(store: any AppStore, limit: Double) {
        self.store = store
        self.limit = limit
    }

    /// Returns when the store answered within the limit.
    ///
    /// - Throws: ``Failure``.
    func check() async throws(Failure) {
        let outcome = await withCheckedContinuation { (check: CheckedContinuation<Outcome, Never>) in
            if question == nil { ask() }
            if question?.timedOut == true {
                check.resume(returning: .timedOut)
            } else {
                question?.waiting.append(check)
            }
        }
        switch outcome {
        case .answered(.success): return
        case .answered(.failure(let error)): throw .store(error)
        case .timedOut: throw .noAnswer(within: limit)
        }
    }

    /// Asks the store in a task of its own, and starts the clock.
    private func ask() {
        questionsAsked += 1
        let number = questionsAsked
        question = Question(number: number, deadline: .now + .seconds(limit))
        let store = store
        Task {
            let result: Result<Void, any Error>
            do {
                try await store.checkReachable()
                result = .success(())
            } catch {
                result = .failure(error)
            }
            self.answer(number, with: result)
        }
        if !clockRuns {
            clockRuns = true
            Task { await self.watchTheClock() }
        }
    }

    /// Hands the answer of question `number` to the checks waiting for it.
    private func answer(_ number: Int, with result: Result<Void, any Error>) {
        guard let answered = question, answered.number == number else { return }
        question = nil
        for check in answered.waiting { check.resume(returning: .answered(result)) }
    }

    /// Sleeps until the deadline of the question under way, and answers its
    /// checks when it is still unanswered then; again for the next
    /// question, until none is under way or the one under way timed out.
    /// Never cancelled: its one timer at a time is its sleep.
    private func watchTheClock() async {
        while let current = question, !current.timedOut {
            if ContinuousClock.now < current.deadline {
                try? await Task.sleep(until: current.deadline)
                continue
            }
            question?.timedOut = true
            question?.waiting = []
            for check in current.waiting { check.resume(returning: .timedOut) }
        }
        clockRuns = false
    }
}
