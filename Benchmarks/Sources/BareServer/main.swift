import Foundation
import Hummingbird

// The peer of `rewind serve` in Benchmarks/server.sh: Hummingbird with bare
// routes and nothing behind them, what a server on this machine can do at
// best.
//
//     BareServer [PORT]        (default 8090, on 127.0.0.1)
//
// GET  /           a short text
// POST /api/todos  reads the JSON body and answers 201 with it, as an add does

let arguments = CommandLine.arguments.dropFirst()
guard let port = Int(arguments.first ?? "8090"), (1...65_535).contains(port) else {
    print("usage: BareServer [PORT]   (PORT between 1 and 65535)")
    exit(2)
}

let router = Router()
router.get("/") { _, _ in
    "ok"
}
router.post("/api/todos") { request, _ -> Response in
    let body = try await request.body.collect(upTo: 1 << 20)
    return Response(
        status: .created,
        headers: [.contentType: "application/json"],
        body: .init(byteBuffer: body)
    )
}

let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "BareServer")
)
try await app.runService()
