import ArgumentParser

extension RewindCommand {
    /// Runs `rewind` with the process's arguments.
    ///
    /// swift-argument-parser stores a repeated positional argument one value
    /// at a time, copying what it has so far each time: `rewind todo rm` with
    /// 8,000 references spent seconds in the parser alone. Long runs of item
    /// references are handed to it as one argument instead (see
    /// ``ItemReferenceArguments/packed(_:)``), which the commands split again.
    static func main() async {
        await main(ItemReferenceArguments.packed(Array(CommandLine.arguments.dropFirst())))
    }
}
