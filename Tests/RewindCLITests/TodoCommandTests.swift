import Foundation
import Testing

@Suite("rewind todo")
struct TodoCommandTests {
    @Suite("Adding and listing")
    struct AddingAndListing {
        @Test func anEmptyListSaysSoInAFriendlyLine() async throws {
            let directory = try TodoDirectory()
            let run = try await directory.succeed(["list"])
            #expect(run.stdout == "No items yet. Add one with: rewind todo add \"Buy milk\"\(directory.again)\n")
        }

        @Test func addPrintsTheItemWithItsShortReference() async throws {
            let directory = try TodoDirectory()
            let run = try await directory.succeed(["add", "Buy", "milk", "--due", "2030-01-15"])
            let ref = try #require(try await directory.items().first?["ref"] as? String)
            #expect(ref.count == 8)
            #expect(run.stdout == "Added \(ref) “Buy milk”, due 15 Jan 2030\n")
        }

        @Test func listShowsNumberReferenceMarkTitleDueAndLocation() async throws {
            let directory = try TodoDirectory()
            let milk = try await directory.add("Buy milk", ["--due", "2020-01-01"])
            let post = try await directory.add("Post office", ["--address", "1 Main St, Springfield, 12345, US"])
            try await directory.succeed(["done", post])
            let run = try await directory.succeed(["list"])
            #expect(run.lines == [
                "1  \(milk)  [ ] Buy milk     1 Jan 2020 (overdue)",
                "2  \(post)  [x] Post office                        1 Main St, Springfield",
                "1 item left, 1 completed, 1 overdue",
            ])
        }

        @Test func theDefaultCommandIsList() async throws {
            let directory = try TodoDirectory()
            try await directory.add("Buy milk")
            let run = try await directory.run([])
            #expect(run.status == 0)
            #expect(run.stdout.contains("[ ] Buy milk"))
        }

        @Test func theDataDirectoryMayComeBeforeTheSubcommand() async throws {
            let directory = try TodoDirectory()
            let before = ["todo", "--data-dir", directory.url.path]
            let added = try await runRewind(before + ["add", "Buy milk"])
            #expect(added.status == 0, "\(added.stderr)")
            #expect(try await runRewind(before).stdout.contains("[ ] Buy milk"))
            #expect(try await runRewind(before + ["history", "jump", "0"]).status == 0)
            #expect(try await directory.titles().isEmpty, "the jump went to the start of that directory's history")
            #expect(try await runRewind(["todo", "history", "--data-dir", directory.url.path, "jump", "1"]).status == 0)
            #expect(try await directory.titles() == ["Buy milk"])
        }

        @Test func filtersShowActiveCompletedAndOverdueItems() async throws {
            let directory = try TodoDirectory()
            try await directory.add("Late", ["--due", "2020-01-01"])
            try await directory.add("Later", ["--due", "2030-01-01"])
            let done = try await directory.add("Done")
            try await directory.succeed(["done", done])
            #expect(try await directory.titles() == ["Late", "Later", "Done"])
            #expect(try await directory.titles(["--active"]) == ["Late", "Later"])
            #expect(try await directory.titles(["--completed"]) == ["Done"])
            #expect(try await directory.titles(["--overdue"]) == ["Late"])
            #expect(try await directory.succeed(["list", "--all"]).lines.count == 4)
        }

        @Test func searchShowsTheItemsThatContainEveryWordAndNumbersThem() async throws {
            let directory = try TodoDirectory()
            try await directory.add("Buy milk")
            try await directory.add("Café run", ["--details", "Ask about the Milk delivery"])
            let done = try await directory.add("Milk the cow")
            try await directory.succeed(["done", done])
            #expect(try await directory.titles(["--search", "MILK"]) == ["Buy milk", "Café run", "Milk the cow"])
            #expect(try await directory.titles(["--search", "milk cafe"]) == ["Café run"])
            #expect(try await directory.titles(["--search", "milk", "--active", "--sort", "smart"]) == ["Café run", "Buy milk"])
            let table = try await directory.succeed(["list", "--search", "run"]).stdout
            #expect(table.hasSuffix("1 found for “run” · 2 items left, 1 completed\n"), "\(table)")
            // The numbers are those of the list shown.
            try await directory.succeed(["done", "1"])
            #expect(try await directory.titles(["--completed"]) == ["Café run", "Milk the cow"])

            #expect(try await directory.succeed(["list", "--search", "tea"]).stdout == "No item contains “tea”.\n")
            #expect(try await directory.succeed(["list", "--search", "milk tea", "--active"]).stdout
                == "No active item contains every word of “milk tea”.\n")
            #expect(try await directory.titles(["--search", " "]).count == 3, "no words: no search")
            try await directory.succeed(["add", "-5", "degrees", "tonight"])
            #expect(try await directory.titles(["--search", "-5 degrees"]) == ["-5 degrees tonight"], "a dash starts a value")
            let long = try await directory.run(["list", "--search", String(repeating: "a", count: 201)])
            #expect(long.status == 64)
            #expect(long.stderr.contains("a search is at most 200 characters long, not 201"))
        }

        @Test func aMistypedCommandOrWordsAfterListAreRefusedWithWhatWasMeant() async throws {
            let directory = try TodoDirectory()
            try await directory.add("Buy milk")
            let typo = try await directory.run(["lst"])
            #expect(typo.status == 64)
            #expect(typo.stderr.contains("unknown command “lst” (did you mean list?); the commands of rewind todo are list, add, show,"))
            let far = try await directory.run(["Buy", "bread"])
            #expect(far.status == 64)
            #expect(far.stderr.contains("unknown command “Buy”; the commands of rewind todo are list, add"), "\(far.stderr)")
            #expect(far.stderr.contains(#"import; to add an item: rewind todo add 'Buy bread'"# + directory.again), "\(far.stderr)")
            // Pasted back, the suggestion adds the words as typed: nothing in them is expanded.
            let dollars = try await directory.run(["Pay", "Bob", "$5", "$(touch x)"])
            #expect(dollars.stderr.contains(#"to add an item: rewind todo add 'Pay Bob $5 $(touch x)'"#), "\(dollars.stderr)")
            let quote = try await directory.run(["bob's", "book"])
            #expect(quote.stderr.contains(#"to add an item: rewind todo add 'bob'\''s book'"#), "\(quote.stderr)")
            let synonym = try await directory.run(["check", "the", "mail"])
            #expect(synonym.stderr.contains("unknown command “check” (did you mean done?)"), "\(synonym.stderr)")
            #expect(synonym.stderr.contains(#"to add an item: rewind todo add 'check the mail'"#), "\(synonym.stderr)")
            let words = try await directory.run(["list", "milk", "bread"])
            #expect(words.status == 64)
            #expect(words.stderr.contains(#"list takes no words; to show the items that contain them: rewind todo list --search 'milk bread'"#))
            #expect(try await directory.titles() == ["Buy milk"], "nothing changed")
            // A mistyped option followed by its value is named, not its value.
            for arguments in [["list", "--srot", "due"], ["--srot", "due"]] {
                let mistyped = try await directory.run(arguments)
                #expect(mistyped.status == 64)
                #expect(mistyped.stderr == "rewind todo: unknown option “--srot” (did you mean --sort?)\n", "\(mistyped.stderr)")
            }
        }

        @Test func moveTakesAnItemBeforeOrAfterAnotherOrToTheTopOrBottomAsOneStep() async throws {
            let directory = try TodoDirectory()
            for title in ["One", "Two", "Three", "Four"] { try await directory.add(title) }
            try await directory.succeed(["list"])
            let moved = try await directory.succeed(["move", "4", "--before", "2"]).stdout
            #expect(moved.hasPrefix("Moved ") && moved.contains("“Four” before ") && moved.hasSuffix("“Two”\n"), "\(moved)")
            #expect(try await directory.titles() == ["One", "Four", "Two", "Three"])
            // Numbers are those of the last list (`titles()` lists too).
            try await directory.succeed(["move", "1", "--after", "3"])
            #expect(try await directory.titles() == ["Four", "Two", "One", "Three"])
            #expect(try await directory.succeed(["move", "3", "--top"]).stdout.hasSuffix("“One” to the top\n"))
            #expect(try await directory.succeed(["move", "2", "--bottom"]).stdout.hasSuffix("“Two” to the bottom\n"))
            #expect(try await directory.titles() == ["One", "Four", "Three", "Two"])
            try await directory.succeed(["undo"])
            #expect(try await directory.titles() == ["One", "Four", "Two", "Three"])

            let there = try await directory.succeed(["move", "1", "--top"])
            #expect(there.stderr == "Nothing to change: “One” is already at the top.\n")
            let itself = try await directory.run(["move", "1", "--after", "1"])
            #expect(itself.status == 64)
            #expect(itself.stderr.contains("cannot be moved before or after itself"))
            for wrong in [["move", "1"], ["move", "1", "--top", "--after", "2"]] {
                let run = try await directory.run(wrong)
                #expect(run.status == 64, "\(wrong)")
                #expect(run.stderr.contains("--before"), "\(run.stderr)")
            }
            #expect(try await directory.titles() == ["One", "Four", "Two", "Three"], "nothing changed")
        }

        @Test func aFilterThatMatchesNothingSaysSo() async throws {
            let directory = try TodoDirectory()
            try await directory.add("Buy milk")
            #expect(try await directory.succeed(["list", "--overdue"]).stdout == "Nothing is overdue.\n")
            #expect(try await directory.succeed(["list", "--completed"]).stdout == "No item is completed yet.\n")
        }

        @Test func smartSortPutsActiveItemsFirstThenTheMostRecentlyChanged() async throws {
            let directory = try TodoDirectory()
            let first = try await directory.add("First")
            try await directory.add("Second")
            try await directory.add("Third")
            try await directory.succeed(["done", first])
            _ = try await directory.items()
            try await directory.succeed(["edit", "2", "--details", "touched"])
            #expect(try await directory.titles(["--sort", "smart"]) == ["Second", "Third", "First"])
            #expect(try await directory.titles(["--sort", "list"]) == ["First", "Second", "Third"])
            #expect(try await directory.titles(["--sort", "created"]) == ["First", "Second", "Third"], "the earlier name of list")
        }

        @Test func wideCharactersLineUpTheColumnsOfTheListAndTheHistory() async throws {
            let directory = try TodoDirectory()
            let wide = try await directory.add("牛乳を買う", ["--due", "2030-01-15"])
            let milk = try await directory.add("Buy milk", ["--due", "2030-01-15"])
            #expect(try await directory.succeed(["list"]).lines.prefix(2) == [
                "1  \(wide)  [ ] 牛乳を買う  15 Jan 2030",
                "2  \(milk)  [ ] Buy milk    15 Jan 2030",
            ])
            // The history's dates start in one column: “牛乳を買う” takes ten cells, “Buy milk” eight.
            let history = try await directory.succeed(["history"]).lines
            #expect(history.count == 3)
            #expect(history.dropFirst().first?.contains("Add “牛乳を買う”  ") == true, "\(history)")
            #expect(history.last?.contains("Add “Buy milk”    ") == true, "\(history)")
        }

        @Test func anEditThatChangesNothingSaysSoAndMakesNoStep() async throws {
            let directory = try TodoDirectory()
            let ref = try await directory.add("Buy milk", ["--details", "Oat"])
            let run = try await directory.succeed(["edit", ref, "--title", " Buy milk ", "--details", "Oat"])
            #expect(run.stdout.isEmpty)
            #expect(run.stderr == "Nothing to change: \(ref) “Buy milk” already has these values.\n")
            let history = try await directory.succeed(["history"])
            #expect(!history.stdout.contains("Edit"), "\(history.stdout)")
            try await directory.succeed(["edit", ref, "--title", "Buy milk", "--details", "Soy"])
            #expect(try await directory.items().first?["details"] as? String == "Soy")
        }

        @Test func listJSONHasNumbersReferencesAndCounts() async throws {
            let directory = try TodoDirectory()
            let ref = try await directory.add("Buy milk")
            let document = try await TodoDirectory.object(try directory.succeed(["list", "--json"]).stdout)
            let item = try #require((document["items"] as? [[String: Any]])?.first)
            #expect(item["number"] as? Int == 1)
            #expect(item["ref"] as? String == ref)
            #expect(item["state"] as? String == "active")
            #expect((item["id"] as? String)?.lowercased().hasPrefix(ref) == true)
            #expect((document["counts"] as? [String: Int])?["active"] == 1)
        }

        @Test func addTakesDetailsDueAndEachKindOfLocation() async throws {
            let directory = try TodoDirectory()
            try await directory.add("Call Anna", ["--details", "About the trip", "--due", "2030-01-15 14:30"])
            try await directory.add("Post", ["--address", "1 Main St, Springfield"])
            try await directory.add("Picnic", ["--coordinate", "-33.92,18.42"])
            try await directory.add("Hut", ["--step", "Leave by the gate", "--step", "Turn right"])
            let items = try await directory.items()
            #expect(items[0]["details"] as? String == "About the trip")
            #expect((items[0]["due"] as? [String: Any])?["date"] as? String == "2030-01-15T14:30:00.000Z")
            let address = try #require(items[1]["location"] as? [String: Any])
            #expect(address["street"] as? String == "1 Main St")
            #expect(address["city"] as? String == "Springfield")
            #expect(address["zipCode"] as? String == "")
            let coordinate = try #require(items[2]["location"] as? [String: Any])
            #expect(coordinate["latitude"] as? Double == -33.92)
            #expect(coordinate["longitude"] as? Double == 18.42)
            #expect((items[3]["location"] as? [String: Any])?["steps"] as? [String] == ["Leave by the gate", "Turn right"])
        }

        @Test func showPrintsEveryField() async throws {
            let directory = try TodoDirectory()
            let ref = try await directory.add("Call Anna", ["--details", "About the trip", "--due", "2030-01-15", "--address", "1 Main St, Springfield"])
            let run = try await directory.succeed(["show", ref])
            #expect(run.lines.first == "Call Anna")
            #expect(run.stdout.contains("  ref      \(ref)\n"))
            #expect(run.stdout.contains("  state    active\n"))
            #expect(run.stdout.contains("  due      15 Jan 2030  (2030-01-15)\n"))
            #expect(run.stdout.contains("  where    1 Main St, Springfield\n"))
            #expect(run.stdout.contains("  map      https://www.openstreetmap.org/search?query=1%20Main%20St%2C%20Springfield\n"))
            #expect(run.stdout.contains("  details  About the trip\n"))
            let json = try await TodoDirectory.object(try directory.succeed(["show", ref, "--json"]).stdout)
            #expect(json["title"] as? String == "Call Anna")
            #expect(json["ref"] as? String == ref)
        }

        @Test func dataDirectoryComesFromTheEnvironmentWithoutTheOption() async throws {
            let directory = try TodoDirectory()
            let added = try await runRewind(["todo", "add", "From the environment"], environment: ["REWIND_DATA_DIR": directory.url.path])
            #expect(added.status == 0)
            #expect(try await directory.titles() == ["From the environment"])
            #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("rewind.sqlite").path))
        }
    }

    @Suite("References")
    struct References {
        @Test func aNumberMeansTheItemTheLastListShowedThere() async throws {
            let directory = try TodoDirectory()
            try await directory.add("First")
            try await directory.add("Second")
            try await directory.add("Third")
            #expect(try await directory.titles(["--sort", "smart"]) == ["Third", "Second", "First"])
            try await directory.succeed(["done", "1"])
            #expect(try await directory.titles(["--completed"]) == ["Third"])
        }

        @Test func anExportWithTheEarlierStateNamesImportsAndIsExportedWithTheNewOnes() async throws {
            let directory = try TodoDirectory()
            let (open, closed) = ("00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002")
            let document = todoDocument([(open, "Open one"), (closed, "Closed one")], completed: [closed], earlierWords: true)
            #expect(try await directory.run(["import", "-"], stdin: document).status == 0)
            #expect(try await directory.titles(["--completed"]) == ["Closed one"])
            #expect(try await directory.titles(["--active"]) == ["Open one"])
            let export = try await directory.export()
            #expect(export.contains(#""state" : "completed""#) && export.contains(#""state" : "active""#))
            #expect(export.contains(#""version" : 2"#) && !export.contains("finished"))
        }

        @Test func doneAndUndoneSayCompletedAndActive() async throws {
            let directory = try TodoDirectory()
            let ref = try await directory.add("Buy milk")
            #expect(try await directory.succeed(["done", ref]).lines == ["Completed: \(ref) “Buy milk”"])
            #expect(try await directory.succeed(["done", ref]).stderr == "Already completed: \(ref) “Buy milk”\n")
            #expect(try await directory.succeed(["undone", ref]).lines == ["Active: \(ref) “Buy milk”"])
            #expect(try await directory.succeed(["undone", ref]).stderr == "Already active: \(ref) “Buy milk”\n")
            #expect(try await directory.succeed(["show", ref]).stdout.contains("  state    active\n"))
        }

        @Test func anIDPrefixOfFourOrMoreHexDigitsNamesAnItemInAnyCase() async throws {
            let directory = try TodoDirectory()
            let document = todoDocument([
                ("ABCD1234-0000-4000-8000-000000000001", "Alpha"), ("FEDC9876-0000-4000-8000-000000000002", "Omega"),
            ])
            try await directory.run(["import", "-"], stdin: document)
            try await directory.succeed(["done", "abcd"])
            try await directory.succeed(["done", "FEDC-98"])
            #expect(try await directory.titles(["--completed"]) == ["Alpha", "Omega"])
        }

        @Test func aNumberOfAnItemDeletedSinceTheListIsAnError() async throws {
            let directory = try TodoDirectory()
            try await directory.add("First")
            try await directory.add("Second")
            _ = try await directory.items()
            try await directory.succeed(["rm", "1"])
            let before = try await directory.export()
            let run = try await directory.run(["done", "1"])
            #expect(run.status == 1)
            #expect(run.stderr == "rewind todo: item 1 of the last list no longer exists; run `rewind todo list` to number the items again, or use an id prefix\n")
            #expect(try await directory.export() == before)
        }

        @Test func theSameItemNamedTwiceIsChangedOnce() async throws {
            let directory = try TodoDirectory()
            let ref = try await directory.add("Buy milk")
            _ = try await directory.items()
            let run = try await directory.succeed(["done", "1", ref])
            #expect(run.lines == ["Completed: \(ref) “Buy milk”"])
        }
    }
}
