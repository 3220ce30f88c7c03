#!/usr/bin/env bash
# `rewind serve` from its process start to the first request served, over
# PostgreSQL holding a list of ITEMS items: starts PostgreSQL alone (lib.sh's
# settings), seeds the list with `rewind todo --database URL import` of a
# generated export (one undoable step, as a list restored from a backup
# gets its items), then runs first-request.py RUNS times and stops it all.
#
#   Benchmarks/postgres/serve-start.sh .build/release/rewind
#   ITEMS=100000 RUNS=10 START_PORT=9395 Benchmarks/postgres/serve-start.sh BINARY
set -euo pipefail
source "$(dirname "$0")/lib.sh"

choose_rewind "${1:-}"
require_tools python3
ITEMS="${ITEMS:-100000}"
RUNS="${RUNS:-10}"
START_PORT="${START_PORT:-9395}"
[ ! -d "$REWIND_CLUSTER_DIR" ] || fail "$REWIND_CLUSTER_DIR exists: a cluster or another benchmark uses it; stop it first"
work="$(mktemp -d "${TMPDIR:-/tmp}/rw-bench-start.XXXXXX")"
trap 'postgres_stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

url="$(postgres_start)"
# ITEMS items in the export format (docs/json-format.md), random (version 4)
# ids as real lists have, the same on every run.
python3 - "$ITEMS" >"$work/items.json" <<'EOF'
import json, random, sys, uuid
count = int(sys.argv[1])
rng = random.Random(count)
items = [{
    "id": str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper(),
    "title": f"Item {n}: buy milk",
    "details": "",
    "state": "active",
    "created": "2026-01-01T00:00:00.000Z",
    "changed": "2026-01-01T00:00:00.000Z",
} for n in range(count)]
json.dump({"format": "rewind-todos", "version": 2, "items": items}, sys.stdout)
EOF
seeding_began=$SECONDS
REWIND_DATABASE_URL="$url" "$REWIND_BIN" todo import "$work/items.json" </dev/null >"$work/import.log" 2>&1 \
    || { cat "$work/import.log" >&2; fail "the import failed"; }
items="$(psql_admin rewind -c 'SELECT count(*) FROM rewind_item')"
steps="$(psql_admin rewind -c 'SELECT count(*) FROM rewind_step')"
[ "$items" = "$ITEMS" ] || fail "the list holds $items items after the import, not $ITEMS"
say "seeded $items items ($steps history step) in $((SECONDS - seeding_began)) s"
# With PostgreSQL the server is in team mode: it starts only with an account.
make_account "$url" bench

echo "rewind serve start to first GET / (the sign-in redirect: team mode) over PostgreSQL with $items items ($steps history step: the import), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
echo "load before: $(uptime)"
REWIND_DATABASE_URL="$url" python3 "$(dirname "$0")/first-request.py" --port "$START_PORT" --runs "$RUNS" -- \
    "$REWIND_BIN" serve --host 127.0.0.1 --port "$START_PORT"
echo "load after:  $(uptime)"
echo "Target: < 1 s (1000 ms)."
