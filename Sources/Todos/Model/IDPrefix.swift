import Foundation

/// The start of an item's id as a person types it (the short references
/// `rewind todo list` prints, "3ec75212"): hex digits, hyphens and case
/// ignored.
///
/// ```swift
/// IDPrefix("3EC7-5212")?.digits              // "3ec75212"
/// IDPrefix("3ec7")?.matches(id)              // whether id starts with those digits
/// IDPrefix.hex(id, length: 8)                // "3ec75212"
/// ```
public struct IDPrefix: Hashable, Sendable {
    /// The fewest hex digits a prefix must have.
    public static let minimumLength = 4

    private let nibbles: [UInt8]

    /// Reads `text`; `nil` when it has a character that is neither a hex
    /// digit nor a hyphen, or fewer than ``minimumLength`` hex digits, or
    /// more than 32.
    public init?(_ text: String) {
        var nibbles: [UInt8] = []
        for character in text.lowercased() where character != "-" {
            guard let value = character.hexDigitValue, character.isASCII else { return nil }
            nibbles.append(UInt8(value))
        }
        guard (Self.minimumLength...32).contains(nibbles.count) else { return nil }
        self.nibbles = nibbles
    }

    /// The hex digits, in lower case, without hyphens.
    public var digits: String {
        String(nibbles.map { Character(String($0, radix: 16)) })
    }

    /// Whether `id` starts with these digits.
    public func matches(_ id: UUID) -> Bool {
        withUnsafeBytes(of: id.uuid) { bytes in
            nibbles.indices.allSatisfy { index in
                let byte = bytes[index / 2]
                return (index % 2 == 0 ? byte >> 4 : byte & 0x0F) == nibbles[index]
            }
        }
    }

    /// The first `length` hex digits of `id`, in lower case.
    public static func hex(_ id: UUID, length: Int) -> String {
        let digits = Array("0123456789abcdef".utf8)
        let count = min(max(length, 0), 32)
        return withUnsafeBytes(of: id.uuid) { bytes in
            String(unsafeUninitializedCapacity: count) { buffer in
                for index in 0..<count {
                    let byte = bytes[index / 2]
                    buffer[index] = digits[Int(index % 2 == 0 ? byte >> 4 : byte & 0x0F)]
                }
                return count
            }
        }
    }
}

extension TodoList {
    /// The ids of the items that start with `prefix`, in list order, at
    /// most `limit`.
    ///
    /// - Complexity: O(*n*) for *n* items.
    public func ids(startingWith prefix: IDPrefix, limit: Int) -> [UUID] {
        Array(ids.lazy.filter(prefix.matches).prefix(limit))
    }
}
