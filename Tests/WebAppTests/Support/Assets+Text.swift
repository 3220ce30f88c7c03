import NIOCore
import Testing
@testable import WebApp

extension Assets {
    /// The text of the served file `name`.
    func text(of name: String) throws -> String {
        String(buffer: try #require(files[name], "\(name) is not among the assets").content)
    }
}
