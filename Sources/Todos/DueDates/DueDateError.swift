import Foundation

/// Why a typed due date was not understood; its description lists the
/// accepted forms.
public struct DueDateError: Error, Equatable, Hashable, Sendable {
    /// What the person typed.
    public let text: String
    /// What was wrong with it.
    public let problem: String

    /// The forms ``DueDateParser`` accepts, with examples.
    public static let acceptedForms = [
        "today", "tomorrow", "yesterday", "a weekday such as fri or friday (the next one after today)",
        "in 3 days", "in 2 weeks", "in 4 hours", "in 30 minutes",
        "2026-12-01", "2026-12-01 14:30", "fri 14:30", "fri 2:30pm", "tomorrow at 9am", "17:00 or 5pm (today)",
        "2026-12-01..2026-12-03", "2026-12-01 09:00..2026-12-01 17:00", "2026-12-01.. (no end yet)",
        "2026-12-01 for 3 days", "2026-12-01 14:00 for 2 hours", "none",
    ]

    /// Creates an error for `text`.
    public init(text: String, problem: String) {
        self.text = text
        self.problem = problem
    }
}

extension DueDateError: CustomStringConvertible {
    /// "“someday” is not a due date: unknown word “someday”. Accepted forms: today, …"
    public var description: String {
        "“\(text)” is not a due date: \(problem). Accepted forms: \(Self.acceptedForms.joined(separator: ", "))."
    }
}

extension DueDateError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
