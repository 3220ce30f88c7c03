/// A model that changes only through values of its `Change` type, and can
/// tell for each change how to revert it.
///
/// This is the engine's central idea: applying a change returns the change
/// that reverts it. A ``History`` keeps those inverses, so that memory per
/// undo step is the size of a change, not the size of the model.
///
/// ```swift
/// struct Counter: Reversible {
///     var count = 0
///     mutating func apply(_ change: Int) throws -> Int {
///         count += change
///         return -change
///     }
/// }
/// ```
///
/// A conforming type must leave itself unchanged when `apply` throws.
public protocol Reversible {
    /// A change of the model, and the type of its inverse.
    associatedtype Change

    /// Applies `change` and returns the change that reverts it.
    ///
    /// - Throws: An error that says why `change` cannot be applied; the model
    ///   is then exactly as it was.
    mutating func apply(_ change: Change) throws -> Change
}

extension Reversible {
    /// Applies `changes` in order, all or nothing, and returns the changes
    /// that revert them, in the order to apply them (newest first).
    ///
    /// When a change fails, the ones already applied are reverted before the
    /// error is rethrown, so the model is left as it was. If reverting fails
    /// too, ``HistoryError/revertFailed(error:revert:)`` is thrown.
    ///
    /// - Complexity: O(*n*) applications for *n* changes.
    public mutating func apply(all changes: [Change]) throws -> [Change] {
        try _cross(changes.reversed()).reversed()
    }

    /// Applies `changes` from the last to the first, all or nothing, and
    /// returns their inverses in the order they were made.
    ///
    /// Applying the result the same way (last to first) reverts the whole
    /// run. This is how a history step is crossed in either direction.
    @usableFromInline
    mutating func _cross(_ changes: [Change]) throws -> [Change] {
        var inverses: [Change] = []
        inverses.reserveCapacity(changes.count)
        do {
            for change in changes.reversed() {
                inverses.append(try apply(change))
            }
        } catch {
            do {
                for inverse in inverses.reversed() {
                    _ = try apply(inverse)
                }
            } catch let revert {
                throw HistoryError.revertFailed(error: "\(error)", revert: "\(revert)")
            }
            throw error
        }
        return inverses
    }
}
