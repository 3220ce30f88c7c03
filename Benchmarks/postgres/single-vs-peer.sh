#!/usr/bin/env bash
# Adds per second of one `rewind serve --database URL` instance (no nginx)
# against the peer, hummingbird-examples' `todos-postgres-tutorial`, on the
# same PostgreSQL server (the peer in its own database), under the same wrk
# load; rounds in turns.
#
#   Benchmarks/postgres/single-vs-peer.sh .build/release/rewind /work/peer/.build/release/App
#   ROUNDS=3 DURATION=10 CONNECTIONS=16 Benchmarks/postgres/single-vs-peer.sh REWIND PEER
#   PROFILE=/tmp/single.perf Benchmarks/postgres/single-vs-peer.sh REWIND PEER   # then one more round of ours under `perf record -g`
#   ACCOUNTS=16 Benchmarks/postgres/single-vs-peer.sh REWIND PEER   # ours' adds from 16 accounts, each to a shared list of its own
#
# The peer is not part of this repository: BENCHMARKS.md ("PostgreSQL:
# several instances over one database") says how to build it. It connects
# as role `todos` (password `todos`) to database `hummingbird`, which this
# script creates; its port comes from POSTGRES_PORT (the one line changed
# in it, to reach this server). Both get the same requests: POST of the
# same JSON body with the same headers (ours to /api/todos, the peer's to
# /todos); the peer runs at log level PEER_LOG_LEVEL (warning: it then
# logs no line per request, as ours does not). Each round prints the
# processor time per add of each server and of PostgreSQL, and for ours how
# many adds each commit carried (the list's row updated, lib.sh's commit_counts).
#
# Starts PostgreSQL alone with the cluster's settings (lib.sh) and stops it,
# deleting its directory, at the end.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

choose_rewind "${1:-}"
peer="${2:-${PEER_BIN:-}}"
[ -n "$peer" ] && [ -x "$peer" ] || fail "give the peer's binary (todos-postgres-tutorial's App) as the second argument or in PEER_BIN"
require_tools wrk curl perf
PEER_LOG_LEVEL="${PEER_LOG_LEVEL:-warning}"
[ ! -d "$REWIND_CLUSTER_DIR" ] || fail "$REWIND_CLUSTER_DIR exists: a cluster or another benchmark uses it; stop it first"
clean_up_postgres_alone_at_exit peer

url="$(postgres_start)"
create_database todos hummingbird
# Team mode (PostgreSQL): an account to sign in with.
make_account "$url" bench
ours_address="http://127.0.0.1:$SINGLE_PORT"
peer_address="http://127.0.0.1:$PEER_PORT"

REWIND_DATABASE_URL="$url" \
    "$REWIND_BIN" serve --host 127.0.0.1 --port "$SINGLE_PORT" </dev/null >"$work/ours.log" 2>&1 &
pids+=($!)
ours_pid=$!
HTTP_HOST=127.0.0.1 HTTP_PORT="$PEER_PORT" POSTGRES_PORT="$REWIND_CLUSTER_PG_PORT" LOG_LEVEL="$PEER_LOG_LEVEL" \
    "$peer" </dev/null >"$work/peer.log" 2>&1 &
pids+=($!)
peer_pid=$!
wait_for_url "$ours_address/openapi.yaml"
sign_in "$ours_address" bench
wait_for_url "$peer_address/health"
# The peer makes its table before it listens; a first add proves it writes.
curl -fsS -o /dev/null -X POST -H 'Content-Type: application/json' --data "$ADD_BODY" "$peer_address/todos" \
    || fail "the peer did not add a to-do (log: $(tail -3 "$work/peer.log"))"

write_add_script "$work/ours.lua" "$ours_address" "$token" "$session"
if [ "${ACCOUNTS:-1}" != 1 ]; then
    add_accounts_to_script "$work/ours.lua" "$ours_address" "$url" "$ACCOUNTS"
    say "ours: the adds come from $ACCOUNTS accounts in turn, each to a shared list of its own"
