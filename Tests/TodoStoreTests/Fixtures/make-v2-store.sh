#!/usr/bin/env bash
# Makes `v2-store/rewind.sqlite`: a data directory written by the version of
# Rewind whose SQLite schema is "v2" and whose words for an item's state were
# "unfinished" and "finished" (in the item rows, and as the ops `finish`,
# `unfinish`, `finishAll`, `unfinishAll` and `removeFinished` in the history
# log). VocabularyMigrationTests open it with the current version. Run with
# that version's binary (main at 10b1523):
#
#     bash make-v2-store.sh path/to/old/rewind
#
# Kept for the record; the committed files are what the tests read.
set -euo pipefail
rewind=${1:?usage: make-v2-store.sh REWIND_BINARY}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
export TZ=UTC
todo() { "$rewind" todo "$1" --data-dir "$dir" "${@:2}" >/dev/null; }
todo add "Buy milk" --due 2026-12-01
todo add "Call Anna" --details "About the trip"
todo add "Post the letters"
todo add "Water the plants"
todo add "Pay rent"
todo list
todo done 1 3
todo undone 3
# A change of every item both ways, and a removal of the completed ones,
# through the API.
port=$((20000 + RANDOM % 20000))
"$rewind" serve --data-dir "$dir" --port "$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$port/api/csrf" >/dev/null && break; sleep 0.1; done
token=$(curl -s "http://127.0.0.1:$port/api/csrf" | sed 's/.*"token":"\([^"]*\)".*/\1/')
api() { curl -sf -X "$1" "http://127.0.0.1:$port$2" -H "X-Rewind-CSRF: $token" -H "Content-Type: application/json" -d "$3" >/dev/null; }
api POST /api/todos/toggle-all '{"completed":true}'
api POST /api/todos/toggle-all '{"completed":false}'
kill $server; wait $server 2>/dev/null || true
trap - EXIT
todo list
todo done 2 4 5
todo clear-completed
todo undo
# Left at the undo: the clear-completed step is on the redo stack.
mkdir -p "$here/v2-store"
sqlite3 "$dir/rewind.sqlite" "PRAGMA wal_checkpoint(TRUNCATE); VACUUM INTO '$here/v2-store/rewind.sqlite.new'"
mv "$here/v2-store/rewind.sqlite.new" "$here/v2-store/rewind.sqlite"
"$rewind" todo export --data-dir "$dir" "$here/v2-store/expected-items.json"
rm -rf "$dir"
