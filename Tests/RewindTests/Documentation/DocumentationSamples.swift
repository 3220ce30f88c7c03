import Foundation
import Rewind

// The code samples of the articles in Sources/Rewind/Rewind.docc, word for
// word between the markers, so that they are compiled and run with the tests.
// Each marker names the article that shows the sample; `DocumentationSampleTests`
// fails when an article and its samples drift apart, and when an article shows
// Swift code that is not here.

// DOCC-SAMPLE-BEGIN GettingStarted
struct Playlist: Reversible, Codable {
    enum Change: Codable, Equatable {
        case rename(to: String)
        case add(String, at: Int)
        case remove(at: Int)
    }

    struct NoSuchPosition: Error {
        let position: Int
    }

    private(set) var name = ""
    private(set) var songs: [String] = []

    // Applying a change returns the change that reverts it.
    mutating func apply(_ change: Change) throws -> Change {
        switch change {
        case .rename(let newName):
            let oldName = name
            name = newName
            return .rename(to: oldName)
        case .add(let song, let position):
            guard (0...songs.count).contains(position) else { throw NoSuchPosition(position: position) }
            songs.insert(song, at: position)
            return .remove(at: position)
        case .remove(let position):
            guard songs.indices.contains(position) else { throw NoSuchPosition(position: position) }
            return .add(songs.remove(at: position), at: position)
        }
    }
}
// DOCC-SAMPLE-END

// DOCC-SAMPLE-BEGIN GettingStarted
func makeAPlaylist() throws -> History<Playlist> {
    let history = History(Playlist())
    try history.perform(.rename(to: "Road trip"), named: "Rename to “Road trip”")
    try history.perform(.add("Golden Hour", at: 0), named: "Add “Golden Hour”")
    try history.perform(.add("Holocene", at: 1), named: "Add “Holocene”")

    try history.undo()      // songs: ["Golden Hour"]
    try history.undo()      // songs: []
    try history.redo()      // songs: ["Golden Hour"]
    return history          // 3 steps, 2 of them done: `redo()` brings “Holocene” back
}
// DOCC-SAMPLE-END

// DOCC-SAMPLE-BEGIN GettingStarted
func addIntro(to history: History<Playlist>) throws {
    // Position 9 does not exist: `apply` throws NoSuchPosition, and the
    // playlist and its history stay exactly as they were.
    try history.perform(.add("Intro", at: 9), named: "Add “Intro”")
}
// DOCC-SAMPLE-END

// DOCC-SAMPLE-BEGIN NamingSteps
/// The Edit menu's first two items, for either kind of history.
func editMenu(for history: some UndoController) -> [String] {
    [
        history.canUndo ? history.undoTitle : "Can’t Undo",
        history.canRedo ? history.redoTitle : "Can’t Redo",
    ]
}
// DOCC-SAMPLE-END

// DOCC-SAMPLE-BEGIN NamingSteps
/// Undoes the newest step and says which, as a command-line tool does.
func undoAndReport(_ history: inout some UndoController) throws -> String {
    guard let name = try history.undo() else { return "Nothing to undo" }
    return name.isEmpty ? "Undid the last step" : "Undid: \(name)"
}
// DOCC-SAMPLE-END

// DOCC-SAMPLE-BEGIN GroupsAndCoalescing
func addAlbum(_ songs: [String], to history: History<Playlist>) throws {
    let end = history.model.songs.count
    try history.group(named: "Add \(songs.count) songs") { history in
        for (offset, song) in songs.enumerated() {
            try history.perform(.add(song, at: end + offset))
        }
    }
}
// DOCC-SAMPLE-END

// DOCC-SAMPLE-BEGIN GroupsAndCoalescing
func moveSong(at source: Int, to destination: Int, in history: History<Playlist>) throws {
    guard history.model.songs.indices.contains(source) else {
        throw Playlist.NoSuchPosition(position: source)
    }
    let song = history.model.songs[source]
    try history.group(named: "Move “\(song)”") { history in
        try history.perform(.remove(at: source))
        try history.perform(.add(song, at: destination))  // if this throws, the removal is reverted
    }
}
// DOCC-SAMPLE-END

// DOCC-SAMPLE-BEGIN GroupsAndCoalescing
func typeTheName() throws -> History<Playlist> {
    var now = Date(timeIntervalSinceReferenceDate: 0)
    let history = History(Playlist(), now: { now })
    for name in ["R", "Ro", "Roa", "Road"] {
        try history.perform(.rename(to: name), named: "Rename", coalescingKey: "name")
        now += 0.2          // the next key comes within the window: same step
    }
    now += 5                // a pause longer than the window (0.5 s by default)
    try history.perform(.rename(to: "Road trip"), named: "Rename", coalescingKey: "name")
    return history          // 2 steps: undo goes back to "Road", then to ""
}
// DOCC-SAMPLE-END

// DOCC-SAMPLE-BEGIN JumpingToAStep
/// The rows of a history panel: "Start", then every step, with an arrow at
/// the current position. Clicking row `i` calls `history.jump(to: i)`.
func historyPanel(for history: History<Playlist>) -> [String] {
    let names = ["Start"] + history.steps.map(\.name)
    return names.indices.map { row in
        (row == history.position ? "→ " : "  ") + names[row]
    }
}
// DOCC-SAMPLE-END

// DOCC-SAMPLE-BEGIN JumpingToAStep
/// What happened to a history, in words, oldest first.
final class ActivityLog {
    private(set) var lines: [String] = []
    private var observation: HistoryObservation?

    func watch(_ history: History<Playlist>) {
        observation = history.observe { [weak self] event in
            switch event {
            case .performed(let step, _, let coalesced, _):
                if !coalesced { self?.lines.append("Did \(step.name)") }
            case .undone(let step, _):
                self?.lines.append("Undid \(step.name)")
            case .redone(let step, _):
                self?.lines.append("Redid \(step.name)")
            case .jumped(let from, let to):
                self?.lines.append("Jumped from \(from) to \(to)")
            case .trimmed(let count):
                self?.lines.append("Forgot the \(count) oldest steps")
            }
        }
    }

    func stopWatching(_ history: History<Playlist>) {
        if let observation { history.removeObserver(observation) }
    }
}
// DOCC-SAMPLE-END

// DOCC-SAMPLE-BEGIN PersistingAHistory
/// A playlist with its whole history, as one JSON document.
struct SavedPlaylist: Codable {
    var playlist: Playlist
    var steps: [HistoryStep<Playlist.Change>]
    var position: Int
}

func save(_ history: History<Playlist>) throws -> Data {
    let saved = SavedPlaylist(playlist: history.model, steps: history.steps, position: history.position)
    return try JSONEncoder().encode(saved)
}

func restore(from data: Data) throws -> History<Playlist> {
    let saved = try JSONDecoder().decode(SavedPlaylist.self, from: data)
    return try History(saved.playlist, steps: saved.steps, position: saved.position)
}
// DOCC-SAMPLE-END
