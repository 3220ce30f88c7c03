import Foundation
import Testing
import Todos
@testable import TodoStore

/// The fast reader of item bodies and step changes must read exactly what
/// `JSONDecoder` reads, or leave the body to it.
@Suite("Row body reader")
struct RowBodyReaderTests {
    let decoder = TodoJSON.makeDecoder()
    let encoder = TodoJSON.makeEncoder()

    func read(_ json: String) -> TodoItem? {
        Array(json.utf8).withUnsafeBytes(RowBodyReader.item)
    }

    @Test func itemsInTheUsualShapeAreReadAsJSONDecoderReadsThem() throws {
        let created = Date(timeIntervalSince1970: 1_790_000_000.123)
        let items = [
            try TodoItem(id: UUID(), title: "Buy milk", created: created),
            try TodoItem(id: UUID(), title: "Quotes \" and \\ and / and\ttabs", details: "Line\nnext", state: .finished,
                         due: .date(created.addingTimeInterval(86_400)), created: created, changed: created.addingTimeInterval(5)),
            try TodoItem(id: UUID(), title: "Crème brûlée 🍮", details: "für später", created: created),
        ]
        for item in items {
            let json = String(decoding: try encoder.encode(item), as: UTF8.self)
            #expect(read(json) == item, "\(json)")
            #expect(read(json) == (try decoder.decode(TodoItem.self, from: Data(json.utf8))))
        }
        // Other key orders, spaces, lower-case ids and left-out fields.
        let id = "52574e44-0000-4000-8000-00000000000a"
        let loose = #" { "title" : "  Padded  ", "created": "2026-01-01T00:00:00.000Z", "id": "\#(id)" } "#
        #expect(read(loose) == (try decoder.decode(TodoItem.self, from: Data(loose.utf8))))
        #expect(read(loose)?.title == "Padded")
    }

    @Test func anythingElseIsLeftToJSONDecoder() throws {
        let created = Date(timeIntervalSince1970: 1_790_000_000)
        let others = [
            try TodoItem(id: UUID(), title: "Span", due: .timeSpan(.start(.from(created), .unknown)), created: created),
            try TodoItem(id: UUID(), title: "Coordinate", location: .coordinate(.init(latitude: 1, longitude: 2)), created: created),
        ]
        for item in others {
            #expect(read(String(decoding: try encoder.encode(item), as: UTF8.self)) == nil)
        }
        let base = #""id":"52574E44-0000-4000-8000-000000000001","created":"2026-01-01T00:00:00.000Z""#
        for json in [
            #"{\#(base),"title":"   "}"#,                        // refused title
            #"{\#(base),"title":"A","title":"B"}"#,               // repeated key
            #"{\#(base),"title":"A","extra":1}"#,                  // unknown key
            #"{\#(base),"title":"\u0041"}"#,                       // \u escape
            #"{\#(base),"title":"A","state":"lost"}"#,             // unknown state
            #"{\#(base),"title":"A","changed":null}"#,             // null date
            #"{\#(base),"title":"A"},{"id":1}"#,                   // two documents
            #"{\#(base),"title":"A""#,                             // cut short
            #"{"id":"52574E44000040008000000000000001","created":"2026-01-01T00:00:00.000Z","title":"A"}"#,
            #"{\#(base),"title":"A","created":"yesterday"}"#,
        ] {
            #expect(read(json) == nil, "\(json)")
        }
        let invalidUTF8: [UInt8] = Array(#"{\#(base),"title":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(invalidUTF8.withUnsafeBytes(RowBodyReader.item) == nil)
    }

    @Test func theChangeThatUndoesAnAddIsRead() throws {
        let id = UUID()
        let json = String(decoding: try encoder.encode([AppState.Change.remove(id)]), as: UTF8.self)
        #expect(Array(json.utf8).withUnsafeBytes(RowBodyReader.changes) == [.remove(id)])
        for other in [#"[{"id":"\#(id.uuidString)","op":"finishAll"}]"#, #"[{"op":"remove"}]"#, "[]",
                      #"[{"id":"\#(id.uuidString)","op":"remove"},{"id":"\#(id.uuidString)","op":"remove"}]"#] {
            #expect(Array(other.utf8).withUnsafeBytes(RowBodyReader.changes) == nil, "\(other)")
        }
    }
}
