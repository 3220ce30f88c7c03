#!/usr/bin/env python3
"""The client side of restart-under-load.sh: ADDRESS SESSION TOKEN DATADIR PG_BIN."""

import collections
import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

address, session, token, data_dir, pg_bin = sys.argv[1:6]
HEADERS = {
    "Content-Type": "application/json", "X-Rewind-CSRF": token, "Origin": address,
    "Sec-Fetch-Site": "same-origin", "Cookie": "rewind_session=" + session,
}


def call(method, path, body=None):
    request = urllib.request.Request(
        address + path, method=method, headers=HEADERS,
        data=None if body is None else json.dumps(body).encode())
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


ids = [call("POST", "/api/todos", {"title": f"Restart {n}"})[1]["id"] for n in range(8)]
counts = collections.Counter()
failures = collections.Counter()
lock = threading.Lock()
stop = threading.Event()


def client(number):
    turn = 0
    while not stop.is_set():
        if number == 0:
            kind = "undo" if turn % 2 == 0 else "redo"
            status, body = call("POST", f"/api/history/{kind}")
        else:
            kind = "toggle"
            status, body = call("POST", f"/api/todos/{ids[(number + turn) % len(ids)]}/toggle")
        with lock:
            counts[f"{kind} {status // 100}xx"] += 1
            if status >= 500:
                failures[f"{kind}: {body.get('error', '')[:120]}"] += 1
        turn += 1


clients = [threading.Thread(target=client, args=(number,)) for number in range(4)]
for thread in clients:
    thread.start()
time.sleep(2)
started = time.time()
subprocess.run(["runuser", "-u", "postgres", "--", pg_bin + "/pg_ctl", "-D", data_dir, "-m", "fast", "-w", "restart"],
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
restart = time.time() - started
time.sleep(6)
stop.set()
for thread in clients:
    thread.join()
print(f"restart {restart:.2f} s; " + ", ".join(f"{kind}: {count}" for kind, count in sorted(counts.items())))
print(f"5xx: {sum(failures.values())}")
for failure, count in failures.most_common():
    print(f"  {count} × {failure}")
