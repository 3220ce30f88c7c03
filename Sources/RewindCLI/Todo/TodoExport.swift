import ArgumentParser
import Foundation
import TodoStore
import Todos

extension RewindCommand.Todo {
    /// `rewind todo export`: the whole list as the documented JSON document.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write every item as JSON, to a file or standard output.",
            discussion: """
                The document is the to-do JSON format (docs/json-format.md): \
                {"format": "rewind-todos", "version": 2, "items": [...]}. A file is written \
                whole or not at all (a temporary file renamed over it); a new file is readable \
                by its owner only, an existing one keeps its permissions. A path that is not a \
                regular file (a symbolic link, a directory, a device, a FIFO, a file with other \
                hard links) is refused. With --as and --list, the items of that shared list.

                Examples:
                  rewind todo export
                  rewind todo export todos.json
                  rewind todo export groceries.json --as ann --list groceries
                  rewind todo import todos.json --data-dir /tmp/copy
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var team: TeamOptions

        @Argument(
            help: ArgumentHelp("The file to write; standard output when absent or -.", valueName: "file"), completion: .file())
        var file: String?

        mutating func run() async throws {
            let target = try team.target()
            try await reportingErrors {
                let data: Data
                let count: Int
                if let target {
                    let list = try await SharedTodoSession.open(options: options, target: target).items()
                    (data, count) = (try TodoJSON.encode(AppState(todos: list), pretty: true), list.count)
                } else {
                    // A mistyped --data-dir: an empty document would replace a backup.
                    if let absent = try options.absentDataDirectory() {
                        throw TodoCommandError(
                            "\(TypedText.visible(absent.url.path)) does not exist, so it holds no list to export; nothing was written"
                                + " (check --data-dir)")
                    }
                    let session = try await TodoSession.open(options: options, onlyReading: true)
                    (data, count) = try await session.store.read { state in
                        (try TodoJSON.encode(state, pretty: true), state.todos.count)
                    }
                }
                // What is written: the document and a line break.
                if data.count + 1 > Import.sizeLimit {
                    TodoTerminal.note(
                        "This document is larger than \(Import.sizeInWords), the most `rewind todo import` reads:"
                            + " to bring it back, import it in parts (its items in several documents, with --merge).")
                }
                guard let file, file != "-" else {
                    return StandardStreams.output(data + Data("\n".utf8))
                }
                guard !file.isEmpty else {
                    throw TodoCommandError.usage("the file name is empty; give one, or - (or none) for standard output; nothing was written")
                }
                let url = URL(fileURLWithPath: DataDirectory.expandingTilde(in: file))
                do {
                    try AtomicFile.replaceRegularFile(at: url, with: data + Data("\n".utf8))
                } catch let error as StoreError {
                    guard case .notARegularFile = error else { throw error }
                    throw TodoCommandError.usage(error.description)
                }
                TodoTerminal.print("Exported \(count) item\(count == 1 ? "" : "s") to \(file)")
            }
        }
    }

    /// `rewind todo import`: replaces the list with a JSON document's items,
    /// or merges them in, as one undo step.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Read items from a JSON document (as export writes), as one undo step.",
            discussion: """
                By default the document's items replace the whole list; with --merge, items \
                whose ids are known replace those items and the others are added at the end. \
                A document with a bad field, or a field the format does not have, changes \
                nothing, and the error names the field and what is allowed there. \
                At most 1 GiB is read (from a file or standard input); a longer one is refused. \
                `rewind todo undo` reverts the whole import.

