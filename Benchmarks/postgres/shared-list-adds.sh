#!/usr/bin/env bash
# Adds to one shared list of team mode through nginx over two instances
# (scripts/cluster.sh), round after round, so that the list grows: what an
# add costs as its list gets longer. Each binary gets a fresh cluster and
# the same rounds; the table has the adds per second and the list's size
# after each round, and the median latency of one add (one connection)
# measured after it.
#
#   Benchmarks/postgres/shared-list-adds.sh OLD/rewind NEW/rewind
#   ROUNDS=5 DURATION=8 CONNECTIONS=16 Benchmarks/postgres/shared-list-adds.sh BINARY
#   STORE=sqlite Benchmarks/postgres/shared-list-adds.sh OLD/rewind NEW/rewind
#   STORE=postgres-one Benchmarks/postgres/shared-list-adds.sh OLD/rewind NEW/rewind
#
# With STORE=sqlite, one `rewind serve --accounts` over a fresh data
# directory (SQLite, team mode) on SINGLE_PORT takes the cluster's place;
# with STORE=postgres-one, the cluster runs but the adds go to instance A
# alone, not through nginx (one instance over PostgreSQL).
# The adds carry the headers the list's page sends (the account's session
# and CSRF token); every add goes to the one list the account makes.
# LISTS_PAGES=N keeps N lists pages of the account open meanwhile (their
# event streams, `GET /lists/events`), and says how many events each heard.
#
#   STORE=sqlite LISTS_PAGES=10 Benchmarks/postgres/shared-list-adds.sh BINARY
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ "$#" -ge 1 ] || fail "give one or more rewind binaries (swift build -c release --product rewind)"
store="${STORE:-postgres}"
case "$store" in
    postgres | postgres-one) require_tools wrk curl nginx python3 ;;
    sqlite) require_tools wrk curl python3 sqlite3 ;;
    *) fail "STORE is postgres (the cluster, the default), postgres-one (instance A of the cluster alone) or sqlite; $store is none of them" ;;
esac
cluster="$repo/scripts/cluster.sh"
for binary in "$@"; do [ -x "$binary" ] || fail "no executable rewind binary at $binary"; done
if [ "$store" != sqlite ] && { "$cluster" status >/dev/null 2>&1 || [ -d "$REWIND_CLUSTER_DIR" ]; }; then
    fail "a cluster already runs in $REWIND_CLUSTER_DIR; stop it first (REWIND_CLUSTER_DIR=$REWIND_CLUSTER_DIR $cluster stop)"
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-shared.XXXXXX")"
server=""
stop_server() {
    if [ "$store" != sqlite ]; then
        "$cluster" stop >/dev/null 2>&1 || true
    elif [ -n "$server" ]; then
        kill -TERM "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
        server=""
    fi
}
cleanup() {
    stop_server
    rm -rf "$work"
}
trap cleanup EXIT

# Starts what serves the list with the binary chosen; sets `address` and
# signs in (`session`, `token`).
start_server() {
    if [ "$store" != sqlite ]; then
        address="$("$cluster" start)"
        [ "$store" = postgres ] || address="http://127.0.0.1:$REWIND_CLUSTER_A_PORT"
        sign_in "$address" admin
        return
    fi
    rm -rf "$work/data"
    printf '%s\n' "$REWIND_CLUSTER_PASSWORD" | "$REWIND_BIN" users add bench --password-stdin --data-dir "$work/data" >/dev/null \
        || fail "could not make the account bench in $work/data"
    "$REWIND_BIN" serve --accounts --port "$SINGLE_PORT" --data-dir "$work/data" </dev/null >"$work/serve.log" 2>&1 &
    server=$!
    address="http://127.0.0.1:$SINGLE_PORT"
    wait_for_url "$address/signin"
    sign_in "$address" bench
}

# The number of items in the list.
item_count() {
    if [ "$store" != sqlite ]; then
        psql_admin rewind -c "SELECT count(*) FROM rewind_item i JOIN rewind_shared_list l ON l.list_id = i.list_id"
    else
        sqlite3 "$work/data/rewind.sqlite" "SELECT count(*) FROM shared_item"
    fi
}

results=()
for binary in "$@"; do
    choose_rewind "$binary"
    stop_server
    start_server
    list="$(curl -fsS -X POST -H 'Content-Type: application/json' -H "X-Rewind-CSRF: $token" -H "Origin: $address" \
        -H 'Sec-Fetch-Site: same-origin' -H "Cookie: rewind_session=$session" --data '{"name": "Benchmark"}' \
        "$address/api/lists" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')" \
        || fail "could not make a shared list at $address"
    add_lua "$token" "$address" "$session" >"$work/add.lua"
    echo "wrk.path = \"/api/lists/$list/todos\"" >>"$work/add.lua"
    pages=()
    for page in $(seq "${LISTS_PAGES:-0}"); do
        curl -sN -H "Cookie: rewind_session=$session" "$address/lists/events" >"$work/page-$page.events" 2>/dev/null &
        pages+=("$!")
    done
    note_load
    row="| $(basename "$(dirname "$binary")")/$(basename "$binary")"
    [ "${#pages[@]}" = 0 ] || row="$row, ${#pages[@]} lists pages open"
    for round in $(seq "$ROUNDS"); do
        read -r rps p99 errors < <(wrk_round "$address/api/lists/$list/todos" "$work/add.lua" "$work/log")
        [ "${errors:-0}" = 0 ] || fail "round $round of $binary: $errors adds were not answered 2xx"
        items="$(item_count)"
        one="$(wrk -t1 -c1 -d3s --latency -s "$work/add.lua" "$address/api/lists/$list/todos" | awk '$1 == "50%" {print $2}')"
        say "$binary round $round: $rps adds/s (p99 $p99), $items items, one add alone: median $one; $(uptime)"
        row="$row | $rps (${items} items; alone $one)"
    done
    if [ "${#pages[@]}" -gt 0 ]; then
        kill "${pages[@]}" 2>/dev/null || true
        wait "${pages[@]}" 2>/dev/null || true
        heard="$(for page in $(seq "${#pages[@]}"); do grep -c '^event: lists' "$work/page-$page.events" || true; done | sort -n | tr '\n' ' ')"
        say "$binary: ${#pages[@]} lists pages open, events each heard: $heard"
    fi
    results+=("$row |")
    stop_server
done

echo
if [ "$store" = postgres-one ]; then
    echo "Adds to one shared list on one instance of the cluster (no nginx), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores,"
    echo "wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s per round, then wrk -c1 -d3s for one add alone; a fresh cluster per binary"
elif [ "$store" = postgres ]; then
    echo "Adds to one shared list through nginx over two instances, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores,"
    echo "wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s per round, then wrk -c1 -d3s for one add alone; a fresh cluster per binary"
else
    echo "Adds to one shared list of rewind serve --accounts (SQLite), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores,"
    echo "wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s per round, then wrk -c1 -d3s for one add alone; a fresh data directory per binary"
fi
echo
printf '| binary |'; for round in $(seq "$ROUNDS"); do printf ' round %s: adds/s |' "$round"; done; echo
printf '|---|'; for _ in $(seq "$ROUNDS"); do printf -- '---|'; done; echo
printf '%s\n' "${results[@]}"
