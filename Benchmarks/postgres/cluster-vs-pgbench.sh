#!/usr/bin/env bash
# Adds per second through nginx over two `rewind serve` instances
# (scripts/cluster.sh) against pgbench inserting one row per transaction
# into a scratch table of the same PostgreSQL server; rounds in turns.
#
#   Benchmarks/postgres/cluster-vs-pgbench.sh .build/release/rewind
#   ROUNDS=3 DURATION=10 CONNECTIONS=16 Benchmarks/postgres/cluster-vs-pgbench.sh BINARY
#   PROFILE=/tmp/a.perf Benchmarks/postgres/cluster-vs-pgbench.sh BINARY   # then one more wrk round under `perf record -g` of instance A
#   Benchmarks/postgres/cluster-vs-pgbench.sh BINARY /work/peer/.build/release/App   # and the peer the same way
#   BARE_BIN=Benchmarks/.build/release/BareServer Benchmarks/postgres/cluster-vs-pgbench.sh BINARY PEER   # and a bare route
#   ACCOUNTS=16 Benchmarks/postgres/cluster-vs-pgbench.sh BINARY PEER   # ours' adds from 16 accounts, each to a list of its own
#
# With the peer's binary as the second argument (or PEER_BIN; see
# single-vs-peer.sh and BENCHMARKS.md), two instances of the peer behind an
# nginx of their own, set up as the cluster's, get the same wrk load in the
# same rounds: what a minimal app that inserts one row per request reaches
# through nginx on this machine.
#
# With BARE_BIN=Benchmarks/.build/release/BareServer, two BareServers (a bare
# Hummingbird route that echoes the body, no database) behind an nginx of
# their own get the same wrk load in the same rounds too: what any server,
# doing nothing, reaches through nginx here, the ceiling of the ratio.
#
# Ours: wrk with CONNECTIONS connections POSTing /api/todos through nginx,
# with the headers the page's script sends (the instances share the
# cluster's CSRF token). By default every add goes to the team's list
# (/api/todos), so the two instances write one list and take turns at it;
# with ACCOUNTS=N (2 or more) the adds come from N accounts in turn
# (bench-1 … bench-N), each to a shared list of its own
# (/api/lists/{list}/todos): a team whose members write their own lists. pgbench: `pgbench -n -f insert.sql` with as many
# clients as wrk has connections, one INSERT of one row per transaction,
# over TCP with a password, as the instances connect. Both durable:
# synchronous_commit and fsync on (printed). For ours it also prints how
# many adds each commit carried (the lists' rows updated, lib.sh's commit_counts),
# and for ours and the peer the processor time per add of the two instances
# together and of PostgreSQL (from /proc, around each round; nginx's is
# not counted).
# Starts the cluster with the settings of lib.sh and stops it (deleting its
# directory) at the end.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

choose_rewind "${1:-}"
require_tools wrk pgbench curl nginx perf
cluster="$repo/scripts/cluster.sh"
if "$cluster" status >/dev/null 2>&1 || [ -d "$REWIND_CLUSTER_DIR" ]; then
    fail "a cluster already runs in $REWIND_CLUSTER_DIR; stop it first (REWIND_CLUSTER_DIR=$REWIND_CLUSTER_DIR $cluster stop)"
