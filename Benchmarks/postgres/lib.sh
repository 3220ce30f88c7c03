# Shared by the scripts in Benchmarks/postgres/ (sourced, not run): the
# settings, the PostgreSQL server they all measure against, wrk and medians.
#
# Settings (environment), with the defaults every script uses:
#   REWIND_BIN               the `rewind` binary (or the scripts' first argument)
#   REWIND_CLUSTER_DIR       the cluster's directory (/tmp/rw-bench-cluster)
#   REWIND_CLUSTER_PORT      nginx (9390)
#   REWIND_CLUSTER_A_PORT    instance A (9391)
#   REWIND_CLUSTER_B_PORT    instance B (9392)
#   REWIND_CLUSTER_PG_PORT   PostgreSQL (59532)
#   REWIND_PG_BIN            PostgreSQL's programs (/usr/lib/postgresql/15/bin)
#   SINGLE_PORT, PEER_PORT   one instance alone and the peer (9393, 9394)
#   DURATION, CONNECTIONS, THREADS, ROUNDS   the wrk load (10 s, 16, 1, 3 rounds)
#   REWIND_CLUSTER_PASSWORD  the password of the cluster's account and of the
#                            account `bench` one instance alone signs in with
#                            ("benchmark password"): with PostgreSQL the server
#                            is in team mode, so every request carries a session

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export REWIND_CLUSTER_DIR="${REWIND_CLUSTER_DIR:-/tmp/rw-bench-cluster}"
export REWIND_CLUSTER_PORT="${REWIND_CLUSTER_PORT:-9390}"
export REWIND_CLUSTER_A_PORT="${REWIND_CLUSTER_A_PORT:-9391}"
export REWIND_CLUSTER_B_PORT="${REWIND_CLUSTER_B_PORT:-9392}"
export REWIND_CLUSTER_PG_PORT="${REWIND_CLUSTER_PG_PORT:-59532}"
export REWIND_PG_BIN="${REWIND_PG_BIN:-/usr/lib/postgresql/15/bin}"
SINGLE_PORT="${SINGLE_PORT:-9393}"
PEER_PORT="${PEER_PORT:-9394}"
DURATION="${DURATION:-10}"
CONNECTIONS="${CONNECTIONS:-16}"
THREADS="${THREADS:-1}"
ROUNDS="${ROUNDS:-3}"
export REWIND_CLUSTER_PASSWORD="${REWIND_CLUSTER_PASSWORD:-benchmark password}"
# The body every add carries, ours and the peer's alike.
ADD_BODY='{"title": "Benchmark: buy oat milk"}'

bench_name="$(basename "$0")"
say() { echo "$bench_name: $*" >&2; }
fail() { say "$*"; exit 1; }
# A command that fails under `set -e` says which, rather than ending the
# benchmark without a word.
set -E
trap 'say "stopped: line $LINENO of $(basename "${BASH_SOURCE[0]}") failed: $BASH_COMMAND"' ERR
note_load() { say "load: $(uptime)"; }

# The `rewind` binary: $1, else $REWIND_BIN; exported for scripts/cluster.sh.
choose_rewind() {
    REWIND_BIN="${1:-${REWIND_BIN:-}}"
    [ -n "$REWIND_BIN" ] || fail "give the rewind binary as the first argument or in REWIND_BIN (build it with: swift build -c release --product rewind)"
    [ -x "$REWIND_BIN" ] || fail "no executable rewind binary at $REWIND_BIN"
    REWIND_BIN="$(cd "$(dirname "$REWIND_BIN")" && pwd)/$(basename "$REWIND_BIN")"
    export REWIND_BIN
}

require_tools() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null || fail "$tool is missing (Debian: apt-get install -y $tool)"
    done
}

# The cluster's PostgreSQL server alone (no instance, no nginx), through
# the tests' script; prints Rewind's database URL.
postgres_start() {
    REWIND_PG_PORT="$REWIND_CLUSTER_PG_PORT" REWIND_PG_DIR="$REWIND_CLUSTER_DIR/postgres" \
        "$repo/scripts/postgres-test-cluster.sh" start
}

# Stops it, deleting its data and the cluster's directory if now empty.
postgres_stop() {
    REWIND_PG_PORT="$REWIND_CLUSTER_PG_PORT" REWIND_PG_DIR="$REWIND_CLUSTER_DIR/postgres" \
        "$repo/scripts/postgres-test-cluster.sh" stop
    rmdir "$REWIND_CLUSTER_DIR" 2>/dev/null || true
}

# Ends the processes whose ids `pids` holds: TERM, then waits for each.
stop_pids() {
    local pid
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}

# Makes `work`, a temporary directory named after $1, and `pids` (empty);
# at the exit, ends those processes and the PostgreSQL server alone
# (postgres_start) and deletes `work`.
clean_up_postgres_alone_at_exit() {
    work="$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-$1.XXXXXX")"
    pids=()
    trap 'stop_pids; postgres_stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
}

