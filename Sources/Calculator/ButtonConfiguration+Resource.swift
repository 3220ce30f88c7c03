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

    /// The most bytes a layout file may hold: a hundred labels of sixteen
    /// characters take a few kilobytes.
    public static let maximumFileSize = 64 * 1024

    /// Reads and checks the layout in the file at `url`, which may also be
    /// a pipe (`--config /dev/stdin`, `--config <(…)`), read up to
    /// ``maximumFileSize`` bytes.
    ///
    /// - Throws: ``ConfigurationError`` naming the file when it cannot be
    ///   read, is larger than ``maximumFileSize``, or is not a valid layout.
    public static func load(
        contentsOf url: URL,
        factory: CommandFactory = .standard
    ) throws(ConfigurationError) -> ButtonConfiguration {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw ConfigurationError(source: url.path, problem: .unreadable(reason: "it is a folder; give a keypad file, such as keypad.json"))
        }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // One byte past the limit tells a file that is too large from one that fills it.
            data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
        } catch {
            let reason = (error as? CocoaError).map(Self.reason) ?? "read error"
            throw ConfigurationError(source: url.path, problem: .unreadable(reason: reason))
        }
        if data.count > maximumFileSize { throw ConfigurationError(source: url.path, problem: .tooLarge(maximumFileSize)) }
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
