import Foundation

/// A browser's calculator as a ``CalculatorStore`` keeps it: where its
/// undo history starts and the labels of its steps, from which the
/// calculator domain makes the session again (`CalculatorRecord`).
///
/// Steps are numbered from the calculator's first press (1) on; the steps
/// up to ``droppedSteps`` were dropped and ``base`` stands for them.
public struct StoredCalculator: Equatable, Sendable {
    /// The calculator after the dropped steps, as JSON text (the store does
    /// not read it).
    public var base: String
    /// How many of the oldest steps were dropped.
    public var droppedSteps: Int
    /// The labels of the kept steps, `droppedSteps + 1` on, oldest first.
    public var steps: [String]
    /// How many steps are done, from `droppedSteps` to `droppedSteps + steps.count`.
    public var position: Int
    /// The calculator's version: drawn at random when it is first saved
    /// (``firstVersion()``), one more at each save after. A save made on an
    /// older version (by another instance since) is refused.
    public var version: Int

    /// A stored calculator of these parts.
    public init(base: String, droppedSteps: Int, steps: [String], position: Int, version: Int) {
        self.base = base
        self.droppedSteps = droppedSteps
        self.steps = steps
        self.position = position
        self.version = version
    }

    /// The calculator after `save`, as the store keeps it.
    func applying(_ save: CalculatorSave) -> StoredCalculator {
        var next = self
        if let kept = save.keptThrough {
            let first = droppedSteps + 1
            next.steps.removeLast(max(0, min(next.steps.count, first + next.steps.count - 1 - kept)))
        }
        next.steps += save.appended
        if save.droppedSteps > droppedSteps {
            next.steps.removeFirst(min(next.steps.count, save.droppedSteps - droppedSteps))
        }
        next.droppedSteps = save.droppedSteps
        if let base = save.base { next.base = base }
        next.position = save.position
        next.version = version == 0 ? Self.firstVersion() : version + 1
        return next
    }

    /// The version of a calculator's first save: drawn at random from
    /// 1…2⁵², so that a calculator forgotten and made again under the same
    /// cookie does not count through the old one's numbers. An instance
    /// that still holds the old one in memory then sees a version it does
    /// not have, and reads the new one instead of showing (and saving over
    /// it) its own.
    public static func firstVersion() -> Int {
        Int.random(in: 1...(1 << 52))
    }
}

/// One change of a stored calculator: a press (undone steps replaced by new
/// ones), an undo or redo (the position moved), dropped steps (the base
/// moved), or several at once. Its size is that of the change, not of the
/// calculator's history.
public struct CalculatorSave: Equatable, Sendable {
    /// The ``StoredCalculator/version`` the change was made on; 0 for a
    /// calculator the store does not hold yet.
    public var version: Int
    /// The new base, when steps were dropped; required for a new calculator.
    public var base: String?
    /// How many of the oldest steps are dropped after the change.
    public var droppedSteps: Int
    /// The steps after this one are deleted before ``appended`` is added
    /// (the undone steps a press replaces); `nil` deletes none.
    public var keptThrough: Int?
    /// The labels of the new steps, numbered on from the last step kept.
    public var appended: [String]
    /// How many steps are done after the change.
    public var position: Int

    /// A change of these parts.
    public init(
        version: Int, base: String? = nil, droppedSteps: Int, keptThrough: Int? = nil, appended: [String] = [],
        position: Int
    ) {
        self.version = version
        self.base = base
        self.droppedSteps = droppedSteps
        self.keptThrough = keptThrough
        self.appended = appended
        self.position = position
    }
}

