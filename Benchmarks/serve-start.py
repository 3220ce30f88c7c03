#!/usr/bin/env python3
"""How long `rewind serve` takes, from its start, to listen and to answer its
first to-do page, on a copy of a data directory; any number of binaries in
turns, so that their figures come from one run.

    python3 Benchmarks/serve-start.py --make 100000 /tmp/big     # writes /tmp/big/rewind.sqlite
    python3 Benchmarks/serve-start.py --data-dir /tmp/big OLD/rewind NEW/rewind --runs 3

`--make N DIR` writes a store of N items and N `do` steps (one "Add" per
item) with Python's sqlite3, in the schema of a store that `rewind todo add`
made (the first binary given with --binary, else `rewind` on PATH), as
`StoreProfile build` does without building the benchmarks package.

Each run copies the file, starts `BINARY serve --port PORT --data-dir COPY`,
and prints the milliseconds to the "running" line, to the first answer of
GET /api/csrf, to the first byte and to the end of GET /todos.
"""
import argparse, json, os, random, shutil, socket, sqlite3, subprocess, tempfile, time, urllib.request, uuid


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make(directory, count, binary):
    os.makedirs(directory, exist_ok=True)
    with tempfile.TemporaryDirectory() as seed:
        subprocess.run([binary, "todo", "add", "seed", "--data-dir", seed], check=True, stdout=subprocess.DEVNULL)
        shutil.copy(os.path.join(seed, "rewind.sqlite"), os.path.join(directory, "rewind.sqlite"))
    db = sqlite3.connect(os.path.join(directory, "rewind.sqlite"))
    db.execute("DELETE FROM item")
    db.execute("DELETE FROM step")
    rng = random.Random(count)
    start = 1_795_450_122_093
    iso = "2026-11-23T16:08:42.093Z"
    items, steps = [], []
    for n in range(count):
        ident = str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper()
        title = f"Item {n}: buy milk"
        items.append((ident, float(n), title, "", "unfinished", start + n, start + n, None, None))
        forward = json.dumps([{"item": {"changed": iso, "created": iso, "details": "", "due": {"kind": "unknown"},
                                        "id": ident, "location": {"kind": "unknown"}, "state": "unfinished",
                                        "title": title}, "op": "add"}], separators=(",", ":"))
        inverse = json.dumps([{"id": ident, "op": "remove"}], separators=(",", ":"))
        steps.append((n + 1, "do", f"Add “{title}”", start + n, "local", None, n, n + 1, None, None, None, forward, inverse))
    db.executemany("INSERT INTO item VALUES (?,?,?,?,?,?,?,?,?)", items)
    db.executemany("INSERT INTO step VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", steps)
    db.commit()
    db.close()


def run(binary, data_dir):
    work = tempfile.mkdtemp(prefix="serve-start-")
    try:
        shutil.copy(os.path.join(data_dir, "rewind.sqlite"), work)
        port = free_port()
        began = time.perf_counter()
        server = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", work],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            server.stdout.readline()
            running = time.perf_counter()
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/csrf").read()
            csrf = time.perf_counter()
            page = urllib.request.urlopen(f"http://127.0.0.1:{port}/todos")
            size = len(page.read(1))
            first = time.perf_counter()
            size += len(page.read())
            done = time.perf_counter()
        finally:
            server.terminate()
            server.wait()
        ms = lambda t: f"{1000 * (t - began):.0f}"
        print(f"{binary}: running {ms(running)} ms, /api/csrf {ms(csrf)} ms, "
              f"/todos first byte {ms(first)} ms, complete {ms(done)} ms ({size} B)", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="*")
    parser.add_argument("--data-dir")
    parser.add_argument("--make", nargs=2, metavar=("N", "DIR"))
    parser.add_argument("--binary", default="rewind", help="the binary --make seeds the schema with")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    if args.make:
        make(args.make[1], int(args.make[0]), args.binary)
    if args.binaries:
        if not args.data_dir:
            parser.error("--data-dir is needed to time binaries")
        print(f"load: {os.getloadavg()}")
        for _ in range(args.runs):
            for binary in args.binaries:
                run(binary, args.data_dir)
        print(f"load: {os.getloadavg()}")


if __name__ == "__main__":
    main()
