import Foundation
import GRDB
import Testing
import Todos
@testable import TodoStore

@Suite("SQLite store")
struct SQLiteStoreTests {
    /// A database file moved or deleted while the store has it open: the
    /// store would go on saving into a file no later start finds. A health
    /// check says so, naming the path, until the file is back.
    @Test func aFileMovedAwayWhileOpenIsNotReachableUntilItIsBack() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try await fixture.open()
        try await store.change(.add(try fixture.item("Buy milk")))
        try await store.checkReachable()
        let moved = fixture.directory.appendingPathComponent("moved.sqlite")
        try FileManager.default.moveItem(at: fixture.fileURL, to: moved)
        let error = await #expect(throws: StoreError.self) { try await store.checkReachable() }
        #expect(error?.description.contains(fixture.fileURL.path) == true, "\(String(describing: error))")
        #expect(error?.description.contains("no longer at this path") == true, "\(String(describing: error))")
        try FileManager.default.moveItem(at: moved, to: fixture.fileURL)
        try await store.checkReachable()
    }

    @Suite("refuses files that are not its own and leaves them unchanged")
    struct BadFiles {
        func assertRefused(_ url: URL, _ expected: (StoreError) -> Bool) throws {
            let before = try Data(contentsOf: url)
            #expect {
                _ = try SQLiteStore(url: url, pollInterval: nil)
            } throws: { error in
                guard let error = error as? StoreError else { return false }
                return expected(error) && error.description.contains(url.path)
            }
            #expect(try Data(contentsOf: url) == before, "the file must be left byte for byte")
            let siblings = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            // Beside a damaged file, only the mark that keeps it from being written (DamageMark).
            #expect(siblings.filter { $0 != url.lastPathComponent + "-damaged" } == [url.lastPathComponent], "no -wal or -shm file was left beside it")
        }

        @Test func aFileThatIsNotSQLite() async throws {
            let fixture = try StoreFixture(.sqlite)
            try Data("my shopping list\n".utf8).write(to: fixture.fileURL)
            try assertRefused(fixture.fileURL) { if case .notADatabase = $0 { true } else { false } }
        }

        /// What is at the database's path is refused before SQLite opens it
        /// (a FIFO would block a reader for good), and left as it is.
        @Test(arguments: ["FIFO", "directory", "device", "dangling link"])
        func somethingThatIsNotARegularFileIsRefusedAtOnce(kind: String) throws {
            let fixture = try StoreFixture(.sqlite)
            let path = fixture.fileURL.path
            switch kind {
            case "FIFO": #expect(mkfifo(path, 0o600) == 0)
            case "directory": try FileManager.default.createDirectory(at: fixture.fileURL, withIntermediateDirectories: false)
            case "device": try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/null")
            default: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path + "-missing")
            }
            #expect {
                _ = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
            } throws: { error in
                guard let error = error as? StoreError, error.description.contains(path) else { return false }
                switch (kind, error) {
                case ("FIFO", .notARegularFile(_, "a FIFO")), ("directory", .notARegularFile(_, "a directory")),
                    ("device", .notARegularFile(_, "a device")), ("dangling link", .io):
                    return true
                default: return false
                }
            }
            let siblings = try FileManager.default.contentsOfDirectory(atPath: fixture.fileURL.deletingLastPathComponent().path)
            #expect(siblings == [fixture.fileURL.lastPathComponent], "nothing was made beside it")
            #expect(!FileManager.default.fileExists(atPath: path + "-missing"))
        }

        @Test func anSQLiteDatabaseOfAnotherProgram() async throws {
            let fixture = try StoreFixture(.sqlite)
            let queue = try DatabaseQueue(path: fixture.fileURL.path)
            try await queue.write { db in
                try db.execute(sql: "CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')")
            }
            try queue.close()
            try assertRefused(fixture.fileURL) { if case .foreignDatabase = $0 { true } else { false } }
        }

        @Test func anotherGRDBAppsDatabaseWithMigrations() async throws {
            let fixture = try StoreFixture(.sqlite)
            let queue = try DatabaseQueue(path: fixture.fileURL.path)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("contacts") { db in try db.execute(sql: "CREATE TABLE contacts (name TEXT)") }
            try migrator.migrate(queue)
            try queue.close()
            try assertRefused(fixture.fileURL) { if case .foreignDatabase = $0 { true } else { false } }
        }

        @Test func aFileAnotherRewindProcessIsCreatingRightNowIsNotForeign() async throws {
            // What a second process sees between GRDB creating its migrations
            // table and the first migration marking the file as Rewind's.
            let fixture = try StoreFixture(.sqlite)
            let queue = try DatabaseQueue(path: fixture.fileURL.path)
            try await queue.write { db in
                try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            }
            try queue.close()
            let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
            try await store.change(.add(try TodoItem(id: UUID(), title: "First", created: .now)))
            #expect(try await SQLiteStore.open(url: fixture.fileURL, pollInterval: nil).state().todos.count == 1)
        }

        @Test func aDatabaseFromANewerRewind() async throws {
            let fixture = try StoreFixture(.sqlite)
            _ = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
            let queue = try DatabaseQueue(path: fixture.fileURL.path)
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
            }
            try await queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
            }
            try queue.close()
            try assertRefused(fixture.fileURL) {
                if case .newerSchema(_, let unknown) = $0 { unknown == ["v99-from-the-future"] } else { false }
            }
        }

        @Test func aDamagedDatabase() async throws {
            let fixture = try StoreFixture(.sqlite)
            do {
                let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
                for index in 0..<300 {
                    try await store.change(.add(try TodoItem(id: UUID(), title: "Item \(index) " + String(repeating: "x", count: 200), created: .now)))
                }
            }
            let queue = try DatabaseQueue(path: fixture.fileURL.path)
            try await queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
            }
            try queue.close()
            // Scribble over the middle of the file, past the header page.
            var bytes = try Data(contentsOf: fixture.fileURL)
            let start = bytes.count / 2
            for offset in start..<(start + 4096) { bytes[offset] = 0x5A }
            try bytes.write(to: fixture.fileURL)
            try assertRefused(fixture.fileURL) {
                switch $0 {
                case .corrupt, .notADatabase: true
                default: false
                }
            }
            #expect(FileManager.default.fileExists(atPath: fixture.fileURL.path + "-damaged"), "the damage is marked")
        }

        /// A store file with three items and their three steps, closed, whose
        /// rows `damage` then alters with SQL.
        func databaseWithThreeItems(_ fixture: StoreFixture, damage: (Database, [TodoItem]) throws -> Void) throws {
            var items: [TodoItem] = []
            do {
                let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
                for title in ["One", "Two", "Three"] {
                    let item = try TodoItem(id: UUID(), title: title, created: .now)
                    try store.change([.add(item)], named: nil)
                    items.append(item)
                }
            }
            let queue = try DatabaseQueue(path: fixture.fileURL.path)
            try queue.write { db in try damage(db, items) }
            try queue.close()
        }

        @Test func anItemRowThatDoesNotDecodeIsNamed() async throws {
            let fixture = try StoreFixture(.sqlite)
            var bad = ""
            try databaseWithThreeItems(fixture) { db, items in
                bad = items[1].id.uuidString
                try db.execute(sql: "UPDATE item SET due = '{\"kind\": \"someday\"}' WHERE id = ?", arguments: [bad])
            }
            try assertRefused(fixture.fileURL) {
                if case .corrupt(_, let detail) = $0 { detail.hasPrefix("the due date of item \(bad) does not decode") } else { false }
            }
        }

        @Test func anItemRowHoldingTwoDocumentsIsNamed() async throws {
            // Joined into one array, the rows would decode: one value too many.
            let fixture = try StoreFixture(.sqlite)
            var bad = ""
            try databaseWithThreeItems(fixture) { db, items in
                bad = items[0].id.uuidString
                let one = #"{"kind": "coordinate", "latitude": 1, "longitude": 2}"#
                try db.execute(sql: "UPDATE item SET location = ?", arguments: [one])
                // Written past the schema's CHECK, as damage would be.
                try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
                try db.execute(sql: "UPDATE item SET location = location || ',' || location WHERE id = ?", arguments: [bad])
            }
            try assertRefused(fixture.fileURL) {
                if case .corrupt = $0 { true } else { false }
            }
        }

        @Test func aStepThatDoesNotDecodeFailsOnlyTheUndoThatCrossesIt() async throws {
            // Steps are read when crossed: the file opens, the list shows, and
            // the undo that needs the bad step fails, changing nothing.
            let fixture = try StoreFixture(.sqlite)
            try databaseWithThreeItems(fixture) { db, _ in
                try db.execute(sql: "UPDATE step SET inverse = '[{\"op\": \"launch\"}]' WHERE seq = (SELECT max(seq) FROM step)")
            }
            let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
            #expect(try await store.state().todos.items.map(\.title) == ["One", "Two", "Three"])
            await #expect {
                try await store.undo()
            } throws: { error in
                guard case .corrupt(let path, let detail) = error as? StoreError else { return false }
                return path == fixture.fileURL.path && detail.hasPrefix("history step 3 (“Add “Three””) cannot be read")
            }
            #expect(try await store.state().todos.items.map(\.title) == ["One", "Two", "Three"])
            #expect(try await store.history().position == 3)
            let first = try await store.state().todos.items[0].id
            try await store.change(.update(first, [.title(to: "Uno")], at: .now))
            #expect(try await SQLiteStore(url: fixture.fileURL, pollInterval: nil).state().todos.items.map(\.title) == ["Uno", "Two", "Three"])
        }

        @Test func errorsSayWhichFileAndWhatToDo() async throws {
            let error = StoreError.foreignDatabase(path: "/data/rewind.sqlite")
            #expect(error.description.contains("/data/rewind.sqlite"))
            #expect(error.description.contains("left unchanged"))
        }
    }

    @Test func oneChangeWritesAFewRowsWhateverTheListSize() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let items = try (0..<1_000).map { try TodoItem(id: UUID(), title: "Item \($0)", created: .now) }
        try await store.change(items.map { .add($0) }, named: "Add many")
        let queue = try DatabaseQueue(path: fixture.fileURL.path)
        func totalChanges() throws -> Int {
            try queue.read { db in
                try Int.fetchOne(db, sql: "SELECT sum(n) FROM (SELECT count(*) AS n FROM item UNION ALL SELECT count(*) FROM step)") ?? 0
            }
        }
        let rowsBefore = try totalChanges()
        // Insert in the middle, rename, move, delete: each must touch only its own rows.
        let middle = try TodoItem(id: UUID(), title: "Middle", created: .now)
        try await store.change(.insert(middle, at: 500))
        try await store.change(.update(items[10].id, [.title(to: "Renamed")], at: .now))
        try await store.change(.move(items[900].id, to: 3))
        try await store.change(.remove(items[20].id))
        try await store.undo()
        // One item more; five rows more in the log (the undo appends one).
        #expect(try totalChanges() == rowsBefore + 1 + 5)
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(try await reopened.state() == store.state())
        #expect(try await reopened.state().todos.item(at: 501)?.title == "Middle")  // the move put one item before it
        #expect(try await reopened.state().todos.item(at: 3)?.id == items[900].id)
    }

    // The journal's statements are compiled once per connection and run again
    // on every commit: a long session in one store must write each change as
    // a fresh store would, including redo steps a new change discards.
    @Test func aLongSessionInOneStoreReopensExactlyAsItWasLeft() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        for round in 0..<40 {
            try await store.change(.add(try fixture.item("Item \(round)")))
            var ids = try await store.read { $0.todos.ids }
            try await store.change(.update(ids[round % ids.count], [.title(to: "Renamed \(round)")], at: fixture.clock.now()))
            if round % 3 == 0, ids.count > 1 { try await store.change(.remove(ids[ids.count / 2])) }
            if round % 4 == 0 {
                try await store.undo()
                try await store.undo()
                try await store.redo()
                // A new change after undo discards the step still ahead.
                ids = try await store.read { $0.todos.ids }
                try await store.change(.update(ids[0], [.complete], at: fixture.clock.now()))
            }
            if round % 10 == 9 { try await store.jump(to: try await store.history().position - 5) }
        }
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        #expect(try await reopened.state() == store.state())
        #expect(try await reopened.history().steps.map(\.name) == store.history().steps.map(\.name))
        #expect(try await reopened.history().position == store.history().position)
        // And the saved history crosses back to the empty list.
        try await reopened.jump(to: 0)
        #expect(try await reopened.state().todos.isEmpty)
        try await reopened.jump(to: try await reopened.history().steps.count)
        try await store.jump(to: try await store.history().steps.count)
        #expect(try await reopened.state() == store.state())
    }

    @Test func openingAnUpToDateDatabaseCommitsNothing() async throws {
        let fixture = try StoreFixture(.sqlite)
        do {
            let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
            try await store.change(.add(try TodoItem(id: UUID(), title: "Buy milk", created: .now)))
        }
        // `data_version` changes when another connection commits.
        let watcher = try DatabaseQueue(path: fixture.fileURL.path)
        let before = try await watcher.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(try await store.state().todos.count == 1)
        let after = try await watcher.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
        #expect(before == after, "opening the store committed a transaction")
    }

    @Test func theDurabilityChosenIsTheOneInEffect() async throws {
        let fixture = try StoreFixture(.sqlite)
        for (durability, expected) in [(SQLiteStore.Durability.powerLoss, 2), (.processCrash, 1)] {
            let database = try TodoDatabase(url: fixture.fileURL, durability: durability)
            #expect(try await database.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == expected)
            #expect(try await database.queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        }
    }

    @Test func theRankBetweenTwoNeighboursLiesStrictlyBetween() {
        #expect(ItemRanks.rank(between: nil, and: nil) == 0)
        #expect(ItemRanks.rank(between: 4, and: nil) == 5)
        #expect(ItemRanks.rank(between: nil, and: 4) == 3)
        #expect(ItemRanks.rank(between: 1, and: 2) == 1.5)
        #expect(ItemRanks.rank(between: 1, and: 1.0.nextUp) == nil)
    }

    @Test func insertingAtTheSamePlaceOverAndOverKeepsTheOrder() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        try await store.change(.add(try TodoItem(id: UUID(), title: "Last", created: .now)))
        try await store.change(.insert(try TodoItem(id: UUID(), title: "First", created: .now), at: 0))
        // Halving the gap 100 times runs out of double precision: the store renumbers.
        for index in 0..<100 {
            try await store.change(.insert(try TodoItem(id: UUID(), title: "\(index)", created: .now), at: 1))
        }
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(try await reopened.state().todos.items.map(\.title) == store.state().todos.items.map(\.title))
        #expect(try await reopened.state().todos.items.first?.title == "First")
        #expect(try await reopened.state().todos.items.last?.title == "Last")
    }

    @Test func theFileAndItsWALAndSharedMemoryAreTheOwnersOnlyFromTheStart() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        try await store.change(.add(try TodoItem(id: UUID(), title: "Buy milk", created: .now)))
        for suffix in ["", "-wal", "-shm"] {
            let path = fixture.fileURL.path + suffix
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(path): \(String(mode ?? 0, radix: 8))")
        }
    }

    @Test func twoStoresOnOneFileSeeEachOthersChanges() async throws {
        let fixture = try StoreFixture(.sqlite)
        let server = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let cli = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let milk = try TodoItem(id: UUID(), title: "Buy milk", created: .now)
        try await cli.change(.add(milk))
        // The server catches up before its own change, so history stays one line.
        let bread = try TodoItem(id: UUID(), title: "Buy bread", created: .now)
        try await server.change(.add(bread))
        #expect(try await server.state().todos.items == [milk, bread])
        #expect(try await cli.undo() == "Add “Buy bread”")
        #expect(try await server.undo() == "Add “Buy milk”")
        #expect(try await server.state().todos.isEmpty)
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(try await reopened.history().steps.map(\.name) == ["Add “Buy milk”", "Add “Buy bread”"])
        #expect(try await reopened.history().position == 0)
    }

    /// A server (the list in memory, no poll here) reads what another
    /// process acknowledged at its next read: the item, the history, the
    /// positions, and its subscribers are told. Its own changes are not
    /// taken for another's.
    @Test(.timeLimit(.minutes(1)))
    func aReadFromMemoryPicksUpAnotherProcesssChangeAtOnce() async throws {
        let fixture = try StoreFixture(.sqlite)
        let server = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let cli = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand)
        var told = server.updates().makeAsyncIterator()
        #expect(try await server.state().todos.isEmpty)
        let milk = try TodoItem(id: UUID(), title: "Buy milk", created: .now)
        try await cli.change(.add(milk))
        #expect(try await server.items(withIDs: [milk.id]) == [milk])
        _ = await told.next()
        try await cli.change([.todos(.update(milk.id, [.title(to: "Buy oat milk")], at: .now))], named: nil)
        #expect(try await server.state().todos[id: milk.id]?.title == "Buy oat milk")
        #expect(try await server.history().steps.count == 2)
        let bread = try TodoItem(id: UUID(), title: "Buy bread", created: .now)
        try await cli.change(.insert(bread, at: 0))
        #expect(try await server.positions(of: [milk.id]).positions[milk.id] == 1)
        #expect(try await server.items(in: nil, now: .now).items.map(\.title) == ["Buy bread", "Buy oat milk"])
        #expect(try await server.historyTree().steps.count == 3)
        // The server's own change, then a read: the list as it left it.
        try await server.change(.remove(bread.id))
        #expect(try await server.state().todos.items.map(\.title) == ["Buy oat milk"])
        #expect(try await cli.undo() == "Delete “Buy bread”")
        #expect(try await server.state().todos.items.map(\.title) == ["Buy bread", "Buy oat milk"])
    }

    /// Another process's changes reach a server's list by the rows they
    /// touched, not by reading the list again: after each, the server's
    /// list (and the order of its rows, which its own next change uses)
    /// is the file's.
    @Test func anotherProcesssChangesAreAppliedToTheListInMemoryRowByRow() async throws {
        let fixture = try StoreFixture(.sqlite)
        let server = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let cli = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand)
        func item(_ title: String) throws -> TodoItem { try TodoItem(id: UUID(), title: title, created: .now) }
        func expectServerHoldsTheFile(_ context: String) async throws {
            let file = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
            #expect(try await server.state() == file.state(), "\(context)")
            #expect(try await server.history() == file.history(), "\(context)")
            #expect(try await server.historyTree() == file.historyTree(), "\(context)")
        }
        let (milk, bread, eggs) = (try item("Buy milk"), try item("Buy bread"), try item("Buy eggs"))
        try await server.change(.add(milk))
        // The history shown and the tree, kept from here on.
        _ = try await (server.history(), server.historyTree())
        try await cli.change(.add(bread))
        try await expectServerHoldsTheFile("an add")
        try await cli.change([.insert(eggs, at: 0), .move(milk.id, to: 2)], named: "Two at once")
        try await expectServerHoldsTheFile("an insert and a move")
        try await cli.change([.update(bread.id, [.title(to: "Buy rye bread"), .complete], at: .now)], named: nil)
        try await expectServerHoldsTheFile("an edit")
        try await cli.change([.todos(.completeAll(at: .now))], named: "Complete all")
        try await expectServerHoldsTheFile("every item completed (its inverse names them)")
        _ = try await cli.undo()
        _ = try await cli.undo()
        _ = try await cli.redo()
        try await expectServerHoldsTheFile("undo, undo, redo")
        try await cli.change(.remove(eggs.id))
        try await expectServerHoldsTheFile("a delete, which abandons the step undone")
        // The server's own change lands where the file's ranks say.
        try await server.change(.insert(try item("Call mum"), at: 1))
        try await expectServerHoldsTheFile("the server's insert after them")
        #expect(server.listsReadAgain.load(ordering: .relaxed) == 0)
        #expect(server.historyReads.load(ordering: .relaxed) == 2, "the history was moved by the rows, not read again")
        // A jump to the abandoned branch redoes a step that is not the newest
        // undone one: the kept history cannot follow it, and is read again.
        let abandoned = try #require(try await server.historyTree().steps.first { $0.branch == .abandoned }?.number)
        try await cli.jump(toStep: abandoned)
        try await expectServerHoldsTheFile("a jump across branches")
        #expect(server.historyReads.load(ordering: .relaxed) == 4)
        #expect(server.listsReadAgain.load(ordering: .relaxed) == 0)
        // It knew the ranks of the rows the others wrote: no row was numbered again.
        let renumberings = try await DatabaseQueue(path: fixture.fileURL.path).read { db in try TodoDatabase.count(.renumberings, db) }
        #expect(renumberings == 0)
    }

    /// Rows that do not hold what the log says (an item row deleted behind
    /// the log's back) have the server read the list again: it shows the
    /// file, never a list half brought up to date.
    @Test func rowsThatDisagreeWithTheLogHaveTheListReadAgain() async throws {
        let fixture = try StoreFixture(.sqlite)
        let server = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let cli = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand)
        let milk = try TodoItem(id: UUID(), title: "Buy milk", created: .now)
        try await server.change(.add(milk))
        let bread = try TodoItem(id: UUID(), title: "Buy bread", created: .now)
        try await cli.change(.add(bread))
        try await DatabaseQueue(path: fixture.fileURL.path).write { db in
            try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [bread.id.uuidString])
        }
        #expect(try await server.state().todos.items == [milk])
        #expect(server.listsReadAgain.load(ordering: .relaxed) == 1)
    }

    /// What the log's rows cannot say makes the server read the list
    /// again: a renumbering of every row, a reset, too many rows behind.
    @Test func aRenumberingAResetOrALongWayBehindHaveTheListReadAgain() async throws {
        let fixture = try StoreFixture(.sqlite)
        let server = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let cli = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, durability: .processCrash, items: .onDemand)
        func item(_ title: String) throws -> TodoItem { try TodoItem(id: UUID(), title: title, created: .now) }
        func expectServerHoldsTheFile(_ context: String) async throws {
            let file = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
            #expect(try await server.state() == file.state(), "\(context)")
        }
        try await server.change(.add(try item("Last")))
        try await server.change(.insert(try item("First"), at: 0))
        // Halving the gap 100 times runs out of double precision: the rows are numbered again.
        for index in 0..<100 {
            try await cli.change(.insert(try item("\(index)"), at: 1))
        }
        try await expectServerHoldsTheFile("after the renumbering")
        #expect(server.listsReadAgain.load(ordering: .relaxed) == 1)
        try await server.change(.insert(try item("Second"), at: 1))
        try await expectServerHoldsTheFile("the server's insert after a renumbering")

        try await cli.reset()
        try await cli.change(.add(try item("After the reset")))
        #expect(try await server.state().todos.items.map(\.title) == ["After the reset"])
        #expect(server.listsReadAgain.load(ordering: .relaxed) == 2)

        for index in 0...SQLiteStore.catchUpLimit {
            try await cli.change(.add(try item("Item \(index)")))
        }
        try await expectServerHoldsTheFile("more rows behind than it applies")
        #expect(server.listsReadAgain.load(ordering: .relaxed) == 3)

        // A store with a cap deletes the oldest rows: the history shown is read again.
        let capped = try SQLiteStore(url: fixture.fileURL, limit: 3, pollInterval: nil, items: .onDemand)
        #expect(try await server.history().steps.count == 1_002)
        try await capped.change(.add(try item("Capped")))
        let shown = try await server.history()
        #expect(shown.steps.count == 3)
        #expect(try await shown == SQLiteStore(url: fixture.fileURL, pollInterval: nil).history())
        #expect(server.listsReadAgain.load(ordering: .relaxed) == 3, "the items were brought up by the row")
    }
}