/// Where the calculators of the browser page are kept, so that they
/// survive a restart and any instance over the same database can serve a
/// browser: one row per calculator (found by the SHA-256 of its cookie,
/// never the cookie itself) and one per step.
///
/// ```swift
/// let version = try await store.save(id, CalculatorSave(version: 0, base: base, droppedSteps: 0,
///                                                       keptThrough: 0, appended: ["1"], position: 1), at: Date())
/// let calculator = try await store.calculator(id)   // steps ["1"], the same version
/// ```
public protocol CalculatorStore: Sendable {
    /// The calculator of the browser whose cookie is `id`, or `nil` when
    /// none is kept.
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` when its rows do not
    ///   make a calculator (a step missing, a position outside its steps).
    func calculator(_ id: String) async throws -> StoredCalculator?

    /// The ``StoredCalculator/version`` of the calculator of `id`, or `nil`
    /// when none is kept: what an instance compares its copy in memory with
    /// before it shows the calculator.
    func version(_ id: String) async throws -> Int?

    /// Applies `save` to the calculator of `id` in one transaction, when it
    /// is still at `save.version` (0: none kept yet), and notes that it was
    /// used at `now`.
    ///
    /// - Returns: The calculator's new version (for a new calculator,
    ///   ``StoredCalculator/firstVersion()``), or `nil` when another save
    ///   came first (the caller reads the calculator again); nothing is
    ///   written then.
    func save(_ id: String, _ save: CalculatorSave, at now: Date) async throws -> Int?

    /// Forgets the calculators last used before `date`, and all but the
    /// `limit` most recently used ones.
    ///
    /// - Returns: How many calculators were forgotten.
    @discardableResult
    func forgetCalculators(unusedSince date: Date, keepingAtMost limit: Int) async throws -> Int
}

extension CalculatorStore {
    /// The key a calculator is kept under: the SHA-256 of its cookie in
    /// lower-case hexadecimal, so that a copy of the database opens no one's
    /// calculator.
    public static func key(_ id: String) -> String {
        SessionID.hexSHA256(of: id)
    }

    /// The calculator made from its rows: the steps must be numbered one
    /// after another from `droppedSteps + 1`, and the position must lie
    /// within them.
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` naming `path` and
    ///   what is wrong.
    public static func checked(
        base: String, droppedSteps: Int, position: Int, version: Int, steps: [(number: Int, label: String)],
        path: String
    ) throws -> StoredCalculator {
        for (offset, step) in steps.enumerated() where step.number != droppedSteps + 1 + offset {
            throw StoreError.corrupt(
                path: path, detail: "a calculator’s step \(droppedSteps + 1 + offset) is missing (found step \(step.number))")
        }
        guard droppedSteps >= 0, (droppedSteps...(droppedSteps + steps.count)).contains(position) else {
            throw StoreError.corrupt(
                path: path,
                detail: "a calculator’s position \(position) is outside its steps \(droppedSteps)…\(droppedSteps + steps.count)")
        }
        return StoredCalculator(
            base: base, droppedSteps: droppedSteps, steps: steps.map(\.label), position: position, version: version)
    }
}

/// The calculators in memory, for the tests (`rewind serve --in-memory`
/// keeps its calculators in the server's memory without a store): gone when
/// the process ends.
public actor InMemoryCalculatorStore: CalculatorStore {
    private var calculators: [String: (calculator: StoredCalculator, used: Date)] = [:]

    /// An empty store.
    public init() {}

    /// See ``CalculatorStore/calculator(_:)``.
    public func calculator(_ id: String) -> StoredCalculator? {
        calculators[Self.key(id)]?.calculator
    }

    /// See ``CalculatorStore/version(_:)``.
    public func version(_ id: String) -> Int? {
        calculators[Self.key(id)]?.calculator.version
    }

    /// See ``CalculatorStore/save(_:_:at:)``.
    public func save(_ id: String, _ save: CalculatorSave, at now: Date) -> Int? {
        let key = Self.key(id)
        let current = calculators[key]?.calculator
            ?? StoredCalculator(base: save.base ?? "", droppedSteps: save.droppedSteps, steps: [], position: 0, version: 0)
        guard current.version == save.version else { return nil }
        let next = current.applying(save)
        calculators[key] = (next, now)
        return next.version
    }

    /// See ``CalculatorStore/forgetCalculators(unusedSince:keepingAtMost:)``.
    @discardableResult
    public func forgetCalculators(unusedSince date: Date, keepingAtMost limit: Int) -> Int {
        let before = calculators.count
        calculators = calculators.filter { $0.value.used >= date }
        let newest = Set(calculators.sorted { $0.value.used > $1.value.used }.prefix(max(0, limit)).map(\.key))
        calculators = calculators.filter { newest.contains($0.key) }
        return before - calculators.count
    }
}
