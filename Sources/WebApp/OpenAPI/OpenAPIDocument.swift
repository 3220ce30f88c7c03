import Hummingbird

/// The OpenAPI 3.1 description of every route, served at `/openapi.json` and
/// `/openapi.yaml` and kept in the repository as `docs/openapi.yaml` (a test
/// checks that the file is this document and that it lists every route).
enum OpenAPIDocument {
    /// The document.
    static let document: JSONValue = .object([
        ("openapi", "3.1.0"),
        ("info", info),
        ("servers", [["url": "http://127.0.0.1:8080", "description": "rewind serve (default address)"]]),
        ("tags", tags),
        ("paths", .object(paths)),
        ("components", components),
    ])

    /// The document as JSON.
    static let json = document.json() + "\n"
    /// The document as YAML (what `docs/openapi.yaml` holds).
    static let yaml = "# Generated from Sources/WebApp/OpenAPI/OpenAPIDocument.swift; a test keeps them equal.\n"
        + document.yaml()

    /// Serves the document in both forms.
    static func addRoutes(to router: Router<some RequestContext>) {
        router.get("/openapi.json") { _, _ in
            Responses.text(json, contentType: "application/json; charset=utf-8", cacheControl: "no-cache")
        }
        router.get("/openapi.yaml") { _, _ in
            Responses.text(yaml, contentType: "application/yaml; charset=utf-8", cacheControl: "no-cache")
        }
    }

    // MARK: Parts

    private static let info: JSONValue = [
        "title": "Rewind",
        "version": "1.0.0",
        "description": """
            The JSON API of `rewind serve`: the to-do list with named, unlimited undo and redo, and a calculator per \
            browser. Every state-changing request (POST, PUT, PATCH, DELETE) must carry the header \
            `X-Rewind-CSRF` with the token from `GET /api/csrf`, must come from this server's origin (or from a \
            client that sends no `Origin`), and must name this server in `Host`. Errors are \
            `{"error": "…"}` with a 4xx status that says what was wrong. Bodies are JSON as RFC 8259 writes it, in UTF-8, \
            limited to 64 KiB by default. `HEAD` is answered for every `GET`; a method a path lacks gets 405 with `Allow`.
            """,
    ]

    private static let tags: JSONValue = [
        ["name": "todos", "description": "The to-do list."],
        ["name": "history", "description": "Undo, redo and the history of the to-do list."],
        ["name": "calculator", "description": "The calculator of the browser (cookie `rewind_calculator`)."],
        ["name": "pages", "description": "HTML pages, fragments, the event stream and static files."],
    ]

    private static let id: JSONValue = [
        "name": "id", "in": "path", "required": true, "description": "The item's id.",
        "schema": ["type": "string", "format": "uuid"],
    ]
    private static let csrf: JSONValue = ["$ref": "#/components/parameters/CSRF"]

