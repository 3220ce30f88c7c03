import Foundation

/// The resource bundle of one module of this package, found beside the
/// program without trapping.
///
/// SwiftPM's generated `Bundle.module` calls `fatalError` when the bundle is
/// not where the build left it (a binary copied elsewhere). This looks in
/// the same places, the executable's directory first, and throws an error
/// that names the missing folder and where it belongs instead.
///
/// ```swift
/// let assets = ResourceBundle(module: "WebApp")
/// let url = try assets.url(of: "assets/app.css")
/// // …/.build/debug/Rewind_WebApp.resources/assets/app.css
/// ```
public struct ResourceBundle: Sendable, Equatable {
    /// The package that names the bundle.
    public let package: String
    /// The module whose resources the bundle holds.
    public let module: String

    /// The bundle of `module` in the package `package`.
    public init(package: String = "Rewind", module: String) {
        self.package = package
        self.module = module
    }

    /// The folder SwiftPM copies beside the executable on Linux:
    /// `Rewind_WebApp.resources`.
    public var folderName: String { "\(package)_\(module).resources" }

    /// The bundle's names, Linux first, then Apple platforms.
    var bundleNames: [String] { [folderName, "\(package)_\(module).bundle"] }

    /// Where the file at `relativePath` inside the bundle is.
    ///
    /// - Parameter relativePath: A path inside the bundle, such as
    ///   `assets/app.css` or `ButtonConfiguration.json`.
    /// - Throws: ``MissingResourceError`` naming the file, the bundle and
    ///   every directory searched, when no readable copy is found.
    public func url(of relativePath: String) throws(MissingResourceError) -> URL {
        let directories = Self.searchDirectories()
        for directory in directories {
            for bundleName in bundleNames {
                let bundle = directory.appendingPathComponent(bundleName, isDirectory: true)
                let candidates = [
                    bundle.appendingPathComponent(relativePath),
                    bundle.appendingPathComponent("Contents/Resources").appendingPathComponent(relativePath),
                ]
                if let found = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0.path) }) {
                    return found
                }
            }
        }
        throw MissingResourceError(resource: relativePath, folderName: folderName, searched: directories.map(\.path))
    }

    /// The directories that may hold a resource bundle: the executable's
    /// directory (and its parent, where a test bundle's products live), the
    /// main bundle's resources, and the main bundle itself.
    static func searchDirectories() -> [URL] {
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let directory = executable.deletingLastPathComponent()
            directories += [directory, directory.deletingLastPathComponent()]
        }
        if let resources = Bundle.main.resourceURL { directories.append(resources) }
        directories.append(Bundle.main.bundleURL)
        var seen = Set<String>()
        return directories.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }
}

/// A file of a resource bundle that is not installed beside the program.
public struct MissingResourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file looked for, inside the bundle.
    public let resource: String
    /// The bundle folder that should hold it: `Rewind_WebApp.resources`.
    public let folderName: String
    /// The directories searched for the folder.
    public let searched: [String]

    /// Creates the error for `resource` of the bundle `folderName`.
    public init(resource: String, folderName: String, searched: [String]) {
        self.resource = resource
        self.folderName = folderName
        self.searched = searched
    }

    /// What is missing and where it belongs, in one line.
    public var description: String {
        "\(folderName)/\(resource) is missing: the folder \(folderName) from the build "
            + "(.build/debug or .build/release) must sit beside the rewind binary "
            + "(looked in \(searched.joined(separator: ", ")))"
    }
}
