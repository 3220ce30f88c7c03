#!/usr/bin/env python3
"""Bulk operations of n items, timed end to end, for one or more `rewind`
binaries side by side in one run (issue: restoring, removing or merging n
items must cost O(n) or O(n log n), and the server must keep answering).

    python3 Benchmarks/bulk.py BINARY [BINARY ...] [--sizes 5000,10000,20000]

For each binary and size, on a fresh data directory:
  serve: undo   `DELETE /api/todos` (delete all), then `POST /api/history/undo`
                through `rewind serve`; the undo is timed, and while it runs a
                second client times `GET /assets/app.css`
  cli:   rm     `rewind todo rm` with min(n, 8000) full ids
  cli:   merge  `rewind todo import --merge` of n items, half of them known
  cli:   new    `rewind todo import --merge` of n items none of which is known
                (a step of n adds), then `rewind todo undo` and `rewind todo
                redo` of that step
Each row is the median of --runs runs (default 3). Binaries are taken as
given: build release ones (`swift build -c release --product rewind`).
"""

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request
import uuid


def document(start, count):
    items = [{"id": str(uuid.UUID(int=i + 1)), "title": f"Item {i}", "created": "2026-01-01T00:00:00.000Z"}
             for i in range(start, start + count)]
    return json.dumps({"format": "rewind-todos", "version": 1, "items": items})


def todo(binary, data, *args, stdin=None):
    started = time.perf_counter()
    result = subprocess.run([binary, "todo", *args, "--data-dir", data], input=stdin, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"{binary} todo {args[0]}: {result.stderr.strip()}")
    return elapsed


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_undo(binary, data):
    port = free_port()
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", data],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        server.stdout.readline()
        base = f"http://127.0.0.1:{port}"
        token = json.loads(urllib.request.urlopen(base + "/api/csrf").read())["token"]
        headers = {"X-Rewind-CSRF": token, "Origin": base}

        def call(method, path):
            request = urllib.request.Request(base + path, method=method, headers=headers)
            return urllib.request.urlopen(request, timeout=3600).read()

        call("DELETE", "/api/todos")
        asset_times = []
        done = threading.Event()

        def fetch_asset():
            while not done.is_set():
                started = time.perf_counter()
                urllib.request.urlopen(base + "/assets/app.css", timeout=3600).read()
                asset_times.append(time.perf_counter() - started)
                time.sleep(0.05)

        watcher = threading.Thread(target=fetch_asset)
        watcher.start()
        started = time.perf_counter()
        call("POST", "/api/history/undo")
        elapsed = time.perf_counter() - started
        done.set()
        watcher.join()
        return elapsed, max(asset_times) if asset_times else 0.0
    finally:
        server.terminate()
        server.wait(timeout=60)


def measure(binary, n, runs):
    rows = {"serve: undo delete-all": [], "  longest GET /assets/app.css meanwhile": [],
            f"cli: rm {min(n, 8000)} ids": [], "cli: import --merge": [], "cli: merge of n new items": [],
            "cli: undo of that merge": [], "cli: redo of that merge": []}
    references = [str(uuid.UUID(int=i + 1)).replace("-", "") for i in range(min(n, 8000))]
    for _ in range(runs):
        data = tempfile.mkdtemp(prefix="rewind-bulk-")
        try:
            todo(binary, data, "import", "-", stdin=document(0, n))
            undo, asset = serve_undo(binary, data)
            rows["serve: undo delete-all"].append(undo)
            rows["  longest GET /assets/app.css meanwhile"].append(asset)
            rows[f"cli: rm {min(n, 8000)} ids"].append(todo(binary, data, "rm", *references))
            rows["cli: import --merge"].append(todo(binary, data, "import", "--merge", "-", stdin=document(n // 2, n)))
            rows["cli: merge of n new items"].append(todo(binary, data, "import", "--merge", "-", stdin=document(2 * n, n)))
            rows["cli: undo of that merge"].append(todo(binary, data, "undo"))
            rows["cli: redo of that merge"].append(todo(binary, data, "redo"))
        finally:
            shutil.rmtree(data, ignore_errors=True)
    return {name: statistics.median(times) for name, times in rows.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--sizes", default="5000,10000,20000")
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    sizes = [int(size) for size in arguments.sizes.split(",")]
    names = [os.path.relpath(binary) for binary in arguments.binaries]
    print(f"{'n':>7}  {'row':<42}" + "".join(f"  {name[-28:]:>28}" for name in names))
    for n in sizes:
        results = [measure(binary, n, arguments.runs) for binary in arguments.binaries]
        for row in results[0]:
            print(f"{n:>7}  {row:<42}" + "".join(f"  {result[row]:>27.3f}s" for result in results), flush=True)


if __name__ == "__main__":
    main()
