#!/usr/bin/env bash
# The four PostgreSQL targets one after the other (each starts and stops what
# it needs), with perf profiles of our instance during an extra wrk round:
#
#   Benchmarks/postgres/all.sh .build/release/rewind /work/peer/.build/release/App [PROFILE_DIR]
#
# Profiles go to PROFILE_DIR (/tmp/rw-bench-profiles): cluster.perf (instance
# A through nginx) and single.perf (one instance); read them with
# `perf report -i FILE --no-children | head -60`.
set -euo pipefail
here="$(dirname "$0")"
rewind="${1:?give the rewind binary}"
peer="${2:?give the peer binary (todos-postgres-tutorial App)}"
profiles="${3:-/tmp/rw-bench-profiles}"
mkdir -p "$profiles"
PROFILE="$profiles/cluster.perf" "$here/cluster-vs-pgbench.sh" "$rewind" "$peer"
PROFILE="$profiles/single.perf" "$here/single-vs-peer.sh" "$rewind" "$peer"
"$here/event-latency.sh" "$rewind"
"$here/serve-start.sh" "$rewind"
