import Foundation

/// The package's root folder, found from this file's place in it.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // RewindTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

/// A piece of source text between two marker comments, and the label written
/// after the opening marker ("" when there is none).
struct MarkedRegion: Equatable {
    var label: String
    var text: String
}

/// The regions of `source` between a line `// NAME-BEGIN label` and the next
/// line `// NAME-END`, each line of them ending in a newline.
func markedRegions(named name: String, in source: String) -> [MarkedRegion] {
    let begin = "// \(name)-BEGIN"
    let end = "// \(name)-END"
    var regions: [MarkedRegion] = []
    var open: MarkedRegion?
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
        if line == begin || line.hasPrefix(begin + " ") {
            open = MarkedRegion(label: String(line.dropFirst(begin.count)).trimmingCharacters(in: .whitespaces), text: "")
        } else if line == end, let region = open {
            regions.append(region)
            open = nil
        } else if open != nil {
            open?.text += line + "\n"
        }
    }
    return regions
}

/// The code blocks of a Markdown text that are marked as `language`
/// (```` ```swift ````), each line of them ending in a newline.
func codeBlocks(_ language: String, in markdown: String) -> [String] {
    var blocks: [String] = []
    var open: String?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        if open == nil, line == "```" + language {
            open = ""
        } else if line == "```", let block = open {
            blocks.append(block)
            open = nil
        } else if open != nil {
            open? += line + "\n"
        }
    }
    return blocks
}
