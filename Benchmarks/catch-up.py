#!/usr/bin/env python3
"""What a server's first answer costs right after another process changed
its list: `rewind serve` keeps the list in memory, `rewind todo` (another
process) changes it, and the server's next read must bring memory up to
the file first. For one or more `rewind` binaries side by side in one run.

    python3 Benchmarks/catch-up.py BINARY [BINARY ...] [--items 100000] [--steps 0] [--turns 5] [--runs 2]

Each binary gets a data directory of --items items imported by itself and
its own server, to which --steps adds are then made through the API (a
history of that many steps). A turn runs one `rewind todo` command, then
times `GET /api/todos?search=WORD&limit=5` for the word that command wrote
(and checks that the answer finds it), then the same request again with no
change in between (what the search alone costs); with --page, `GET /todos`
(the page: the first 200 rows and the history panel) instead. The
commands, in turn: add, edit of the item just added, done of it, undo.
Rows: median seconds of the first and the second request, per command,
over --runs runs of --turns turns.

Binaries are taken as given: build release ones.
"""

import argparse
import concurrent.futures
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def document(count):
    stamp = "2026-01-01T00:00:00.000Z"
    items = [
        {"changed": stamp, "created": stamp, "details": "", "due": {"kind": "unknown"},
         "id": str(uuid.uuid4()).upper(), "location": {"kind": "unknown"}, "state": "active",
         "title": f"Item {index}"}
        for index in range(count)
    ]
    return {"format": "rewind-todos", "items": items, "version": 2}


def get(url):
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as answer:
        body = json.load(answer)
    return time.perf_counter() - start, body


def add_steps(port, count):
    """`count` adds through the API, on 8 connections, as the page's script sends them."""
    base = f"http://127.0.0.1:{port}"
    with urllib.request.urlopen(base + "/api/csrf", timeout=10) as answer:
        token = json.load(answer)["token"]
    headers = {"Content-Type": "application/json", "X-Rewind-CSRF": token, "Origin": base, "Sec-Fetch-Site": "same-origin"}

    def adds(share):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for index in range(share):
            connection.request("POST", "/api/todos", json.dumps({"title": f"Step {index}"}), headers)
            answer = connection.getresponse()
            answer.read()
            if answer.status != 201:
                sys.exit(f"an add answered {answer.status}")
        connection.close()

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(adds, [count // 8 + (1 if n < count % 8 else 0) for n in range(8)]))


def run(binary, fixture, turns, page):
    """Seconds of the first and the second request after each command, by command."""
    data = tempfile.mkdtemp(prefix="catch-up-")
    shutil.rmtree(data)
    shutil.copytree(fixture, data)
    port = free_port()
    server = subprocess.Popen(
        [binary, "serve", "--port", str(port), "--data-dir", data],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/health", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        get(base + "/api/todos?limit=1")
        times = {}

        def timed(word):
            if not page:
                return get(f"{base}/api/todos?search={word}&limit=5")
            start = time.perf_counter()
            with urllib.request.urlopen(base + "/todos", timeout=60) as answer:
                html = answer.read().decode()
            return time.perf_counter() - start, {"found": 1 if word in html else 0}

        def todo(*arguments):
            done = subprocess.run([binary, "todo", *arguments, "--data-dir", data], capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit(f"rewind todo {arguments}: {done.stderr}")
            return done.stdout

        for turn in range(turns):
            word = f"Fresh{turn}x{uuid.uuid4().hex[:6]}"
            added = json.loads(todo("add", word, "--json"))
            steps = [
                ("add", None),
                ("edit", ("edit", added["id"], "--title", word + " edited")),
                ("done", ("done", added["id"])),
                ("undo", ("undo",)),
            ]
            for name, command in steps:
                if command:
                    todo(*command)
                first, body = timed(word)
                if body.get("found") != 1:
                    sys.exit(f"{binary}: after {name}, the answer does not show {word}")
                second, _ = timed(word)
                times.setdefault(name, ([], []))
                times[name][0].append(first)
                times[name][1].append(second)
        return times
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(data, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--steps", type=int, default=0)
    parser.add_argument("--page", action="store_true")
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--runs", type=int, default=2)
    options = parser.parse_args()
    source = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(document(options.items), source)
    source.close()
    fixtures = {}
    try:
        for binary in options.binaries:
            fixture = tempfile.mkdtemp(prefix="catch-up-fixture-")
            subprocess.run([binary, "todo", "import", source.name, "--data-dir", fixture],
                           check=True, capture_output=True)
            if options.steps:
                port = free_port()
                server = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", fixture],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                try:
                    for _ in range(300):
                        try:
                            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).read()
                            break
                        except OSError:
                            time.sleep(0.1)
                    add_steps(port, options.steps)
                finally:
                    server.terminate()
                    server.wait()
            fixtures[binary] = fixture
        results = {binary: {} for binary in options.binaries}
        # Side by side: the binaries in turns, run after run.
        for _ in range(options.runs):
            for binary in options.binaries:
                for name, (first, second) in run(binary, fixtures[binary], options.turns, options.page).items():
                    kept = results[binary].setdefault(name, ([], []))
                    kept[0].extend(first)
                    kept[1].extend(second)
        what = "GET /todos" if options.page else "the search"
        print(f"{options.items:,} items, {options.steps:,} steps; {what}; {options.runs} runs of {options.turns} turns; median seconds")
        print(f"{'binary':<40} {'command':<6} {'first GET':>10} {'second GET':>11}")
        for binary in options.binaries:
            for name, (first, second) in results[binary].items():
                print(f"{binary:<40} {name:<6} {statistics.median(first):>10.4f} {statistics.median(second):>11.4f}")
    finally:
        os.unlink(source.name)
        for fixture in fixtures.values():
            shutil.rmtree(fixture, ignore_errors=True)


if __name__ == "__main__":
    main()
