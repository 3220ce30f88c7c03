#!/usr/bin/env python3
"""The to-do page over a long list, as a person meets it in a browser: for
each binary given, in turns, `rewind serve` over the same list of --items
items (a copy of one data directory, imported once), then in headless
Chromium:

- load: from asking for /todos to the page's script having started (the
  new-item field has the focus);
- add: from Enter in the new-item field to the new row in the list;
- undo: from Ctrl+Z to the row gone;

and, with `curl`'s figures, the size of /todos/fragment. Prints each round
and the medians (ms), binary by binary.

    python3 Benchmarks/long-list-page.py --items 100000 --rounds 5 BEFORE/rewind AFTER/rewind

Needs chromium, chromium-driver and selenium (as the browser tests do:
`pip install -r e2e/requirements.txt`); the binary's resource bundles
beside it (`cp -r .build/release/*.resources DIR/`).
"""
import argparse, json, os, random, shutil, socket, statistics, subprocess, sys, tempfile, time, urllib.request, uuid

os.environ.setdefault("SE_OFFLINE", "true")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

TIMEOUT = 300


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def seed(binary, home, items):
    rng = random.Random(items)
    words = "milk bread call mum fix bike pay rent book flight walk dog clean desk write report".split()
    export = {"format": "rewind-todos", "version": 2, "items": [{
        "id": str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper(),
        "title": " ".join(rng.choice(words) for _ in range(3)) + f" {n}",
        "details": "", "state": "completed" if n % 3 == 0 else "active",
        "created": "2026-01-01T00:00:00.000Z", "changed": "2026-01-01T00:00:00.000Z",
    } for n in range(items)]}
    path = os.path.join(home, "items.json")
    with open(path, "w") as file:
        json.dump(export, file)
    subprocess.run([binary, "todo", "import", path], env=dict(os.environ, HOME=home), check=True,
                   stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)


def wait_for(driver, script, what):
    began = time.perf_counter()
    while not driver.execute_script(script):
        if time.perf_counter() - began > TIMEOUT:
            sys.exit(f"long-list-page: waited {TIMEOUT} s for {what}")
        time.sleep(0.005)


def one_round(binary, seeded, number):
    home = tempfile.mkdtemp(prefix="rw-bench-page.")
    shutil.rmtree(home)
    shutil.copytree(seeded, home)
    port = free_port()
    server = subprocess.Popen([binary, "serve", "--port", str(port)], env=dict(os.environ, HOME=home),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        server.stdout.readline()
        base = f"http://127.0.0.1:{port}"
        began = time.perf_counter()
        fragment = urllib.request.urlopen(base + "/todos/fragment", timeout=TIMEOUT).read()
        fragment_ms = (time.perf_counter() - began) * 1000
        options = webdriver.ChromeOptions()
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        driver.set_page_load_timeout(TIMEOUT)
        driver.set_script_timeout(TIMEOUT)
        try:
            began = time.perf_counter()
            driver.get(base + "/todos")
            wait_for(driver, "return document.activeElement && document.activeElement.classList.contains('new-todo')",
                     "the page's script")
            load = (time.perf_counter() - began) * 1000
            title = f"Benchmark item {number}"
            shown = f"return Array.from(document.querySelectorAll('.todo-list label')).some(l => l.textContent === '{title}')"
            field = driver.find_element(By.CSS_SELECTOR, ".new-todo")
            began = time.perf_counter()
            field.send_keys(title, Keys.ENTER)
            wait_for(driver, shown, "the added row")
            add = (time.perf_counter() - began) * 1000
            driver.find_element(By.CSS_SELECTOR, "section.todoapp h1").click()
            began = time.perf_counter()
            ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
            wait_for(driver, "return !(" + shown[len("return "):] + ")", "the row to go")
            undo = (time.perf_counter() - began) * 1000
        finally:
            driver.quit()
        return {"load": load, "add": add, "undo": undo, "fragment_ms": fragment_ms, "fragment_bytes": len(fragment)}
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(home, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("binaries", nargs="+")
    arguments = parser.parse_args()
    seeded = tempfile.mkdtemp(prefix="rw-bench-seed.")
    try:
        seed(arguments.binaries[0], seeded, arguments.items)
        results = {binary: [] for binary in arguments.binaries}
        for number in range(arguments.rounds):
            for binary in arguments.binaries:
                result = one_round(binary, seeded, number)
                results[binary].append(result)
                print(f"round {number + 1} {binary}: load {result['load']:.0f} ms, add {result['add']:.0f} ms, "
                      f"undo {result['undo']:.0f} ms; /todos/fragment {result['fragment_bytes']:,} B "
                      f"in {result['fragment_ms']:.0f} ms; load {os.getloadavg()[0]:.1f}", flush=True)
        print(f"\n{arguments.items:,} items, {arguments.rounds} rounds in turns, medians:")
        print("| binary | load | add | undo | /todos/fragment |")
        print("|---|---:|---:|---:|---:|")
        for binary, rounds in results.items():
            def median(key):
                return statistics.median(r[key] for r in rounds)
            print(f"| {binary} | {median('load'):,.0f} ms | {median('add'):,.0f} ms | {median('undo'):,.0f} ms | "
                  f"{median('fragment_bytes'):,.0f} B, {median('fragment_ms'):,.0f} ms |")
    finally:
        shutil.rmtree(seeded, ignore_errors=True)


if __name__ == "__main__":
    main()