# psql as the superuser, through the server's socket: psql_admin [DATABASE] ARGS...
psql_admin() {
    local database="$1"
    shift
    runuser -u postgres -- "$REWIND_PG_BIN/psql" -h "$REWIND_CLUSTER_DIR/postgres" -p "$REWIND_CLUSTER_PG_PORT" \
        -U postgres -d "$database" -v ON_ERROR_STOP=1 -qAt "$@"
}

# Creates role $1 (password $1) and its database $2, unless they exist.
create_database() {
    if [ "$(psql_admin postgres -c "SELECT 1 FROM pg_roles WHERE rolname = '$1'")" != 1 ]; then
        psql_admin postgres -c "CREATE ROLE $1 LOGIN PASSWORD '$1'"
    fi
    if [ "$(psql_admin postgres -c "SELECT 1 FROM pg_database WHERE datname = '$2'")" != 1 ]; then
        psql_admin postgres -c "CREATE DATABASE $2 OWNER $1"
    fi
}

# Waits until GET $1 answers (at most 60 s).
wait_for_url() {
    local deadline=$((SECONDS + 60))
    until curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null; do
        [ "$SECONDS" -lt "$deadline" ] || fail "$1 did not answer within 60 s"
        sleep 0.1
    done
}

# Makes the account $2 in database $1 with REWIND_CLUSTER_PASSWORD, unless
# it exists.
make_account() {
    if ! REWIND_DATABASE_URL="$1" "$REWIND_BIN" users list 2>/dev/null | awk '{ print $1 }' | grep -qxF "$2"; then
        printf '%s\n' "$REWIND_CLUSTER_PASSWORD" | REWIND_DATABASE_URL="$1" "$REWIND_BIN" users add "$2" --password-stdin >/dev/null \
            || fail "could not make the account $2"
    fi
}

# Signs account $2 in at $1 with REWIND_CLUSTER_PASSWORD; sets `session`
# (the cookie) and `token` (the session's CSRF token). A server in local
# mode (a build from before team mode was always on with PostgreSQL, for a
# side-by-side run) hands out its token without a session: then `session`
# is empty and `token` the server's.
sign_in() {
    local answer
    # Local mode hands out a token without a session; team mode answers 401.
    # Anything else (another server on the port) fails below, by name.
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "$1/api/csrf")" = 200 ]; then
        session=""
        token="$(curl -fsS "$1/api/csrf" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')"
        return
    fi
    answer="$(printf '%s\n' "$REWIND_CLUSTER_PASSWORD" | python3 "$repo/scripts/rewind_session.py" "$1" "$2")" \
        || fail "could not sign in as $2 at $1"
    read -r session token <<<"$answer"
}

# Writes a wrk script to $1 that POSTs the add of Benchmarks/add-request.sh
# (the body every add carries, ADD_BODY above) as JSON, with the headers the
# to-do page's own script sends from origin $2 and CSRF token $3, in the
# session whose cookie is $4 (team mode).
source "$repo/Benchmarks/add-request.sh"
write_add_script() {
    add_lua "$3" "$2" "${4:-}" >"$1"
    grep -qF "wrk.body = '$ADD_BODY'" "$1" || fail "Benchmarks/add-request.sh no longer sends ADD_BODY ($ADD_BODY)"
}

