import Foundation
import Testing

@Suite("rewind todo")
struct TodoCommandTests {
    @Suite("Adding and listing")
    struct AddingAndListing {
        @Test func anEmptyListSaysSoInAFriendlyLine() throws {
            let directory = try TodoDirectory()
            let run = try directory.succeed(["list"])
            #expect(run.stdout == "No items yet. Add one with: rewind todo add \"Buy milk\"\n")
        }

        @Test func addPrintsTheItemWithItsShortReference() throws {
            let directory = try TodoDirectory()
            let run = try directory.succeed(["add", "Buy", "milk", "--due", "2030-01-15"])
            let ref = try #require(try directory.items().first?["ref"] as? String)
            #expect(ref.count == 8)
            #expect(run.stdout == "Added \(ref) “Buy milk”, due 15 Jan 2030\n")
        }

        @Test func listShowsNumberReferenceMarkTitleDueAndLocation() throws {
            let directory = try TodoDirectory()
            let milk = try directory.add("Buy milk", ["--due", "2020-01-01"])
            let post = try directory.add("Post office", ["--address", "1 Main St, Springfield, 12345, US"])
            try directory.succeed(["done", post])
            let run = try directory.succeed(["list"])
            #expect(run.lines == [
                "1  \(milk)  [ ] Buy milk     1 Jan 2020 (overdue)",
                "2  \(post)  [x] Post office                        1 Main St, Springfield",
                "1 item left, 1 completed, 1 overdue",
            ])
        }

        @Test func theDefaultCommandIsList() throws {
            let directory = try TodoDirectory()
            try directory.add("Buy milk")
            let run = try directory.run([])
            #expect(run.status == 0)
            #expect(run.stdout.contains("[ ] Buy milk"))
        }

        @Test func theDataDirectoryMayComeBeforeTheSubcommand() throws {
            let directory = try TodoDirectory()
            let before = ["todo", "--data-dir", directory.url.path]
            let added = try runRewind(before + ["add", "Buy milk"])
            #expect(added.status == 0, "\(added.stderr)")
            #expect(try runRewind(before).stdout.contains("[ ] Buy milk"))
            #expect(try runRewind(before + ["history", "jump", "0"]).status == 0)
            #expect(try directory.titles().isEmpty, "the jump went to the start of that directory's history")
            #expect(try runRewind(["todo", "history", "--data-dir", directory.url.path, "jump", "1"]).status == 0)
            #expect(try directory.titles() == ["Buy milk"])
        }

        @Test func filtersShowActiveCompletedAndOverdueItems() throws {
            let directory = try TodoDirectory()
            try directory.add("Late", ["--due", "2020-01-01"])
            try directory.add("Later", ["--due", "2030-01-01"])
            let done = try directory.add("Done")
            try directory.succeed(["done", done])
            #expect(try directory.titles() == ["Late", "Later", "Done"])
            #expect(try directory.titles(["--active"]) == ["Late", "Later"])
            #expect(try directory.titles(["--completed"]) == ["Done"])
            #expect(try directory.titles(["--overdue"]) == ["Late"])
            #expect(try directory.succeed(["list", "--all"]).lines.count == 4)
        }

        @Test func aFilterThatMatchesNothingSaysSo() throws {
            let directory = try TodoDirectory()
            try directory.add("Buy milk")
            #expect(try directory.succeed(["list", "--overdue"]).stdout == "Nothing is overdue.\n")
            #expect(try directory.succeed(["list", "--completed"]).stdout == "No item is completed yet.\n")
        }

        @Test func smartSortPutsActiveItemsFirstThenTheMostRecentlyChanged() throws {
            let directory = try TodoDirectory()
            let first = try directory.add("First")
            try directory.add("Second")
            try directory.add("Third")
            try directory.succeed(["done", first])
            _ = try directory.items()
            try directory.succeed(["edit", "2", "--details", "touched"])
            #expect(try directory.titles(["--sort", "smart"]) == ["Second", "Third", "First"])
            #expect(try directory.titles(["--sort", "created"]) == ["First", "Second", "Third"])
        }

        @Test func listJSONHasNumbersReferencesAndCounts() throws {
            let directory = try TodoDirectory()
            let ref = try directory.add("Buy milk")
            let document = try TodoDirectory.object(try directory.succeed(["list", "--json"]).stdout)
            let item = try #require((document["items"] as? [[String: Any]])?.first)
            #expect(item["number"] as? Int == 1)
            #expect(item["ref"] as? String == ref)
            #expect(item["state"] as? String == "active")
            #expect((item["id"] as? String)?.lowercased().hasPrefix(ref) == true)
            #expect((document["counts"] as? [String: Int])?["active"] == 1)
        }

        @Test func addTakesDetailsDueAndEachKindOfLocation() throws {
            let directory = try TodoDirectory()
            try directory.add("Call Anna", ["--details", "About the trip", "--due", "2030-01-15 14:30"])
            try directory.add("Post", ["--address", "1 Main St, Springfield"])
            try directory.add("Picnic", ["--coordinate", "-33.92,18.42"])
            try directory.add("Hut", ["--step", "Leave by the gate", "--step", "Turn right"])
            let items = try directory.items()
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

        @Test func showPrintsEveryField() throws {
            let directory = try TodoDirectory()
            let ref = try directory.add("Call Anna", ["--details", "About the trip", "--due", "2030-01-15", "--address", "1 Main St, Springfield"])
            let run = try directory.succeed(["show", ref])
            #expect(run.lines.first == "Call Anna")
            #expect(run.stdout.contains("  ref      \(ref)\n"))
            #expect(run.stdout.contains("  state    active\n"))
            #expect(run.stdout.contains("  due      15 Jan 2030  (2030-01-15)\n"))
            #expect(run.stdout.contains("  where    1 Main St, Springfield\n"))
            #expect(run.stdout.contains("  details  About the trip\n"))
            let json = try TodoDirectory.object(try directory.succeed(["show", ref, "--json"]).stdout)
            #expect(json["title"] as? String == "Call Anna")
            #expect(json["ref"] as? String == ref)
        }

        @Test func dataDirectoryComesFromTheEnvironmentWithoutTheOption() throws {
            let directory = try TodoDirectory()
            let added = try runRewind(["todo", "add", "From the environment"], environment: ["REWIND_DATA_DIR": directory.url.path])
            #expect(added.status == 0)
            #expect(try directory.titles() == ["From the environment"])
            #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("rewind.sqlite").path))
        }
    }

    @Suite("References")
    struct References {
        @Test func aNumberMeansTheItemTheLastListShowedThere() throws {
            let directory = try TodoDirectory()
            try directory.add("First")
            try directory.add("Second")
            try directory.add("Third")
            #expect(try directory.titles(["--sort", "smart"]) == ["Third", "Second", "First"])
            try directory.succeed(["done", "1"])
            #expect(try directory.titles(["--completed"]) == ["Third"])
        }

        @Test func anExportWithTheEarlierStateNamesImportsAndIsExportedWithTheNewOnes() throws {
            let directory = try TodoDirectory()
            let (open, closed) = ("00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002")
            let document = todoDocument([(open, "Open one"), (closed, "Closed one")], completed: [closed], earlierWords: true)
            #expect(try directory.run(["import", "-"], stdin: document).status == 0)
            #expect(try directory.titles(["--completed"]) == ["Closed one"])
            #expect(try directory.titles(["--active"]) == ["Open one"])
            let export = try directory.export()
            #expect(export.contains(#""state" : "completed""#) && export.contains(#""state" : "active""#))
            #expect(export.contains(#""version" : 2"#) && !export.contains("finished"))
        }

        @Test func doneAndUndoneSayCompletedAndActive() throws {
            let directory = try TodoDirectory()
            let ref = try directory.add("Buy milk")
            #expect(try directory.succeed(["done", ref]).lines == ["Completed: \(ref) “Buy milk”"])
            #expect(try directory.succeed(["done", ref]).stderr == "Already completed: \(ref) “Buy milk”\n")
            #expect(try directory.succeed(["undone", ref]).lines == ["Active: \(ref) “Buy milk”"])
            #expect(try directory.succeed(["undone", ref]).stderr == "Already active: \(ref) “Buy milk”\n")
            #expect(try directory.succeed(["show", ref]).stdout.contains("  state    active\n"))
        }

        @Test func anIDPrefixOfFourOrMoreHexDigitsNamesAnItemInAnyCase() throws {
            let directory = try TodoDirectory()
            let document = todoDocument([
                ("ABCD1234-0000-4000-8000-000000000001", "Alpha"), ("FEDC9876-0000-4000-8000-000000000002", "Omega"),
            ])
            try directory.run(["import", "-"], stdin: document)
            try directory.succeed(["done", "abcd"])
            try directory.succeed(["done", "FEDC-98"])
            #expect(try directory.titles(["--completed"]) == ["Alpha", "Omega"])
        }

        @Test func aNumberOfAnItemDeletedSinceTheListIsAnError() throws {
            let directory = try TodoDirectory()
            try directory.add("First")
            try directory.add("Second")
            _ = try directory.items()
            try directory.succeed(["rm", "1"])
            let before = try directory.export()
            let run = try directory.run(["done", "1"])
            #expect(run.status == 1)
            #expect(run.stderr == "rewind todo: item 1 of the last list no longer exists; run `rewind todo list` to number the items again, or use an id prefix\n")
            #expect(try directory.export() == before)
        }

        @Test func theSameItemNamedTwiceIsChangedOnce() throws {
            let directory = try TodoDirectory()
            let ref = try directory.add("Buy milk")
            _ = try directory.items()
            let run = try directory.succeed(["done", "1", ref])
            #expect(run.lines == ["Completed: \(ref) “Buy milk”"])
        }
    }
}
