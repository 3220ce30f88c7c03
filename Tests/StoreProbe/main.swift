// A small program the store tests run as a second process: it changes a
// to-do database and reports each change the store acknowledged, so that a
// test can kill it at any moment or watch its changes arrive elsewhere.
//
//   StoreProbe churn DATABASE      add and alter items until killed; prints "ack N ID" per commit
//   StoreProbe burst DATABASE      add items eight at a time, concurrently (group commits), until
//                                  killed; prints "ack N add ID" as each is acknowledged
//   StoreProbe add DATABASE TITLE  add one item and exit
//   StoreProbe open DATABASE       open the store, print the item and step counts and the time it took
import Foundation
import Todos
import TodoStore

/// Writes a line straight to standard output, unbuffered, so that a line
/// the test reads is a change that was acknowledged before the kill.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("StoreProbe: \(message)\n".utf8))
    exit(2)
}

let arguments = CommandLine.arguments.dropFirst()
guard let command = arguments.first, arguments.count >= 2 else {
    fail("usage: StoreProbe churn DATABASE | StoreProbe add DATABASE TITLE")
}
let url = URL(fileURLWithPath: arguments[arguments.startIndex + 1])

do {
    let start = Date()
    let store = try await SQLiteStore.open(url: url, pollInterval: nil)
    defer {
        if command == "open" { report("opened in \(Int(Date().timeIntervalSince(start) * 1000)) ms") }
    }
    switch command {
    case "churn":
        var count = 0
        while true {
            let item = try TodoItem(id: UUID(), title: "Churn \(count)", created: SQLiteStore.millisecondClock())
            try await store.change(.add(item))
            report("ack \(count) add \(item.id.uuidString)")
            count += 1
            if count % 3 == 0 {
                try await store.change(.update(item.id, [.complete], at: SQLiteStore.millisecondClock()))
                report("ack \(count) complete \(item.id.uuidString)")
                count += 1
            }
        }
    case "burst":
        var round = 0
        while true {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    let count = round * 8 + index
                    group.addTask {
                        let item = try TodoItem(id: UUID(), title: "Burst \(count)", created: SQLiteStore.millisecondClock())
                        try await store.change(.add(item))
                        report("ack \(count) add \(item.id.uuidString)")
                    }
                }
                try await group.waitForAll()
            }
            round += 1
        }
    case "add":
        let title = arguments.dropFirst(2).joined(separator: " ")
        let item = try TodoItem(id: UUID(), title: title, created: SQLiteStore.millisecondClock())
        try await store.change(.add(item))
        report("ack add \(item.id.uuidString)")
    case "open":
        let state = try store.state()
        report("items \(state.todos.count) steps \(try store.history().steps.count)")
    default:
        fail("unknown command \(command)")
    }
} catch {
    fail("\(error)")
}
