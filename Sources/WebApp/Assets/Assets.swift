import Hummingbird

/// The static files of the web app, compiled into the program so that it
/// needs no resource bundle at run time: one stylesheet, one script, one
/// icon.
enum Assets {
    /// Where the stylesheet is served.
    static let stylesheetPath = "/assets/app.css"
    /// Where the script is served.
    static let scriptPath = "/assets/app.js"
    /// Where the icon is served.
    static let iconPath = "/assets/icon.svg"

    /// One served file.
    struct File: Sendable {
        var path: String
        var contentType: String
        var content: String
        /// A strong validator of the content, for `ETag` and `If-None-Match`.
        var eTag: String

        init(path: String, contentType: String, content: String) {
            self.path = path
            self.contentType = contentType
            self.content = content
            self.eTag = "\"\(Self.fnv1a(content))\""
        }

        /// The 64-bit FNV-1a hash of `text`, in hexadecimal.
        private static func fnv1a(_ text: String) -> String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return String(hash, radix: 16)
        }
    }

    /// Every asset.
    static let files: [File] = [
        File(path: stylesheetPath, contentType: "text/css; charset=utf-8", content: stylesheet),
        File(path: scriptPath, contentType: "text/javascript; charset=utf-8", content: script),
        File(path: iconPath, contentType: "image/svg+xml", content: icon),
    ]

    /// The icon: a counter-clockwise arrow.
    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#b83f45"/>\
        <path d="M10 9 5 14l5 5M6 14h13a7 7 0 0 1 0 14h-6" fill="none" stroke="#fff" stroke-width="3" \
        stroke-linecap="round" stroke-linejoin="round"/></svg>
        """

    /// Adds a route for each asset; a request whose `If-None-Match` names the
    /// current version gets 304.
    static func addRoutes(to router: Router<some RequestContext>) {
        for file in files {
            router.get(RouterPath(file.path)) { request, _ in
                if let tag = request.headers[.ifNoneMatch], tag == file.eTag {
                    return Response(status: .notModified, headers: [.eTag: file.eTag, .cacheControl: "no-cache"])
                }
                var response = Responses.text(file.content, contentType: file.contentType, cacheControl: "no-cache")
                response.headers[.eTag] = file.eTag
                return response
            }
        }
    }
}
