import Foundation
import Testing
import TestSupport

/// `--database` and `REWIND_DATABASE_URL`: a malformed URL is a wrong
/// command line (64), a database that cannot be used a failure (1); either
/// way one line on standard error, within seconds, and nothing on standard
/// output.
@Suite("rewind --database")
struct TodoPostgresTests {
    /// The URL of the test server, if there is one.
    static let testURL = ProcessInfo.processInfo.environment["REWIND_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// Why the tests that need a server are skipped, printed by the test runner.
    static let missing: Comment =
        "REWIND_TEST_DATABASE_URL is not set, so there is no PostgreSQL to test against; start one with `export REWIND_TEST_DATABASE_URL=$(scripts/postgres-test-cluster.sh start)`"

    static func expectOneLine(
        _ run: RewindRun, status: Int32, startingWith prefix: String, containing parts: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(run.status == status, "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(run.stderr.hasPrefix(prefix), "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr.filter { $0 == "\n" }.count == 1, "\(run.stderr)", sourceLocation: sourceLocation)
        for part in parts { #expect(run.stderr.contains(part), "\(run.stderr)", sourceLocation: sourceLocation) }
    }

    @Test(arguments: [
        ("http://anna@db/todos", "its scheme is “http”, not postgres"),
        ("postgres:///todos?host=db", "“host=db” is not a directory"),
        ("postgres://anna@db", "it names no database"),
    ])
    func aMalformedURLIsAWrongCommandLine(_ url: String, _ problem: String) async throws {
        let directory = try TodoDirectory()
        let todo = try await runRewind(["todo", "list", "--database", url], environment: ["REWIND_DATA_DIR": directory.url.path])
        Self.expectOneLine(todo, status: 64, startingWith: "rewind todo: --database: “\(url)”", containing: [
            problem, "postgres://user[:password]@host[:port]/database",
        ])
        let serve = try await runRewind(["serve", "--port", "0", "--database", url])
        Self.expectOneLine(serve, status: 64, startingWith: "rewind serve: --database: “\(url)”", containing: [problem])
    }

    @Test func aMalformedEnvironmentVariableIsNamed() async throws {
        let directory = try TodoDirectory()
        let run = try await runRewind(
            ["todo", "list"],
            environment: ["REWIND_DATA_DIR": directory.url.path, "REWIND_DATABASE_URL": "mysql://anna:secret@db/todos"])
        Self.expectOneLine(run, status: 64, startingWith: "rewind todo: $REWIND_DATABASE_URL: ", containing: ["mysql"])
        #expect(!run.stderr.contains("secret"))
    }

    @Test func theDataDirectoryWinsOverTheEnvironmentVariable() async throws {
        let directory = try TodoDirectory()
        let run = try await runRewind(
            ["todo", "add", "Buy milk", "--data-dir", directory.url.path],
            environment: ["REWIND_DATABASE_URL": "postgres://anna@127.0.0.1:1/todos"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try await directory.titles() == ["Buy milk"])
    }

    @Test func anUnreachableServerFailsAtOnceWithOneLine() async throws {
        let directory = try TodoDirectory()
        // Nothing listens on port 1.
        let url = "postgres://rewind:secret@127.0.0.1:1/rewind"
        let todo = try await runRewind(["todo", "add", "Buy milk", "--database", url], environment: ["REWIND_DATA_DIR": directory.url.path])
        Self.expectOneLine(todo, status: 1, startingWith: "rewind todo: ", containing: [
            "postgres://rewind@127.0.0.1:1/rewind", "connection refused",
        ])
        #expect(!todo.stderr.contains("secret"))
        let serve = try await runRewind(["serve", "--port", "0", "--database", url])
        Self.expectOneLine(serve, status: 1, startingWith: "rewind serve: ", containing: ["connection refused"])
    }

    @Test func aServerThatSaysNothingFailsAfterTheConnectTimeout() async throws {
        // A socket that listens and never answers: the kernel accepts the
        // connection, nobody speaks.
        let silent = try SilentServer()
        let directory = try TodoDirectory()
        let run = try await runRewind(
            ["todo", "list", "--database", "postgres://rewind@127.0.0.1:\(silent.port)/rewind"],
            environment: ["REWIND_DATA_DIR": directory.url.path], timeout: 25)
        Self.expectOneLine(run, status: 1, startingWith: "rewind todo: ", containing: ["no answer within 5 seconds"])
    }

    @Test(.enabled(if: TodoPostgresTests.testURL != nil, TodoPostgresTests.missing))
    func wrongCredentialsAreNamed() async throws {
        let given = try #require(Self.testURL.flatMap(URLComponents.init(string:)))
        var wrong = given
        wrong.password = "not-the-password"
        let directory = try TodoDirectory()
        let run = try await runRewind(
            ["todo", "list", "--database", try #require(wrong.string)], environment: ["REWIND_DATA_DIR": directory.url.path])
        Self.expectOneLine(run, status: 1, startingWith: "rewind todo: ", containing: ["password authentication failed"])
        #expect(!run.stderr.contains("not-the-password"))
    }

    @Test(.enabled(if: TodoPostgresTests.testURL != nil, TodoPostgresTests.missing))
    func theListLivesInTheDatabaseWithItsHistory() async throws {
        let url = try #require(Self.testURL)
        let directory = try TodoDirectory()
        @discardableResult
        func todo(_ arguments: [String], stdin: String? = nil) async throws -> RewindRun {
            let run = try await runRewind(
                ["todo"] + arguments, stdin: stdin,
                environment: ["REWIND_DATA_DIR": directory.url.path, "REWIND_DATABASE_URL": url, "TZ": "UTC"])
            #expect(run.status == 0, "rewind todo \(arguments): \(run.stderr)")
            return run
        }
        func titles() async throws -> [String] {
            let items = try await TodoDirectory.object(try todo(["list", "--json"]).stdout)["items"] as? [[String: Any]] ?? []
            return items.compactMap { $0["title"] as? String }
        }
        // The database is shared with other runs: start from one known item.
        try await todo(["import", "-"], stdin: todoDocument([("ABCD1234-0000-4000-8000-000000000001", "Alpha")]))
        try await todo(["add", "Buy milk"])
        #expect(try await titles() == ["Alpha", "Buy milk"])
        try await todo(["done", "abcd1234"])
        #expect(try await titles() == ["Alpha", "Buy milk"])
        #expect(try await todo(["list", "--completed"]).stdout.contains("Alpha"))
        #expect(try await todo(["undo"]).stdout.contains("Complete “Alpha”"))
        #expect(try await titles() == ["Alpha", "Buy milk"])
        try await todo(["rm", "2"])
        #expect(try await titles() == ["Alpha"])
        #expect(try await todo(["undo"]).stdout.contains("Delete “Buy milk”"))
        #expect(try await titles() == ["Alpha", "Buy milk"])
        // Nothing was written to the data directory's SQLite file.
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("rewind.sqlite").path))
    }
}
