#!/usr/bin/env python3
"""From a server's process start to its first successful `GET /`: starts the
command --runs times, one after the other, polls `GET /` on --port every
millisecond from the start, and prints each run and the median (ms). Also
prints when the process printed its first line ("running").

    python3 Benchmarks/postgres/first-request.py --port 9395 --runs 10 -- rewind serve --port 9395 --database URL

(Benchmarks/postgres/serve-start.sh seeds the database and runs this.)
The command gets this script's environment; each run is stopped with
SIGTERM and waited for before the next starts.
"""
import argparse, http.client, statistics, subprocess, sys, threading, time


def first_line(process, times):
    process.stdout.readline()
    times.append(time.perf_counter())


def one_run(command, port, timeout):
    began = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    printed = []
    reader = threading.Thread(target=first_line, args=(process, printed), daemon=True)
    reader.start()
    try:
        while True:
            if process.poll() is not None:
                sys.exit(f"first-request: the server ended with status {process.returncode} before answering")
            if time.perf_counter() - began > timeout:
                sys.exit(f"first-request: no answer to GET / within {timeout} s")
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
                connection.request("GET", "/")
                response = connection.getresponse()
                response.read()
                connection.close()
                # 303: in team mode (always with PostgreSQL) the page sends
                # to the sign-in; the server answered all the same.
                if response.status in (200, 303):
                    served = time.perf_counter()
                    break
            except (ConnectionError, OSError):
                pass
            time.sleep(0.001)
    finally:
        process.terminate()
        process.wait()
    reader.join(1)
    running = 1000 * (printed[0] - began) if printed else float("nan")
    return 1000 * (served - began), running


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()
    served = []
    for run in range(args.runs):
        ms, running = one_run(args.command, args.port, args.timeout)
        served.append(ms)
        print(f"run {run + 1}: first GET / answered after {ms:.0f} ms (first line printed after {running:.0f} ms)", flush=True)
    print(f"median of {len(served)}: {statistics.median(served):.0f} ms (min {min(served):.0f}, max {max(served):.0f})")


if __name__ == "__main__":
    main()
