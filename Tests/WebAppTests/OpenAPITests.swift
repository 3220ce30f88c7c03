import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Yams

@testable import WebApp

@Suite("OpenAPI document")
struct OpenAPITests {
    /// The folder of the repository this test file is in.
    static var repository: URL {
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// `docs/openapi.yaml`, read as YAML.
    static func document() throws -> [String: Any] {
        let text = try String(contentsOf: repository.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        return try #require(try Yams.load(yaml: text) as? [String: Any])
    }

    /// The operations of the document, as `(path, method, operation)`.
    static func operations() throws -> [(path: String, method: String, operation: [String: Any])] {
        let paths = try #require(try document()["paths"] as? [String: [String: Any]])
        return paths.flatMap { path, item in
            item.compactMap { method, operation in
                (operation as? [String: Any]).map { (path, method, $0) }
            }
        }
    }

    @Test func listsEveryRouteOfTheRouter() throws {
        let server = try TestServer()
        let router = server.webApp.buildRouter()
        let documented = Set(try Self.operations().map { "\($0.method) \($0.path)" })
        let routed = Set(router.routes.map { "\($0.method.rawValue.lowercased()) \($0.path.description)" })
        #expect(!routed.isEmpty)
        #expect(routed.subtracting(documented).isEmpty, "routed but not documented: \(routed.subtracting(documented).sorted())")
        #expect(documented.subtracting(routed).isEmpty, "documented but not routed: \(documented.subtracting(routed).sorted())")
    }

    @Test func theDocsFolderLinksToTheFileTheGeneratorReads() throws {
        let link = Self.repository.appendingPathComponent("docs/openapi.yaml")
        let file = Self.repository.appendingPathComponent("Sources/WebApp/openapi.yaml")
        #expect(link.resolvingSymlinksInPath().path == file.resolvingSymlinksInPath().path)
    }

    @Test func theServedDocumentIsTheRepositoryFile() throws {
        let shipped = try #require(OpenAPIDocument.shipped)
        let file = try String(contentsOf: Self.repository.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        #expect(shipped.yaml == file)
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
            // A client that has it already gets 304, as the document says.
            let tag = try #require(yaml.headers[.eTag])
            #expect(json.headers[.eTag] == tag)
            for path in ["/openapi.yaml", "/openapi.json"] {
                #expect(try await client.get(path, headers: [.ifNoneMatch: tag]).status == .notModified)
                #expect(try await client.get(path, headers: [.ifNoneMatch: "\"other\""]).status == .ok)
                // Weakly, and among other tags (RFC 9110, 13.1.2).
                #expect(try await client.get(path, headers: [.ifNoneMatch: "W/" + tag]).status == .notModified)
                #expect(try await client.get(path, headers: [.ifNoneMatch: "\"other\", " + tag]).status == .notModified)
            }
        }
    }

    @Test func theJSONSaysWhatTheYAMLSays() throws {
        let shipped = try #require(OpenAPIDocument.shipped)
        let json = try JSONSerialization.jsonObject(with: Data(shipped.json.utf8))
        let yaml = try #require(try Yams.load(yaml: shipped.yaml) as? [String: Any])
        #expect(NSDictionary(dictionary: yaml).isEqual(json as? [String: Any] ?? [:]))
    }

    @Test func everyOperationWithABodyDocumentsTheAnswersToABadBody() throws {
        var checked = 0
        for (path, method, operation) in try Self.operations() where operation["requestBody"] != nil {
            let statuses = (operation["responses"] as? [String: Any])?.keys.map { $0 } ?? []
            for status in ["400", "413", "415"] {
                #expect(statuses.contains(status), "\(method) \(path) does not document \(status)")
            }
            checked += 1
        }
        #expect(checked >= 5)
    }

    @Test func theBodyCheckCoversExactlyTheOperationsWithABody() throws {
        let withBody = Set(try Self.operations().filter { $0.operation["requestBody"] != nil }.compactMap {
            $0.operation["operationId"] as? String
        })
        #expect(RequestBodyMiddleware.operationsWithBody == withBody)
        // Every body refuses unknown fields.
        #expect(Set(try #require(OpenAPIDocument.shipped).bodyFields.keys) == withBody)
    }

    /// What schemathesis found: schema-valid requests that the server refused.
    @Test func theSchemasSayWhatTheServerRefuses() throws {
        let schemas = try #require((try Self.document()["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        for name in ["NewItem", "ItemEdit"] {
            let title = try #require((schemas[name]?["properties"] as? [String: Any])?["title"] as? [String: Any])
            #expect(title["minLength"] as? Int == 1)
            #expect(title["pattern"] as? String == #"\S"#)
            #expect(schemas[name]?["additionalProperties"] as? Bool == false)
        }
        // Exactly one of `position` and `step`; at least one of `keys` and `key`.
        #expect(schemas["Jump"]?["minProperties"] as? Int == 1)
        #expect(schemas["Jump"]?["maxProperties"] as? Int == 1)
        #expect(schemas["Keys"]?["minProperties"] as? Int == 1)
        #expect(schemas["Keys"]?["additionalProperties"] as? Bool == false)
        let keys = try #require((schemas["Keys"]?["properties"] as? [String: Any])?["keys"] as? [String: Any])
        #expect(keys["minItems"] as? Int == 1)
        let list = try #require(try Self.operations().first { $0.operation["operationId"] as? String == "listTodos" })
        let filter = try #require((list.operation["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "filter" })
        #expect(((filter["schema"] as? [String: Any])?["enum"] as? [String])?.contains("overdue") == true)
    }

    @Test func theDocumentIsDescribedAsAnObjectInBothForms() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: Any])
        for (path, type) in [("/openapi.json", "application/json"), ("/openapi.yaml", "application/yaml")] {
            let get = (paths[path] as? [String: Any])?["get"] as? [String: Any]
            let ok = (get?["responses"] as? [String: Any])?["200"] as? [String: Any]
            let schema = ((ok?["content"] as? [String: Any])?[type] as? [String: Any])?["schema"] as? [String: Any]
            #expect(schema?["type"] as? String == "object", "\(path)")
        }
    }
}
