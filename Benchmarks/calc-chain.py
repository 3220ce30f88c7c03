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
Binaries are taken as given: build release ones.
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import threading
import time
import urllib.request


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


def serve_row(binary, requests):
    port = free_port()
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--in-memory"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        server.stdout.readline()
        base = f"http://127.0.0.1:{port}"
        token = json.loads(urllib.request.urlopen(base + "/api/csrf").read())["token"]

        def press(keys, cookie=None):
            headers = {"X-Rewind-CSRF": token, "Origin": base, "Content-Type": "application/json"}
            if cookie:
                headers["Cookie"] = cookie
            request = urllib.request.Request(base + "/api/calculator/keys", data=json.dumps({"keys": keys}).encode(),
                                             method="POST", headers=headers)
            with urllib.request.urlopen(request, timeout=600) as response:
                set_cookie = response.headers.get("Set-Cookie")
                response.read()
                return set_cookie.split(";")[0] if set_cookie else cookie

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
        server.terminate()
        server.wait(timeout=60)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--sizes", default="1000,4000,8000,100000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--requests", type=int, default=75)
    arguments = parser.parse_args()
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
        elapsed, memory, longest = serve_row(binary, arguments.requests)
        cells.append(f"{elapsed:.1f}s, {memory:.0f} MB, other {longest * 1000:.0f} ms")
    label = f"serve {arguments.requests} × 1,000 keys, one session"
    print(f"{label:<44}" + "".join(f"  {cell:>30}" for cell in cells), flush=True)


if __name__ == "__main__":
    main()