    private static var paths: [(String, JSONValue)] {
        [
            ("/api/csrf", ["get": operation("csrf", "pages", "The CSRF token for state-changing requests.", ok: schema("CSRFToken"))]),
            ("/api/todos", todosPath),
            ("/api/todos/toggle-all", [
                "post": operation(
                    "toggleAll", "todos", "Completes every item (`completed: true`) or reopens every item, as one step.",
                    body: schema("ToggleAll"), ok: schema("UpdatedItems"), errors: [400, 403, 409, 413, 415]
                ),
            ]),
            ("/api/todos/clear-completed", [
                "post": operation(
                    "clearCompleted", "todos", "Deletes every completed item, as one step.",
                    ok: schema("RemovedItems"), errors: [403, 409]
                ),
            ]),
            ("/api/todos/{id}", itemPath),
            ("/api/todos/{id}/toggle", [
                "post": operation(
                    "toggleItem", "todos", "Completes the item, or reopens it when it is completed.",
                    parameters: [id], ok: schema("TodoItem"), errors: [400, 403, 404]
                ),
            ]),
            ("/api/history", ["get": operation("history", "history", "The steps and the current position.", ok: schema("History"))]),
            ("/api/history/tree", [
                "get": operation(
                    "historyTree", "history",
                    "Every step, the branches that a change after an undo abandoned included, and the current step: "
                        + "the undo tree. A store that keeps no branches (`--in-memory`) answers with one line of steps.",
                    ok: schema("HistoryTree")
                ),
            ]),
            ("/api/history/undo", [
                "post": operation("undo", "history", "Undoes the newest step.", ok: schema("HistoryMove"), errors: [403, 409]),
            ]),
            ("/api/history/redo", [
                "post": operation("redo", "history", "Redoes the newest undone step.", ok: schema("HistoryMove"), errors: [403, 409]),
            ]),
            ("/api/history/jump", [
                "post": operation(
                    "jump", "history",
                    "Moves to a position of the history (`position`, 0 is before the first step) or to a step of the "
                        + "undo tree on any branch (`step`, a number of `GET /api/history/tree`, 0 is the start), as one move.",
                    body: schema("Jump"), ok: schema("HistoryMove"), errors: [400, 403, 409, 413, 415, 422]
                ),
            ]),
            ("/api/calculator", [
                "get": operation("calculator", "calculator", "This browser's calculator.", ok: schema("Calculator")),
            ]),
            ("/api/calculator/keys", [
                "post": operation(
                    "pressKeys", "calculator", "Presses keys by their labels, in order; each is one undo step.",
                    body: schema("Keys"), ok: schema("Calculator"), errors: [400, 403, 413, 415, 422]
                ),
            ]),
            ("/api/calculator/undo", [
                "post": operation("calculatorUndo", "calculator", "Undoes the last key press.", ok: schema("Calculator"), errors: [403, 409]),
            ]),
            ("/api/calculator/redo", [
                "post": operation("calculatorRedo", "calculator", "Redoes the last undone key press.", ok: schema("Calculator"), errors: [403, 409]),
            ]),
            ("/events", [
                "get": [
                    "operationId": "events", "tags": ["pages"],
                    "summary": "Server-Sent Events: `event: todos` whenever the to-do state changed; a comment every 15 s.",
                    "parameters": [[
                        "name": "max", "in": "query", "required": false,
                        "description": "End the stream after this many change events.",
                        "schema": ["type": "integer", "minimum": 1],
                    ]],
                    "responses": [
                        "200": ["description": "An endless event stream.", "content": ["text/event-stream": ["schema": ["type": "string"]]]],
                        "400": ref("Error400"),
                        "503": ref("Error503"),
                    ],
                ],
            ]),
            ("/", page("landing", "The landing page.")),
            ("/todos", page("todosPage", "The to-do page (TodoMVC).", query: true)),
            ("/todos/fragment", page("todosFragment", "The changing regions of the to-do page.", query: true)),
            ("/todos/items/{id}", page("itemPage", "An item's detail view.", parameters: [id])),
            ("/todos/items/{id}/fragment", page("itemFragment", "The changing regions of the detail view.", parameters: [id])),
            ("/calculator", page("calculatorPage", "The calculator page.")),
            ("/openapi.json", file("openAPIJSON", "This document as JSON.", type: "application/json", schema: ["type": "object"])),
            ("/openapi.yaml", file("openAPIYAML", "This document as YAML.", type: "application/yaml", schema: ["type": "object"])),
            ("/assets/{name}", asset),
        ]
    }

    private static let listParameters: JSONValue = [
        [
            "name": "filter", "in": "query", "required": false,
            "description": "Which items; empty is the default, `all`.",
            "schema": ["type": "string", "enum": ["", "all", "active", "completed", "overdue"], "default": "all"],
        ],
        [
            "name": "sort", "in": "query", "required": false,
            "description": "`smart`: unfinished first, then the most recently changed; empty is the default, `list`.",
            "schema": ["type": "string", "enum": ["", "list", "smart"], "default": "list"],
        ],
    ]

