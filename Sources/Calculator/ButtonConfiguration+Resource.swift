import BundledResources
import Foundation

/// The shipped keypad: `Resources/ButtonConfiguration.json`, the one place
/// the standard layout is written down.
extension ButtonConfiguration {
    /// The file name of the shipped layout.
    public static let resourceFileName = "ButtonConfiguration.json"

    /// The calculator module's resource bundle.
    static let resourceBundle = ResourceBundle(module: "Calculator")

    /// The shipped layout, read from the `ButtonConfiguration.json` resource.
    ///
    /// ```
    /// AC  C   ⌫   ÷
    /// √   x²  %   x
    /// 7   8   9   -
    /// 4   5   6   +
    /// 1   2   3   =
    /// ±   0   .
    /// ```
    ///
    /// - Throws: ``ConfigurationError`` when the resource bundle is not
    ///   beside the program (``ConfigurationError/Problem/resourceMissing(_:)``
    ///   says where it belongs), or the file is not a valid layout.
    public static func shipped() throws(ConfigurationError) -> ButtonConfiguration {
        let url: URL
        do {
            url = try resourceBundle.url(of: resourceFileName)
        } catch {
            throw ConfigurationError(source: resourceFileName, problem: .resourceMissing(error.description))
        }
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
            var isFolder: ObjCBool = false
            let folder = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
            let reason = folder ? "it is a folder; give a keypad file, such as keypad.json"
                : (error as? CocoaError).map(Self.reason) ?? "read error"
            throw ConfigurationError(source: url.path, problem: .unreadable(reason: reason))
        }
        return try decode(from: data, source: url.path, factory: factory)
    }

    /// Where the shipped `ButtonConfiguration.json` is, or `nil` when its
    /// resource bundle is not installed beside the program.
    public static func shippedResourceURL() -> URL? {
        try? resourceBundle.url(of: resourceFileName)
    }

    private static func reason(_ error: CocoaError) -> String {
        switch error.code {
        case .fileReadNoSuchFile: "no such file"
        case .fileReadNoPermission: "permission denied"
        default: "read error"
        }
    }
}
