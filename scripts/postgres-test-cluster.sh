#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: Debian's PostgreSQL 15 run
# as the `postgres` user from a data directory under /tmp, listening on
# 127.0.0.1 only, with a password role and a database for Rewind.
#
#   scripts/postgres-test-cluster.sh start   # starts it (idempotent) and prints its URL
#   scripts/postgres-test-cluster.sh url     # prints the URL (of a started cluster)
#   scripts/postgres-test-cluster.sh ca      # prints the file of its TLS certificate (REWIND_PG_SSL=on)
#   scripts/postgres-test-cluster.sh socket  # prints the directory of its Unix socket
#   scripts/postgres-test-cluster.sh stop    # stops it and deletes its data directory
#
# Tests read the URL from REWIND_TEST_DATABASE_URL, the certificate (the
# TLS tests run only with it) from REWIND_TEST_DATABASE_CA, and the socket's
# directory (the socket test runs only with it) from REWIND_TEST_DATABASE_SOCKET:
#   export REWIND_TEST_DATABASE_URL=$(REWIND_PG_SSL=on scripts/postgres-test-cluster.sh start)
#   export REWIND_TEST_DATABASE_CA=$(scripts/postgres-test-cluster.sh ca)
#   export REWIND_TEST_DATABASE_SOCKET=$(scripts/postgres-test-cluster.sh socket)
#
# Settings (environment): REWIND_PG_PORT (55432), REWIND_PG_DIR
# (/tmp/rewind-postgres-test), REWIND_PG_BIN (/usr/lib/postgresql/15/bin),
# REWIND_PG_SSL (off; on: TLS with a self-signed certificate made here with
# openssl, for the name localhost only, as a server set up by hand often has;
# clients that ask get TLS, the others not).
# fsync stays on: the tests check what an acknowledged change survives.
set -euo pipefail

port="${REWIND_PG_PORT:-55432}"
dir="${REWIND_PG_DIR:-/tmp/rewind-postgres-test}"
bin="${REWIND_PG_BIN:-/usr/lib/postgresql/15/bin}"
role=rewind
password=rewind
database=rewind
data="$dir/data"
certificate="$dir/server.crt"

url() {
    echo "postgres://$role:$password@127.0.0.1:$port/$database"
}

# Runs a command as the `postgres` user (the cluster refuses to run as root).
as_postgres() {
    if [ "$(id -un)" = postgres ]; then
        "$@"
    else
        runuser -u postgres -- "$@"
    fi
}

running() {
    [ -f "$data/postmaster.pid" ] && as_postgres "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1
}

start() {
    if [ ! -x "$bin/initdb" ]; then
        echo "postgres-test-cluster: no PostgreSQL in $bin (Debian: apt-get install postgresql)" >&2
        exit 1
    fi
    if ! running; then
        if [ ! -f "$data/PG_VERSION" ]; then
            rm -rf "$dir"
            mkdir -p "$dir"
            chown postgres: "$dir" 2>/dev/null || true
            # The superuser connects through the socket only (peer); every
            # TCP connection needs a password.
            as_postgres "$bin/initdb" -D "$data" -U postgres --auth-local=peer --auth-host=scram-sha-256 \
                -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
                || { cat "$dir/initdb.log" >&2; exit 1; }
            # Rewind's role may also come through the socket, with its password.
            as_postgres sed -i "1i local all $role scram-sha-256" "$data/pg_hba.conf"
        fi
        local tls=""
        if [ "${REWIND_PG_SSL:-off}" = on ]; then
            if [ ! -f "$certificate" ]; then
                command -v openssl >/dev/null || { echo "postgres-test-cluster: REWIND_PG_SSL=on needs openssl (apt-get install openssl)" >&2; exit 1; }
                openssl req -new -x509 -days 3650 -nodes -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost" \
                    -keyout "$dir/server.key" -out "$certificate" >"$dir/openssl.log" 2>&1 \
                    || { cat "$dir/openssl.log" >&2; exit 1; }
                chown postgres: "$dir/server.key" "$certificate" 2>/dev/null || true
                chmod 600 "$dir/server.key"
            fi
            tls=" -c ssl=on -c ssl_cert_file=$certificate -c ssl_key_file=$dir/server.key"
        fi
        as_postgres "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 30 \
            -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c fsync=on -c max_connections=400$tls" \
            start >/dev/null \
            || { tail -20 "$dir/server.log" >&2; exit 1; }
    fi
    psql() {
        as_postgres "$bin/psql" -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt "$@"
    }
    if [ "$(psql -c "SELECT 1 FROM pg_roles WHERE rolname = '$role'")" != 1 ]; then
        psql -c "CREATE ROLE $role LOGIN PASSWORD '$password'"
    fi
    if [ "$(psql -c "SELECT 1 FROM pg_database WHERE datname = '$database'")" != 1 ]; then
        psql -c "CREATE DATABASE $database OWNER $role"
    fi
    url
}

stop() {
    if running; then
        as_postgres "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    fi
    rm -rf "$dir"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    url) url ;;
    socket) echo "$dir" ;;
    ca)
        [ -f "$certificate" ] || { echo "postgres-test-cluster: no certificate in $dir (start with REWIND_PG_SSL=on)" >&2; exit 1; }
        echo "$certificate"
        ;;
    *)
        echo "usage: $0 start|stop|url|ca|socket" >&2
        exit 64
        ;;
esac
