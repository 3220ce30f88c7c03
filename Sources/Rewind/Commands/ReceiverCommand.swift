/// A command whose receiver is chosen when it is executed rather than when it
/// is made.
///
/// `Receiver` is usually a protocol type, so that one command drives every
/// type that can perform the action:
///
/// ```swift
/// protocol Jumping { func jump() }
/// let jump = ReceiverCommand<any Jumping> { $0.jump() }
/// jump.execute(on: rabbit)
/// jump.execute(on: kangaroo)
/// ```
public struct ReceiverCommand<Receiver> {
    /// The action a command performs on its receiver.
    public typealias Action = (Receiver) -> Void

    private let action: Action

    /// Creates a command that performs `action` on the receiver it is given.
    public init(_ action: @escaping Action) {
        self.action = action
    }

    /// Performs the command's action on `receiver`.
    public func execute(on receiver: Receiver) {
        action(receiver)
    }
}
