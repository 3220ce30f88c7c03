import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import WebApp

@Suite("OpenAPI document")
struct OpenAPITests {
    /// `docs/openapi.yaml` of the repository this test file is in.
    static var repositoryFile: URL {
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.yaml")
    }

    @Test func listsEveryRouteOfTheRouter() throws {
        let server = try TestServer()
        let router = server.webApp.buildRouter()
        let paths = try #require(OpenAPIDocument.document["paths"])
        #expect(!router.routes.isEmpty)
        for route in router.routes {
            let path = route.path.description
            let documented = try #require(paths[path], "\(path) is not in the OpenAPI document")
            #expect(documented.keys.contains(route.method.rawValue.lowercased()), "\(route.method) \(path) is not documented")
        }
        // And nothing is documented that the router does not have.
        let routed = Set(router.routes.map { "\($0.method.rawValue.lowercased()) \($0.path.description)" })
        for path in paths.keys {
            for method in paths[path]?.keys ?? [] {
                #expect(routed.contains("\(method) \(path)"), "\(method) \(path) is documented but not routed")
            }
        }
    }

    @Test func theRepositoryCopyIsTheServedDocument() throws {
        let url = Self.repositoryFile
        if ProcessInfo.processInfo.environment["REWIND_WRITE_OPENAPI"] == "1" {
            try OpenAPIDocument.yaml.write(to: url, atomically: true, encoding: .utf8)
        }
        let file = try String(contentsOf: url, encoding: .utf8)
        #expect(
            file == OpenAPIDocument.yaml,
            "docs/openapi.yaml differs from the served document; run the tests with REWIND_WRITE_OPENAPI=1 to rewrite it"
        )
    }

    @Test func isServedAsJSONAndYAML() async throws {
        let server = try TestServer()
        try await server.test { client in
            let json = try await client.get("/openapi.json")
            #expect(json.status == .ok)
            #expect(json.headers[.contentType] == "application/json; charset=utf-8")
            let object = json.object
            #expect(object["openapi"] as? String == "3.1.0")
            #expect((object["paths"] as? [String: Any])?["/api/todos/{id}"] != nil)
            let yaml = try await client.get("/openapi.yaml")
            #expect(yaml.status == .ok)
            #expect(yaml.headers[.contentType] == "application/yaml; charset=utf-8")
            #expect(yaml.text.contains("\nopenapi: \"3.1.0\"\n"))
        }
    }

    @Test func everyOperationWithABodyDocumentsTheAnswersToABadBody() throws {
        let paths = try #require(OpenAPIDocument.document["paths"])
        var checked = 0
        for path in paths.keys {
            for method in paths[path]?.keys ?? [] {
                guard let operation = paths[path]?[method], operation["requestBody"] != nil else { continue }
                let statuses = operation["responses"]?.keys ?? []
                for status in ["400", "413", "415"] {
                    #expect(statuses.contains(status), "\(method) \(path) does not document \(status)")
                }
                checked += 1
            }
        }
        #expect(checked >= 5)
    }

    /// What schemathesis found: schema-valid requests that the server refused.
    @Test func theSchemasSayWhatTheServerRefuses() throws {
        let schemas = try #require(OpenAPIDocument.document["components"]?["schemas"])
        for name in ["NewItem", "ItemEdit"] {
            // In ItemEdit the title may also be null (left as it is).
            let title = try #require(schemas[name]?["properties"]?["title"]).json().filter { !$0.isWhitespace }
            #expect(title.contains(#""minLength":1"#))
            #expect(title.contains(#""pattern":"\\S""#))
            #expect(schemas[name]?["additionalProperties"] == false)
        }
        #expect(schemas["Keys"]?["anyOf"] != nil)
        #expect(schemas["Keys"]?["properties"]?["keys"]?["minItems"] == 1)
        let filter = try #require(OpenAPIDocument.document["paths"]?["/api/todos"]?["get"]?["parameters"])
        #expect(filter.json().contains(#""enum": ["#))
    }

    @Test func theDocumentIsDescribedAsAnObjectInBothForms() throws {
        let paths = try #require(OpenAPIDocument.document["paths"])
        #expect(paths["/openapi.json"]?["get"]?["responses"]?["200"]?["content"]?["application/json"]?["schema"]?["type"] == "object")
        #expect(paths["/openapi.yaml"]?["get"]?["responses"]?["200"]?["content"]?["application/yaml"]?["schema"]?["type"] == "object")
    }

    @Test func theYAMLSaysWhatTheJSONSays() throws {
        // A small reader of the block YAML this module writes: keys, nesting
        // by indentation, "- " items, and JSON scalars.
        let parsed = try YAMLSubset.parse(OpenAPIDocument.yaml)
        let json = try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8))
        #expect(NSDictionary(dictionary: parsed as? [String: Any] ?? [:]).isEqual(json as? [String: Any] ?? [:]))
    }
}

/// Reads the subset of YAML that ``JSONValue/yaml()`` writes (block
/// mappings and sequences, JSON scalars), to check what it wrote.
enum YAMLSubset {
    struct Failure: Error { var line: String }

    private struct Line {
        var indent: Int
        var content: Substring
    }

    static func parse(_ text: String) throws -> Any {
        var lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let indent = line.prefix { $0 == " " }.count
            return Line(indent: indent, content: line.dropFirst(indent))
        }
        var index = 0
        return try node(&lines, &index, indent: 0)
    }

    private static var entry: Regex<(Substring, Substring, Substring?)> { #/^([A-Za-z0-9_./{}$-]+|"(?:[^"\\]|\\.)*"):(?: (.*))?$/# }

    private static func node(_ lines: inout [Line], _ index: inout Int, indent: Int) throws -> Any {
        let first = lines[index]
        if first.content.hasPrefix("- ") {
            var array: [Any] = []
            while index < lines.count, lines[index].indent == indent, lines[index].content.hasPrefix("- ") {
                // "- rest" is read as "rest" two columns further in.
                lines[index] = Line(indent: indent + 2, content: lines[index].content.dropFirst(2))
                array.append(try node(&lines, &index, indent: indent + 2))
            }
            return array
        }
        guard (try? entry.wholeMatch(in: first.content)) != nil else {
            index += 1
            return try scalar(first.content)
        }
        var object: [String: Any] = [:]
        while index < lines.count, lines[index].indent == indent {
            guard let match = try entry.wholeMatch(in: lines[index].content) else { throw Failure(line: String(lines[index].content)) }
            let rawKey = match.output.1
            let key = rawKey.hasPrefix("\"") ? (try scalar(rawKey) as? String ?? "") : String(rawKey)
            index += 1
            if let rest = match.output.2 {
                object[key] = try scalar(rest)
            } else {
                guard index < lines.count, lines[index].indent > indent else { throw Failure(line: key) }
                object[key] = try node(&lines, &index, indent: lines[index].indent)
            }
        }
        return object
    }

    private static func scalar(_ text: Substring) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
    }
}
