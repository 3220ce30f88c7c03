import Testing
@testable import Calculator

@Suite("Command factory")
struct CommandFactoryTests {
    @Test func everyStandardLabelMakesACommandForItsKey() throws {
        for entry in CommandFactory.standardEntries {
            let command = try CommandFactory.standard.command(for: entry.label)
            #expect(command.key == entry.key)
            #expect(command.label == entry.label)
        }
    }

    @Test func everyKeyHasALabel() {
        let keys = Set(CommandFactory.standardEntries.map(\.key))
        let expected: Set<Key> = Set(Digit.allCases.map(Key.digit))
            .union(ArithmeticOperation.allCases.map(Key.operation))
            .union(UnaryFunction.allCases.map(Key.function))
            .union([.decimalPoint, .equals, .percent, .toggleSign, .clear, .backspace, .allClear])
        #expect(keys == expected)
    }

    @Test func commandsPressTheirKeyOnACopy() throws {
        var nine = Calculator()
        nine.press(.digit(.nine))
        let root = try CommandFactory.standard.command(for: "√").execute(with: nine)
        #expect(root.display == "3")
        #expect(nine.display == "9")
    }

    @Test(arguments: [("*", "x"), ("×", "x"), ("/", "÷"), ("−", "-"), ("sqrt", "√"), ("x^2", "x²"), ("+/-", "±")])
    func aliasesStandForTheirLabel(alias: String, label: String) throws {
        let command = try CommandFactory.standard.command(for: alias)
        #expect(command.label == label)
        #expect(command.key == (try CommandFactory.standard.key(for: label)))
    }

    @Test func unknownLabelThrowsAnErrorListingTheKnownLabels() {
        #expect(throws: UnknownLabelError(label: "sin", knownLabels: CommandFactory.standard.labels)) {
            try CommandFactory.standard.command(for: "sin")
        }
        let error = UnknownLabelError(label: "sin", knownLabels: ["1", "+", "="])
        #expect(error.description == "Unknown label \"sin\"; known labels: 1 + =")
    }

    @Test func aRestrictedFactoryKnowsOnlyItsLabelsAndTheirAliases() throws {
        let factory = CommandFactory.standard.restricted(to: ["1", "x", "=", "bogus"])
        #expect(factory.labels == ["1", "x", "="])
        #expect(try factory.key(for: "*") == .operation(.multiplication))
        #expect(throws: UnknownLabelError.self) { try factory.key(for: "2") }
        #expect(throws: UnknownLabelError.self) { try factory.key(for: "/") }
        #expect(factory.aliases["/"] == nil)
    }

    @Test func aRestrictedFactoryAcceptsAnAliasAsALabel() throws {
        let factory = CommandFactory.standard.restricted(to: ["*", "="])
        #expect(factory.labels == ["*", "="])
        #expect(try factory.command(for: "*").key == .operation(.multiplication))
    }

    @Test func onAKeypadLabelledWithAnAliasEverySpellingPressesTheKeyNamedAsDrawn() throws {
        let factory = CommandFactory.standard.restricted(to: ["7", "+/-", "*", "−", "="])
        for spelling in ["x", "×", "*"] {
            #expect(try factory.command(for: spelling).label == "*")
            #expect(try factory.key(for: spelling) == .operation(.multiplication))
        }
        #expect(try factory.command(for: "±").label == "+/-")
        #expect(try factory.command(for: "-").label == "−")
        #expect(factory.knows("±"))
        #expect(!factory.knows("÷"))
        var session = CalculatorSession(
            configuration: try ButtonConfiguration(labels: ["7", "+/-", "*", "−", "="], columnCount: 5),
            factory: .standard)
        try session.press(["7", "±", "x", "7", "="])
        #expect(session.display == "-49")
        #expect(session.undoActionName == "Press =")
        session.undo()
        session.undo()
        #expect(session.undoActionName == "Press ×")
    }

    @Test func aNewFunctionKeyIsOneCaseAndOneEntry() throws {
        // √ and x² are functions: one case of UnaryFunction each, and one entry.
        let functionLabels = CommandFactory.standardEntries.filter {
            if case .function = $0.key { return true }
            return false
        }.map(\.label)
        #expect(functionLabels == ["√", "x²"])
        #expect(UnaryFunction.allCases.count == functionLabels.count)
    }

    @Test func duplicateLabelsKeepTheFirstEntry() throws {
        let factory = CommandFactory(entries: [.init("k", .digit(.one)), .init("k", .digit(.two))])
        #expect(try factory.key(for: "k") == .digit(.one))
    }
}
