#!/usr/bin/env bash
# Toggles per second of `rewind serve --database URL`, binaries in turns:
# each binary on a database of its own in one PostgreSQL server, 16 items,
# wrk POSTing /api/todos/{id}/toggle round the 16 (the page's headers, a
# signed-in session). Each round prints the toggles per second, the p99,
# the processor time per toggle of the server and of PostgreSQL, and how
# many toggles each commit carried.
#
#   Benchmarks/postgres/toggles.sh BEFORE/rewind AFTER/rewind
#   ROUNDS=2 DURATION=8 CONNECTIONS=16 Benchmarks/postgres/toggles.sh A B
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ "$#" -ge 1 ] || fail "give one or more rewind binaries (swift build -c release --product rewind)"
binaries=()
for binary in "$@"; do
    [ -x "$binary" ] || fail "no executable rewind binary at $binary"
    binaries+=("$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")")
done
require_tools wrk curl python3
[ ! -d "$REWIND_CLUSTER_DIR" ] || fail "$REWIND_CLUSTER_DIR exists: a cluster or another benchmark uses it; stop it first"
clean_up_postgres_alone_at_exit toggles

url="$(postgres_start)"
load_before="$(uptime)"
addresses=() server_pids=()
for index in "${!binaries[@]}"; do
    REWIND_BIN="${binaries[$index]}"
    database="toggles_$index"
    create_database rewind "$database"
    database_url="${url%/*}/$database"
    make_account "$database_url" bench
    port=$((SINGLE_PORT + 10 + index))
    address="http://127.0.0.1:$port"
    REWIND_DATABASE_URL="$database_url" \
        "$REWIND_BIN" serve --host 127.0.0.1 --port "$port" </dev/null >"$work/server-$index.log" 2>&1 &
    pids+=($!)
    server_pids+=($!)
    wait_for_url "$address/openapi.yaml"
    sign_in "$address" bench
    ids=()
    for n in $(seq 16); do
        ids+=("$(curl -fsS -X POST -H 'Content-Type: application/json' -H "X-Rewind-CSRF: $token" \
            -H "Origin: $address" -H 'Sec-Fetch-Site: same-origin' ${session:+-H "Cookie: rewind_session=$session"} \
            --data "{\"title\": \"Toggle me $n\"}" "$address/api/todos" \
            | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')")
    done
    {
        echo 'wrk.method = "POST"'
        echo "wrk.headers[\"X-Rewind-CSRF\"] = \"$token\""
        echo "wrk.headers[\"Origin\"] = \"$address\""
        echo 'wrk.headers["Sec-Fetch-Site"] = "same-origin"'
        [ -z "$session" ] || echo "wrk.headers[\"Cookie\"] = \"rewind_session=$session\""
        printf 'ids = {'
        printf '"%s", ' "${ids[@]}"
        echo '}'
        echo 'counter = 0'
        echo 'request = function()'
        echo '    counter = counter + 1'
        echo '    return wrk.format(nil, "/api/todos/" .. ids[(counter % #ids) + 1] .. "/toggle")'
        echo 'end'
    } >"$work/toggle-$index.lua"
    addresses+=("$address")
done

# lib.sh's commit_counts, in database $1: the list's row updates (one per
# commit) and the log's rows.
commit_counts_in() {
    psql_admin "$1" -c "SELECT (SELECT coalesce(sum(n_tup_upd), 0) FROM pg_stat_user_tables WHERE relname = 'rewind_list'),
        (SELECT count(*) FROM rewind_step)" | tr '|' ' '
}

declare -A rates cpus pg_cpus p99s per_commits
errors=0
for round in $(seq "$ROUNDS"); do
    for index in "${!binaries[@]}"; do
        counts_before="$(commit_counts_in "toggles_$index")"
        read -r rps p99 non2xx cpu pg_cpu < <(wrk_round "${addresses[$index]}/api/todos" "$work/toggle-$index.lua" "$work/log" "${server_pids[$index]}")
        per_commit="$(adds_per_commit "$counts_before" "$(commit_counts_in "toggles_$index")")"
        say "round $round, ${binaries[$index]}: $rps toggles/s (p99 $p99, CPU per toggle $cpu µs + PostgreSQL $pg_cpu µs, $per_commit per commit)"
        rates[$index]+="$rps " p99s[$index]+="$p99 " cpus[$index]+="$cpu " pg_cpus[$index]+="$pg_cpu " per_commits[$index]+="$per_commit "
        errors=$((errors + non2xx))
    done
done

print_table_head "Toggles, binaries in turns" \
    "wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s POST /api/todos/{id}/toggle round 16 items, $ROUNDS rounds" \
    "$load_before" "$(uptime)"
for index in "${!binaries[@]}"; do
    name="${binaries[$index]}"
    # shellcheck disable=SC2086
    {
        echo "| $name: toggles/s | ${rates[$index]}| $(median ${rates[$index]}) |"
        echo "| $name: p99 | ${p99s[$index]}| |"
        echo "| $name: CPU µs per toggle, the server | ${cpus[$index]}| $(median ${cpus[$index]}) |"
        echo "| $name: CPU µs per toggle, PostgreSQL | ${pg_cpus[$index]}| $(median ${pg_cpus[$index]}) |"
        echo "| $name: toggles per commit | ${per_commits[$index]}| $(median ${per_commits[$index]}) |"
    }
done
echo
echo "Non-2xx answers: $errors."
[ "$errors" = 0 ] || { tail -40 "$work/log" >&2; fail "some toggles failed; wrk's output is above"; }
