import Foundation
import Hummingbird
import Yams

/// `openapi.yaml`, the document the JSON API is generated from, as the
/// server ships it: served at `/openapi.yaml` as it is and at
/// `/openapi.json` converted, and read for the fields a request body may have.
struct OpenAPIDocument: Sendable {
    /// The file as written.
    let yaml: String
    /// The same document as JSON.
    let json: String
    /// The fields of each operation's JSON request body whose schema refuses
    /// other fields (`additionalProperties: false`), by operation id, in the
    /// document's order.
    let bodyFields: [String: [String]]
    /// The version of the document, as its `ETag` says.
    let eTag: String
    /// The query parameters each operation takes, by operation id (every
    /// operation of the document, an empty set for one that takes none).
    let queryParameters: [String: Set<String>]

    /// The document shipped next to the program, read once; `nil` when its
    /// resource bundle is not there (a binary copied elsewhere) or it cannot
    /// be read.
    static let shipped: OpenAPIDocument? = shippedURL().flatMap { url in
        (try? String(contentsOf: url, encoding: .utf8)).flatMap { try? OpenAPIDocument(yaml: $0) }
    }

    /// Reads the document from its YAML text.
    ///
    /// - Throws: Yams' error when `yaml` is not YAML, or `CocoaError` when
    ///   it cannot be written as JSON.
    init(yaml: String) throws {
        self.yaml = yaml
        let object = try Yams.load(yaml: yaml) ?? [:]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        json = String(decoding: data, as: UTF8.self) + "\n"
        // Composed once, for both readings of its operations.
        let root = try Yams.compose(yaml: yaml)
        bodyFields = Self.bodyFields(in: root)
        eTag = Assets.eTag(of: yaml.utf8)
        queryParameters = Self.queryParameters(in: root)
    }

    /// Serves the document in both forms.
    /// Each form with an `ETag` (of the YAML, which the JSON is made
    /// from): a request whose `If-None-Match` names it gets 304.
    static func addRoutes(to router: Router<some RequestContext>) {
        router.get("/openapi.yaml") { request, _ in
            let document = try document()
            return answer(document.yaml, contentType: "application/yaml; charset=utf-8", eTag: document.eTag, request)
        }
        router.get("/openapi.json") { request, _ in
            let document = try document()
            return answer(document.json, contentType: "application/json; charset=utf-8", eTag: document.eTag, request)
        }
    }


    private static func answer(_ text: String, contentType: String, eTag: String, _ request: Request) -> Response {
        if EntityTag.isNamed(eTag, byIfNoneMatchOf: request) {
            return Response(status: .notModified, headers: [.eTag: eTag, .cacheControl: "no-cache"])
        }
        var response = Responses.text(text, contentType: contentType, cacheControl: "no-cache")
        response.headers[.eTag] = eTag
        return response
    }

    private static func document() throws -> OpenAPIDocument {
        guard let shipped else {
            throw APIError(.notFound, "openapi.yaml is not installed next to this program; it is docs/openapi.yaml in the repository")
        }
        return shipped
    }

    /// The properties of the closed request body schema of every operation,
    /// in the order the document writes them.
    private static func bodyFields(in root: Yams.Node?) -> [String: [String]] {
        guard let root, let paths = root["paths"]?.mapping else { return [:] }
        let schemas = root["components"]?["schemas"]
        var fields: [String: [String]] = [:]
        for (_, pathItem) in paths {
            for (_, operation) in pathItem.mapping ?? [:] {
                guard let id = operation["operationId"]?.string,
                    let schema = operation["requestBody"]?["content"]?["application/json"]?["schema"],
                    let reference = schema["$ref"]?.string,
                    let name = reference.split(separator: "/").last,
                    let body = schemas?[String(name)], body["additionalProperties"]?.bool == false,
                    let properties = body["properties"]?.mapping
                else { continue }
                fields[id] = properties.keys.compactMap(\.string)
            }
        }
        return fields
    }

    /// The names of the query parameters of every operation, its own and
    /// those it names by `$ref` in `components/parameters`.
    private static func queryParameters(in root: Yams.Node?) -> [String: Set<String>] {
        guard let root, let paths = root["paths"]?.mapping else { return [:] }
        let shared = root["components"]?["parameters"]
        var names: [String: Set<String>] = [:]
        for (_, pathItem) in paths {
            for (_, operation) in pathItem.mapping ?? [:] {
                guard let id = operation["operationId"]?.string else { continue }
                var query = Set<String>()
                for parameter in operation["parameters"]?.sequence ?? [] {
                    let resolved = parameter["$ref"]?.string
                        .flatMap { $0.split(separator: "/").last }.flatMap { shared?[String($0)] } ?? parameter
                    if resolved["in"]?.string == "query", let name = resolved["name"]?.string { query.insert(name) }
                }
                names[id] = query
            }
        }
        return names
    }

    /// Where the shipped `openapi.yaml` is: in the web app's resource bundle
    /// next to the executable (or, for tests, one folder up).
    private static func shippedURL() -> URL? {
        var directories: [URL] = []
        if let resources = Bundle.main.resourceURL { directories.append(resources) }
        directories.append(Bundle.main.bundleURL)
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let directory = executable.deletingLastPathComponent()
            directories += [directory, directory.deletingLastPathComponent()]
        }
        for directory in directories {
            for bundle in ["Rewind_WebApp.resources", "Rewind_WebApp.bundle"] {
                for file in ["openapi.yaml", "Contents/Resources/openapi.yaml"] {
                    let url = directory.appendingPathComponent(bundle).appendingPathComponent(file)
                    if FileManager.default.isReadableFile(atPath: url.path) { return url }
                }
            }
        }
        return nil
    }
}