@Suite("Data directory")
struct DataDirectoryTests {
    let home = URL(fileURLWithPath: "/home/ada")

    @Test func theOptionComesFirst() async throws {
        let directory = DataDirectory.resolve(
            explicitPath: "/tmp/mine", environment: ["REWIND_DATA_DIR": "/env", "XDG_DATA_HOME": "/xdg"], home: home)
        #expect(directory.url.path == "/tmp/mine")
    }

    @Test func thenTheEnvironmentVariable() async throws {
        let directory = DataDirectory.resolve(environment: ["REWIND_DATA_DIR": "/env", "XDG_DATA_HOME": "/xdg"], home: home)
        #expect(directory.url.path == "/env")
    }

    @Test func thenXDGDataHome() async throws {
        #expect(DataDirectory.resolve(environment: ["XDG_DATA_HOME": "/xdg"], home: home).url.path == "/xdg/rewind")
    }

    @Test func thenTheHomeFolderAndEmptyValuesDoNotCount() async throws {
        let directory = DataDirectory.resolve(explicitPath: "", environment: ["REWIND_DATA_DIR": " "], home: home)
        #expect(directory.url.path == "/home/ada/.local/share/rewind")
    }

    @Test func theHomeFolderIsHOMEAndATildeToo() async throws {
        let environment = ["HOME": "/tmp/elsewhere"]
        #expect(DataDirectory.resolve(environment: environment).url.path == "/tmp/elsewhere/.local/share/rewind")
        #expect(DataDirectory.resolve(explicitPath: "~/todos", environment: environment).url.path == "/tmp/elsewhere/todos")
        #expect(DataDirectory.resolve(environment: ["REWIND_DATA_DIR": "~"], home: home).url.path == "/home/ada")
        // Without $HOME, the account's home folder.
        #expect(DataDirectory.resolve(environment: [:]).url == DataDirectory.resolve(
            environment: [:], home: FileManager.default.homeDirectoryForCurrentUser).url)
        // The same for any path the user gives, such as a file to export to.
        #expect(DataDirectory.home(environment: environment).path == "/tmp/elsewhere")
        let elsewhere = DataDirectory.home(environment: environment)
        #expect(DataDirectory.expandingTilde(in: "~/todos.json", home: elsewhere) == "/tmp/elsewhere/todos.json")
        #expect(DataDirectory.expandingTilde(in: "~", home: elsewhere) == "/tmp/elsewhere")
        #expect(DataDirectory.expandingTilde(in: "a/~/b", home: elsewhere) == "a/~/b")
        #expect(DataDirectory.expandingTilde(in: "/x/~", home: elsewhere) == "/x/~")
    }

    @Test func createMakesAFolderForItsOwnerOnly() async throws {
        let fixture = try StoreFixture(.sqlite)
        let directory = DataDirectory(url: fixture.directory.appendingPathComponent("a/b/rewind"))
        try directory.create()
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        try directory.create()  // again: nothing to do
        let blocked = DataDirectory(url: fixture.directory.appendingPathComponent("file"))
        try Data().write(to: blocked.url)
        #expect(throws: StoreError.self) { try blocked.create() }
    }
}

@Suite("JSON file store")
struct JSONFileStoreTests {
    @Test func aFileThatDoesNotDecodeIsKeptAndReported() async throws {
        let fixture = try StoreFixture(.jsonFile)
        let content = Data(#"{"state": {"format": "rewind-todos", "version": 1, "items": [{"id": 3}]}}"#.utf8)
        try content.write(to: fixture.fileURL)
        #expect {
            _ = try JSONFileStore(url: fixture.fileURL)
        } throws: { error in
            guard case .undecodableFile(let path, _) = error as? StoreError else { return false }
            return path == fixture.fileURL.path
        }
        #expect(try Data(contentsOf: fixture.fileURL) == content)
    }

    @Test func aSaveLeavesNoTemporaryFileBehind() async throws {
        let fixture = try StoreFixture(.jsonFile)
        let store = try JSONFileStore(url: fixture.fileURL)
        try await store.change(.add(try TodoItem(id: UUID(), title: "a", created: .now)))
        try await store.change(.add(try TodoItem(id: UUID(), title: "b", created: .now)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path) == ["todos.json"])
    }
}
