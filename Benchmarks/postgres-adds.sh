#!/usr/bin/env bash
# Adds per second of `rewind serve --database postgres://…`, two builds side
# by side in one run (BEFORE and AFTER, e.g. main's binary and a branch's),
# against `pgbench` inserting one row per transaction into the same server;
# wrk POSTs adds as the page's own script does (JSON, CSRF header, Origin).
#
#   DATABASE_URL=$(scripts/postgres-test-cluster.sh start) \
#   BEFORE=/tmp/rewind-before AFTER=.build/release/rewind Benchmarks/postgres-adds.sh
#   ROUNDS=3 DURATION=10 CONNECTIONS=16 PORT=9540 Benchmarks/postgres-adds.sh
#
# Each round runs BEFORE, AFTER and pgbench in turn, each on empty tables
# (the rewind_* tables and pgbench's own are dropped first: use a database
# of its own), for DURATION seconds with CONNECTIONS connections; the
# medians of the ROUNDS rounds are printed.
# Needs wrk, psql and pgbench (Debian: apt-get install wrk postgresql-client).
set -euo pipefail

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-16}
PORT=${PORT:-9540}
: "${DATABASE_URL:?set DATABASE_URL to a PostgreSQL database kept for the benchmark}"
: "${BEFORE:?set BEFORE to the rewind binary measured first}"
: "${AFTER:?set AFTER to the rewind binary measured second}"

for tool in wrk curl psql pgbench python3; do
    if ! command -v "$tool" >/dev/null; then
        echo "postgres-adds.sh: $tool is missing" >&2
        exit 1
    fi
done

root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/Benchmarks/add-request.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/rewind-pg-adds.XXXXXX")
server=
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

sql() {
    psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -qAt -c "$1"
}
empty() {
    # Every table and sequence of Rewind's (its schema grows with its migrations) and the scratch table.
    sql "SET client_min_messages = warning; DO \$\$ DECLARE t text; BEGIN
        FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema()
            AND (tablename LIKE 'rewind\\_%' OR tablename = 'bench_add') LOOP
            EXECUTE format('DROP TABLE IF EXISTS %I CASCADE', t);
        END LOOP;
        FOR t IN SELECT sequence_name FROM information_schema.sequences
            WHERE sequence_schema = current_schema() AND sequence_name LIKE 'rewind\\_%' LOOP
            EXECUTE format('DROP SEQUENCE IF EXISTS %I CASCADE', t);
        END LOOP; END \$\$"
}
# With PostgreSQL the server is in team mode: every add carries a session
# of the account `bench`.
password="benchmark password"

# Prints "adds/s".
measure_rewind() { # BINARY
    empty
    printf '%s\n' "$password" | "$1" users add bench --password-stdin --database "$DATABASE_URL" >/dev/null
    "$1" serve --port "$PORT" --database "$DATABASE_URL" >"$work/serve.log" 2>&1 &
    server=$!
    local origin="http://127.0.0.1:$PORT"
    for _ in $(seq 1 400); do
        curl -fsS -o /dev/null "$origin/openapi.yaml" 2>/dev/null && break
        sleep 0.05
    done
    local session token
    read -r session token < <(printf '%s\n' "$password" | python3 "$root/scripts/rewind_session.py" "$origin" bench)
    add_lua "$token" "$origin" "$session" >"$work/add.lua"
    local out
    out=$(wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" -s "$work/add.lua" "$origin/api/todos")
    echo "$out" >>"$work/wrk.log"
    if echo "$out" | grep -q "Non-2xx"; then
        echo "postgres-adds.sh: some adds failed:" >&2
        echo "$out" >&2
        exit 1
    fi
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=
    echo "$out" | awk '/Requests\/sec/ {print $2}'
}

# Prints "transactions/s" of pgbench inserting one row per transaction.
measure_pgbench() {
    empty
    sql "CREATE TABLE bench_add (id BIGSERIAL PRIMARY KEY, title TEXT NOT NULL)"
    echo "INSERT INTO bench_add (title) VALUES ('Benchmark: buy oat milk');" >"$work/insert.sql"
    pgbench -n -c "$CONNECTIONS" -j 1 -T "$DURATION" -f "$work/insert.sql" "$DATABASE_URL" 2>/dev/null \
        | awk '/^tps/ {print $3}'
}

median() {
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

: >"$work/before"; : >"$work/after"; : >"$work/pgbench"
for round in $(seq 1 "$ROUNDS"); do
    measure_rewind "$BEFORE" >>"$work/before"
    measure_rewind "$AFTER" >>"$work/after"
    measure_pgbench >>"$work/pgbench"
    echo "round $round: before $(tail -1 "$work/before")  after $(tail -1 "$work/after")  pgbench $(tail -1 "$work/pgbench")" >&2
done
before=$(median <"$work/before")
after=$(median <"$work/after")
pg=$(median <"$work/pgbench")
printf '%-40s %12s\n' "measure (median of $ROUNDS)" "per second"
printf '%-40s %12.0f\n' "adds, before ($BEFORE)" "$before"
printf '%-40s %12.0f\n' "adds, after ($AFTER)" "$after"
printf '%-40s %12.0f\n' "pgbench, one INSERT per transaction" "$pg"
python3 -c "import sys; b, a, p = map(float, sys.argv[1:]); print(f'after/before {a / b:.2f}x   after/pgbench {a / p:.2f}x   before/pgbench {b / p:.2f}x')" \
    "$before" "$after" "$pg"
