#!/usr/bin/env bash
# Adds per second through nginx over two `rewind serve` instances
# (scripts/cluster.sh) against pgbench inserting one row per transaction
# into a scratch table of the same PostgreSQL server; rounds in turns.
#
#   Benchmarks/postgres/cluster-vs-pgbench.sh .build/release/rewind
#   ROUNDS=3 DURATION=10 CONNECTIONS=16 Benchmarks/postgres/cluster-vs-pgbench.sh BINARY
#   PROFILE=/tmp/a.perf Benchmarks/postgres/cluster-vs-pgbench.sh BINARY   # then one more wrk round under `perf record -g` of instance A
#
# Ours: wrk with CONNECTIONS connections POSTing /api/todos through nginx,
# with the headers the page's script sends (the instances share the
# cluster's CSRF token). pgbench: `pgbench -n -f insert.sql` with as many
# clients as wrk has connections, one INSERT of one row per transaction,
# over TCP with a password, as the instances connect. Both durable:
# synchronous_commit and fsync on (printed). Starts the cluster with the
# settings of lib.sh and stops it (deleting its directory) at the end.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

choose_rewind "${1:-}"
require_tools wrk pgbench curl nginx perf
cluster="$repo/scripts/cluster.sh"
if "$cluster" status >/dev/null 2>&1 || [ -d "$REWIND_CLUSTER_DIR" ]; then
    fail "a cluster already runs in $REWIND_CLUSTER_DIR; stop it first (REWIND_CLUSTER_DIR=$REWIND_CLUSTER_DIR $cluster stop)"
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-pgbench.XXXXXX")"
cleanup() {
    "$cluster" stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
address="$("$cluster" start)"
token="$(cat "$REWIND_CLUSTER_DIR/csrf-token")"
write_add_script "$work/add.lua" "$address" "$token"

create_database bench bench
psql_admin bench -c "CREATE TABLE IF NOT EXISTS scratch (id BIGSERIAL PRIMARY KEY, title TEXT NOT NULL)" \
    -c "ALTER TABLE scratch OWNER TO bench"
cat >"$work/insert.sql" <<EOF
INSERT INTO scratch (title) VALUES ('Benchmark: buy oat milk');
EOF
durability="synchronous_commit=$(psql_admin postgres -c 'SHOW synchronous_commit') fsync=$(psql_admin postgres -c 'SHOW fsync')"
say "PostgreSQL: $durability"

# One pgbench round; prints transactions per second.
pgbench_round() {
    local out
    out="$(PGPASSWORD=bench pgbench -n -f "$work/insert.sql" -c "$CONNECTIONS" -j "$THREADS" -T "$DURATION" \
        -h 127.0.0.1 -p "$REWIND_CLUSTER_PG_PORT" -U bench bench 2>&1)"
    printf '%s\n%s\n' "== pgbench ($(uptime))" "$out" >>"$work/log"
    echo "$out" | awk '/^tps = / {printf "%.1f\n", $3}' | grep . || fail "pgbench failed: $(echo "$out" | grep error | head -2)"
}

ours=() theirs=() p99s=() errors=0
load_before="$(uptime)"
note_load
for round in $(seq "$ROUNDS"); do
    read -r rps p99 non2xx < <(wrk_round "$address/api/todos" "$work/add.lua" "$work/log")
    tps="$(pgbench_round)"
    say "round $round: ours $rps adds/s (p99 $p99, non-2xx $non2xx), pgbench $tps tps; $(uptime)"
    ours+=("$rps") theirs+=("$tps") p99s+=("$p99")
    errors=$((errors + non2xx))
done
load_after="$(uptime)"
items="$(psql_admin rewind -c 'SELECT count(*) FROM rewind_item')"
steps="$(psql_admin rewind -c 'SELECT count(*) FROM rewind_step')"
rows="$(psql_admin bench -c 'SELECT count(*) FROM scratch')"

profile_round "$(cat "$REWIND_CLUSTER_DIR/A.pid")" "$address/api/todos" "$work/add.lua" "$work/log"

ours_median="$(median "${ours[@]}")"
theirs_median="$(median "${theirs[@]}")"
print_table_head "Adds through nginx over two instances vs pgbench" \
    "wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s and pgbench -c $CONNECTIONS -j $THREADS -T $DURATION, $ROUNDS rounds in turns; $durability" \
    "$load_before" "$load_after"
echo "| ours: adds/s through nginx (A + B) | ${ours[*]} | $ours_median |"
echo "| ours: p99 | ${p99s[*]} | |"
echo "| pgbench: one-row INSERT transactions/s | ${theirs[*]} | $theirs_median |"
echo "| ours / pgbench | | **$(ratio "$ours_median" "$theirs_median")** (target >= 0.5) |"
echo
echo "Afterwards: $items items and $steps history steps in Rewind's list, $rows rows in the scratch table; non-2xx answers: $errors."
[ "$errors" = 0 ] || { cat "$work/log" >&2; fail "some adds failed; wrk's output is above"; }
