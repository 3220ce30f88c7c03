import Foundation
import GRDB
import Testing
import Todos
@testable import TodoStore

extension SQLiteStoreTests.BadFiles {
    /// Step numbers near the largest integer once overflowed when the file
    /// was opened or a step was added: such a file is refused, unchanged.
    @Test(arguments: [
        "UPDATE step SET seq = seq + 9223372036854775803",
        "PRAGMA ignore_check_constraints = ON; UPDATE step SET seq = -1 WHERE seq = 1",
    ])
    func stepNumbersThatWouldOverflowAreRefused(damage: String) throws {
        let fixture = try StoreFixture(.sqlite)
        try databaseWithThreeItems(fixture) { db, _ in try db.execute(sql: damage) }
        try assertRefused(fixture.fileURL) {
            if case .corrupt = $0 { true } else { false }
        }
    }
}
