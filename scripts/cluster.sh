#!/usr/bin/env bash
# A local cluster on this machine, all on 127.0.0.1: a throwaway PostgreSQL
# (through scripts/postgres-test-cluster.sh, with its own port and data
# directory), two `rewind serve` instances sharing it, and nginx in front of
# them as the load balancer (round robin; the team list's changes, a shared
# list's requests and the calculator's each to one of them, chosen by a
# key). Prints the one address to open.
#
#   scripts/cluster.sh start    # starts what is not running yet; prints the address
#   scripts/cluster.sh status   # says what runs and whether each instance is healthy (exit status 0 when all is)
#   scripts/cluster.sh stop     # stops everything and deletes the cluster's directory
#
# Settings (environment):
#   REWIND_CLUSTER_DIR       the cluster's directory (/tmp/rewind-cluster): logs,
#                            pid files, nginx's config, PostgreSQL's data
#   REWIND_CLUSTER_PORT      nginx, the address to open (8090)
#   REWIND_CLUSTER_A_PORT    instance A (8091)
#   REWIND_CLUSTER_B_PORT    instance B (8092)
#   REWIND_CLUSTER_PG_PORT   PostgreSQL (55532; the tests' cluster has 55432)
#   REWIND_BIN               the `rewind` binary (.build/debug/rewind)
#   REWIND_PG_BIN            PostgreSQL's programs (/usr/lib/postgresql/15/bin)
#   REWIND_PUBLIC_ORIGIN     passed on to both instances: the origin(s) browsers see
#                            when a proxy in front ends TLS (https://todo.example)
#   REWIND_CLUSTER_ACCOUNT   the account `start` makes, unless it exists (admin):
#                            with PostgreSQL the instances are in team mode, so
#                            every page asks for a sign-in
#   REWIND_CLUSTER_PASSWORD  its password (10 characters or more); without it
#                            `start` makes a random one and keeps it in
#                            $REWIND_CLUSTER_DIR/password (mode 600)
#   NGINX                    nginx (the one on PATH)
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
dir="${REWIND_CLUSTER_DIR:-/tmp/rewind-cluster}"
# PostgreSQL and nginx are given paths inside it: made absolute here.
[[ "$dir" == /* ]] || dir="$PWD/$dir"
# The file that marks a directory as one this script made: `stop` deletes
# no other, and `start` uses no other that already holds files.
marker=".rewind-cluster"
port="${REWIND_CLUSTER_PORT:-8090}"
a_port="${REWIND_CLUSTER_A_PORT:-8091}"
b_port="${REWIND_CLUSTER_B_PORT:-8092}"
pg_port="${REWIND_CLUSTER_PG_PORT:-55532}"
rewind="${REWIND_BIN:-$repo/.build/debug/rewind}"
pg_bin="${REWIND_PG_BIN:-/usr/lib/postgresql/15/bin}"
nginx="${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}"
address="http://127.0.0.1:$port"
account="${REWIND_CLUSTER_ACCOUNT:-admin}"
# What an instance's command line contains (whatever the binary), to tell
# its pid from one the system has since given to another process.
instance_command="serve --host 127.0.0.1 --port"

say() { echo "cluster: $*" >&2; }
fail() { say "$*"; exit 1; }

# The PostgreSQL cluster, run by the tests' script with this cluster's port
# and directory.
postgres() {
    REWIND_PG_PORT="$pg_port" REWIND_PG_DIR="$dir/postgres" REWIND_PG_BIN="$pg_bin" \
        "$repo/scripts/postgres-test-cluster.sh" "$@" 9<&-
}

# Whether something accepts connections on 127.0.0.1:$1.
listening() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# The pid in file $1 if that process runs and its command line contains $2
# (so that a pid the system has given to another process is left alone).
live_pid() {
    local pid
    [ -f "$1" ] || return 1
    pid="$(cat "$1")"
    [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$2" || return 1
    echo "$pid"
}

# Whether $dir is a cluster's directory: marked, or made by an earlier
# version of this script (its token and nginx's configuration).
is_cluster_dir() {
    [ -f "$dir/$marker" ] || { [ -f "$dir/csrf-token" ] && [ -f "$dir/nginx.conf" ]; }
}

# The port PostgreSQL of this cluster runs on, if it runs (from its pid file).
running_pg_port() {
    local file="$dir/postgres/data/postmaster.pid" pid
    [ -f "$file" ] || return 1
    pid="$(sed -n 1p "$file")"
    kill -0 "$pid" 2>/dev/null || return 1
    sed -n 4p "$file"
}

# Fails with a clear message when port $1 (for $2, set by variable $3) is taken.
require_free() {
    if listening "$1"; then
        fail "port $1 ($2) is taken by another program; choose another with $3=PORT"
    fi
}

# Waits until $1 answers GET /healthz with 200 (open without a sign-in:
# the instance serves and its database answers), or process $2 ends, for
# at most 60 s.
wait_for() {
    local deadline=$((SECONDS + 60))
    until curl -fsS -o /dev/null --max-time 7 "$1/healthz" 2>/dev/null; do
        if ! kill -0 "$2" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
            return 1
        fi
        sleep 0.1
    done
}

# Stops the process in pid file $1 (command line containing $2): SIGTERM,
# then SIGKILL after 10 s.
stop_pid() {
    local pid
    if pid="$(live_pid "$1" "$2")"; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 100); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$1"
}

# Makes the account the instances' sign-in asks for in database $1, unless
# it exists; says how to sign in.
make_account() {
    local url="$1" password where
    local made
    # The account as it was made ("Boss"), found without case.
    made="$(REWIND_DATABASE_URL="$url" "$rewind" users list 2>/dev/null \
        | awk -v want="$(printf '%s' "$account" | tr '[:upper:]' '[:lower:]')" 'tolower($1) == want { print $1; exit }')"
    if [ -n "$made" ]; then
        where="its password as it was made"
        [ -z "${REWIND_CLUSTER_PASSWORD:-}" ] && [ -s "$dir/password" ] && where="the password in $dir/password"
        say "sign in as $made with $where"
        return
    fi
    if [ -n "${REWIND_CLUSTER_PASSWORD:-}" ]; then
        password="$REWIND_CLUSTER_PASSWORD"
        where="the password in REWIND_CLUSTER_PASSWORD"
    else
        (umask 077 && od -An -tx1 -N16 /dev/urandom | tr -d ' \n' >"$dir/password")
        password="$(cat "$dir/password")"
        where="the password in $dir/password"
    fi
    printf '%s\n' "$password" | REWIND_DATABASE_URL="$url" "$rewind" users add "$account" --password-stdin >/dev/null \
        || fail "could not make the account $account (REWIND_CLUSTER_ACCOUNT, REWIND_CLUSTER_PASSWORD); the line above says why"
    say "made the account $account; sign in as $account with $where"
}

start_instance() {
    local name="$1" instance_port="$2" variable="$3" url="$4" pid
    if live_pid "$dir/$name.pid" "$instance_command" >/dev/null; then
        return
    fi
    require_free "$instance_port" "instance $name" "$variable"
    # The URL (with its password) and the shared token go through the
    # environment, not the command line that `ps` shows.
    # nginx, on this machine, is the trusted proxy: sign-ins are throttled
    # by the address it adds to X-Forwarded-For, not by its own.
    # Each instance names its connections (pg_stat_activity's application_name): rewind-a, rewind-b.
    local named="$url&application_name=rewind-${name,,}"
    [[ "$url" == *\?* ]] || named="$url?application_name=rewind-${name,,}"
    REWIND_DATABASE_URL="$named" REWIND_CSRF_TOKEN="$(cat "$dir/csrf-token")" \
        REWIND_PUBLIC_ORIGIN="${REWIND_PUBLIC_ORIGIN:-}" \
        setsid "$rewind" serve --host 127.0.0.1 --port "$instance_port" --trusted-proxy 127.0.0.1 \
        </dev/null >>"$dir/$name.log" 2>&1 9<&- &
    pid=$!
    echo "$pid" >"$dir/$name.pid"
    echo "$instance_port" >"$dir/$name.port"
    if ! wait_for "http://127.0.0.1:$instance_port" "$pid"; then
        tail -5 "$dir/$name.log" >&2
        fail "instance $name did not start on port $instance_port (log: $dir/$name.log)"
    fi
    say "instance $name: http://127.0.0.1:$instance_port (pid $pid, log $dir/$name.log)"
}

write_nginx_config() {
    local user_line=""
    mkdir -p "$dir/nginx"
    if [ "$(id -u)" = 0 ]; then
        # nginx's workers leave root; they need its temporary directories.
        user_line="user nobody nogroup;"
        chown nobody:nogroup "$dir/nginx"
    fi
    cat >"$dir/nginx.conf" <<EOF
# Generated by scripts/cluster.sh; rewritten at every start.
$user_line
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/nginx-error.log warn;
events { worker_connections 1024; }
http {
    # Each line ends with the instance that answered.
    log_format upstream '\$remote_addr [\$time_local] "\$request" \$status \$upstream_addr';
    access_log $dir/nginx-access.log upstream;
    client_body_temp_path $dir/nginx/client-body;
    proxy_temp_path $dir/nginx/proxy;
    fastcgi_temp_path $dir/nginx/fastcgi;
    uwsgi_temp_path $dir/nginx/uwsgi;
    scgi_temp_path $dir/nginx/scgi;

    upstream rewind {
        # Round robin; a request that an instance refuses (it is down) or
        # answers 503 goes to the other (proxy_next_upstream below). No
        # instance is ever marked down (max_fails=0): were both to answer
        # 503 (their database out of reach), nginx would otherwise answer
        # the next requests with its own 502 page, not the instances' 503
        # that says what is wrong. A request already sent is never sent
        # again (nginx does not retry a POST), so an add is made once or
        # answered with an error.
        server 127.0.0.1:$a_port max_fails=0;
        server 127.0.0.1:$b_port max_fails=0;
        keepalive 16;
    }

    # What lives in one place goes to one instance, chosen by a key (the
    # other instance while that one is down), and everything else round
    # robin. A shared list's pages and API, by the list's id: the instance
    # that holds a list in memory saves a change in one statement, where
    # changes that alternate between instances each read the other's rows
    # first, and only that instance reads the list's log. The changes of
    # the team's list (every other request that is not a GET or HEAD):
    # the instance that takes them all writes them in batches, with no
    # other instance's rows to read first; its pages and reads go to
    # either. The calculator: in the database, and in memory on the
    # instance that serves the browser, where its presses find it.
    map "\$request_method \$uri" \$rewind_key {
        "~^[A-Z]+ /(?:api/)?lists/(?<id>[0-9A-Fa-f-]{36})" \$id;
        "~^[A-Z]+ /(?:api/)?calculator" calculator;
        "~^(?:GET|HEAD) " "";
        default team;
    }
    map \$rewind_key \$rewind_upstream {
        "" rewind;
        default rewind_by_key;
    }
    upstream rewind_by_key {
        hash \$rewind_key consistent;
        server 127.0.0.1:$a_port max_fails=0;
        server 127.0.0.1:$b_port max_fails=0;
        keepalive 16;
    }

    server {
        listen 127.0.0.1:$port;
        # For the location below, and any added beside it.
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        # The browser's Host, which the instances check (add names
        # other than localhost and 127.0.0.1 with --allow-host).
        proxy_set_header Host \$http_host;
        proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
        # Server-sent events: passed on as they come, kept open long.
        proxy_buffering off;
        proxy_read_timeout 1h;
        location / {
            proxy_pass http://\$rewind_upstream;
            # An instance that answers 503 (its database out of reach, say,
            # while it reconnects) is passed over like one that refuses
            # connections, for requests nginx may send again: a GET, a HEAD,
            # never a POST.
            proxy_next_upstream error timeout http_503;
        }
    }
}
EOF
}

start_nginx() {
    local pid
    if live_pid "$dir/nginx.pid" nginx >/dev/null; then
        return
    fi
    require_free "$port" "nginx" REWIND_CLUSTER_PORT
    write_nginx_config
    "$nginx" -t -q -e "$dir/nginx-error.log" -p "$dir/" -c "$dir/nginx.conf" 2>>"$dir/nginx-error.log" \
        || { tail -5 "$dir/nginx-error.log" >&2; fail "nginx refused its configuration ($dir/nginx.conf)"; }
    # nginx puts itself in the background and writes its pid file.
    "$nginx" -e "$dir/nginx-error.log" -p "$dir/" -c "$dir/nginx.conf" 2>>"$dir/nginx-error.log" 9<&- \
        || { tail -5 "$dir/nginx-error.log" >&2; fail "nginx did not start on port $port"; }
    for _ in $(seq 100); do
        pid="$(live_pid "$dir/nginx.pid" nginx)" && break
        sleep 0.1
    done
    if [ -z "${pid:-}" ] || ! wait_for "$address" "$pid"; then
        tail -5 "$dir/nginx-error.log" >&2
        fail "nginx did not start on port $port (log: $dir/nginx-error.log)"
    fi
    say "nginx: $address (pid $pid, round robin over ports $a_port and $b_port; the team list's changes, a shared list's requests and the calculator's each to one of them)"
}

# One start or stop at a time: two at once would both make the directory,
# and one could delete what the other sets up. The lock is a file beside
# the cluster's directory (which a start makes, and a stop deletes); a second
# start waits for the first, then finds running what it started. The
# programs a start leaves running are given no copy of the lock (9<&-),
# which would hold it as long as they run.
take_turn() {
    local parent lock
    parent="$(dirname "$dir")"
    lock="$parent/.$(basename "$dir").lock"
    mkdir -p "$parent"
    exec 9>>"$lock"
    if ! flock -n 9; then
        say "waiting for another start or stop of $dir to finish"
        flock 9
    fi
}

start() {
    take_turn
    [ -x "$pg_bin/initdb" ] || fail "PostgreSQL is not installed in $pg_bin (Debian: apt-get install -y postgresql)"
    [ -x "$nginx" ] || fail "nginx is not installed (Debian: apt-get install -y nginx)"
    [ -x "$rewind" ] || fail "no rewind binary at $rewind (build it with \`swift build\`, or set REWIND_BIN)"
    local ports=("$port" "$a_port" "$b_port" "$pg_port")
    if [ "$(printf '%s\n' "${ports[@]}" | sort -u | wc -l)" != 4 ]; then
        fail "the four ports must differ: nginx $port, A $a_port, B $b_port, PostgreSQL $pg_port"
    fi
    if [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ] && ! is_cluster_dir; then
        fail "$dir (REWIND_CLUSTER_DIR) holds files this script did not make; name a new or empty directory"
    fi
    local running
    if running="$(running_pg_port)" && [ "$running" != "$pg_port" ]; then
        fail "this cluster's PostgreSQL runs on port $running; stop the cluster first to move it to $pg_port (REWIND_CLUSTER_PG_PORT)"
    fi
    # A part that runs keeps its port: the address printed must be the one that answers.
    local part
    for part in "nginx:$port:REWIND_CLUSTER_PORT" "A:$a_port:REWIND_CLUSTER_A_PORT" "B:$b_port:REWIND_CLUSTER_B_PORT"; do
        IFS=: read -r name wanted variable <<<"$part"
        running="$(recorded_port "$name")" || continue
        if [ "$running" != "$wanted" ] && live_pid "$dir/$name.pid" "$([ "$name" = nginx ] && echo nginx || echo "$instance_command")" >/dev/null; then
            fail "this cluster's ${name/#[AB]/instance $name} runs on port $running; stop the cluster first to move it to $wanted ($variable)"
        fi
        # nginx, while it runs, sends to the ports the instances had.
        if [ "$name" != nginx ] && [ "$running" != "$wanted" ] && live_pid "$dir/nginx.pid" nginx >/dev/null; then
            fail "this cluster's nginx sends instance $name's requests to port $running; stop the cluster first to move instance $name to $wanted ($variable)"
        fi
    done
    # The workers of an nginx whose master was killed (SIGKILL) still hold
    # its port: they are ended, and nginx starts again below.
    if [ -f "$dir/nginx.pid" ] && ! live_pid "$dir/nginx.pid" nginx >/dev/null; then
        stop_nginx
        for _ in $(seq 50); do
            listening "$port" || break
            sleep 0.1
        done
    fi
    # Every port taken by another program is said before anything starts.
    [ -f "$dir/postgres/data/postmaster.pid" ] || require_free "$pg_port" "PostgreSQL" REWIND_CLUSTER_PG_PORT
    live_pid "$dir/A.pid" "$instance_command" >/dev/null || require_free "$a_port" "instance A" REWIND_CLUSTER_A_PORT
    live_pid "$dir/B.pid" "$instance_command" >/dev/null || require_free "$b_port" "instance B" REWIND_CLUSTER_B_PORT
    live_pid "$dir/nginx.pid" nginx >/dev/null || require_free "$port" "nginx" REWIND_CLUSTER_PORT
    mkdir -p "$dir"
    touch "$dir/$marker"
    chmod 755 "$dir"
    if [ ! -s "$dir/csrf-token" ]; then
        # The token every instance accepts, so that a page one of them served
        # can make changes through the other.
        (umask 077 && od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$dir/csrf-token")
    fi
    local url
    url="$(postgres start)" || fail "PostgreSQL did not start on port $pg_port (log: $dir/postgres/server.log)"
    say "PostgreSQL: 127.0.0.1:$pg_port (data $dir/postgres); for \`rewind users\` and \`rewind todo\`: REWIND_DATABASE_URL=$url"
    make_account "$url"
    start_instance A "$a_port" REWIND_CLUSTER_A_PORT "$url"
    start_instance B "$b_port" REWIND_CLUSTER_B_PORT "$url"
    start_nginx
    printf '%s\n' "$port" >"$dir/nginx.port"
    echo "$address"
}

# The port a part (nginx, A, B) was started on, if it was.
recorded_port() {
    [ -s "$dir/$1.port" ] && cat "$dir/$1.port"
}

status() {
    local all=0 pid
    if [ -f "$dir/postgres/data/postmaster.pid" ] && listening "$pg_port"; then
        echo "PostgreSQL: running on 127.0.0.1:$pg_port"
    else
        echo "PostgreSQL: not running"; all=3
    fi
    for name in A B; do
        local instance_port="$a_port"
        [ "$name" = B ] && instance_port="$b_port"
        if pid="$(live_pid "$dir/$name.pid" "$instance_command")"; then
            local health
            # The instance's health check: 200 while it and its database answer.
            if health="$(curl -sS --max-time 7 -w ' (HTTP %{http_code})' "http://127.0.0.1:$instance_port/healthz" 2>&1)" \
                && [[ "$health" == *'(HTTP 200)' ]]; then
                echo "instance $name: running on http://127.0.0.1:$instance_port (pid $pid), healthy"
            else
                echo "instance $name: running on http://127.0.0.1:$instance_port (pid $pid), but /healthz answers: $health"; all=3
            fi
        else
            echo "instance $name: not running"; all=3
        fi
    done
    if pid="$(live_pid "$dir/nginx.pid" nginx)"; then
        echo "nginx: running on $address (pid $pid)"
    else
        echo "nginx: not running"; all=3
    fi
    return "$all"
}

# Stops nginx: its master, and its workers, which outlive a master killed
# with SIGKILL (they keep its process group, whose id is the master's pid).
stop_nginx() {
    local group="" worker
    [ -f "$dir/nginx.pid" ] && group="$(cat "$dir/nginx.pid")"
    stop_pid "$dir/nginx.pid" nginx
    [[ "$group" =~ ^[0-9]+$ ]] || return 0
    for worker in $(pgrep -g "$group" 2>/dev/null || true); do
        tr '\0' ' ' <"/proc/$worker/cmdline" 2>/dev/null | grep -q "^nginx: " && kill -TERM "$worker" 2>/dev/null || true
    done
}

stop() {
    if [ -d "$(dirname "$dir")" ]; then take_turn; fi
    if [ ! -d "$dir" ]; then
        say "nothing to stop: $dir does not exist"
        return
    fi
    if [ -z "$(ls -A "$dir")" ]; then
        rmdir "$dir"
        say "nothing to stop; the empty $dir removed"
        return
    fi
    # Never delete a directory this script did not make (REWIND_CLUSTER_DIR set by mistake).
    is_cluster_dir || fail "$dir (REWIND_CLUSTER_DIR) is not a cluster's directory; nothing was stopped or deleted"
    stop_nginx
    stop_pid "$dir/A.pid" "$instance_command"
    stop_pid "$dir/B.pid" "$instance_command"
    if [ -d "$dir/postgres" ]; then
        postgres stop
    fi
    rm -rf "$dir"
    say "stopped; $dir deleted"
}

case "${1:-}" in
    start) start ;;
    status) status ;;
    stop) stop ;;
    *)
        echo "usage: $0 start|status|stop" >&2
        exit 64
        ;;
esac
