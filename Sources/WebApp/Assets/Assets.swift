import BundledResources
import Foundation
import Hummingbird
import NIOCore

/// The web app's static files: a script per page (ES modules that import
/// shared ones), the stylesheet and the icon. They live in
/// `Sources/WebApp/Resources/assets/`, are copied into the module's resource
/// bundle by the build, and are read once at start.
///
/// ```swift
/// let assets = try Assets.bundled()   // before the server starts
/// let app = buildApplication(
///     configuration: configuration, store: store,
///     calculatorConfiguration: try .shipped(), assets: assets
/// )
/// ```
///
/// Each file is served at `/assets/NAME` with an `ETag`; the browser
/// revalidates (`Cache-Control: no-cache`) and gets 304 while it is current.
public struct Assets: Sendable {
    /// Where the stylesheet is served.
    static let stylesheetPath = "/assets/app.css"
    /// Where the icon is served.
    static let iconPath = "/assets/icon.svg"

    /// The files every page needs: the stylesheet, the icon and each page's script.
    static let requiredNames = ["app.css", "icon.svg"] + Layout.Page.allCases.compactMap(\.script)

    /// The served types, by file extension; other files are not served.
    static let contentTypes = [
        "js": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml",
    ]

    /// One served file.
    struct File: Sendable {
        /// The `Content-Type`.
        var contentType: String
        /// The bytes, as read.
        var content: ByteBuffer
        /// A strong validator of the content, for `ETag` and `If-None-Match`.
        var eTag: String
    }

    /// The files by name (`todos.js`).
    let files: [String: File]

    /// The files of the `assets` folder in the module's resource bundle
    /// beside the program (`Rewind_WebApp.resources` on Linux).
    ///
    /// - Throws: ``AssetsError`` that names the missing folder and where it
    ///   belongs, or the file that is missing or unreadable.
    public static func bundled() throws(AssetsError) -> Assets {
        let stylesheet: URL
        do {
            stylesheet = try ResourceBundle(module: "WebApp").url(of: "assets/app.css")
        } catch {
            throw AssetsError(message: error.description)
        }
        return try Assets(directory: stylesheet.deletingLastPathComponent())
    }

    /// The `.js`, `.css` and `.svg` files in `directory`.
    ///
    /// - Throws: ``AssetsError`` when the directory or a file cannot be
    ///   read, or a file every page needs is missing.
    public init(directory: URL) throws(AssetsError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw AssetsError(message: "the web app's files cannot be read from \(directory.path)")
        }
        var files: [String: File] = [:]
        for name in names {
            let url = directory.appendingPathComponent(name)
            guard let contentType = Self.contentTypes[url.pathExtension] else { continue }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw AssetsError(message: "\(url.path) cannot be read")
            }
            files[name] = File(contentType: contentType, content: ByteBuffer(bytes: data), eTag: Self.eTag(of: data))
        }
        if let missing = Self.requiredNames.first(where: { files[$0] == nil }) {
            throw AssetsError(message: "\(directory.appendingPathComponent(missing).path) is missing")
        }
        self.files = files
    }

    /// Where the file `name` is served.
    static func path(_ name: String) -> String {
        "/assets/\(name)"
    }

    /// A strong `ETag`: the 64-bit FNV-1a hash of `bytes`, in hexadecimal.
    static func eTag(of bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return "\"\(String(hash, radix: 16))\""
    }

    /// Adds `GET /assets/{name}`; a request whose `If-None-Match` names the
    /// current version gets 304, an unknown name 404.
    func addRoutes(to router: Router<some RequestContext>) {
        let files = files
        router.get("/assets/{name}") { request, context in
            guard let name = context.parameters.get("name"), let file = files[name] else {
                throw APIError.notFound("no asset has that name")
            }
            if EntityTag.isNamed(file.eTag, byIfNoneMatchOf: request) {
                return Response(status: .notModified, headers: [.eTag: file.eTag, .cacheControl: "no-cache"])
            }
            return Response(
                status: .ok,
                headers: [.contentType: file.contentType, .eTag: file.eTag, .cacheControl: "no-cache"],
                body: .init(byteBuffer: file.content)
            )
        }
    }
}

/// The web app's files are not where the program looks for them.
public struct AssetsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is missing or unreadable, and where it belongs.
    public let message: String

    /// One line, for `rewind serve` to print before it stops.
    public var description: String { message }
}
