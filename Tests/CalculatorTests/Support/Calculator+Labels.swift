import Calculator

extension Calculator {
    /// A calculator after pressing the space-separated button labels of
    /// `keys`, through the standard factory: `"1 2 + 3 ="`.
    static func after(_ keys: String) throws -> Calculator {
        var calculator = Calculator()
        try calculator.press(keys)
        return calculator
    }

    /// Presses the space-separated button labels of `keys`.
    mutating func press(_ keys: String) throws {
        for label in keys.split(separator: " ") {
            self = try CommandFactory.standard.command(for: String(label)).execute(with: self)
        }
    }
}

/// The display after pressing `keys` on a new calculator.
func display(after keys: String) throws -> String {
    try Calculator.after(keys).display
}
