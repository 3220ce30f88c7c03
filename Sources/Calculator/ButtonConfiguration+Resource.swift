import Foundation

/// Finding the shipped `ButtonConfiguration.json` without trapping.
///
/// SwiftPM's generated `Bundle.module` calls `fatalError` when the resource
/// bundle is not where the build left it (a binary copied elsewhere), so the
/// bundle is searched for here, next to the executable and in the main
/// bundle, and the built-in layout is used when it is not found.
extension ButtonConfiguration {
    /// The file name of the shipped layout.
    public static let resourceFileName = "ButtonConfiguration.json"

    /// The names SwiftPM gives the calculator's resource bundle (Linux, then
    /// Apple platforms).
    static let resourceBundleNames = ["Rewind_Calculator.resources", "Rewind_Calculator.bundle"]

    /// The shipped layout: the `ButtonConfiguration.json` resource when it is
    /// found, else ``builtInDefault`` (which has the same content).
    ///
    /// - Throws: ``ConfigurationError`` when the resource is found but is
    ///   not a valid layout (it was edited after installation).
    public static func shipped() throws(ConfigurationError) -> ButtonConfiguration {
        guard let url = shippedResourceURL() else { return builtInDefault }
        return try load(contentsOf: url)
    }

    /// Reads and checks the layout in the file at `url`.
    ///
    /// - Throws: ``ConfigurationError`` naming the file when it cannot be
    ///   read or is not a valid layout.
    public static func load(
        contentsOf url: URL,
        factory: CommandFactory = .standard
    ) throws(ConfigurationError) -> ButtonConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let reason = (error as? CocoaError).map(Self.reason) ?? "read error"
            throw ConfigurationError(source: url.path, problem: .unreadable(reason: reason))
        }
        return try decode(from: data, source: url.path, factory: factory)
    }

    /// Where the shipped `ButtonConfiguration.json` is, or `nil` when its
    /// resource bundle is not installed next to the program.
    public static func shippedResourceURL() -> URL? {
        let fileManager = FileManager.default
        for directory in resourceSearchDirectories() {
            for bundleName in resourceBundleNames {
                let bundleURL = directory.appendingPathComponent(bundleName, isDirectory: true)
                let candidates = [
                    bundleURL.appendingPathComponent(resourceFileName),
                    bundleURL.appendingPathComponent("Contents/Resources/\(resourceFileName)"),
                ]
                if let found = candidates.first(where: { fileManager.isReadableFile(atPath: $0.path) }) {
                    return found
                }
            }
        }
        return nil
    }

    /// The directories that may hold the resource bundle: the main bundle's
    /// resources, the main bundle itself, and the executable's directory
    /// (and its parent, where a test bundle's products live).
    private static func resourceSearchDirectories() -> [URL] {
        var directories: [URL] = []
        if let resources = Bundle.main.resourceURL { directories.append(resources) }
        directories.append(Bundle.main.bundleURL)
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let directory = executable.deletingLastPathComponent()
            directories += [directory, directory.deletingLastPathComponent()]
        }
        var seen = Set<String>()
        return directories.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    private static func reason(_ error: CocoaError) -> String {
        switch error.code {
        case .fileReadNoSuchFile: "no such file"
        case .fileReadNoPermission: "permission denied"
        default: "read error"
        }
    }
}
