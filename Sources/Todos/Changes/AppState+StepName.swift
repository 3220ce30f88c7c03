import Foundation

extension AppState {
    /// The name of the undo step that `changes` make from this state, in
    /// words a person reads: "Add “Buy milk”", "Delete “Buy milk”",
    /// "Rename “Buy milk” to “Buy oat milk”", "Complete 3 items", "Clear 2
    /// completed items".
    ///
    /// Ask before applying the changes: names quote titles as they are now.
    ///
    /// - Complexity: O(1) a change, O(*n*) for changes of all items.
    public func stepName(for changes: [Change]) -> String {
        let phrases = changes.map(phrase)
        guard let first = phrases.first else { return "" }
        if phrases.count == 1 { return first.text }
        guard phrases.allSatisfy({ $0.verb == first.verb && $0.noun == first.noun }) else {
            return StepPhrase(verb: "Edit", count: phrases.reduce(0) { $0 + $1.count }).text
        }
        let count = phrases.reduce(0) { $0 + $1.count }
        let title = count == 1 ? first.title : nil
        return StepPhrase(verb: first.verb, noun: first.noun, count: count, title: title).text
    }

    /// The name of the undo step that `change` makes from this state.
    public func stepName(for change: Change) -> String {
        stepName(for: [change])
    }

    private func phrase(_ change: Change) -> StepPhrase {
        switch change {
        case .setting(.todos(let list)):
            return StepPhrase(verb: "Replace the list with", count: list.count)
        case .todos(let change):
            return phrase(change)
        }
    }

    private func phrase(_ change: TodoList.Change) -> StepPhrase {
        switch change {
        case .add(let item), .insert(let item, _):
            return StepPhrase(verb: "Add", title: item.title)
        case .remove(let id):
            return StepPhrase(verb: "Delete", title: todos[id: id]?.title)
        case .removeItems(let ids):
            return named("Delete", ids)
        case .restore(let placements):
            return named("Restore", placements.map(\.item.id), titles: placements.map(\.item.title))
        case .update(let id, let changes, _):
            // A rename names the new title too: the old one alone reads as if it were the result.
            if case .title(let new)? = changes.first, changes.count == 1 {
                return StepPhrase(verb: "Rename", title: todos[id: id]?.title, newTitle: new)
            }
            return StepPhrase(verb: verb(for: changes), title: todos[id: id]?.title)
        case .replace(let items):
            return named("Edit", items.map(\.id))
        case .move(let id, _):
            return StepPhrase(verb: "Move", title: todos[id: id]?.title)
        case .completeAll:
            return named("Complete", todos.ids.filter { todos[id: $0]?.isCompleted == false })
        case .reopenAll:
            return named("Reopen", todos.ids.filter { todos[id: $0]?.isCompleted == true })
        case .removeCompleted:
            let count = todos.ids.count { todos[id: $0]?.isCompleted == true }
            return StepPhrase(verb: "Clear", noun: "completed item", count: count)
        }
    }

    private func named(_ verb: String, _ ids: [UUID], titles: [String]? = nil) -> StepPhrase {
        let title = ids.count == 1 ? (titles?.first ?? ids.first.flatMap { todos[id: $0]?.title }) : nil
        return StepPhrase(verb: verb, count: ids.count, title: title)
    }

    private func verb(for changes: [TodoItem.Change]) -> String {
        let verbs = Set(changes.map { change -> String in
            switch change {
            case .title: "Rename"
            case .details: "Edit details of"
            case .due(.unknown): "Clear due date of"
            case .due: "Set due date of"
            case .location(.unknown): "Clear location of"
            case .location: "Set location of"
            case .complete: "Complete"
            case .reopen: "Reopen"
            case .toggle: "Toggle"
            }
        })
        return verbs.count == 1 ? verbs.first ?? "Edit" : "Edit"
    }
}

/// "Verb “Title”" for one item, "Verb 3 items" for several.
private struct StepPhrase {
    static let longestQuotedTitle = 40

    var verb: String
    var noun = "item"
    var count = 1
    var title: String?
    /// What a rename makes the title: "Rename “Old” to “New”".
    var newTitle: String?

    var text: String {
        if count == 1, let title {
            let named = "\(verb) " + Self.quoted(title)
            return newTitle.map { named + " to " + Self.quoted($0) } ?? named
        }
        return "\(verb) \(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// `title` in quotation marks, cut to ``longestQuotedTitle`` characters.
    private static func quoted(_ title: String) -> String {
        TypedText.quoted(title.count > longestQuotedTitle ? String(title.prefix(longestQuotedTitle - 1)) + "…" : title)
    }
}
