#!/usr/bin/env bash
# From a change on instance A to the event on instance B (p50/p90/p99/max):
# starts the cluster (scripts/cluster.sh, with the settings of lib.sh), runs
# event-latency.py against its two instances directly, and stops it.
#
#   Benchmarks/postgres/event-latency.sh .build/release/rewind
#   CHANGES=1000 Benchmarks/postgres/event-latency.sh BINARY
set -euo pipefail
source "$(dirname "$0")/lib.sh"

choose_rewind "${1:-}"
require_tools curl nginx python3
CHANGES="${CHANGES:-1000}"
cluster="$repo/scripts/cluster.sh"
if "$cluster" status >/dev/null 2>&1 || [ -d "$REWIND_CLUSTER_DIR" ]; then
    fail "a cluster already runs in $REWIND_CLUSTER_DIR; stop it first (REWIND_CLUSTER_DIR=$REWIND_CLUSTER_DIR $cluster stop)"
fi
trap '"$cluster" stop >/dev/null 2>&1 || true' EXIT
"$cluster" start >/dev/null
# Team mode (PostgreSQL): the cluster's account, signed in through A.
sign_in "http://127.0.0.1:$REWIND_CLUSTER_A_PORT" admin

echo "Change on A to event on B, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $CHANGES changes one at a time"
echo "load before: $(uptime)"
python3 "$(dirname "$0")/event-latency.py" --a "$REWIND_CLUSTER_A_PORT" --b "$REWIND_CLUSTER_B_PORT" \
    --token "$token" --session "$session" --changes "$CHANGES"
echo "load after:  $(uptime)"
echo "Target: p99 < 100 ms."
