import Foundation
import Testing
import Rewind

@Suite("Documentation samples")
struct DocumentationSampleTests {
    /// The articles of the engine's DocC catalog, by file name without `.md`.
    static func articles() throws -> [String: String] {
        let catalog = packageRoot.appendingPathComponent("Sources/Rewind/Rewind.docc")
        let files = try FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil)
        var articles: [String: String] = [:]
        for file in files where file.pathExtension == "md" {
            articles[file.deletingPathExtension().lastPathComponent] = try String(contentsOf: file, encoding: .utf8)
        }
        return articles
    }

    static func samples() throws -> [MarkedRegion] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("DocumentationSamples.swift")
        return markedRegions(named: "DOCC-SAMPLE", in: try String(contentsOf: file, encoding: .utf8))
    }

    @Suite("The catalog shows the samples word for word")
    struct Text {
        @Test func everySampleAppearsAsACodeBlockOfTheArticleItNames() throws {
            let articles = try DocumentationSampleTests.articles()
            let samples = try DocumentationSampleTests.samples()
            #expect(samples.count >= 10)
            for sample in samples {
                let article = try #require(articles[sample.label], "no article \(sample.label).md in Rewind.docc")
                let isShown = codeBlocks("swift", in: article).contains(sample.text)
                #expect(isShown, "\(sample.label).md must show this sample word for word:\n\(sample.text)")
            }
        }

        @Test func everySwiftCodeBlockOfTheCatalogIsASample() throws {
            let samples = try DocumentationSampleTests.samples()
            let articles = try DocumentationSampleTests.articles()
            #expect(articles.keys.contains("Rewind") && articles.keys.contains("GettingStarted"))
            for (name, article) in articles {
                for block in codeBlocks("swift", in: article) {
                    let isSample = samples.contains(MarkedRegion(label: name, text: block))
                    #expect(isSample, "this code block of \(name).md is not compiled by the tests; add it to DocumentationSamples.swift:\n\(block)")
                }
            }
        }

        @Test func theMarkersAndCodeBlocksAreReadAsWritten() {
            let source = "a\n// X-BEGIN One\nlet x = 1\n\n// X-END\n// X-BEGIN\ny\n// X-END\n"
            #expect(markedRegions(named: "X", in: source) == [
                MarkedRegion(label: "One", text: "let x = 1\n\n"),
                MarkedRegion(label: "", text: "y\n"),
            ])
            let markdown = "Text\n```swift\nlet x = 1\n```\n```sh\nls\n```\n```swift\n\n```\n"
            #expect(codeBlocks("swift", in: markdown) == ["let x = 1\n", "\n"])
        }
    }

    @Suite("Getting started")
    struct GettingStarted {
        @Test func theFirstPlaylistEndsWithTwoOfItsThreeStepsDone() throws {
            let history = try makeAPlaylist()
            #expect(history.model.name == "Road trip")
            #expect(history.model.songs == ["Golden Hour"])
            #expect(history.stepCount == 3)
            #expect(history.position == 2)
            #expect(history.redoTitle == "Redo Add “Holocene”")
            try history.redo()
            #expect(history.model.songs == ["Golden Hour", "Holocene"])
        }

        @Test func aChangeThatFailsLeavesPlaylistAndHistoryAsTheyWere() throws {
            let history = try makeAPlaylist()
            let steps = history.steps
            #expect(throws: Playlist.NoSuchPosition.self) { try addIntro(to: history) }
            #expect(history.model.songs == ["Golden Hour"])
            #expect(history.steps == steps)
            #expect(history.position == 2)
            #expect(history.canRedo)
        }
    }

    @Suite("Naming steps")
    struct NamingSteps {
        @Test func theEditMenuOfAHistoryNamesItsStepsOrSaysWhatCannotBeDone() throws {
            let history = History(Playlist())
            #expect(editMenu(for: history) == ["Can’t Undo", "Can’t Redo"])
            try history.perform(.add("Holocene", at: 0), named: "Add “Holocene”")
            #expect(editMenu(for: history) == ["Undo Add “Holocene”", "Can’t Redo"])
            try history.undo()
            #expect(editMenu(for: history) == ["Can’t Undo", "Redo Add “Holocene”"])
            try history.redo()
            try history.perform(.remove(at: 0))
            #expect(editMenu(for: history) == ["Undo", "Can’t Redo"])
        }

        @Test func theEditMenuOfAValueHistoryNamesItsStepsToo() {
            var values = ValueHistory(0)
            values.add(5, named: "Type 5")
            #expect(editMenu(for: values) == ["Undo Type 5", "Can’t Redo"])
            values.undo()
            #expect(editMenu(for: values) == ["Can’t Undo", "Redo Type 5"])
        }

        @Test func undoAndReportSaysWhichStepWasUndoneOfEitherHistory() throws {
            var history = History(Playlist())
            #expect(try undoAndReport(&history) == "Nothing to undo")
            try history.perform(.add("Holocene", at: 0), named: "Add “Holocene”")
            try history.perform(.rename(to: "Mix"))
            #expect(try undoAndReport(&history) == "Undid the last step")
            #expect(try undoAndReport(&history) == "Undid: Add “Holocene”")
            #expect(history.model.songs.isEmpty && history.model.name.isEmpty)

            var values = ValueHistory(0)
            values.add(5, named: "Type 5")
            #expect(try undoAndReport(&values) == "Undid: Type 5")
            #expect(values.current == 0)
        }
    }

    @Suite("Groups and coalescing")
    struct GroupsAndCoalescing {
        @Test func anAlbumIsAddedAfterTheSongsAsOneStep() throws {
            let history = History(Playlist())
            try history.perform(.add("Intro", at: 0), named: "Add “Intro”")
            try addAlbum(["One", "Two", "Three"], to: history)
            #expect(history.model.songs == ["Intro", "One", "Two", "Three"])
            #expect(history.steps.map(\.name) == ["Add “Intro”", "Add 3 songs"])
            try history.undo()
            #expect(history.model.songs == ["Intro"])
            try history.redo()
            #expect(history.model.songs == ["Intro", "One", "Two", "Three"])
        }

        @Test func anEmptyAlbumRecordsNoStep() throws {
            let history = History(Playlist())
            try addAlbum([], to: history)
            #expect(history.stepCount == 0)
            #expect(!history.isGroupOpen)
        }

        @Test func aMoveIsOneStepThatOneUndoReverts() throws {
            let history = History(Playlist())
            try addAlbum(["A", "B", "C"], to: history)
            try moveSong(at: 0, to: 2, in: history)
            #expect(history.model.songs == ["B", "C", "A"])
            #expect(history.undoTitle == "Undo Move “A”")
            try history.undo()
            #expect(history.model.songs == ["A", "B", "C"])
        }

        @Test func aMoveToNowhereRevertsItsRemovalAndRecordsNothing() throws {
            let history = History(Playlist())
            try addAlbum(["A", "B", "C"], to: history)
            let toNowhere = #expect(throws: Playlist.NoSuchPosition.self) { try moveSong(at: 0, to: 9, in: history) }
            #expect(toNowhere?.position == 9)
            let fromNowhere = #expect(throws: Playlist.NoSuchPosition.self) { try moveSong(at: 5, to: 0, in: history) }
            #expect(fromNowhere?.position == 5)
            #expect(history.model.songs == ["A", "B", "C"])
            #expect(history.stepCount == 1)
            #expect(!history.isGroupOpen)
        }

        @Test func typingWithinTheWindowIsOneStepAndAPauseStartsAnother() throws {
            let history = try typeTheName()
            #expect(history.model.name == "Road trip")
            #expect(history.stepCount == 2)
            try history.undo()
            #expect(history.model.name == "Road")
            try history.undo()
            #expect(history.model.name == "")
            #expect(!history.canUndo)
        }
    }

    @Suite("Jumping to a step")
    struct JumpingToAStep {
        @Test func thePanelListsEveryStepWithAnArrowAtThePosition() throws {
            let history = try makeAPlaylist()
            #expect(historyPanel(for: history) == [
                "  Start", "  Rename to “Road trip”", "→ Add “Golden Hour”", "  Add “Holocene”",
            ])
            try history.jump(to: 3)
            #expect(history.model.songs == ["Golden Hour", "Holocene"])
            #expect(historyPanel(for: history).last == "→ Add “Holocene”")
            try history.jump(to: 0)
            #expect(history.model.name == "" && history.model.songs.isEmpty)
            #expect(historyPanel(for: history).first == "→ Start")
        }

        @Test func aJumpOutsideTheHistoryThrowsAndMovesNothing() throws {
            let history = try makeAPlaylist()
            #expect(throws: HistoryError.positionOutOfRange(4, valid: 0...3)) { try history.jump(to: 4) }
            #expect(history.position == 2)
        }

        @Test func theActivityLogTellsEveryStepAJumpCrosses() throws {
            let history = History(Playlist())
            let log = ActivityLog()
            log.watch(history)
            try history.perform(.add("A", at: 0), named: "Add “A”")
            try history.perform(.add("B", at: 1), named: "Add “B”")
            try history.jump(to: 0)
            try history.redo()
            #expect(log.lines == [
                "Did Add “A”", "Did Add “B”", "Undid Add “B”", "Undid Add “A”", "Jumped from 2 to 0", "Redid Add “A”",
            ])
        }

        @Test func theActivityLogSkipsCoalescedChangesAndTellsTrimming() throws {
            let history = History(Playlist(), limit: 1, now: { Date(timeIntervalSinceReferenceDate: 0) })
            let log = ActivityLog()
            log.watch(history)
            try history.perform(.rename(to: "R"), named: "Rename", coalescingKey: "name")
            try history.perform(.rename(to: "Ro"), named: "Rename", coalescingKey: "name")
            history.breakCoalescing()
            try history.perform(.add("A", at: 0), named: "Add “A”")
            #expect(log.lines == ["Did Rename", "Did Add “A”", "Forgot the 1 oldest steps"])
        }

        @Test func aStoppedLogHearsNothingMore() throws {
            let history = History(Playlist())
            let log = ActivityLog()
            log.watch(history)
            try history.perform(.add("A", at: 0), named: "Add “A”")
            log.stopWatching(history)
            try history.undo()
            #expect(log.lines == ["Did Add “A”"])
        }
    }

    @Suite("Persisting a history")
    struct PersistingAHistory {
        @Test func aRestoredHistoryHasTheSameStepsAndUndoesAndRedoesAsTheOriginal() throws {
            let original = try makeAPlaylist()
            let restored = try restore(from: try save(original))
            #expect(restored.model.name == original.model.name)
            #expect(restored.model.songs == original.model.songs)
            #expect(restored.steps == original.steps)
            #expect(restored.position == 2)
            #expect(try restored.redo() == "Add “Holocene”")
            #expect(restored.model.songs == ["Golden Hour", "Holocene"])
            try restored.jump(to: 0)
            #expect(restored.model.name == "" && restored.model.songs.isEmpty)
        }

        @Test func aDocumentWhosePositionLiesOutsideItsStepsIsRefused() throws {
            var saved = try JSONDecoder().decode(SavedPlaylist.self, from: try save(try makeAPlaylist()))
            saved.position = 9
            let data = try JSONEncoder().encode(saved)
            #expect(throws: HistoryError.invalidRestoredPosition(9, stepCount: 3)) { try restore(from: data) }
        }
    }
}
