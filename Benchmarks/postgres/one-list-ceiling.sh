#!/usr/bin/env bash
# What PostgreSQL alone can take of one list's adds on this machine, against
# pgbench's one-row INSERTs: the ceiling of issue 14's first target that no
# server code can raise. No instance, no nginx, no wrk: pgbench calls the
# procedure a batch of adds commits with (`rewind_append_adds_committed`,
# the statement an instance sends for a batch), with BATCH adds per call,
# one call at a time (CLIENTS=1: the team's list is written by one instance,
# whose batches follow one another), or CLIENTS at once (they then take
# turns at the list's row, as two instances writing one list would).
#
#   Benchmarks/postgres/one-list-ceiling.sh .build/release/rewind
#   BATCHES="1 8 16" CLIENTS=1 DURATION=8 ROUNDS=2 Benchmarks/postgres/one-list-ceiling.sh BINARY
#
# Each call's rows are those of real adds (the forward and inverse JSON of
# an add made first through `rewind todo --database`), each with a fresh
# id. The INSERT round is cluster-vs-pgbench.sh's: `pgbench -c CONNECTIONS`
# (16), one row per transaction. Both durable (synchronous_commit and
# fsync on). Prints adds per second for each batch size and the ratio to
# the INSERTs' transactions per second, rounds in turns.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

choose_rewind "${1:-}"
require_tools pgbench
BATCHES="${BATCHES:-1 4 8 16}"
CLIENTS="${CLIENTS:-1}"
[ ! -d "$REWIND_CLUSTER_DIR" ] || fail "$REWIND_CLUSTER_DIR exists: a cluster or another benchmark uses it; stop it first"
clean_up_postgres_alone_at_exit ceiling

url="$(postgres_start)"
# The schema and the team's list, and one real add whose rows the calls copy.
REWIND_DATABASE_URL="$url" "$REWIND_BIN" todo add "Benchmark: buy oat milk" >/dev/null
database="$(printf '%s' "$url" | sed -E 's|.*/([^/?]+)(\?.*)?$|\1|')"
IFS=$'\t' read -r forward inverse epoch < <(psql_admin "$database" -F $'\t' -c \
    "SELECT quote_literal(forward::text), quote_literal(inverse::text), (SELECT epoch FROM rewind_list WHERE id = 1) FROM rewind_step WHERE list_id = 1 ORDER BY seq DESC LIMIT 1")
[ -n "${epoch:-}" ] || fail "no add to copy in $database"
# Fresh ids for each call (a CALL takes no subquery).
psql_admin "$database" -c "CREATE FUNCTION ceiling_ids(n INT) RETURNS UUID[] LANGUAGE sql AS 'SELECT array_agg(gen_random_uuid()) FROM generate_series(1, n)'"
create_database bench bench
psql_admin bench -c "CREATE TABLE IF NOT EXISTS scratch (id BIGSERIAL PRIMARY KEY, title TEXT NOT NULL)" \
    -c "ALTER TABLE scratch OWNER TO bench"
echo "INSERT INTO scratch (title) VALUES ('Benchmark: buy oat milk');" >"$work/insert.sql"
for batch in $BATCHES; do
    cat >"$work/batch-$batch.sql" <<SQL
CALL rewind_append_adds_committed(1, $epoch, 0, 0, NULL, 'bench', 'rewind_ceiling',
    array_fill('Add “Benchmark: buy oat milk”'::text, ARRAY[$batch]), array_fill(1800000000000::bigint, ARRAY[$batch]),
    array_fill($forward::text, ARRAY[$batch]), array_fill($inverse::text, ARRAY[$batch]),
    ceiling_ids($batch),
    array_fill('Benchmark: buy oat milk'::text, ARRAY[$batch]), array_fill(''::text, ARRAY[$batch]),
    array_fill('active'::text, ARRAY[$batch]), array_fill(1800000000000::bigint, ARRAY[$batch]),
    array_fill(1800000000000::bigint, ARRAY[$batch]), array_fill(''::text, ARRAY[$batch]), array_fill(''::text, ARRAY[$batch]),
    NULL, NULL, NULL);
SQL
done

# One pgbench round of `script` against `database` as `role` (with
# `password`), `clients` at once; prints transactions per second.
tps_round() {
    local script="$1" database="$2" role="$3" password="$4" clients="$5" out
    out="$(PGPASSWORD="$password" pgbench -n -f "$script" -c "$clients" -j 1 -T "$DURATION" \
        -h 127.0.0.1 -p "$REWIND_CLUSTER_PG_PORT" -U "$role" "$database" 2>&1)" || fail "pgbench failed: $(echo "$out" | grep -i -m3 "error\|fatal")"
    echo "$out" | awk '/^tps = / {printf "%.1f\n", $3}'
}
rewind_role="$(printf '%s' "$url" | sed -E 's|^postgres(ql)?://([^:@]+).*|\2|')"
rewind_password="$(printf '%s' "$url" | sed -E 's|^postgres(ql)?://[^:]+:([^@]+)@.*|\2|')"

steps_before="$(psql_admin "$database" -c "SELECT count(*) FROM rewind_step WHERE list_id = 1")"
say "PostgreSQL: $(psql_admin postgres -c "SELECT 'synchronous_commit=' || current_setting('synchronous_commit') || ' fsync=' || current_setting('fsync')")"
note_load
declare -A adds
inserts=()
calls=0
for round in $(seq 1 "$ROUNDS"); do
    tps="$(tps_round "$work/insert.sql" bench bench bench "$CONNECTIONS")"
    inserts+=("$tps")
    line="round $round: INSERT $tps tps"
    for batch in $BATCHES; do
        per_call="$(tps_round "$work/batch-$batch.sql" "$database" "$rewind_role" "$rewind_password" "$CLIENTS")"
        calls="$(awk -v c="$calls" -v t="$per_call" -v d="$DURATION" 'BEGIN { printf "%d", c + t * d }')"
        adds[$batch]="${adds[$batch]:-} $(awk -v t="$per_call" -v b="$batch" 'BEGIN { printf "%.0f", t * b }')"
        line="$line, batches of $batch: $per_call calls/s"
    done
    say "$line; $(uptime)"
done
steps_after="$(psql_admin "$database" -c "SELECT count(*) FROM rewind_step WHERE list_id = 1")"
[ "$steps_after" -gt "$steps_before" ] || fail "the calls wrote no step (the list's epoch moved?)"

insert_median="$(median "${inserts[@]}")"
echo
echo "One list's adds in PostgreSQL alone against one-row INSERTs, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores,"
echo "$CLIENTS call(s) at once against pgbench -c $CONNECTIONS, $ROUNDS rounds of ${DURATION}s in turns; $((steps_after - steps_before)) steps written"
echo
echo "| measure | rounds | median | / INSERT tps |"
echo "|---|---|---:|---:|"
echo "| INSERT transactions/s (-c $CONNECTIONS) | ${inserts[*]} | $insert_median | |"
for batch in $BATCHES; do
    # shellcheck disable=SC2086
    m="$(median ${adds[$batch]})"
    echo "| adds/s, batches of $batch (-c $CLIENTS) |${adds[$batch]} | $m | $(ratio "$m" "$insert_median") |"
done