# Appends to the wrk script $1 (write_add_script's, for server $2) a
# request() that takes $4 accounts in turn (2 or more; made in database
# URL $3 as bench-1, bench-2, ...), each with its session's cookie and CSRF
# token, adding to a shared list of its own (made here).
add_accounts_to_script() {
    local number list
    [[ "$4" =~ ^[1-9][0-9]*$ ]] && [ "$4" -ge 2 ] || fail "ACCOUNTS must be a whole number of 2 or more; $4 is not"
    {
        echo "local sessions = {"
        for number in $(seq "$4"); do
            make_account "$3" "bench-$number"
            sign_in "$2" "bench-$number"
            list="$(curl -fsS -X POST -H 'Content-Type: application/json' -H "X-Rewind-CSRF: $token" -H "Origin: $2" \
                -H 'Sec-Fetch-Site: same-origin' -H "Cookie: rewind_session=$session" --data "{\"name\": \"Bench $number\"}" \
                "$2/api/lists" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')" \
                || fail "bench-$number could not make a list"
            echo "  { cookie = \"rewind_session=$session\", token = \"$token\", path = \"/api/lists/$list/todos\" },"
        done
        echo "}"
        cat <<LUA
local next_session = 0
request = function()
  next_session = next_session % #sessions + 1
  local chosen = sessions[next_session]
  wrk.headers["Cookie"] = chosen.cookie
  wrk.headers["X-Rewind-CSRF"] = chosen.token
  return wrk.format(nil, chosen.path, nil, nil)
end
LUA
    } >>"$1"
}

# One wrk round of POSTs to URL $1 with script $2; appends its output to
# $3 and prints "requests/s p99 non-2xx-count", and with process ids as $4
# (one, or several separated by spaces) also the CPU time those processes
# together and PostgreSQL's processes spent per request, in microseconds
# ("... server-µs postgres-µs"): what a request costs, which the load of
# other programs on the machine moves less than the rate.
wrk_round() {
    local out rps p99 errors requests server_before postgres_before server_cpu postgres_cpu
    if [ -n "${4:-}" ]; then server_before="$(cpu_ticks "$4")"; postgres_before="$(postgres_cpu_ticks)"; fi
    out="$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$2" "$1")"
    printf '%s\n%s\n' "== wrk $1 ($(uptime))" "$out" >>"$3"
    rps="$(echo "$out" | awk '/Requests\/sec/ {print $2}')"
    p99="$(echo "$out" | awk '$1 == "99%" {print $2}')"
    errors="$(echo "$out" | awk '/Non-2xx/ {print $5}')"
    if [ -n "${4:-}" ]; then
        requests="$(echo "$out" | awk '/requests in/ {print $1}')"
        server_cpu="$(per_request "$(( $(cpu_ticks "$4") - server_before ))" "$requests")"
        postgres_cpu="$(per_request "$(( $(postgres_cpu_ticks) - postgres_before ))" "$requests")"
        echo "$rps $p99 ${errors:-0} $server_cpu $postgres_cpu"
    else
        echo "$rps $p99 ${errors:-0}"
    fi
}

# The CPU time (user and system, in clock ticks) process $1 has used; with
# several process ids separated by spaces, their sum.
cpu_ticks() {
    local pid total=0
    for pid in $1; do total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat"))); done
    echo "$total"
}

# The CPU time (clock ticks) used by PostgreSQL's processes, the exited
# connections' included (the server's children are counted when they end).
postgres_cpu_ticks() {
    local postmaster
    postmaster="$(head -1 "$REWIND_CLUSTER_DIR/postgres/data/postmaster.pid")"
    # A process that ends between the glob and cat makes cat fail, which
    # under pipefail would end the round's subshell without a word.
    { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v p="$postmaster" '
        $1 == p { total += $14 + $15 + $16 + $17 }
        $4 == p { total += $14 + $15 }
        END { print total + 0 }'
}

# "commits steps": the writes committed in Rewind's database so far (the
# updates of the lists' rows, rewind_list and rewind_shared_list, one per
# batch or change, as pg_stat_user_tables counts them: each connection
# brings it up to date within about a second; the query that confirms a
# batch's commit is no write) and the rows of its history log. Two of them
# give adds per commit (adds_per_commit): how many adds each group commit
# carried. The rows of the shared lists' logs count too (one per change).
commit_counts() {
    psql_admin rewind -c "SELECT (SELECT coalesce(sum(n_tup_upd), 0) FROM pg_stat_user_tables
                                  WHERE relname IN ('rewind_list', 'rewind_shared_list')),
        (SELECT count(*) FROM rewind_step) + (SELECT count(*) FROM rewind_shared_step)" | tr '|' ' '
}

# Log rows added per commit between two commit_counts answers, $1 and $2.
adds_per_commit() {
    awk -v before="$1" -v after="$2" 'BEGIN {
        split(before, b, " "); split(after, a, " "); commits = a[1] - b[1]
        printf "%.1f\n", (commits > 0 ? (a[2] - b[2]) / commits : 0)
    }'
}

# $1 clock ticks over $2 requests, in microseconds per request.
per_request() {
    awk -v ticks="$1" -v requests="$2" -v hz="$(getconf CLK_TCK)" \
        'BEGIN { if (requests > 0) printf "%.0f\n", ticks * 1000000 / hz / requests; else print "-" }'
}

# With PROFILE set: one more wrk round (URL $2, script $3, log $4) while
# `perf record -g` samples process $1 into the file PROFILE names.
profile_round() {
    [ -n "${PROFILE:-}" ] || return 0
    say "one more wrk round with perf record -g of pid $1 into $PROFILE"
    perf record -g -o "$PROFILE" -p "$1" -- sleep "$DURATION" 2>>"$4.perf" &
    local perf_pid=$!
    wrk_round "$2" "$3" "$4" >/dev/null
    wait "$perf_pid" || say "perf record failed: $(tail -2 "$4.perf")"
}

# The head of a result table: title $1 and settings $2, the date, the
# load before ($3) and after ($4) the rounds.
print_table_head() {
    echo
    echo "$1, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores,"
    echo "$2"
    echo "load before: $3"
    echo "load after:  $4"
    echo
    echo "| measure | rounds | median |"
    echo "|---|---|---:|"
}

# The median of the numbers given as arguments.
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# $1 / $2 to two places.
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", a / b }'
}
