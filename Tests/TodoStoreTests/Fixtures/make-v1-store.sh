#!/usr/bin/env bash
# Makes `v1-store/rewind.sqlite`: a data directory written by the version of
# Rewind whose SQLite schema is "v1" (an item's fields as one JSON body, the
# history as rewritable step rows). MigrationTests open it with the current
# version. Run with that version's binary:
#
#     bash make-v1-store.sh path/to/old/rewind
#
# Kept for the record; the committed file is what the tests read.
set -euo pipefail
rewind=${1:?usage: make-v1-store.sh REWIND_BINARY}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
export TZ=UTC
todo() { "$rewind" todo "$1" --data-dir "$dir" "${@:2}" >/dev/null; }
todo add "Buy milk" --due 2026-12-01
todo add "Call Anna" --due "2026-12-02 14:30" --details "About the trip"
todo add "Post office" --address "1 Main St, Springfield, 12345, US" --due 2026-12-01..2026-12-03
todo add "Picnic" --coordinate 53.93,9.10 --due "2026-12-05 for 2 hours"
todo add "Find the hut" --step "Leave by the main gate" --step "Turn right"
todo add "Read “Dune”"
todo add "Pay rent"
todo list
todo done 2
todo edit 3 --title "Post the letters"
todo rm 4 5
# An insertion at a position and a change of every item, through the API.
port=$((20000 + RANDOM % 20000))
"$rewind" serve --data-dir "$dir" --port "$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/api/csrf" >/dev/null && break; sleep 0.1; done
token=$(curl -s "http://127.0.0.1:$port/api/csrf" | sed 's/.*"token":"\([^"]*\)".*/\1/')
api() { curl -sf -X "$1" "http://127.0.0.1:$port$2" -H "X-Rewind-CSRF: $token" -H "Content-Type: application/json" -d "$3" >/dev/null; }
api POST /api/todos '{"title":"Water the plants","position":1}'
api POST /api/todos/toggle-all '{"completed":true}'
kill $server; wait $server 2>/dev/null || true
trap - EXIT
todo list
todo undone 1
todo undo
todo undo
todo redo
# One step left undone: the redo stack must survive the migration too.
mkdir -p "$here/v1-store"
sqlite3 "$dir/rewind.sqlite" "PRAGMA wal_checkpoint(TRUNCATE); VACUUM INTO '$here/v1-store/rewind.sqlite.new'"
mv "$here/v1-store/rewind.sqlite.new" "$here/v1-store/rewind.sqlite"
"$rewind" todo export --data-dir "$dir" "$here/v1-store/expected-items.json"
rm -rf "$dir"
