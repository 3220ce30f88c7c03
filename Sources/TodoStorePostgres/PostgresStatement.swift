import PostgresNIO

/// One statement put together from parts (the common table expressions of
/// a change, for instance), every value bound as a parameter (`$1`, `$2`,
/// …) in the order the parts name them.
struct PostgresStatement {
    /// The text, with `$n` where each bound value goes.
    var sql = ""
    private var binds = PostgresBindings()

    /// Binds `value` and returns the parameter that stands for it in ``sql``.
    mutating func bind<Value: PostgresThrowingDynamicTypeEncodable>(_ value: Value) throws -> String {
        try binds.append(value)
        return "$\(binds.count)"
    }

    /// Binds `value`, `NULL` when `nil`, and returns its parameter.
    mutating func bind<Value: PostgresThrowingDynamicTypeEncodable>(_ value: Value?) throws -> String {
        try binds.append(value)
        return "$\(binds.count)"
    }

    /// Makes ``sql`` the data-modifying `parts` as common table
    /// expressions (each runs once, whether `main` reads it or not; the
    /// later may read the earlier by name), followed by the query `main`.
    mutating func compose(_ parts: [(name: String, sql: String)], then main: String) {
        let named = parts.map { "\($0.name) AS (\n\($0.sql)\n)" }
        sql = named.isEmpty ? main : "WITH " + named.joined(separator: ",\n") + "\n" + main
    }

    /// The statement as postgres-nio sends it.
    var query: PostgresQuery {
        PostgresQuery(unsafeSQL: sql, binds: binds)
    }
}
