#!/usr/bin/env bash
# Requests per second and p99 latency of `rewind serve` against a bare
# Hummingbird route (Benchmarks/Sources/BareServer), on this machine, in one
# run, with wrk (Debian: apt-get install wrk).
#
#   Benchmarks/server.sh                 # from the repository root
#   DURATION=10 CONNECTIONS=16 THREADS=1 ITEMS=1000 Benchmarks/server.sh
#   DUE_DATES=yes Benchmarks/server.sh   # every item with a due date of its own, 7 hours apart
#
# Rows, each measured by wrk for DURATION seconds with CONNECTIONS connections:
#   GET  /todos         the to-do page with ITEMS items   vs GET  / on BareServer
#   POST /api/todos     add an item (JSON, CSRF header)   vs POST /api/todos on BareServer
# The GET rows run first, while the list holds exactly ITEMS items; every
# POST adds an item, so the list grows during the POST row (its size after
# is printed).
#
# The add request carries what the page's own script sends from the same
# origin: Content-Type: application/json, the X-Rewind-CSRF token read from
# GET /api/csrf, Origin: http://127.0.0.1:PORT and Sec-Fetch-Site: same-origin.
#
# Exits 0 with a SKIP line when `rewind serve` does not exist yet.
set -euo pipefail

DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-16}
THREADS=${THREADS:-1}
ITEMS=${ITEMS:-1000}
DUE_DATES=${DUE_DATES:-no}
OURS_PORT=${OURS_PORT:-18080}
BARE_PORT=${BARE_PORT:-18090}

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

for tool in wrk curl python3; do
    if ! command -v "$tool" >/dev/null; then
        echo "server.sh: $tool is missing; install it with: apt-get install -y $tool" >&2
        exit 1
    fi
done

echo "== building release binaries (rewind, BareServer)" >&2
# The same static build as cli-vs-taskwarrior.sh, so one build serves both.
swift build -c release --static-swift-stdlib --scratch-path .build-static --product rewind >&2
swift build -c release --package-path Benchmarks --product BareServer >&2
rewind="$root/.build-static/release/rewind"
bare="$root/Benchmarks/.build/release/BareServer"

if ! "$rewind" --help 2>/dev/null | grep -qE '^\s+serve\b'; then
    echo "SKIP: \`rewind serve\` does not exist in this build yet (see \`rewind --help\`); nothing measured."
    exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rewind-server-bench.XXXXXX")
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

wait_for() { # URL
    for _ in $(seq 1 200); do
        curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
        sleep 0.05
    done
    echo "server.sh: $1 did not answer" >&2
    return 1
}

# The list of ITEMS items, in the documented JSON format (docs/json-format.md).
python3 - "$ITEMS" "$DUE_DATES" > "$work/items.json" <<'EOF'
import datetime, json, random, sys, uuid
count = int(sys.argv[1])
# Random (version 4) ids as real lists have, the same on every run.
rng = random.Random(count)
items = [{
    "id": str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper(),
    "title": f"Item {n}: buy milk",
    "created": "2026-01-01T00:00:00.000Z",
} for n in range(count)]
if sys.argv[2] == "yes":
    # From three days ago on, 7 hours apart: overdue, today, tomorrow, weekdays, dates.
    start = datetime.datetime.now(datetime.timezone.utc).replace(minute=0, second=0, microsecond=0) - datetime.timedelta(days=3)
    for n, item in enumerate(items):
        due = start + datetime.timedelta(hours=7 * n)
        item["due"] = {"kind": "date", "date": due.strftime("%Y-%m-%dT%H:%M:%S.000Z")}
json.dump({"format": "rewind-todos", "version": 1, "items": items}, sys.stdout)
EOF

data="$work/data"
mkdir -p "$data"
seeded_by_import=no
if "$rewind" todo import --help >/dev/null 2>&1; then
    "$rewind" todo import "$work/items.json" --data-dir "$data" >/dev/null
    seeded_by_import=yes
fi

"$rewind" serve --port "$OURS_PORT" --data-dir "$data" >"$work/serve.log" 2>&1 &
pids+=($!)
"$bare" "$BARE_PORT" >"$work/bare.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$OURS_PORT/api/csrf"
wait_for "http://127.0.0.1:$BARE_PORT/"

token=$(curl -fsS "http://127.0.0.1:$OURS_PORT/api/csrf" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
origin="http://127.0.0.1:$OURS_PORT"
add() { # TITLE
    curl -fsS -o /dev/null -X POST "$origin/api/todos" \
        -H 'Content-Type: application/json' -H "X-Rewind-CSRF: $token" \
        -H "Origin: $origin" -H 'Sec-Fetch-Site: same-origin' \
        --data "{\"title\": \"$1\"}"
}
count_items() {
    curl -fsS "$origin/api/todos" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))'
}

if [ "$seeded_by_import" = no ]; then
    echo "== seeding $ITEMS items through POST /api/todos (rewind todo import is not there yet)" >&2
    for n in $(seq 0 $((ITEMS - 1))); do add "Item $n: buy milk"; done
fi
before=$(count_items)
if [ "$before" != "$ITEMS" ]; then
    echo "server.sh: the list holds $before items, not $ITEMS" >&2
    exit 1
fi

. "$root/Benchmarks/add-request.sh"
add_lua "$token" "$origin" >"$work/add.lua"
sed "s|$origin|http://127.0.0.1:$BARE_PORT|" "$work/add.lua" >"$work/bare-add.lua"

# One wrk run; prints "requests/s p99 non-2xx".
measure() { # URL [SCRIPT]
    local out
    if [ $# -gt 1 ]; then
        out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$2" "$1")
    else
        out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "$1")
    fi
    echo "$out" >>"$work/wrk.log"
    local rps p99 errors
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
    errors=$(echo "$out" | awk '/Non-2xx/ {print $5}')
    echo "$rps $p99 ${errors:-0}"
}

echo "== load before: $(uptime)" >&2
echo "== wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s --latency" >&2
read -r bare_get_rps bare_get_p99 bare_get_err < <(measure "http://127.0.0.1:$BARE_PORT/")
read -r get_rps get_p99 get_err < <(measure "$origin/todos")
read -r bare_add_rps bare_add_p99 bare_add_err < <(measure "http://127.0.0.1:$BARE_PORT/api/todos" "$work/bare-add.lua")
read -r add_rps add_p99 add_err < <(measure "$origin/api/todos" "$work/add.lua")
after=$(count_items)
echo "== load after: $(uptime)" >&2

ratio() { python3 -c "print(f'{float(\"$1\") / float(\"$2\"):.2f}')"; }

echo
echo "Server, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s"
echo
echo "| request | ours req/s | ours p99 | bare req/s | bare p99 | ours / bare | non-2xx (ours, bare) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
echo "| GET /todos ($ITEMS items) vs GET / | $get_rps | $get_p99 | $bare_get_rps | $bare_get_p99 | $(ratio "$get_rps" "$bare_get_rps") | $get_err, $bare_get_err |"
echo "| POST /api/todos (add) vs bare POST | $add_rps | $add_p99 | $bare_add_rps | $bare_add_p99 | $(ratio "$add_rps" "$bare_add_rps") | $add_err, $bare_add_err |"
echo
echo "The list held $before items for the GET row and $after after the POST row."
echo "Target: the add endpoint at least half the bare route's rate (ours / bare >= 0.5)."
if [ "$get_err" != 0 ] || [ "$add_err" != 0 ]; then
    echo "server.sh: some requests to rewind serve failed; see the wrk output above" >&2
    cat "$work/wrk.log" >&2
    exit 1
fi
