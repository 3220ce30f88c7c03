extension HTMLWriter {
    /// Writes a step's name (“Add “Milk””, “undid Rename “חלב””) with the
    /// quoted title isolated in `<bdi>`: a title in a right-to-left script
    /// then keeps its own order, and neither moves the quotation marks and
    /// words around it nor is cut from the wrong end when the name is.
    ///
    /// A name without a quoted title is written as text.
    mutating func stepName(_ name: String) {
        guard let open = name.firstIndex(of: "“"), let close = name.lastIndex(of: "”"), open < close else {
            return text(name)
        }
        let start = name.index(after: open)
        text(String(name[..<start]))
        element("bdi") { $0.text(String(name[start..<close])) }
        text(String(name[close...]))
    }
}
