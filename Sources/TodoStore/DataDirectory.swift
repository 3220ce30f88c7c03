import Foundation

/// The folder where Rewind keeps its data: the SQLite database and anything
/// else a front end saves.
///
/// It is chosen by the first of: an explicit path (`--data-dir`),
/// `$REWIND_DATA_DIR`, `$XDG_DATA_HOME/rewind`, `~/.local/share/rewind`,
/// where `~` is `$HOME` (as the XDG specification and shells have it; the
/// account's home folder when `$HOME` is unset). It is created on first
/// use, readable by its owner only.
public struct DataDirectory: Sendable, Equatable {
    /// The folder's location.
    public let url: URL

    /// A data directory at `url`.
    public init(url: URL) {
        self.url = url.standardizedFileURL
    }

    /// The user's home folder: `$HOME`, as the XDG specification and
    /// shells have it, else the account's home folder (Foundation's home
    /// folder on Linux is the account's, whatever `$HOME` says).
    ///
    /// - Parameter environment: The process environment (injected in tests).
    public static func home(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
    }

    /// `path` with a leading `~` (alone or before `/`) replaced by `home`,
    /// and `~name/` by that account's home folder, as a shell does for a
    /// path it did not expand itself (one given in quotes or through an
    /// environment variable).
    ///
    /// - Parameters:
    ///   - path: A path as the user wrote it.
    ///   - home: The user's home folder, ``home(environment:)`` by default.
    public static func expandingTilde(in path: String, home: URL = home()) -> String {
        if path == "~" { return home.path }
        if path.hasPrefix("~/") { return home.appendingPathComponent(String(path.dropFirst(2))).path }
        return (path as NSString).expandingTildeInPath
    }

    /// The data directory that applies, by the rule above.
    ///
    /// - Parameters:
    ///   - explicitPath: The `--data-dir` option, if given; a leading `~`
    ///     is expanded.
    ///   - environment: The process environment (injected in tests).
    ///   - home: The user's home folder (injected in tests); by default
    ///     `$HOME`, else the account's home folder.
    public static func resolve(
        explicitPath: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        home: URL? = nil
    ) -> DataDirectory {
        let home = home ?? Self.home(environment: environment)
        func nonEmpty(_ value: String?) -> String? {
            guard let value, !value.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            return expandingTilde(in: value, home: home)
        }
        if let path = nonEmpty(explicitPath) ?? nonEmpty(environment["REWIND_DATA_DIR"]) {
            return DataDirectory(url: URL(fileURLWithPath: path, isDirectory: true))
        }
        if let xdg = nonEmpty(environment["XDG_DATA_HOME"]) {
            return DataDirectory(url: URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("rewind", isDirectory: true))
        }
        return DataDirectory(url: home.appendingPathComponent(".local/share/rewind", isDirectory: true))
    }

    /// The SQLite database of the to-do app in this directory.
    public var databaseURL: URL {
        url.appendingPathComponent("rewind.sqlite")
    }

    /// Creates the folder (and its parents) if it does not exist, with
    /// permissions for its owner only (0700). An existing folder is left as it is.
    ///
    /// - Throws: ``StoreError/cannotCreateDirectory(path:reason:)`` when the
    ///   path exists and is not a folder, is a symbolic link to nothing, or
    ///   cannot be created.
    public func create() throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StoreError.cannotCreateDirectory(path: url.path, reason: "a file of that name is in the way")
            }
            return
        }
        // `fileExists` follows links: a link whose target is missing looks like nothing.
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
            throw StoreError.cannotCreateDirectory(
                path: url.path,
                reason: "it is a symbolic link to \(target), which does not exist; create that folder or choose another --data-dir")
        }
        do {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError.cannotCreateDirectory(
                path: url.path,
                reason: Self.whyNotCreated(url) ?? error.localizedDescription.trimmingCharacters(in: CharacterSet(charactersIn: ".")))
        }
    }

    /// Why a folder could not be made at `url`, from the nearest folder
    /// above it that exists: it is a file, or this user may not write in
    /// it; `nil` when neither (Foundation's reason is said then).
    private static func whyNotCreated(_ url: URL) -> String? {
        var above = url.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: above.path), above.path != "/" { above = above.deletingLastPathComponent() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: above.path, isDirectory: &isDirectory) else { return nil }
        if !isDirectory.boolValue { return "\(above.path) is a file, not a folder" }
        if access(above.path, W_OK) != 0 { return "this user may not make folders in \(above.path)" }
        return nil
    }
}
