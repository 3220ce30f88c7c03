#!/usr/bin/env bash
# `rewind todo` against Taskwarrior (`task`), command by command, with
# hyperfine, on lists of 0, 1,000 and 10,000 items (Debian: apt-get install
# taskwarrior hyperfine).
#
#   Benchmarks/cli-vs-taskwarrior.sh          # from the repository root
#   SIZES="0 1000" RUNS=20 Benchmarks/cli-vs-taskwarrior.sh
#   REWIND=/tmp/old/rewind Benchmarks/cli-vs-taskwarrior.sh   # that binary, no build
#
# Each size gets its own temporary data directories: REWIND_DATA_DIR for
# ours, TASKRC and TASKDATA for Taskwarrior (confirmation off, verbose
# nothing, colour off as ours is off a terminal, hooks off). Both are seeded
# by a bulk import of the same items (`rewind todo import FILE`, `task
# import FILE`) plus one target item with a known id, and every command
# keeps the list at that size:
#
#   add    `add TITLE`;   before each run, `undo` takes the previous run's item out
#   list   `list`;        read only (every pending item is printed)
#   done   `done TARGET`; before each run, `undo` reopens the target
#   undo   `undo`;        before each run, `add TITLE` gives it a change to undo
#
# Ours is built with `swift build -c release --static-swift-stdlib` (static
# Foundation starts faster, see docs/DESIGN) in .build-static.
# Exits 0 with a SKIP line when `rewind todo` does not exist yet.
set -euo pipefail

SIZES=${SIZES:-"0 1000 10000"}
RUNS=${RUNS:-30}
WARMUP=${WARMUP:-3}

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

for tool in task hyperfine python3; do
    if ! command -v "$tool" >/dev/null; then
        package=$tool
        [ "$tool" = task ] && package=taskwarrior
        echo "cli-vs-taskwarrior.sh: $tool is missing; install it with: apt-get install -y $package" >&2
        exit 1
    fi
done

if [ -n "${REWIND:-}" ]; then
    rewind=$REWIND    # a binary built elsewhere, e.g. an older commit's, to compare
else
    echo "== building rewind (release, static Swift standard library)" >&2
    swift build -c release --static-swift-stdlib --scratch-path .build-static --product rewind >&2
    rewind="$root/.build-static/release/rewind"
fi

if ! "$rewind" todo --help >/dev/null 2>&1; then
    echo "SKIP: \`rewind todo\` does not exist in this build yet (see \`rewind --help\`); nothing measured."
    exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rewind-cli-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

target=A0000000-0000-4000-8000-000000000001
target_lower=$(echo "$target" | tr 'A-Z' 'a-z')

# Writes the same N items (and the target) for both tools.
seed_files() { # N DIR
    python3 - "$1" "$2" "$target" <<'EOF'
import json, random, sys, uuid
count, directory, target = int(sys.argv[1]), sys.argv[2], sys.argv[3]
# Random (version 4) ids as real lists have, the same on every run.
rng = random.Random(count)
ids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper() for _ in range(count)] + [target]
titles = [f"Item {n}: buy milk" for n in range(count)] + ["Target: water the plants"]
ours = {"format": "rewind-todos", "version": 1, "items": [
    {"id": i, "title": t, "created": "2026-01-01T00:00:00.000Z"} for i, t in zip(ids, titles)]}
theirs = [{"uuid": i.lower(), "description": t, "status": "pending", "entry": "20260101T000000Z"}
          for i, t in zip(ids, titles)]
json.dump(ours, open(f"{directory}/rewind.json", "w"))
json.dump(theirs, open(f"{directory}/task.json", "w"))
EOF
}

results="$work/results.tsv"
: >"$results"

# Times COMMAND for one tool at one size; appends "size tool command median mean" to results.
time_command() { # SIZE TOOL LABEL PREPARE COMMAND
    local size=$1 tool=$2 label=$3 prepare=$4 command=$5 json="$work/$1-$2-$3.json"
    local args=(--runs "$RUNS" --warmup "$WARMUP" --export-json "$json" --style none)
    [ -n "$prepare" ] && args+=(--prepare "$prepare")
    hyperfine "${args[@]}" "$command" >&2
    python3 - "$json" "$size" "$tool" "$label" >>"$results" <<'EOF'
import json, sys
result = json.load(open(sys.argv[1]))["results"][0]
print(sys.argv[2], sys.argv[3], sys.argv[4], result["median"] * 1000, result["mean"] * 1000, sep="\t")
EOF
}

echo "== load before: $(uptime)" >&2
for size in $SIZES; do
    dir="$work/$size"
    mkdir -p "$dir/rewind" "$dir/task"
    seed_files "$size" "$dir"

    export REWIND_DATA_DIR="$dir/rewind"
    export TASKDATA="$dir/task" TASKRC="$dir/taskrc"
    cat >"$TASKRC" <<EOF
data.location=$dir/task
confirmation=off
verbose=nothing
color=off
hooks=off
news.version=2.6.0
EOF

    echo "== $size items: seeding" >&2
    "$rewind" todo import "$dir/rewind.json" >/dev/null
    task import "$dir/task.json" >/dev/null 2>&1

    ours=$(printf '%q' "$rewind")
    # add: the first `add` by hand, so that each run's `undo` takes out the one before.
    "$rewind" todo add "Benchmark: buy oat milk" >/dev/null
    time_command "$size" rewind add "$ours todo undo" "$ours todo add Benchmark-buy-oat-milk"
    "$rewind" todo undo >/dev/null
    task add "Benchmark: buy oat milk" >/dev/null
    time_command "$size" task add "task undo" "task add Benchmark-buy-oat-milk"
    task undo >/dev/null

    time_command "$size" rewind list "" "$ours todo list"
    time_command "$size" task list "" "task list"

    "$rewind" todo done "$target" >/dev/null
    time_command "$size" rewind done "$ours todo undo" "$ours todo done $target"
    "$rewind" todo undo >/dev/null
    task "$target_lower" done >/dev/null
    time_command "$size" task done "task undo" "task $target_lower done"
    task undo >/dev/null

    time_command "$size" rewind undo "$ours todo add Benchmark-undo-me" "$ours todo undo"
    time_command "$size" task undo "task add Benchmark-undo-me" "task undo"
done
echo "== load after: $(uptime)" >&2

echo
echo "CLI, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, hyperfine --runs $RUNS --warmup $WARMUP (median ms)"
echo
python3 - "$results" <<'EOF'
import sys
rows = {}
for line in open(sys.argv[1]):
    size, tool, command, median, mean = line.split("\t")
    rows.setdefault((int(size), command), {})[tool] = float(median)
print("| items | command | rewind (ms) | task (ms) | rewind / task | target holds |")
print("|---:|---|---:|---:|---:|---|")
for (size, command), tools in sorted(rows.items(), key=lambda r: (r[0][0], ["add", "list", "done", "undo"].index(r[0][1]))):
    ours, theirs = tools["rewind"], tools["task"]
    print(f"| {size:,} | {command} | {ours:.1f} | {theirs:.1f} | {ours / theirs:.2f} | {'yes' if ours <= theirs else 'no'} |")
EOF
