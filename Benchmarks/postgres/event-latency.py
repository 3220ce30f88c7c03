#!/usr/bin/env python3
"""From a change on one instance to the event on another: keeps `GET /events`
open on instance B, adds an item through `POST /api/todos` on instance A,
one at a time, and times from the moment the POST is sent to the arrival of
B's `todos` event; prints p50/p90/p99/max.

    python3 Benchmarks/postgres/event-latency.py --a 9391 --b 9392 --token TOKEN --session COOKIE --changes 1000

(--session: the `rewind_session` cookie of a signed-in session, as
scripts/rewind_session.py prints it, for instances in team mode; the token
is then that session's.)

(Benchmarks/postgres/event-latency.sh starts the cluster and runs this.)
Each change waits for its event (at most --timeout seconds; a change whose
event does not come is counted and reported, and the run fails) before the
next one is sent. The first --warmup changes are not counted.
"""
import argparse, http.client, json, math, queue, sys, threading, time


def listen(port, session, events, ready):
    """Reads B's event stream; puts (arrival time, id) for every `todos` event."""
    connection = http.client.HTTPConnection("127.0.0.1", port)
    try:
        connection.request("GET", "/events", headers=cookie_header(session))
        response = connection.getresponse()
    except OSError as error:
        print(f"event-latency: GET /events on port {port}: {error}", file=sys.stderr)
        events.put(None)
        return
    if response.status != 200:
        print(f"event-latency: GET /events on port {port} answered {response.status}", file=sys.stderr)
        events.put(None)
        return
    kind, ident = None, None
    while True:
        line = response.readline()
        if not line:
            events.put(None)
            return
        text = line.decode("utf-8").rstrip("\r\n")
        if text == ": connected":
            ready.set()
        elif text.startswith("event:"):
            kind = text[6:].strip()
        elif text.startswith("id:"):
            ident = text[3:].strip()
        elif text == "":
            if kind == "todos":
                events.put((time.perf_counter(), ident))
            kind, ident = None, None


def cookie_header(session):
    """The session's cookie as a header, or none without a session."""
    return {"Cookie": "rewind_session=" + session} if session else {}


def percentile(values, fraction):
    """The nearest-rank percentile of sorted values."""
    return values[max(0, math.ceil(fraction * len(values)) - 1)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", type=int, required=True, help="instance A's port (the change)")
    parser.add_argument("--b", type=int, required=True, help="instance B's port (the event stream)")
    parser.add_argument("--token", required=True, help="the CSRF token both instances accept")
    parser.add_argument("--session", default="", help="the rewind_session cookie (team mode)")
    parser.add_argument("--changes", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for one event")
    args = parser.parse_args()

    events, ready = queue.Queue(), threading.Event()
    threading.Thread(target=listen, args=(args.b, args.session, events, ready), daemon=True).start()
    deadline = time.monotonic() + 10
    while not ready.wait(0.05):
        if not events.empty() or time.monotonic() > deadline:
            sys.exit("event-latency: instance B's event stream did not open")

    origin = f"http://127.0.0.1:{args.a}"
    headers = {"Content-Type": "application/json", "X-Rewind-CSRF": args.token,
               "Origin": origin, "Sec-Fetch-Site": "same-origin", **cookie_header(args.session)}
    connection = http.client.HTTPConnection("127.0.0.1", args.a)
    latencies, missed, ids = [], 0, []
    for n in range(args.warmup + args.changes):
        while not events.empty():
            if events.get_nowait() is None:
                sys.exit("event-latency: instance B closed its event stream")
        body = json.dumps({"title": f"Event latency {n}"})
        sent = time.perf_counter()
        connection.request("POST", "/api/todos", body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        if response.status // 100 != 2:
            sys.exit(f"event-latency: POST /api/todos on A answered {response.status}")
        try:
            arrival = events.get(timeout=args.timeout)
        except queue.Empty:
            missed += 1
            continue
        if arrival is None:
            sys.exit("event-latency: instance B closed its event stream")
        if n >= args.warmup:
            latencies.append(1000 * (arrival[0] - sent))
            ids.append(arrival[1])
    if len(set(ids)) != len(ids):
        print(f"event-latency: {len(ids) - len(set(ids))} events repeated an id", file=sys.stderr)
    latencies.sort()
    if latencies:
        print(f"changes {len(latencies)} (after {args.warmup} not counted), missed {missed}: "
              f"p50 {percentile(latencies, 0.50):.1f} ms, p90 {percentile(latencies, 0.90):.1f} ms, "
              f"p99 {percentile(latencies, 0.99):.1f} ms, max {latencies[-1]:.1f} ms")
    if missed:
        sys.exit(f"event-latency: {missed} changes had no event on B within {args.timeout} s")


if __name__ == "__main__":
    main()
