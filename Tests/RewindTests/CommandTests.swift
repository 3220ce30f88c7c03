import Testing
import Rewind

@Suite("Commands")
struct CommandTests {
    final class Lamp {
        var isOn = false
        func switchOn() { isOn = true }
    }

    protocol Jumping: AnyObject {
        var jumps: Int { get set }
    }

    final class Rabbit: Jumping { var jumps = 0 }
    final class Kangaroo: Jumping { var jumps = 0 }

    @Test func closureCommandRunsItsActionOnEachExecution() {
        var count = 0
        let command = Command { count += 1 }
        command.execute()
        command.execute()
        #expect(count == 2)
    }

    @Test func weakCaptureStopsWorkingOnceTheReceiverIsGone() {
        var lamp: Lamp? = Lamp()
        weak let observed = lamp
        let command = Command { [weak lamp] in lamp?.switchOn() }
        command.execute()
        #expect(observed?.isOn == true)
        lamp = nil
        #expect(observed == nil)
        command.execute()  // does nothing, and does not crash
    }

    @Test func strongCaptureKeepsTheReceiverAlive() {
        var lamp: Lamp? = Lamp()
        weak let observed = lamp
        let captured = lamp
        let command = Command { captured?.switchOn() }
        lamp = nil
        command.execute()
        #expect(observed?.isOn == true)
    }

    @Test func executeAllRunsCommandsInOrder() {
        var log: [Int] = []
        Command.executeAll([Command { log.append(1) }, Command { log.append(2) }])
        #expect(log == [1, 2])
    }

    @Test func receiverCommandActsOnTheReceiverChosenAtExecution() {
        let jump = ReceiverCommand<any Jumping> { $0.jumps += 1 }
        let rabbit = Rabbit()
        let kangaroo = Kangaroo()
        jump.execute(on: rabbit)
        jump.execute(on: kangaroo)
        jump.execute(on: kangaroo)
        #expect(rabbit.jumps == 1)
        #expect(kangaroo.jumps == 2)
    }

    @Test func valueCommandFromAFunctionReturnsTheNewValue() {
        let triple = ValueCommand<Int> { $0 * 3 }
        #expect(triple.execute(with: 4) == 12)
    }

    @Test func valueCommandFromAMutatingActionLeavesItsArgumentUnchanged() {
        let negate = ValueCommand<Int> { (value: inout Int) in value.negate() }
        let number = 4
        #expect(negate.execute(with: number) == -4)
        #expect(number == 4)
        var inPlace = 5
        negate.execute(on: &inPlace)
        #expect(inPlace == -5)
    }

    @Test func valueCommandsCompose() {
        let addOne = ValueCommand<Int> { $0 + 1 }
        let double = ValueCommand<Int> { $0 * 2 }
        #expect(addOne.then(double).execute(with: 3) == 8)
        #expect(double.then(addOne).execute(with: 3) == 7)
    }

    @Test func valueCommandIsGenericOverAnyValue() {
        let shout = ValueCommand<String> { (text: inout String) in text = text.uppercased() }
        #expect(shout.execute(with: "milk") == "MILK")
    }
}

@Suite("Undoable commands on receivers that cannot be copied")
struct UndoableCommandTests {
    final class Database {
        var rows: [String] = []
        struct Missing: Error {}
    }

    static func create(_ row: String) -> UndoableCommand<Database> {
        UndoableCommand(
            name: "Create “\(row)”",
            execute: { $0.rows.append(row) },
            undo: { database in
                guard let index = database.rows.lastIndex(of: row) else { throw Database.Missing() }
                database.rows.remove(at: index)
            })
    }

    @Test func executeAndUndoActOnTheReceiver() throws {
        let database = Database()
        let command = Self.create("milk")
        try command.execute(on: database)
        #expect(database.rows == ["milk"])
        try command.undo(on: database)
        #expect(database.rows.isEmpty)
    }

    @Test func reversedSwapsExecuteAndUndo() throws {
        let database = Database()
        database.rows = ["milk"]
        try Self.create("milk").reversed.execute(on: database)
        #expect(database.rows.isEmpty)
    }

    @Test func commandsAreRecordedInAHistoryWithNamesUndoAndRedo() throws {
        let database = Database()
        let history = History(CommandReceiver(database))
        let milk = Self.create("milk")
        let eggs = Self.create("eggs")
        try history.perform(milk, named: milk.name)
        try history.perform(eggs, named: eggs.name)
        #expect(database.rows == ["milk", "eggs"])
        #expect(history.undoTitle == "Undo Create “eggs”")
        #expect(try history.undo() == "Create “eggs”")
        #expect(database.rows == ["milk"])
        #expect(try history.redo() == "Create “eggs”")
        #expect(database.rows == ["milk", "eggs"])
        try history.jump(to: 0)
        #expect(database.rows.isEmpty)
    }

    @Test func aFailingUndoLeavesTheHistoryWhereItWas() throws {
        let database = Database()
        let history = History(CommandReceiver(database))
        try history.perform(Self.create("milk"), named: "Create")
        database.rows.removeAll()  // someone else deleted the row
        #expect(throws: Database.Missing.self) { try history.undo() }
        #expect(history.canUndo)
        #expect(history.position == 1)
    }
}
