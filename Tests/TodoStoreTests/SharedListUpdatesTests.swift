import Foundation
import Testing
import Todos
@testable import TodoStore

/// The update streams a store keeps for its shared lists: each open stream
/// hears of every row once, whenever other streams come and go.
@Suite("Shared list update streams")
struct SharedListUpdatesTests {
    let list = UUID()

    @Test func aStreamOpenedOnARowTheOthersWereNotToldOfTellsThemOfItAndNothingTwice() async throws {
        var updates = SharedListUpdates()
        let first = updates.subscribe(to: list, as: try AccountName("ann"), seq: 3) { _ in }
        // Another process appended row 4; before the store's poll tells it,
        // a second page opens its stream and reads row 4 as the latest.
        let second = updates.subscribe(to: list, as: try AccountName("bob"), seq: 4) { _ in }
        // The poll then finds row 4: told already, to both.
        updates.notify(list, seq: 4)
        updates.notify(list, seq: 5)
        updates.end(list)
        var heardByFirst: [Int] = []
        for await update in first { heardByFirst.append(update.seq) }
        var heardBySecond: [Int] = []
        for await update in second { heardBySecond.append(update.seq) }
        #expect(heardByFirst == [4, 5])
        #expect(heardBySecond == [5])
    }
}