                Examples:
                  rewind todo import todos.json
                  rewind todo import backup.json --merge
                  rewind todo export | rewind todo import - --data-dir /tmp/copy
                """
        )

        @OptionGroup var options: TodoOptions
        @OptionGroup var team: TeamOptions

        @Argument(help: ArgumentHelp("The file to read; - for standard input.", valueName: "file"), completion: .file())
        var file: String

        @Flag(help: "Merge by id instead of replacing the list.")
        var merge = false

        mutating func run() async throws {
            try team.refuse("import")
            try await reportingErrors {
                let data = try read()
                if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
                    let source = file == "-" ? "standard input" : file
                    throw TodoCommandError.usage("\(source) is empty: give a document that `rewind todo export` wrote; nothing was changed")
                }
                let progress = ImportProgress(byteCount: data.count)
                progress.show(.checking)
                let state: AppState
                do throws(TodoJSONError) {
                    state = try TodoJSON.decode(AppState.self, from: data)
                } catch {
                    progress.clear()
                    throw TodoCommandError.usage("\(file) is not a to-do document: \(error.description)")
                }
                let items = state.todos.items
                // What the domain refuses of new text is a wrong input too,
                // named by its place in the document, before anything opens.
                for (index, item) in items.enumerated() {
                    do throws(TodoError) {
                        try item.checkTypedText()
                    } catch {
                        progress.clear()
                        throw TodoCommandError.usage("\(file) cannot be imported: items[\(index)]: \(error.description)")
                    }
                }
                progress.show(.saving(items.count))
                defer { progress.clear() }
                let session = try await TodoSession.open(options: options)
                let outcome: ListImporter.Response
                do {
                    outcome = try await session.app.send(merge ? .merge(items) : .replaceAll(items))
                } catch TodoFailure.nothingToChange(let reason) {
                    // Said, and not a failure (as `done` of a completed item): no step is made.
                    progress.clear()
                    return TodoTerminal.note("Nothing to change: \(reason).")
                }
                progress.clear()
                let (count, removed) = (outcome.imported, outcome.removed)
                let how = merge ? "merged into the list" : "replacing the list"
                let gone = removed == 0 ? "" : "; \(removed) item\(removed == 1 ? "" : "s") not in it removed"
                TodoTerminal.print("Imported \(count) item\(count == 1 ? "" : "s") from \(file), \(how)\(gone) (undo with: rewind todo undo\(options.repeated))")
            }
        }

        /// The most bytes `import` reads, from a file or standard input: an
        /// export of a million items of long titles and details, and a bound
        /// on the memory a wrong file (`/dev/zero`) takes.
        static let sizeLimit = 1024 * 1024 * 1024

        /// ``sizeLimit`` in words.
        static let sizeInWords = "1 GiB"

        /// Reads the document, at most ``sizeLimit`` bytes of it.
        private func read() throws -> Data {
            let handle: FileHandle
            if file == "-" {
                handle = FileHandle.standardInput
            } else {
                guard !file.isEmpty else {
                    throw TodoCommandError.usage("the file name is empty; give one, or - for standard input; nothing was imported")
                }
                let path = DataDirectory.expandingTilde(in: file)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    throw TodoCommandError("cannot read \(file): there is no such file")
                }
                guard !isDirectory.boolValue else {
                    throw TodoCommandError("cannot read \(file): it is a folder; give a to-do document, such as a file `rewind todo export` wrote")
                }
                guard let opened = FileHandle(forReadingAtPath: path) else {
                    throw TodoCommandError("cannot read \(file): \(String(cString: strerror(errno)))")
                }
                handle = opened
            }
            defer { if file != "-" { try? handle.close() } }
            var data = Data()
            do {
                // One byte more than the limit tells a document at the limit from a longer one.
                while data.count <= Self.sizeLimit {
                    guard let chunk = try handle.read(upToCount: min(1 << 20, Self.sizeLimit + 1 - data.count)),
                          !chunk.isEmpty else { break }
                    data.append(chunk)
                }
            } catch {
                throw TodoCommandError("cannot read \(file): \(error.localizedDescription)")
            }
            guard data.count <= Self.sizeLimit else {
                throw TodoCommandError.usage(
                    "\(file == "-" ? "standard input" : file) is larger than \(Self.sizeInWords), the most `rewind todo import` reads; nothing was imported")
            }
            return data
        }
    }
}
