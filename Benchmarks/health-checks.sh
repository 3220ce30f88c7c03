#!/usr/bin/env bash
# A flood of health checks (`GET /healthz`) against `rewind serve` over a
# fresh SQLite data directory, binaries in turns: checks per second, the
# server's resident memory before and after, and how long an ordinary
# request (`GET /api/todos`) takes in the middle of the flood.
#
#   Benchmarks/health-checks.sh BINARY [BINARY ...]
#   ROUNDS=2 DURATION=8 CONNECTIONS=64 Benchmarks/health-checks.sh A/rewind B/rewind
#
# Each BINARY is a `rewind` built with `swift build -c release --product
# rewind`, its *.resources beside it. Needs wrk and curl.
set -euo pipefail

ROUNDS=${ROUNDS:-2}
DURATION=${DURATION:-8}
CONNECTIONS=${CONNECTIONS:-64}
PORT=${PORT:-18097}

[ "$#" -ge 1 ] || { echo "usage: $0 BINARY [BINARY ...]" >&2; exit 64; }
for tool in wrk curl; do
    command -v "$tool" >/dev/null || { echo "health-checks.sh: $tool is missing; apt-get install -y $tool" >&2; exit 1; }
done
for binary in "$@"; do
    [ -x "$binary" ] || { echo "health-checks.sh: $binary is not an executable" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/rewind-health-bench.XXXXXX")
server=""
cleanup() {
    [ -z "$server" ] || kill "$server" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

rss() { awk '/^VmRSS/ { printf "%d", $2 / 1024 }' "/proc/$1/status"; }

echo "Health checks, $(date -u +%Y-%m-%dT%H:%MZ), wrk -t1 -c$CONNECTIONS -d${DURATION}s GET /healthz, SQLite, $ROUNDS rounds in turns"
echo "load: $(uptime)"
echo
echo "| binary | round | checks/s | p99 | memory before → after | GET /api/todos during the flood |"
echo "|---|---:|---:|---:|---|---:|"
for round in $(seq "$ROUNDS"); do
    for binary in "$@"; do
        rm -rf "$work/data"
        "$binary" serve --data-dir "$work/data" --port "$PORT" </dev/null >"$work/serve.log" 2>&1 &
        server=$!
        for _ in $(seq 100); do
            curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" 2>/dev/null && break
            sleep 0.1
        done
        before=$(rss "$server")
        wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency "http://127.0.0.1:$PORT/healthz" >"$work/wrk.txt" &
        flood=$!
        sleep "$((DURATION / 2))"
        during=$(curl -fsS -o /dev/null -w '%{time_total}' "http://127.0.0.1:$PORT/api/todos")
        wait "$flood"
        after=$(rss "$server")
        rate=$(awk '/Requests\/sec/ { printf "%d", $2 }' "$work/wrk.txt")
        p99=$(awk '$1 == "99%" { print $2 }' "$work/wrk.txt")
        non2xx=$(awk '/Non-2xx/ { print $NF }' "$work/wrk.txt")
        kill "$server"
        wait "$server" 2>/dev/null || true
        server=""
        echo "| $binary | $round | $rate${non2xx:+ ($non2xx non-2xx)} | $p99 | $before → $after MB | ${during}s |"
    done
done
