import Foundation
import Todos

/// The history panel shared by the list and the detail view: "Start" and
/// every step of the history tree in the order they were made, the current
/// one marked, undone steps and abandoned branches set apart, each branch
/// indented one level more, and a step not made after the one listed above
/// it naming the step it was (as `rewind todo history --all` prints "branch
/// after N"). Each
/// step is a button that jumps to it (`data-step`, the step's number for
/// `POST /api/history/jump`). At most ``window`` steps are listed around the
/// current one, so that a long history stays a short page; "Show more"
/// (`data-steps`) asks for the panel again with ``growth`` more
/// (`?steps=` of the page's fragment).
struct HistoryPanel {
    /// The history, with its abandoned branches.
    var tree: HistoryTree
    /// The most steps listed.
    var window = Self.defaultWindow
    /// The most steps listed unless the page asks for more.
    static let defaultWindow = 100
    /// How many more steps each "Show more" lists.
    static let growth = 200
    /// The most steps a page may ask for.
    static let largestWindow = 1_000_000
    /// Names the day of a step made before today.
    var dates = DueDateFormatter(now: Date(), timeZone: PageTimeZone.current)
    /// The deepest indentation drawn; deeper branches are drawn at this one.
    static let deepestLevel = 6

    /// The indices of ``HistoryTree/steps`` listed: up to ``window`` steps,
    /// the current one in the middle when it can be.
    var shownRange: Range<Int> {
        let count = tree.steps.count
        let current = tree.steps.firstIndex { $0.number == tree.current }.map { $0 + 1 } ?? 0
        let lower = max(0, min(current - window / 2, count - window))
        return lower..<min(count, lower + window)
    }

    /// The panel as finished HTML.
    func render() -> HTML {
        HTML { render(into: &$0) }
    }

    /// Writes the panel.
    func render(into html: inout HTMLWriter) {
        let shown = shownRange
        let steps = tree.steps
        let levels = tree.levels()
        html.element("aside", [.class("history-panel"), .data("region", "history"), .ariaLabel("History")]) { html in
            html.element("h2") { $0.text("History") }
            html.element("ol", [.class("history-list"), .data("keep-scroll", "history")]) { html in
                step(number: 0, name: "Start", date: nil, branch: .done, level: 0, into: &html)
                if shown.lowerBound > 0 { Self.more("… \(Self.count(shown.lowerBound)) earlier", window: window, into: &html) }
                for index in shown {
                    let entry = steps[index]
                    // A step not made after the one above it says which it was made after.
                    let above = index > 0 ? steps[index - 1].number : 0
                    let after = entry.parent == above ? nil : parentName(of: entry)
                    step(
                        number: entry.number, name: Self.name(of: entry), date: entry.date, branch: entry.branch,
                        level: levels[index], after: after, into: &html)
                }
                if shown.upperBound < steps.count {
                    Self.more("… \(Self.count(steps.count - shown.upperBound)) later", window: window, into: &html)
                }
            }
        }
    }

    /// The line that says which steps are not listed, with a button that
    /// asks for the panel with ``growth`` more than `window` (this panel's,
    /// and a shared list's).
    static func more(_ text: String, window: Int, into html: inout HTMLWriter) {
        html.element("li", [.class("history-more")]) { html in
            html.element("span") { $0.text(text) }
            html.element(
                "button",
                [.type("button"), .class("history-show-more"), .data("steps", String(min(window + growth, largestWindow))),
                 .title("List \(growth) more steps of the history")]
            ) { $0.text("Show more") }
        }
    }

    /// The name a step is listed by.
    static func name(of step: HistoryTree.Step) -> String {
        step.name.isEmpty ? "Step \(step.number)" : step.name
    }

    /// The name of the step `step` was made after: "Start", a step's name,
    /// or "an earlier step" when its row was pruned.
    ///
    /// - Complexity: O(log *n*): the steps are in the order of their numbers.
    private func parentName(of step: HistoryTree.Step) -> String {
        guard step.parent > 0 else { return "Start" }
        let steps = tree.steps
        var (low, high) = (0, steps.count)
        while low < high {
            let middle = (low + high) / 2
            if steps[middle].number < step.parent { low = middle + 1 } else { high = middle }
        }
        return low < steps.count && steps[low].number == step.parent ? Self.name(of: steps[low]) : "an earlier step"
    }

    /// “1 step” or “2,000 steps”.
    static func count(_ steps: Int) -> String {
        steps == 1 ? "1 step" : steps.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))) + " steps"
    }

    private func step(
        number: Int64, name: String, date: Date?, branch: HistoryTree.Branch, level: Int, after: String? = nil,
        into html: inout HTMLWriter
    ) {
        let isCurrent = number == tree.current
        var classes = "history-step"
        if isCurrent { classes += " current" }
        switch branch {
        case .done: break
        case .undone: classes += " undone"
        case .abandoned: classes += " abandoned"
        }
        var attributes: [Attribute] = [.type("button"), .class(classes), .data("step", String(number))]
        if isCurrent { attributes.append(Attribute("aria-current", "step")) }
        let title = switch (isCurrent, branch) {
        case (true, _): "Current state"
        case (false, _) where number == 0: "Go back to the start, before every step"
        case (false, .abandoned): "Go to just after this step, on a branch left by a change after an undo: \(name)"
        case (false, .undone): "Go forward to just after this step: \(name)"
        case (false, .done): "Go back to just after this step: \(name)"
        }
        attributes.append(.title(title))
        let depth = min(level, Self.deepestLevel)
        html.element("li", [depth > 0 ? .data("level", String(depth)) : .absent]) { html in
            html.element("button", attributes: attributes) { html in
                html.element("span", [.class("history-name")]) { $0.stepName(name) }
                if branch == .abandoned {
                    html.element("span", [.class("history-branch")]) { $0.text("abandoned") }
                }
                if let after {
                    html.element("span", [.class("history-after")]) { $0.text("after " + after) }
                }
                if let date {
                    html.element("time", [Attribute("datetime", ISO8601Milliseconds.string(from: date))]) {
                        $0.text(Self.when(date, dates))
                    }
                }
            }
        }
    }

    /// `14:05` today, `yesterday 14:05`, `Tue 24 Nov 14:05`, `4 Dec 2025 14:05`,
    /// in the time zone of `dates` (the server's).
    static func when(_ date: Date, _ dates: DueDateFormatter) -> String {
        let day = dates.day(of: date)
        let time = dates.hourAndMinute(of: date)
        return day == "today" ? time : day + " " + time
    }
}