fi
peer="${2:-${PEER_BIN:-}}"
[ -z "$peer" ] || [ -x "$peer" ] || fail "no executable peer binary at $peer"
bare="${BARE_BIN:-}"
[ -z "$bare" ] || [ -x "$bare" ] || fail "no executable BareServer at $bare (swift build -c release --package-path Benchmarks --product BareServer)"
PEER_LOG_LEVEL="${PEER_LOG_LEVEL:-warning}"
work="$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-pgbench.XXXXXX")"
pids=()
cleanup() {
    local pid
    for pid in "$work"/*-nginx.pid; do [ ! -f "$pid" ] || kill -QUIT "$(cat "$pid")" 2>/dev/null || true; done
    stop_pids
    "$cluster" stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
address="$("$cluster" start)"
# Team mode (PostgreSQL): every add carries the session of the cluster's account.
sign_in "$address" admin
write_add_script "$work/add.lua" "$address" "$token" "$session"
if [ "${ACCOUNTS:-1}" != 1 ]; then
    add_accounts_to_script "$work/add.lua" "$address" "$(postgres_start)" "$ACCOUNTS"
    say "ours: the adds come from $ACCOUNTS accounts in turn, each to a list of its own"
fi

create_database bench bench
psql_admin bench -c "CREATE TABLE IF NOT EXISTS scratch (id BIGSERIAL PRIMARY KEY, title TEXT NOT NULL)" \
    -c "ALTER TABLE scratch OWNER TO bench"
cat >"$work/insert.sql" <<EOF
INSERT INTO scratch (title) VALUES ('Benchmark: buy oat milk');
EOF
# An nginx set up as the cluster's (round robin, keep-alive to the
# upstreams, the same access log) in front of the two servers on ports $2 and
# $3, listening on $4; its files under $work/$1-nginx*.
nginx_in_front() {
    local name="$1" first="$2" second="$3" listen="$4"
    mkdir -p "$work/$name-nginx"
    [ "$(id -u)" != 0 ] || chown nobody:nogroup "$work/$name-nginx"
    cat >"$work/$name-nginx.conf" <<EOF
$([ "$(id -u)" != 0 ] || echo "user nobody nogroup;")
worker_processes 1;
pid $work/$name-nginx.pid;
error_log $work/$name-nginx-error.log warn;
events { worker_connections 1024; }
http {
    # The access log of scripts/cluster.sh's nginx, as ours has it.
    log_format upstream '\$remote_addr [\$time_local] "\$request" \$status \$upstream_addr';
    access_log $work/$name-nginx-access.log upstream;
    client_body_temp_path $work/$name-nginx/client-body;
    proxy_temp_path $work/$name-nginx/proxy;
    fastcgi_temp_path $work/$name-nginx/fastcgi;
    uwsgi_temp_path $work/$name-nginx/uwsgi;
    scgi_temp_path $work/$name-nginx/scgi;
    upstream $name {
        server 127.0.0.1:$first;
        server 127.0.0.1:$second;
        keepalive 16;
    }
    server {
        listen 127.0.0.1:$listen;
        location / {
            proxy_pass http://$name;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$http_host;
            proxy_buffering off;
        }
    }
}
EOF
    nginx -c "$work/$name-nginx.conf" -p "$work/$name-nginx" -e "$work/$name-nginx-error.log" \
        || fail "nginx in front of the $name did not start: $(tail -2 "$work/$name-nginx-error.log")"
}

peer_address="http://127.0.0.1:$((PEER_PORT + 2))"
if [ -n "$peer" ]; then
    # Two instances of the peer on PEER_PORT and the port after it, and an
    # nginx in front of them on the port after those, as the cluster's.
    create_database todos hummingbird
    for port in "$PEER_PORT" "$((PEER_PORT + 1))"; do
        HTTP_HOST=127.0.0.1 HTTP_PORT="$port" POSTGRES_PORT="$REWIND_CLUSTER_PG_PORT" LOG_LEVEL="$PEER_LOG_LEVEL" \
            "$peer" </dev/null >"$work/peer-$port.log" 2>&1 &
        pids+=($!)
        peer_pids="${peer_pids:-} $!"
        wait_for_url "http://127.0.0.1:$port/health"
    done
    nginx_in_front peer "$PEER_PORT" "$((PEER_PORT + 1))" "$((PEER_PORT + 2))"
    wait_for_url "$peer_address/health"
    # The peer makes its table before it listens; a first add proves it writes.
    curl -fsS -o /dev/null -X POST -H 'Content-Type: application/json' --data "$ADD_BODY" "$peer_address/todos" \
        || fail "the peer did not add a to-do through nginx"
    write_add_script "$work/peer.lua" "$peer_address" "$token"
fi
bare_address="http://127.0.0.1:$((PEER_PORT + 5))"
if [ -n "$bare" ]; then
    # Two BareServers on the three ports after the peer's, as the peer's.
    for port in "$((PEER_PORT + 3))" "$((PEER_PORT + 4))"; do
        "$bare" "$port" </dev/null >"$work/bare-$port.log" 2>&1 &
        pids+=($!)
        bare_pids="${bare_pids:-} $!"
        wait_for_url "http://127.0.0.1:$port/"
    done
    nginx_in_front bare "$((PEER_PORT + 3))" "$((PEER_PORT + 4))" "$((PEER_PORT + 5))"
    wait_for_url "$bare_address/"
    write_add_script "$work/bare.lua" "$bare_address" "$token" "$session"
fi
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

ours=() theirs=() p99s=() per_commits=() peers=() peer_p99s=() errors=0
ours_cpu=() ours_pg=() peer_cpu=() peer_pg=() bares=() bare_p99s=() bare_cpu=()
instances="$(cat "$REWIND_CLUSTER_DIR/A.pid") $(cat "$REWIND_CLUSTER_DIR/B.pid")"
load_before="$(uptime)"
note_load
for round in $(seq "$ROUNDS"); do
    counts_before="$(commit_counts)"
    read -r rps p99 non2xx cpu pg_cpu < <(wrk_round "$address/api/todos" "$work/add.lua" "$work/log" "$instances")
    per_commit="$(adds_per_commit "$counts_before" "$(commit_counts)")"
    tps="$(pgbench_round)"
    say "round $round: ours $rps adds/s (p99 $p99, CPU per add $cpu µs in the instances + PostgreSQL $pg_cpu µs, $per_commit adds per commit, non-2xx $non2xx), pgbench $tps tps; $(uptime)"
    ours+=("$rps") theirs+=("$tps") p99s+=("$p99") per_commits+=("$per_commit") ours_cpu+=("$cpu") ours_pg+=("$pg_cpu")
    errors=$((errors + non2xx))
    if [ -n "$peer" ]; then
        read -r peer_rps peer_p99 peer_non2xx cpu pg_cpu < <(wrk_round "$peer_address/todos" "$work/peer.lua" "$work/log" "$peer_pids")
        say "round $round: peer $peer_rps adds/s through nginx (p99 $peer_p99, CPU per add $cpu µs in the instances + PostgreSQL $pg_cpu µs)"
        peers+=("$peer_rps") peer_p99s+=("$peer_p99") peer_cpu+=("$cpu") peer_pg+=("$pg_cpu")
        errors=$((errors + peer_non2xx))
    fi
    if [ -n "$bare" ]; then
        read -r bare_rps bare_p99 bare_non2xx cpu pg_cpu < <(wrk_round "$bare_address/api/todos" "$work/bare.lua" "$work/log" "$bare_pids")
        say "round $round: BareServer $bare_rps echoes/s through nginx (p99 $bare_p99, CPU per echo $cpu µs in the two servers)"
        bares+=("$bare_rps") bare_p99s+=("$bare_p99") bare_cpu+=("$cpu")
        errors=$((errors + bare_non2xx))
    fi
done
load_after="$(uptime)"
items="$(psql_admin rewind -c 'SELECT count(*) FROM rewind_item')"
steps="$(psql_admin rewind -c 'SELECT (SELECT count(*) FROM rewind_step) + (SELECT count(*) FROM rewind_shared_step)')"
rows="$(psql_admin bench -c 'SELECT count(*) FROM scratch')"

profile_round "$(cat "$REWIND_CLUSTER_DIR/A.pid")" "$address/api/todos" "$work/add.lua" "$work/log"

ours_median="$(median "${ours[@]}")"
theirs_median="$(median "${theirs[@]}")"
print_table_head "Adds through nginx over two instances vs pgbench" \
    "wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s ($([ "${ACCOUNTS:-1}" -gt 1 ] && echo "ours from ${ACCOUNTS:-1} accounts, each to a list of its own" || echo "ours to the team's list")) and pgbench -c $CONNECTIONS -j $THREADS -T $DURATION, $ROUNDS rounds in turns; $durability" \
    "$load_before" "$load_after"
echo "| ours: adds/s through nginx (A + B) | ${ours[*]} | $ours_median |"
echo "| ours: p99 | ${p99s[*]} | |"
echo "| ours: adds per commit (list rows updated) | ${per_commits[*]} | $(median "${per_commits[@]}") |"
echo "| ours: CPU µs per add, the two instances | ${ours_cpu[*]} | $(median "${ours_cpu[@]}") |"
echo "| ours: CPU µs per add, PostgreSQL | ${ours_pg[*]} | $(median "${ours_pg[@]}") |"
echo "| pgbench: one-row INSERT transactions/s | ${theirs[*]} | $theirs_median |"
echo "| ours / pgbench | | **$(ratio "$ours_median" "$theirs_median")** (target >= 0.5) |"
if [ -n "$peer" ]; then
    peer_median="$(median "${peers[@]}")"
    echo "| peer: adds/s through nginx (two instances) | ${peers[*]} | $peer_median |"
    echo "| peer: p99 | ${peer_p99s[*]} | |"
    echo "| peer: CPU µs per add, the two instances | ${peer_cpu[*]} | $(median "${peer_cpu[@]}") |"
    echo "| peer: CPU µs per add, PostgreSQL | ${peer_pg[*]} | $(median "${peer_pg[@]}") |"
    echo "| peer / pgbench | | $(ratio "$peer_median" "$theirs_median") |"
    echo "| ours / peer, both through nginx | | $(ratio "$ours_median" "$peer_median") |"
fi
if [ -n "$bare" ]; then
    bare_median="$(median "${bares[@]}")"
    echo "| BareServer: echoes/s through nginx (two servers, no database) | ${bares[*]} | $bare_median |"
    echo "| BareServer: p99 | ${bare_p99s[*]} | |"
    echo "| BareServer: CPU µs per echo, the two servers | ${bare_cpu[*]} | $(median "${bare_cpu[@]}") |"
    echo "| BareServer / pgbench: the most any server reaches here | | $(ratio "$bare_median" "$theirs_median") |"
    echo "| ours / BareServer | | $(ratio "$ours_median" "$bare_median") |"
fi
echo
echo "Afterwards: $items items and $steps history steps in Rewind's lists, $rows rows in the scratch table; non-2xx answers: $errors."
[ "$errors" = 0 ] || { cat "$work/log" >&2; fail "some adds failed; wrk's output is above"; }
