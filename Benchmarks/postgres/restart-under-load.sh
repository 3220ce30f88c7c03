#!/usr/bin/env bash
# Changes through nginx while PostgreSQL restarts: starts the cluster
# (scripts/cluster.sh: PostgreSQL, two instances, nginx), signs in, adds 8
# items, then has 3 clients toggle them and 1 client undo and redo in turn
# through nginx, restarts PostgreSQL (`pg_ctl restart -m fast`) 2 seconds
# in, goes on for 6 seconds more, and prints how many answers of each kind
# came back (2xx, 4xx, 5xx) with the messages of the 5xx ones. 4xx are
# expected (a redo after a toggle has nothing to redo; an undo that walks
# back past an add makes that item's toggles 404); a 5xx is a change that
# failed because of the restart.
#
#   Benchmarks/postgres/restart-under-load.sh .build/release/rewind
#   ROUNDS=3 Benchmarks/postgres/restart-under-load.sh BINARY [OTHER_BINARY]   # binaries in turns
set -euo pipefail
source "$(dirname "$0")/lib.sh"

require_tools python3 nginx
[ -n "${1:-}" ] || fail "give the rewind binary (and another to compare it with) as arguments"
cluster="$repo/scripts/cluster.sh"
trap '"$cluster" stop >/dev/null 2>&1 || true' EXIT
for round in $(seq "${ROUNDS:-1}"); do
    for binary in "$@"; do
        choose_rewind "$binary"
        [ ! -d "$REWIND_CLUSTER_DIR" ] || fail "$REWIND_CLUSTER_DIR exists: a cluster or another benchmark uses it; stop it first"
        address="$("$cluster" start 2>/dev/null)"
        sign_in "$address" admin
        echo "== $binary, round $round ($(uptime))"
        python3 "$(dirname "$0")/restart_under_load.py" "$address" "$session" "$token" \
            "$REWIND_CLUSTER_DIR/postgres/data" "$REWIND_PG_BIN"
        "$cluster" stop >/dev/null
    done
done