fi
write_add_script "$work/peer.lua" "$peer_address" "$token"
durability="synchronous_commit=$(psql_admin postgres -c 'SHOW synchronous_commit') fsync=$(psql_admin postgres -c 'SHOW fsync')"
say "PostgreSQL: $durability"

ours=() theirs=() ours_p99=() theirs_p99=() errors=0
ours_cpu=() theirs_cpu=() ours_pg=() theirs_pg=() per_commits=()
load_before="$(uptime)"
note_load
for round in $(seq "$ROUNDS"); do
    counts_before="$(commit_counts)"
    read -r rps p99 non2xx cpu pg_cpu < <(wrk_round "$ours_address/api/todos" "$work/ours.lua" "$work/log" "$ours_pid")
    per_commit="$(adds_per_commit "$counts_before" "$(commit_counts)")"
    read -r peer_rps peer_p99 peer_non2xx peer_cpu peer_pg_cpu < <(wrk_round "$peer_address/todos" "$work/peer.lua" "$work/log" "$peer_pid")
    say "round $round: ours $rps adds/s (p99 $p99, CPU per add $cpu µs + PostgreSQL $pg_cpu µs, $per_commit adds per commit), peer $peer_rps adds/s (p99 $peer_p99, $peer_cpu µs + $peer_pg_cpu µs); $(uptime)"
    ours+=("$rps") theirs+=("$peer_rps") ours_p99+=("$p99") theirs_p99+=("$peer_p99")
    ours_cpu+=("$cpu") theirs_cpu+=("$peer_cpu") ours_pg+=("$pg_cpu") theirs_pg+=("$peer_pg_cpu")
    per_commits+=("$per_commit")
    errors=$((errors + non2xx + peer_non2xx))
done
load_after="$(uptime)"
items="$(psql_admin rewind -c 'SELECT count(*) FROM rewind_item')"
steps="$(psql_admin rewind -c 'SELECT count(*) FROM rewind_step')"
peer_rows="$(psql_admin hummingbird -c 'SELECT count(*) FROM todos')"

profile_round "$ours_pid" "$ours_address/api/todos" "$work/ours.lua" "$work/log"

ours_median="$(median "${ours[@]}")"
theirs_median="$(median "${theirs[@]}")"
print_table_head "One instance vs the peer (todos-postgres-tutorial)" \
    "wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s, body $ADD_BODY, $ROUNDS rounds in turns; $durability" \
    "$load_before" "$load_after"
echo "| ours: adds/s, one instance | ${ours[*]} | $ours_median |"
echo "| ours: p99 | ${ours_p99[*]} | |"
echo "| peer: adds/s | ${theirs[*]} | $theirs_median |"
echo "| peer: p99 | ${theirs_p99[*]} | |"
echo "| ours: adds per commit (list rows updated) | ${per_commits[*]} | $(median "${per_commits[@]}") |"
echo "| ours: CPU µs per add, the server | ${ours_cpu[*]} | $(median "${ours_cpu[@]}") |"
echo "| ours: CPU µs per add, PostgreSQL | ${ours_pg[*]} | $(median "${ours_pg[@]}") |"
echo "| peer: CPU µs per add, the server | ${theirs_cpu[*]} | $(median "${theirs_cpu[@]}") |"
echo "| peer: CPU µs per add, PostgreSQL | ${theirs_pg[*]} | $(median "${theirs_pg[@]}") |"
echo "| ours / peer | | **$(ratio "$ours_median" "$theirs_median")** (target >= 1.0) |"
echo
echo "Afterwards: $items items and $steps history steps in Rewind's list, $peer_rows rows in the peer's table; non-2xx answers: $errors."
[ "$errors" = 0 ] || { cat "$work/log" >&2; fail "some adds failed; wrk's output is above"; }
