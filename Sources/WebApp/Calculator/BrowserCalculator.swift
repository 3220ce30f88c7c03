import Calculator
import Foundation
import Logging
import TodoStore

/// One browser's calculator, on an actor of its own: its session in memory
/// and, with a store, every change saved there before it is answered (a
/// change the store could not save makes the session be read again). Changes take turns: each one is saved before the next
/// begins.
actor BrowserCalculator {
    private let id: String
    private var session: CalculatorSession
    /// The store's version of the calculator this session matches (0: the
    /// store holds none yet).
    private var version: Int
    /// Whether the next save writes the whole calculator: the store's copy
    /// could not be made again, and is replaced.
    private var rewrite = false
    /// Whether the session may differ from the store's copy (a save failed,
    /// or another instance saved first): it is read again before its next use.
    private var stale = false
    private let store: (any CalculatorStore)?
    private let configuration: ButtonConfiguration
    private let stepLimit: Int
    private let now: @Sendable () -> Date
    private let logger: Logger
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(
        id: String, session: CalculatorSession, version: Int, store: (any CalculatorStore)?,
        configuration: ButtonConfiguration, stepLimit: Int, now: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.id = id
        self.session = session
        self.version = version
        self.store = store
        self.configuration = configuration
        self.stepLimit = stepLimit
        self.now = now
        self.logger = logger
    }

    /// What the page shows and the API answers now, from memory.
    var state: CalculatorState { CalculatorState(session) }

    /// What the page shows and the API answers now, read again from the
    /// store first when another instance saved the calculator since this
    /// one read it, or the store forgot it (then it shows 0, as on any
    /// other instance).
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    func current() async throws -> CalculatorState {
        await takeTurn()
        defer { endTurn() }
        if !stale, let store, try await store.version(id) ?? 0 != version {
            stale = true
        }
        if stale { try await reload() }
        return CalculatorState(session)
    }

    /// How many undo steps the session holds.
    var stepCount: Int { session.stepCount }

    /// Runs `change` on the session, saves what it changed, and returns the
    /// state after it with the number of undo steps the session holds.
    /// `change` returns the labels of the steps a press added (none for an
    /// undo or redo), and changes nothing when it throws.
    ///
    /// The session is changed in place, not copied: a copy would copy the
    /// whole history at every press. When another instance saved the
    /// calculator since this one read it, the calculator is read again and
    /// `change` runs on it instead; when the store fails, the session is
    /// read again before its next use.
    ///
    /// - Throws: What `change` throws, or the store's error.
    func change(
        _ change: @Sendable (inout CalculatorSession) throws -> [String]
    ) async throws -> (state: CalculatorState, steps: Int) {
        await takeTurn()
        defer { endTurn() }
        for _ in 0..<3 {
            if stale { try await reload() }
            let (position, dropped) = (session.position, session.droppedStepCount)
            let appended = try change(&session)
            guard let store, let save = try save(fromPosition: position, dropped: dropped, appended: appended) else {
                return (CalculatorState(session), session.stepCount)
            }
            let saved: Int?
            do {
                saved = try await store.save(id, save, at: now())
            } catch {
                stale = true
                throw error
            }
            guard let saved else {
                // Changed elsewhere since: read it again and change that.
                stale = true
                continue
            }
            version = saved
            rewrite = false
            return (CalculatorState(session), session.stepCount)
        }
        throw APIError(.serviceUnavailable, "the calculator is being changed elsewhere at the same time; try again")
    }

    /// Reads the calculator again from the store (a new one when the store
    /// has none).
    private func reload() async throws {
        guard let store else { return }
        if let stored = try await store.calculator(id) {
            restore(stored)
        } else {
            session = CalculatorSession(configuration: configuration, undoLimit: stepLimit)
            (version, rewrite) = (0, false)
        }
        stale = false
    }

    /// Drops up to `count` of the oldest undo steps, in the store too, and
    /// returns how many the session still holds. When the store cannot save
    /// it, the failure is logged and the session is read again from the
    /// store at its next use.
    func dropOldestSteps(_ count: Int) async -> Int {
        do {
            return try await change { session in
                session.dropOldestSteps(count)
                return []
            }.steps
        } catch {
            logger.warning("a calculator's oldest steps could not be dropped: \(error)")
            return session.stepCount
        }
    }

    /// Makes the session again from the store's copy. One this version
    /// cannot make again (a step that replays differently, a base it cannot
    /// read) is logged and started again at 0, and the next save replaces it.
    func restore(_ stored: StoredCalculator) {
        version = stored.version
        do {
            let base = try JSONDecoder().decode(Calculator.self, from: Data(stored.base.utf8))
            let record = CalculatorRecord(
                base: base, droppedSteps: stored.droppedSteps, steps: stored.steps, position: stored.position)
            session = try CalculatorSession(configuration: configuration, undoLimit: stepLimit, restoring: record)
            rewrite = false
        } catch {
            logger.warning("a calculator cannot be made again and starts again at 0: \(error)")
            session = CalculatorSession(configuration: configuration, undoLimit: stepLimit)
            rewrite = true
        }
    }

    /// What the store must write for the change that left the session as
    /// it is from `position` and `dropped` steps, or `nil` when nothing it
    /// keeps changed: the steps a press added (after deleting the undone
    /// ones), the position, and the base when steps were dropped. A
    /// calculator the store does not hold yet, or one to replace, is
    /// written whole.
    private func save(fromPosition position: Int, dropped: Int, appended: [String]) throws -> CalculatorSave? {
        let droppedNow = session.droppedStepCount
        if version == 0 || rewrite {
            guard rewrite || session.position > 0 || session.canRedo else { return nil }
            return CalculatorSave(
                version: version, base: try Self.json(session.base), droppedSteps: droppedNow, keptThrough: droppedNow,
                appended: session.stepLabels, position: session.position)
        }
        let droppedChanged = droppedNow != dropped
        guard !appended.isEmpty || droppedChanged || session.position != position else { return nil }
        return CalculatorSave(
            version: version, base: droppedChanged ? try Self.json(session.base) : nil, droppedSteps: droppedNow,
            keptThrough: appended.isEmpty ? nil : position, appended: appended, position: session.position)
    }

    private static func json(_ calculator: Calculator) throws -> String {
        String(decoding: try JSONEncoder().encode(calculator), as: UTF8.self)
    }

    private func takeTurn() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the turn to the next change waiting, if any.
    private func endTurn() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
