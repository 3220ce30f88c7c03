import Foundation
import Testing
import Todos

/// A page of the history: which steps an answer of `GET /api/history` holds.
@Suite("HistoryOverview.Page")
struct HistoryPageSpecs {
    private func overview(steps count: Int, position: Int) -> HistoryOverview {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        return HistoryOverview(steps: (0..<count).map { HistoryOverview.Step(name: "Step \($0 + 1)", date: date) }, position: position)
    }

    /// The positions of the steps on `page` (a step's position is its index + 1).
    private func positions(_ overview: HistoryOverview, _ page: HistoryOverview.Page) -> [Int] {
        overview.range(of: page).map { $0 + 1 }
    }

    @Test("around the position: the newest steps when nothing is undone")
    func newestWhenNothingUndone() {
        #expect(positions(overview(steps: 1_000, position: 1_000), .around(limit: 5)) == [996, 997, 998, 999, 1_000])
    }

    @Test("around the position: as many undone steps as done ones, the rest where the history has them")
    func aroundThePosition() {
        let history = overview(steps: 1_000, position: 500)
        #expect(positions(history, .around(limit: 4)) == [499, 500, 501, 502])
        #expect(positions(overview(steps: 1_000, position: 0), .around(limit: 3)) == [1, 2, 3])
        #expect(positions(overview(steps: 1_000, position: 999), .around(limit: 6)) == [995, 996, 997, 998, 999, 1_000])
        #expect(positions(overview(steps: 3, position: 1), .around(limit: 50)) == [1, 2, 3])
        #expect(positions(overview(steps: 0, position: 0), .around(limit: 50)) == [])
    }

    @Test("before a position: the newest steps below it, and none below the first")
    func beforeAPosition() {
        let history = overview(steps: 100, position: 100)
        #expect(positions(history, .before(position: 51, limit: 3)) == [48, 49, 50])
        #expect(positions(history, .before(position: 3, limit: 50)) == [1, 2])
        #expect(positions(history, .before(position: 1, limit: 50)) == [])
        #expect(positions(history, .before(position: 1_000, limit: 2)) == [99, 100])
        #expect(positions(history, .before(position: Int.max, limit: 2)) == [99, 100])
    }

    @Test("after a position: the oldest steps above it, and none above the last")
    func afterAPosition() {
        let history = overview(steps: 100, position: 10)
        #expect(positions(history, .after(position: 10, limit: 3)) == [11, 12, 13])
        #expect(positions(history, .after(position: 0, limit: 2)) == [1, 2])
        #expect(positions(history, .after(position: 98, limit: 50)) == [99, 100])
        #expect(positions(history, .after(position: 100, limit: 50)) == [])
        #expect(positions(history, .after(position: Int.max, limit: Int.max)) == [])
    }

    @Test("between two positions: the oldest steps strictly between them, none when they leave no room")
    func betweenTwoPositions() {
        let history = overview(steps: 100, position: 100)
        #expect(positions(history, .init(before: 10, after: 5, limit: 50)) == [6, 7, 8, 9])
        #expect(positions(history, .init(before: 10, after: 5, limit: 2)) == [6, 7])
        #expect(positions(history, .init(before: 6, after: 5, limit: 50)) == [])
        #expect(positions(history, .init(before: 1, after: 5, limit: 50)) == [])
        #expect(positions(history, .init(before: Int.max, after: 98, limit: 50)) == [99, 100])
        #expect(positions(history, .init(before: Int.max, after: Int.min, limit: 3)) == [1, 2, 3])
        #expect(HistoryOverview.Page(before: nil, after: nil, limit: 7) == .around(limit: 7))
        #expect(HistoryOverview.Page(before: 4, after: nil, limit: 7) == .before(position: 4, limit: 7))
        #expect(HistoryOverview.Page(before: nil, after: 4, limit: 7) == .after(position: 4, limit: 7))
    }

    @Test("options from outside are checked: a limit of 1 to 500, before from 1, after from 0")
    func checkedOptions() throws {
        typealias Page = HistoryOverview.Page
        #expect(throws: Page.PageError.limit(0)) { try Page.checked(before: nil, after: nil, limit: 0) }
        #expect(throws: Page.PageError.limit(501)) { try Page.checked(before: nil, after: nil, limit: 501) }
        #expect(throws: Page.PageError.before(0)) { try Page.checked(before: 0, after: nil, limit: 5) }
        #expect(throws: Page.PageError.after(-1)) { try Page.checked(before: 9, after: -1, limit: 5) }
        #expect(try Page.checked(before: 1, after: 0, limit: 500) == .after(position: 0, limit: 0))
        #expect(try Page.checked(before: nil, after: nil, limit: 1) == .around(limit: 1))
    }

    @Test("pages before and after the standard page reach every step once")
    func pagesCoverTheHistory() {
        let history = overview(steps: 237, position: 120)
        var seen = positions(history, .standard)
        while let first = seen.first, case let older = positions(history, .before(position: first, limit: 50)), !older.isEmpty {
            seen.insert(contentsOf: older, at: 0)
        }
        while let last = seen.last, case let newer = positions(history, .after(position: last, limit: 50)), !newer.isEmpty {
            seen.append(contentsOf: newer)
        }
        #expect(seen == Array(1...237))
    }
}
