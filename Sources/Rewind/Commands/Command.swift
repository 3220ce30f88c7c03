/// A command bound to its receiver: an action with no parameters, run by
/// whoever holds the command without knowing what it does or to whom.
///
/// The receiver is captured by the closure, so the caller decides how:
/// capture it `weak` so that the command stops working once the receiver is
/// gone, or strongly so that the command keeps it alive.
///
/// ```swift
/// let lamp = Lamp()
/// let switchOn = Command { [weak lamp] in lamp?.switchOn() }
/// switchOn.execute()
/// ```
public struct Command {
    /// The action a command performs.
    public typealias Action = () -> Void

    private let action: Action

    /// Creates a command that runs `action` each time it is executed.
    public init(_ action: @escaping Action) {
        self.action = action
    }

    /// Runs the command's action.
    public func execute() {
        action()
    }
}

extension Command {
    /// Runs every command of `commands` in order.
    public static func executeAll(_ commands: some Sequence<Command>) {
        for command in commands {
            command.execute()
        }
    }
}
