/// A command that transforms a value: given a value, it returns a new one.
///
/// It can be made from a function that returns the new value, or from a
/// mutating action on a copy; both kinds run the same way.
///
/// ```swift
/// let triple = ValueCommand<Int> { $0 * 3 }          // (Value) -> Value
/// let negate = ValueCommand<Int> { $0.negate() }     // (inout Value) -> Void
/// triple.execute(with: 4)   // 12
/// negate.execute(with: 4)   // -4
/// ```
public struct ValueCommand<Value> {
    /// A non-mutating action: returns the transformed value.
    public typealias Action = (Value) -> Value
    /// A mutating action: transforms its argument in place.
    public typealias MutatingAction = (inout Value) -> Void

    private let action: Action

    /// Creates a command from a function that returns the new value.
    public init(_ action: @escaping Action) {
        self.action = action
    }

    /// Creates a command from an action that mutates the value in place.
    ///
    /// The action runs on a copy, so the value given to ``execute(with:)`` is
    /// never changed.
    public init(_ mutatingAction: @escaping MutatingAction) {
        self.action = { value in
            var copy = value
            mutatingAction(&copy)
            return copy
        }
    }

    /// Returns the result of the command's action on `value`.
    public func execute(with value: Value) -> Value {
        action(value)
    }

    /// Replaces `value` with the result of the command's action on it.
    public func execute(on value: inout Value) {
        value = action(value)
    }

    /// A command that runs this command and then `next` on its result.
    public func then(_ next: ValueCommand<Value>) -> ValueCommand<Value> {
        ValueCommand { next.execute(with: self.execute(with: $0)) }
    }
}
