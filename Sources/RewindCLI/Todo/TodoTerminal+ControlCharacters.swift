extension TodoTerminal {
    /// `text` made safe to print on a terminal: every control character
    /// (C0, DEL and C1) is shown as visible text instead of acting on the
    /// terminal, so that a title cannot retitle, recolour or clear it.
    ///
    /// C0 controls and DEL appear in caret notation (ESC as `^[`, BEL as
    /// `^G`, a lone CR as `^M`, DEL as `^?`), C1 controls as `<U+009B>`.
    /// With `keepingLineBreaks`, line breaks (LF, and CR LF as one LF) and
    /// tabs stay; otherwise each is one space.
    ///
    /// - Complexity: O(*n*); text without control characters is returned as it is.
    static func visible(_ text: String, keepingLineBreaks: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar.value {
            case 0x0A, 0x09:
                result.append(keepingLineBreaks ? scalar : " ")
            case 0x0D where pending == "\n":
                pending = scalars.next()
                result.append(keepingLineBreaks ? "\n" : " ")
            case 0x00..<0x20, 0x7F:
                result.append("^")
                result.append(Unicode.Scalar(UInt8(scalar.value ^ 0x40)))
            case 0x80...0x9F:
                result.append(contentsOf: "<U+00\(String(scalar.value, radix: 16, uppercase: true))>".unicodeScalars)
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
