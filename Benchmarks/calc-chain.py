#!/usr/bin/env python3
"""`rewind calc 1 + 1 + … =` with chains of n presses, timed with its peak
memory, for one or more `rewind` binaries side by side in one run; then one
`rewind serve` per binary, whose calculator gets requests of 1,000 keys
while a second browser's single-key requests are timed.

    python3 Benchmarks/calc-chain.py BINARY [BINARY ...] [--sizes 1000,4000,8000,100000] [--requests 75]

Rows (median of --runs runs; a run past --timeout seconds is cut off):
  calc n presses     seconds and peak resident memory of `rewind calc`
  serve              peak memory of the server after --requests requests of
                     1,000 keys to one calculator, and the longest answer
                     another calculator got meanwhile
  press after n      median and 99th percentile of --presses single-key
                     requests, one after another, to a calculator whose
                     history already holds n steps
The server keeps its calculators where `rewind serve` does by default (the
SQLite file of a fresh data directory), in memory with --in-memory, or in
PostgreSQL with --database URL (team mode: the account `calcbench` is made
there with the password of $REWIND_CLUSTER_PASSWORD or "calc bench password
1", and each request carries its session).
Binaries are taken as given: build release ones.
"""

import argparse
import json
import os
import socket
import statistics
import shutil
import sys
import subprocess
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import rewind_session  # noqa: E402  (scripts/rewind_session.py: signs in as a browser does)

PASSWORD = os.environ.get("REWIND_CLUSTER_PASSWORD", "calc bench password 1")


def calc_row(binary, presses, runs, timeout):
    times, memories = [], []
    for _ in range(runs):
        keys = ["1", "+"] * (presses // 2) + ["1", "="]
        started = time.perf_counter()
        process = subprocess.Popen([binary, "calc", *keys], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        timer = threading.Timer(timeout, process.kill)
        timer.start()
        _, status, usage = os.wait4(process.pid, 0)
        timer.cancel()
        elapsed = time.perf_counter() - started
        times.append(elapsed if status == 0 else float("inf"))
        memories.append(usage.ru_maxrss / 1024)
    return statistics.median(times), statistics.median(memories)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def start_server(binary, where):
    """`rewind serve` on a free port, over a fresh data directory, in memory (`where` "memory") or over the
    PostgreSQL database at the URL `where`; its base URL, CSRF token and session cookie (team mode) or None."""
    port = free_port()
    data = tempfile.mkdtemp(prefix="rewind-calc-bench-")
    if where == "memory":
        store = ["--in-memory"]
    elif where:
        store = ["--database", where]
        made = subprocess.run([binary, "users", "add", "calcbench", "--password-stdin", "--database", where],
                              input=PASSWORD + "\n", capture_output=True, text=True)
        if made.returncode != 0 and "exists already" not in made.stderr:
            sys.exit(f"calc-chain.py: could not make the account calcbench: {made.stderr.strip()}")
    else:
        store = ["--data-dir", data]
    server = subprocess.Popen([binary, "serve", "--port", str(port), *store],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    server.stdout.readline()
    base = f"http://127.0.0.1:{port}"
    if where and where != "memory":
        session, token = rewind_session.sign_in(base, "calcbench", PASSWORD)
        return server, data, base, token, session
    token = json.loads(urllib.request.urlopen(base + "/api/csrf").read())["token"]
    return server, data, base, token, None


def presser(base, token, session=None):
    def press(keys, cookie=None):
        headers = {"X-Rewind-CSRF": token, "Origin": base, "Content-Type": "application/json"}
        cookies = [c for c in (f"rewind_session={session}" if session else None, cookie) if c]
        if cookies:
            headers["Cookie"] = "; ".join(cookies)
        request = urllib.request.Request(base + "/api/calculator/keys", data=json.dumps({"keys": keys}).encode(),
                                         method="POST", headers=headers)
        with urllib.request.urlopen(request, timeout=600) as response:
            set_cookies = response.headers.get_all("Set-Cookie") or []
            response.read()
            calculator = [c.split(";")[0] for c in set_cookies if c.startswith("rewind_calculator=")]
            return calculator[0] if calculator else cookie
    return press


def stop_server(server, data):
    server.terminate()
    server.wait(timeout=60)
    shutil.rmtree(data, ignore_errors=True)


def press_row(binary, steps, presses, where):
    """Median and 99th percentile, in ms, of single-key requests to a calculator of `steps` steps."""
    server, data, base, token, session = start_server(binary, where)
    try:
        press = presser(base, token, session)
        cookie = press(["1"])
        while steps > 1:
            count = min(steps - 1, 1_000)
            press(["+", "1"] * (count // 2) + ["+"] * (count % 2), cookie)
            steps -= count
        times = []
        for n in range(presses):
            started = time.perf_counter()
            press(["+" if n % 2 else "1"], cookie)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]
    finally:
        stop_server(server, data)


def serve_row(binary, requests, where):
    server, data, base, token, session = start_server(binary, where)
    try:
        press = presser(base, token, session)
        heavy = press(["1"])
        light = press(["2"])
        longest = [0.0]
        done = threading.Event()

        def other_browser():
            while not done.is_set():
                started = time.perf_counter()
                press(["+"], light)
                longest[0] = max(longest[0], time.perf_counter() - started)
                time.sleep(0.02)

        watcher = threading.Thread(target=other_browser)
        watcher.start()
        started = time.perf_counter()
        for _ in range(requests):
            press(["+", "1"] * 500, heavy)
            if server.poll() is not None:
                break
        elapsed = time.perf_counter() - started
        done.set()
        watcher.join()
        return elapsed, rss_mb(server.pid), longest[0]
    finally:
        stop_server(server, data)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--sizes", default="1000,4000,8000,100000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--requests", type=int, default=75)
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--steps", default="1,9000")
    parser.add_argument("--in-memory", action="store_true")
    parser.add_argument("--database", help="a PostgreSQL URL: the server's calculators kept there (team mode)")
    arguments = parser.parse_args()
    where = "memory" if arguments.in_memory else arguments.database
    names = [os.path.relpath(binary) for binary in arguments.binaries]
    print(f"{'row':<44}" + "".join(f"  {name[-30:]:>30}" for name in names))
    for presses in [int(size) for size in arguments.sizes.split(",")]:
        cells = []
        for binary in arguments.binaries:
            seconds, memory = calc_row(binary, presses, arguments.runs, arguments.timeout)
            shown = f">{arguments.timeout:.0f}s" if seconds == float("inf") else f"{seconds:.2f}s"
            cells.append(f"{shown}, {memory:.0f} MB")
        print(f"{'calc ' + str(presses) + ' presses':<44}" + "".join(f"  {cell:>30}" for cell in cells), flush=True)
    cells = []
    for binary in arguments.binaries:
        elapsed, memory, longest = serve_row(binary, arguments.requests, where)
        cells.append(f"{elapsed:.1f}s, {memory:.0f} MB, other {longest * 1000:.0f} ms")
    label = f"serve {arguments.requests} × 1,000 keys, one session"
    print(f"{label:<44}" + "".join(f"  {cell:>30}" for cell in cells), flush=True)
    for steps in [int(size) for size in arguments.steps.split(",")]:
        cells = []
        for binary in arguments.binaries:
            median, p99 = press_row(binary, steps, arguments.presses, where)
            cells.append(f"{median:.2f} / {p99:.2f} ms")
        label = f"press after {steps} steps (median / p99)"
        print(f"{label:<44}" + "".join(f"  {cell:>30}" for cell in cells), flush=True)


if __name__ == "__main__":
    main()
