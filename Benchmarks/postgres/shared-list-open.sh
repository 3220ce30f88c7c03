#!/usr/bin/env bash
# What a process pays to open a shared list of team mode with a long log:
# each `rewind todo … --as NAME --list LIST` is a process of its own, so it
# opens the list afresh every time, as a server does at its first request
# for the list (and again after it let go of the list).
#
# The list is filled once, by the first binary's `rewind serve --accounts`,
# with adds from wrk for FILL seconds (and one delete and one undo by the
# CLI); then each binary, in turns, runs through hyperfine
#   history:   `rewind todo history` (a page of the history)
#   undo+redo: `rewind todo undo` then `rewind todo redo` (two processes)
# and `history` once more under /usr/bin/time for its peak memory.
#
# EMPTY=1 completes and clears every item after the fill (two steps), so
# that the log is long and the list holds one item: a list used for years,
# whose cost at each open is its log's, not its items'.
#
#   Benchmarks/postgres/shared-list-open.sh OLD/rewind NEW/rewind
#   FILL=30 RUNS=10 Benchmarks/postgres/shared-list-open.sh OLD/rewind NEW/rewind
#   STORE=postgres Benchmarks/postgres/shared-list-open.sh OLD/rewind NEW/rewind
#   EMPTY=1 Benchmarks/postgres/shared-list-open.sh OLD/rewind NEW/rewind
#   KEEP=/tmp/long-log Benchmarks/postgres/shared-list-open.sh A/rewind   # keeps the data directory (sqlite)
#
# STORE=sqlite (the default) fills a fresh data directory; STORE=postgres a
# fresh database on the benchmarks' throwaway PostgreSQL server (lib.sh).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ "$#" -ge 1 ] || fail "give one or more rewind binaries (swift build -c release --product rewind)"
FILL="${FILL:-20}"
RUNS="${RUNS:-10}"
store="${STORE:-sqlite}"
case "$store" in
    sqlite) require_tools wrk curl python3 hyperfine sqlite3 ;;
    postgres) require_tools wrk curl python3 hyperfine ;;
    *) fail "STORE is sqlite (the default) or postgres; $store is neither" ;;
esac
[ -x /usr/bin/time ] || fail "/usr/bin/time is missing (Debian: apt-get install -y time)"
for binary in "$@"; do [ -x "$binary" ] || fail "no executable rewind binary at $binary"; done
work="$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-open.XXXXXX")"
server=""
cleanup() {
    if [ -n "$server" ]; then
        kill -TERM "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    [ "$store" = postgres ] && postgres_stop >/dev/null 2>&1
    if [ -n "${KEEP:-}" ] && [ "$store" = sqlite ]; then
        rm -rf "$KEEP" && mv "$work/data" "$KEEP" && say "the filled data directory is kept in $KEEP"
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# Where every binary reads the list: the options of `rewind` for it.
if [ "$store" = postgres ]; then
    if "$repo/scripts/postgres-test-cluster.sh" status >/dev/null 2>&1 || [ -d "$REWIND_CLUSTER_DIR" ]; then
        fail "$REWIND_CLUSTER_DIR is in use; stop what runs there first (REWIND_CLUSTER_DIR=$REWIND_CLUSTER_DIR scripts/cluster.sh stop)"
    fi
    postgres_start >/dev/null
    create_database bench_open bench_open
    place=(--database "postgres://bench_open:bench_open@127.0.0.1:$REWIND_CLUSTER_PG_PORT/bench_open")
else
    place=(--data-dir "$work/data")
fi

# Fills the list with the first binary.
choose_rewind "$1"
printf '%s\n' "$REWIND_CLUSTER_PASSWORD" | "$REWIND_BIN" users add bench --password-stdin "${place[@]}" >/dev/null \
    || fail "could not make the account bench"
"$REWIND_BIN" lists create Benchmark --as bench "${place[@]}" >/dev/null || fail "could not make the list"
"$REWIND_BIN" serve --accounts --port "$SINGLE_PORT" "${place[@]}" </dev/null >"$work/serve.log" 2>&1 &
server=$!
address="http://127.0.0.1:$SINGLE_PORT"
wait_for_url "$address/signin"
sign_in "$address" bench
list="$(curl -fsS -H "Cookie: rewind_session=$session" "$address/api/lists" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["lists"][0]["id"])')" || fail "could not find the list at $address"
add_lua "$token" "$address" "$session" >"$work/add.lua"
echo "wrk.path = \"/api/lists/$list/todos\"" >>"$work/add.lua"
DURATION="$FILL" read -r rps _ errors < <(DURATION="$FILL" wrk_round "$address/api/lists/$list/todos" "$work/add.lua" "$work/log")
[ "${errors:-0}" = 0 ] || fail "$errors adds were not answered 2xx while filling the list"
if [ "${EMPTY:-0}" = 1 ]; then
    for step in toggle-all clear-completed; do
        curl -fsS -o /dev/null -X POST -H 'Content-Type: application/json' -H "X-Rewind-CSRF: $token" -H "Origin: $address" \
            -H 'Sec-Fetch-Site: same-origin' -H "Cookie: rewind_session=$session" --data '{"completed": true}' \
            "$address/api/lists/$list/todos/$step" || fail "could not $step the list"
    done
fi
kill -TERM "$server"
wait "$server" 2>/dev/null || true
server=""
todo=(todo --as bench --list Benchmark "${place[@]}")
[ "${EMPTY:-0}" = 1 ] && "$REWIND_BIN" "${todo[@]}" add "The one item left" >/dev/null
"$REWIND_BIN" "${todo[@]}" list >/dev/null
"$REWIND_BIN" "${todo[@]}" rm 1 >/dev/null
"$REWIND_BIN" "${todo[@]}" undo >/dev/null
rows="$("$REWIND_BIN" "${todo[@]}" history | head -1 | awk '{ print $1 }') log rows"
items="$("$REWIND_BIN" "${todo[@]}" list --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["items"]))')"
say "filled at $rps adds/s; $rows; $items items"

note_load
results=()
for binary in "$@"; do
    choose_rewind "$binary"
    hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$work/hyperfine.json" \
        -n history "$REWIND_BIN ${todo[*]} history" \
        -n undo+redo "sh -c '\"$REWIND_BIN\" ${todo[*]} undo >/dev/null && \"$REWIND_BIN\" ${todo[*]} redo >/dev/null'" \
        >"$work/hyperfine.out" 2>&1 || fail "hyperfine failed for $binary: $(tail -3 "$work/hyperfine.out")"
    read -r history undo_redo < <(python3 - "$work/hyperfine.json" <<'EOF'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
print(" ".join(f'{results[name]["median"] * 1000:.0f}' for name in ("history", "undo+redo")))
EOF
    )
    peak="$( { /usr/bin/time -f '%M' "$REWIND_BIN" "${todo[@]}" history >/dev/null; } 2>&1 | tail -1)"
    say "$binary: history median $history ms, undo+redo $undo_redo ms, peak $((peak / 1024)) MB; $(uptime)"
    results+=("| $(basename "$(dirname "$binary")")/$(basename "$binary") | $history ms | $undo_redo ms | $((peak / 1024)) MB |")
done

echo
echo "A shared list opened by a fresh process ($store), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores; $rows, $items items;"
echo "hyperfine -N --warmup 1 --runs $RUNS per command, the binaries in turns"
echo
echo "| binary | \`todo history\`: median | \`todo undo\` + \`todo redo\`: median | \`todo history\`: peak memory |"
echo "|---|---:|---:|---:|"
printf '%s\n' "${results[@]}"
