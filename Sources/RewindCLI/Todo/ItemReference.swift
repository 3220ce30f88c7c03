import Foundation
import TodoStore
import Todos

/// Finds the items a person named on the command line: by the number the
/// last `list` showed, or by the start of an id.
///
/// A reference of digits written as a number (no leading zero, or too
/// short for an id's start) is a number of the last listing when that
/// listing has such a number, also when an id starts with those digits
/// (`rm $(seq 1 1500)` after listing 1,500 items). Anything else (digits
/// with a leading zero, a number the listing does not have) is read as the
/// start of an id: at least ``minimumPrefixLength`` hex digits, hyphens and
/// case ignored. Unknown and ambiguous references are errors that name the
/// reference.
struct ItemReferences {
    /// The fewest hex digits an id prefix must have.
    static let minimumPrefixLength = IDPrefix.minimumLength

    /// What to type instead, for error messages.
    static let hint = "use the number from the last `rewind todo list` or the start of an item's id (at least 4 hex digits)"

    private let index: any ItemIndex
    private let listing: () -> [UUID]?

    /// References to the items whose ids `index` searches; `listing` loads
    /// the last listing when a number needs it.
    init(index: any ItemIndex, listing: @escaping () -> [UUID]?) {
        self.index = index
        self.listing = listing
    }

    /// The ids of the items `references` name, in order, each once.
    ///
    /// - Throws: ``TodoCommandError`` for the first reference that names no
    ///   item or more than one.
    func resolve(_ references: [String]) throws -> [UUID] {
        var loaded: [UUID]??
        let numbered = { () -> [UUID]? in
            if let loaded { return loaded }
            let ids = listing()
            loaded = .some(ids)
            return ids
        }
        var seen = Set<UUID>()
        var ids: [UUID] = []
        for reference in references {
            let id = try resolve(reference, numbered: numbered)
            if seen.insert(id).inserted { ids.append(id) }
        }
        return ids
    }

    /// - Complexity: O(log *n*) searches of the index of ids.
    private func resolve(_ reference: String, numbered: () -> [UUID]?) throws -> UUID {
        let text = reference.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.allSatisfy(\.isASCIIDigitCharacter), let number = Int(text),
           String(number) == text || text.count < Self.minimumPrefixLength {
            let ids = numbered()
            if let ids, ids.indices.contains(number - 1) {
                let id = ids[number - 1]
                guard try index.contains(id) else {
                    throw TodoCommandError("item \(number) of the last list no longer exists; run `rewind todo list` to number the items again, or use an id prefix")
                }
                return id
            }
            if text.count < Self.minimumPrefixLength {
                guard let ids else {
                    throw TodoCommandError("no item matches “\(text)”: no list has been shown yet; run `rewind todo list` first, or use the start of an item's id (at least 4 hex digits)")
                }
                throw TodoCommandError("no item matches “\(text)”: the last list had \(ids.count) item\(ids.count == 1 ? "" : "s"); \(Self.hint)")
            }
        }
        guard let prefix = IDPrefix(text) else {
            throw TodoCommandError("no item matches “\(text)”; \(Self.hint)")
        }
        let matches = try index.ids(startingWith: prefix.digits, limit: 4)
        switch matches.count {
        case 0:
            throw TodoCommandError("no item matches “\(text)”; \(Self.hint)")
        case 1:
            return matches[0]
        default:
            let shown = matches.prefix(3).map { IDPrefix.hex($0, length: 12) }.joined(separator: ", ")
            let more = matches.count > 3 ? ", …" : ""
            throw TodoCommandError("“\(text)” is ambiguous: it matches \(shown)\(more); type more of the id")
        }
    }
}

/// The short references shown for items: the first 8 hex digits of the id,
/// more where two items of the list share them, so that each is unique.
struct ShortReferences {
    /// The usual length of a short reference.
    static let length = 8

    private var longer: [UUID: String] = [:]

    /// Short references for the items of `list`.
    ///
    /// - Complexity: O(*n* log *n*), O(*n*) when ids rarely share 8 hex digits.
    init(list: TodoList) {
        self.init(allIDs: list.ids)
    }

    /// Short references among `ids`, every id of the list.
    ///
    /// - Complexity: O(*n* log *n*), O(*n*) when ids rarely share 8 hex digits.
    init(allIDs ids: some Collection<UUID>) {
        var firstByPrefix: [UInt32: UUID] = [:]
        firstByPrefix.reserveCapacity(ids.count)
        var groups: [UInt32: [UUID]] = [:]
        for id in ids {
            let prefix = Self.prefix(of: id)
            if let first = firstByPrefix.updateValue(id, forKey: prefix) {
                groups[prefix, default: [first]].append(id)
            }
        }
        for group in groups.values {
            // In sorted order, the id sharing the longest prefix with an id is
            // one of its two neighbours: O(g log g) for a group of g ids. (The
            // canonical text sorts as the hex digits do, which is the order of
            // the bytes that `UUID`'s `<` compares.)
            let sorted = group.sorted()
            for (index, id) in sorted.enumerated() {
                lengthen(id, before: index > 0 ? sorted[index - 1] : nil, after: index + 1 < sorted.count ? sorted[index + 1] : nil)
            }
        }
    }

    /// Short references for the items with `ids`, against the ids the
    /// store holds (whose `neighbours` in order give how many digits each
    /// shares with another).
    ///
    /// - Complexity: O(*k*) searches of the index for *k* ids.
    init(ids: [UUID], neighbours: (UUID) throws -> (before: UUID?, after: UUID?)) rethrows {
        for id in ids {
            let (before, after) = try neighbours(id)
            lengthen(id, before: before, after: after)
        }
    }

    /// Gives `id` one more digit than it shares with the nearer of its
    /// neighbours in order, where that is more than ``length``.
    private mutating func lengthen(_ id: UUID, before: UUID?, after: UUID?) {
        let shared = [before, after].compactMap { $0.map { Self.sharedDigits(id, $0) } }.max() ?? 0
        if shared >= Self.length { longer[id] = IDPrefix.hex(id, length: shared + 1) }
    }

    /// How many hex digits two ids share at their start.
    private static func sharedDigits(_ first: UUID, _ second: UUID) -> Int {
        let (a, b) = (IDPrefix.hex(first, length: 32), IDPrefix.hex(second, length: 32))
        return zip(a.utf8, b.utf8).prefix { $0 == $1 }.count
    }

    /// The short reference of `id`.
    func callAsFunction(_ id: UUID) -> String {
        longer[id] ?? IDPrefix.hex(id, length: Self.length)
    }

    private static func prefix(of id: UUID) -> UInt32 {
        let bytes = id.uuid
        return UInt32(bytes.0) << 24 | UInt32(bytes.1) << 16 | UInt32(bytes.2) << 8 | UInt32(bytes.3)
    }
}

extension Character {
    /// Whether this is one of the digits 0 to 9.
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