    private static var todosPath: JSONValue {
        [
            "get": operation(
                "listTodos", "todos", "The items (filtered and sorted), the counts and the history.",
                parameters: listParameters, ok: schema("TodoList"), errors: [400]
            ),
            "post": operation(
                "addTodo", "todos", "Adds an item at the end (or at `position`).",
                body: schema("NewItem"), ok: schema("TodoItem"), okStatus: "201", errors: [400, 403, 413, 415, 422]
            ),
            "delete": operation(
                "deleteAllTodos", "todos", "Deletes every item, as one step.",
                ok: schema("RemovedItems"), errors: [403, 409]
            ),
        ]
    }

    private static var itemPath: JSONValue {
        [
            "get": operation("getTodo", "todos", "One item.", parameters: [id], ok: schema("TodoItem"), errors: [400, 404]),
            "patch": operation(
                "editTodo", "todos",
                "Changes the given fields of an item, as one step; fields that already have the value are left alone.",
                parameters: [id], body: schema("ItemEdit"), ok: schema("TodoItem"), errors: [400, 403, 404, 413, 415, 422]
            ),
            "delete": operation(
                "deleteTodo", "todos", "Deletes an item; undo brings it back at its position.",
                parameters: [id], ok: schema("RemovedItems"), errors: [400, 403, 404]
            ),
        ]
    }

    private static func schema(_ name: String) -> JSONValue {
        ["$ref": .string("#/components/schemas/\(name)")]
    }

    private static func ref(_ response: String) -> JSONValue {
        ["$ref": .string("#/components/responses/\(response)")]
    }

