import Calculator

/// `/api/calculator…`: each browser's calculator, found by the session
/// cookie that ``CalculatorCookieMiddleware`` reads and sets (in team
/// mode, the signed-in account's).
extension APIHandler {
    func calculator(_ input: Operations.Calculator.Input) async throws -> Operations.Calculator.Output {
        .ok(.init(body: .json(.init(try await currentState()))))
    }

    func pressKeys(_ input: Operations.PressKeys.Input) async throws -> Operations.PressKeys.Output {
        let body = switch input.body { case .json(let json): json }
        // The generated type reads `null` as a field left out; here it is a wrong value.
        if RequestBodyMiddleware.nullFields.contains("keys") {
            throw APIError.badRequest("invalid field “keys”: expected an array, found null")
        }
        if RequestBodyMiddleware.nullFields.contains("key") {
            throw APIError.badRequest("invalid field “key”: expected a string, found null")
        }
        let labels = (body.keys ?? []) + (body.key.map { [$0] } ?? [])
        if body.keys?.isEmpty == true, body.key == nil {
            throw APIError.badRequest("invalid field “keys”: an empty list presses nothing; give the labels to press, such as {\"keys\": [\"1\", \"+\"]}")
        }
        guard !labels.isEmpty else {
            throw APIError.badRequest("missing field “keys”: give the labels to press, such as {\"keys\": [\"1\", \"+\"]}")
        }
        guard labels.count <= 1_000 else {
            throw APIError.badRequest("too many keys in one request: at most 1000")
        }
        let keys = body.keys
        let state = try await change { session in
            do throws(UnknownLabelError) {
                return try session.press(labels)
            } catch {
                // The field the label came in: one of `keys`, or `key`.
                let field = keys?.firstIndex(of: error.label).map { "keys[\($0)]" } ?? "key"
                throw APIError.invalidField("invalid field “\(field)”: \(error.description)")
            }
        }
        return .ok(.init(body: .json(.init(state))))
    }

    func calculatorUndo(_ input: Operations.CalculatorUndo.Input) async throws -> Operations.CalculatorUndo.Output {
        let state = try await change { session in
            guard session.undo() != nil else { throw APIError.conflict("nothing to undo") }
            return []
        }
        return .ok(.init(body: .json(.init(state))))
    }

    func calculatorRedo(_ input: Operations.CalculatorRedo.Input) async throws -> Operations.CalculatorRedo.Output {
        let state = try await change { session in
            guard session.redo() != nil else { throw APIError.conflict("nothing to redo") }
            return []
        }
        return .ok(.init(body: .json(.init(state))))
    }

    /// This browser's calculator as it is, or a new one showing 0 when the
    /// browser has none yet: looking makes no session.
    private func currentState() async throws -> CalculatorState {
        if let id = CalculatorCookieMiddleware.session?.id, let calculator = try await calculators.existing(id) {
            return try await calculator.current()
        }
        return CalculatorState(CalculatorSession(configuration: calculators.configuration))
    }

    /// Runs `change` on this browser's calculator, made when it has none
    /// (the request has passed the CSRF and origin checks), saves it, and
    /// answers its state; the middleware sets the cookie. `change` returns
    /// the labels of the steps a press added.
    private func change(
        _ change: @Sendable @escaping (inout CalculatorSession) throws -> [String]
    ) async throws -> CalculatorState {
        guard let id = CalculatorCookieMiddleware.session?.id else {
            throw APIError(.internalServerError, "no calculator session")
        }
        let calculator = try await calculators.calculator(id)
        let (state, steps) = try await calculator.change(change)
        await calculators.account(id, steps: steps, of: calculator)
        return state
    }
}

extension Components.Schemas.Calculator {
    /// The answer for `state`.
    init(_ state: CalculatorState) {
        let snapshot = state.snapshot
        self.init(
            display: snapshot.display, value: snapshot.value, error: snapshot.error,
            canUndo: snapshot.canUndo, canRedo: snapshot.canRedo,
            undoTitle: state.undoTitle, redoTitle: state.redoTitle, tape: snapshot.tape,
            labels: state.labels, columnCount: state.columnCount, droppedSteps: state.droppedSteps,
            pendingKey: state.pendingKey, spoken: state.spoken
        )
    }
}
