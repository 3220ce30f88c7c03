import Todos

/// The calculator of an account in team mode: one per account, whichever
/// browser it signs in from, and no other account's on the same browser.
/// It is kept as a browser's is, under its own id, which no browser's
/// cookie can name (those are 32 hexadecimal digits); removing the account
/// forgets it (``AccountStore/remove(name:)``), so that an account made
/// later under the same name starts at 0.
///
/// ```swift
/// let calculator = try await store.calculator(AccountCalculator.id(of: name))
/// ```
public enum AccountCalculator {
    /// The id the account `name` keeps its calculator under.
    public static func id(of name: AccountName) -> String {
        "account:\(name.key)"
    }

    /// The key of its rows (``CalculatorStore/key(_:)``).
    public static func key(of name: AccountName) -> String {
        SessionID.hexSHA256(of: id(of: name))
    }
}