    private static func operation(
        _ operationID: String,
        _ tag: String,
        _ summary: String,
        parameters: JSONValue = [],
        body: JSONValue? = nil,
        ok: JSONValue,
        okStatus: String = "200",
        errors: [Int] = []
    ) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("operationId", .string(operationID)), ("tags", [.string(tag)]), ("summary", .string(summary)),
        ]
        var allParameters: [JSONValue] = []
        if case .array(let given) = parameters { allParameters = given }
        let changesState = body != nil || errors.contains(403)
        if changesState { allParameters.append(csrf) }
        if !allParameters.isEmpty { pairs.append(("parameters", .array(allParameters))) }
        if let body {
            pairs.append(("requestBody", ["required": true, "content": ["application/json": ["schema": body]]]))
        }
        var responses: [(String, JSONValue)] = [
            (okStatus, ["description": "Success.", "content": ["application/json": ["schema": ok]]]),
        ]
        for status in errors.sorted() {
            responses.append((String(status), ref("Error\(status)")))
        }
        responses.append(("421", ref("Error421")))
        pairs.append(("responses", .object(responses)))
        return .object(pairs)
    }

    private static func page(_ operationID: String, _ summary: String, parameters: JSONValue = [], query: Bool = false) -> JSONValue {
        var all: [JSONValue] = []
        if case .array(let given) = parameters { all = given }
        if query, case .array(let list) = listParameters { all += list }
        var pairs: [(String, JSONValue)] = [
            ("operationId", .string(operationID)), ("tags", ["pages"]), ("summary", .string(summary)),
        ]
        if !all.isEmpty { pairs.append(("parameters", .array(all))) }
        pairs.append((
            "responses",
            [
                "200": ["description": "HTML.", "content": ["text/html": ["schema": ["type": "string"]]]],
                "400": ref("Error400"),
                "404": ref("Error404"),
            ]
        ))
        return ["get": .object(pairs)]
    }

    /// `/assets/{name}`: the files of `Sources/WebApp/Resources/assets`.
    private static let asset: JSONValue = [
        "get": [
            "operationId": "asset", "tags": ["pages"],
            "summary": "A page's script (an ES module), the stylesheet `app.css` or the icon `icon.svg`.",
            "parameters": [
                [
                    "name": "name", "in": "path", "required": true, "example": "todos.js",
                    "description": "A file name of `Sources/WebApp/Resources/assets`.", "schema": ["type": "string"],
                ],
            ],
            "responses": [
                "200": [
                    "description": "The file.",
                    "content": [
                        "text/javascript": ["schema": ["type": "string"]],
                        "text/css": ["schema": ["type": "string"]],
                        "image/svg+xml": ["schema": ["type": "string"]],
                    ],
                ],
                "304": ["description": "Not modified (`If-None-Match` named the current `ETag`)."],
                "404": ref("Error404"),
            ],
        ],
    ]

    private static func file(
        _ operationID: String, _ summary: String, type: String, schema: JSONValue = ["type": "string"]
    ) -> JSONValue {
        [
            "get": [
                "operationId": .string(operationID), "tags": ["pages"], "summary": .string(summary),
                "responses": [
                    "200": ["description": "The file.", "content": [type: ["schema": schema]]],
                    "304": ["description": "Not modified (`If-None-Match` named the current `ETag`)."],
                ],
            ],
        ]
    }

    // MARK: Components

    private static var components: JSONValue {
        [
            "parameters": [
                "CSRF": [
                    "name": "X-Rewind-CSRF", "in": "header", "required": true,
                    "description": "The token from `GET /api/csrf`; a cross-site HTML form cannot send it.",
                    "schema": ["type": "string"],
                ],
            ],
            "responses": .object(errorResponses),
            "schemas": .object(schemas),
        ]
    }

    private static var errorResponses: [(String, JSONValue)] {
        let descriptions: [(Int, String)] = [
            (400, "A body that is not RFC 8259 JSON in UTF-8, a missing or unknown field, a field the schema refuses, or a malformed id or query parameter."),
            (403, "A cross-origin request, or one without the CSRF header."),
            (404, "No item has this id, or no route has this path."),
            (409, "Nothing to change, undo or redo."),
            (413, "The body is larger than the limit."),
            (415, "The body is declared as something other than JSON in UTF-8."),
            (421, "The `Host` header does not name this server."),
            (422, "A field has a value the domain refuses (an empty title, a latitude of 91, an unknown due date, a history position or step that does not exist)."),
            (503, "Too many event streams, or the server is shutting down."),
        ]
        return descriptions.map { status, text in
            (
                "Error\(status)",
                ["description": .string(text), "content": ["application/json": ["schema": schema("Error")]]]
            )
        }
    }

    private static let string: JSONValue = ["type": "string"]
    /// Text with at least one character that is not white space (what the
    /// domain keeps after trimming).
    private static let text: JSONValue = ["type": "string", "pattern": "\\S"]
    private static let title: JSONValue = [
        "type": "string", "minLength": 1, "maxLength": 500, "pattern": "\\S",
        "description": "Trimmed; 1 to 500 characters after trimming.",
    ]

    /// An address: at least one field has text.
    private static var address: JSONValue {
        var address = object(
            // A field left out or null is empty.
            [
                "kind": constant("address"), "street": orNull(string), "city": orNull(string),
                "zipCode": orNull(string), "country": orNull(string),
            ],
            required: ["kind"]
        )
        if case .object(var pairs) = address {
            pairs.append((
                "anyOf",
                .array(["street", "city", "zipCode", "country"].map { field in
                    ["required": [.string(field)], "properties": [field: text]]
                })
            ))
            address = .object(pairs)
        }
        return address
    }
    private static let dateTime: JSONValue = ["type": "string", "format": "date-time"]

    private static var schemas: [(String, JSONValue)] {
        [
            ("Error", object(["error": string], required: ["error"])),
            ("CSRFToken", object(["token": string, "header": string], required: ["token", "header"])),
            ("TodoItem", object(
                [
                    "id": ["type": "string", "format": "uuid"],
                    "title": ["type": "string", "minLength": 1, "maxLength": 500],
                    "details": string,
                    "state": ["type": "string", "enum": ["unfinished", "finished"]],
                    "due": schema("TodoDate"),
                    "location": schema("Location"),
                    "created": dateTime,
                    "changed": dateTime,
                ],
                required: ["id", "title", "details", "state", "due", "location", "created", "changed"],
                description: "An item, in the format of docs/json-format.md."
            )),
            ("TodoDate", [
                "description": "When an item is due.",
                "oneOf": [
                    object(["kind": constant("unknown")], required: ["kind"]),
                    object(["kind": constant("date"), "date": dateTime], required: ["kind", "date"]),
                    object(
                        ["kind": constant("span"), "start": dateTime, "end": orNull(dateTime)],
                        required: ["kind", "start"]
                    ),
                    object(
                        [
                            "kind": constant("duration"), "start": dateTime, "amount": ["type": "integer", "minimum": 1, "maximum": .integer(Int.max)],
                            "unit": ["type": "string", "enum": ["seconds", "minutes", "hours", "days"]],
                        ],
                        required: ["kind", "start", "amount", "unit"]
                    ),
                ],
            ]),
            ("Location", [
                "description": "Where an item is to be done.",
                "oneOf": [
                    object(["kind": constant("unknown")], required: ["kind"]),
                    address,
                    object(
                        [
                            "kind": constant("coordinate"),
                            "latitude": ["type": "number", "minimum": -90, "maximum": 90],
                            "longitude": ["type": "number", "minimum": -180, "maximum": 180],
                        ],
                        required: ["kind", "latitude", "longitude"]
                    ),
                    object(
                        ["kind": constant("directions"), "steps": ["type": "array", "items": text, "minItems": 1]],
                        required: ["kind", "steps"]
                    ),
                ],
            ]),
            ("NewItem", object(
                [
                    // null is the same as leaving the field out.
                    "title": title, "details": orNull(string), "due": orNull(schema("TodoDate")),
                    "dueText": orNull(["type": "string", "description": "A due date in words (`tomorrow 9:00`, `fri`, `2026-12-01 for 3 days`), instead of `due`."]),
                    "timeZone": orNull(["type": "string", "description": "The time zone `dueText` is read in, such as `Europe/Berlin`."]),
                    "location": orNull(schema("Location")),
                    "position": orNull([
                        "type": "integer", "minimum": 0, "maximum": .integer(Int.max),
                        "description": "Where to insert (0 is the top, at most the number of items: 422 beyond it); the end by default.",
                    ]),
                ],
                required: ["title"],
                closed: true
            )),
            ("ItemEdit", object(
                [
                    // null leaves a field as it is, except for due and location, which it clears.
                    "title": orNull(title), "details": orNull(string), "completed": orNull(["type": "boolean"]),
                    "due": ["oneOf": [schema("TodoDate"), ["type": "null"]]],
                    "dueText": orNull(string), "timeZone": orNull(string),
                    "location": ["oneOf": [schema("Location"), ["type": "null"]]],
                ],
                required: [],
                description: "The fields to change; unknown fields are refused.",
                closed: true
            )),
            ("ToggleAll", object(["completed": ["type": "boolean"]], required: ["completed"])),
            ("Jump", jump),
            ("Keys", keys),
            ("UpdatedItems", object(["items": ["type": "array", "items": schema("TodoItem")]], required: ["items"])),
            ("RemovedItems", object(["removed": ["type": "array", "items": schema("TodoItem")]], required: ["removed"])),
            ("Counts", object(
                [
                    "total": ["type": "integer"], "active": ["type": "integer"],
                    "completed": ["type": "integer"], "overdue": ["type": "integer"],
                ],
                required: ["total", "active", "completed", "overdue"]
            )),
            ("TodoList", object(
                ["items": ["type": "array", "items": schema("TodoItem")], "counts": schema("Counts"), "history": schema("History")],
                required: ["items", "counts", "history"]
            )),
            ("History", object(
                [
                    "steps": ["type": "array", "items": object(
                        ["name": string, "date": dateTime, "position": ["type": "integer"], "done": ["type": "boolean"]],
                        required: ["name", "date", "position", "done"]
                    )],
                    "position": ["type": "integer"], "canUndo": ["type": "boolean"], "canRedo": ["type": "boolean"],
                    "undoTitle": string, "redoTitle": string,
                ],
                required: ["steps", "position", "canUndo", "canRedo", "undoTitle", "redoTitle"]
            )),
            ("HistoryTree", object(
                [
                    "steps": ["type": "array", "items": object(
                        [
                            "number": ["type": "integer", "minimum": 1, "description": "Names the step in `current` and in a jump."],
                            "parent": ["type": "integer", "minimum": 0, "description": "The step it was made after (0: the start)."],
                            "name": string, "date": dateTime,
                            "branch": [
                                "type": "string", "enum": ["done", "undone", "abandoned"],
                                "description": .string(
                                    "`done`: on the way to the current step; `undone`: redo brings it back; "
                                        + "`abandoned`: on a branch a change after an undo left."
                                ),
                            ],
                        ],
                        required: ["number", "parent", "name", "date", "branch"]
                    )],
                    "current": ["type": "integer", "minimum": 0, "description": "The step the list is at (0: the start)."],
                ],
                required: ["steps", "current"],
                description: "Every step, oldest first."
            )),
            ("HistoryMove", object(
                ["undone": string, "redone": string, "history": schema("History")],
                required: ["history"]
            )),
            ("Calculator", object(
                [
                    "display": string, "value": ["type": ["string", "null"]], "error": ["type": ["string", "null"]],
                    "canUndo": ["type": "boolean"], "canRedo": ["type": "boolean"],
                    "undoTitle": string, "redoTitle": string,
                    "tape": ["type": "array", "items": string],
                    "labels": ["type": "array", "items": string], "columnCount": ["type": "integer"],
                    "droppedSteps": [
                        "type": "integer", "minimum": 0,
                        "description": "How many of the oldest undo steps were dropped to keep within the memory budget.",
                    ],
                ],
                required: [
                    "display", "value", "error", "canUndo", "canRedo", "undoTitle", "redoTitle", "tape", "labels",
                    "columnCount", "droppedSteps",
                ]
            )),
        ]
    }

    /// `keys` (at least one), `key`, or both; a label the keypad does not
    /// have is a 422.
    private static var keys: JSONValue {
        var keys = object(
            ["keys": ["type": "array", "items": string, "minItems": 1, "maxItems": 999], "key": string],
            required: [],
            description: "Labels of the keypad (`7`, `+`, `x`, `÷`, `=`, `AC`, …) or aliases (`*`, `/`): `keys`, "
                + "`key` or both, at most 1000 in all."
        )
        if case .object(var pairs) = keys {
            pairs.append(("anyOf", [["required": ["keys"]], ["required": ["key"]]]))
            keys = .object(pairs)
        }
        return keys
    }

    /// `position` or `step`, exactly one of them.
    private static var jump: JSONValue {
        let number: JSONValue = ["type": "integer", "minimum": 0, "maximum": .integer(Int.max)]
        var jump = object(
            ["position": number, "step": number],
            required: [],
            description: "`position`: a position of `GET /api/history`; `step`: a step number of `GET /api/history/tree`. "
                + "Exactly one of them; a number the history does not have is a 422.",
            closed: true
        )
        if case .object(var pairs) = jump {
            pairs.append(("oneOf", [["required": ["position"]], ["required": ["step"]]]))
            jump = .object(pairs)
        }
        return jump
    }

    /// `schema`, or null.
    private static func orNull(_ schema: JSONValue) -> JSONValue {
        ["oneOf": [schema, ["type": "null"]]]
    }

    private static func constant(_ value: String) -> JSONValue {
        ["type": "string", "const": .string(value)]
    }

    /// An object schema; `closed` ones refuse fields they do not list, as
    /// the server does for them.
    private static func object(
        _ properties: JSONValue, required: [String], description: String? = nil, closed: Bool = false
    ) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("type", "object")]
        if let description { pairs.append(("description", .string(description))) }
        pairs.append(("properties", properties))
        if !required.isEmpty { pairs.append(("required", .array(required.map(JSONValue.string)))) }
        if closed { pairs.append(("additionalProperties", false)) }
        return .object(pairs)
    }
}
