"""The local cluster of scripts/cluster.sh: a throwaway PostgreSQL, two
`rewind serve` instances on it and nginx in front of them (round robin),
each test with a cluster of its own on free ports (never the tests'
PostgreSQL port, 55432).

Skipped, with the reason, when PostgreSQL or nginx is not installed.

A page of one instance hears of a change made through the other live: the
instances tell each other through PostgreSQL (NOTIFY at each commit, one
LISTEN connection per instance).
"""

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import REPO, Api, free_port
from helpers import LIVE_TIMEOUT, add_and_wait, open_todos, wait_for_titles

CLUSTER = REPO / "scripts" / "cluster.sh"
PG_BIN = Path(os.environ.get("REWIND_PG_BIN", "/usr/lib/postgresql/15/bin"))
TESTS_PG_PORT = 55432
STARTUP_TIMEOUT = 180


def missing_piece():
    """Why the cluster cannot start on this machine, or None."""
    if not (PG_BIN / "initdb").exists():
        return f"PostgreSQL is not installed ({PG_BIN}/initdb missing; Debian: apt-get install postgresql)"
    if not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        return "nginx is not installed (Debian: apt-get install nginx)"
    return None


def distinct_free_ports(count):
    ports = set()
    while len(ports) < count:
        port = free_port()
        if port != TESTS_PG_PORT:
            ports.add(port)
    return list(ports)


class Cluster:
    """One run of scripts/cluster.sh with its own directory and ports."""

    def __init__(self, rewind_bin):
        self.dir = Path(tempfile.mkdtemp(prefix="rewind-cluster-e2e-", dir="/tmp"))
        port, a_port, b_port, pg_port = distinct_free_ports(4)
        self.env = dict(
            os.environ,
            REWIND_BIN=rewind_bin,
            REWIND_CLUSTER_DIR=str(self.dir),
            REWIND_CLUSTER_PORT=str(port),
            REWIND_CLUSTER_A_PORT=str(a_port),
            REWIND_CLUSTER_B_PORT=str(b_port),
            REWIND_CLUSTER_PG_PORT=str(pg_port),
        )
        self.url = f"http://127.0.0.1:{port}"
        self.a_url = f"http://127.0.0.1:{a_port}"
        self.b_url = f"http://127.0.0.1:{b_port}"

    def run(self, command, check=True):
        result = subprocess.run(
            [str(CLUSTER), command], env=self.env, capture_output=True, text=True, timeout=STARTUP_TIMEOUT
        )
        if check and result.returncode != 0:
            raise AssertionError(
                f"scripts/cluster.sh {command} exited {result.returncode}\n{result.stdout}\n{result.stderr}"
            )
        return result

    def pid(self, name):
        return int((self.dir / f"{name}.pid").read_text().strip())


@pytest.fixture
def cluster(rewind_bin):
    reason = missing_piece()
    if reason:
        print(f"test_cluster: skipped: {reason}")
        pytest.skip(reason)
    instance = Cluster(rewind_bin)
    try:
        started = instance.run("start")
        assert started.stdout.strip().splitlines()[-1] == instance.url, started.stdout
        yield instance
    finally:
        instance.run("stop", check=False)


def mark_page(driver):
    """Marks the document, so that a test can tell a live update from a reload."""
    driver.execute_script("window.__rewindNoReload = true;")


def assert_not_reloaded(driver):
    assert driver.execute_script("return window.__rewindNoReload === true"), "the page reloaded instead of updating live"


def api(url):
    return Api(SimpleNamespace(url=url))


def wait_for(condition, message, timeout=30):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"after {timeout}s: {message}")
        time.sleep(0.05)


def answers(url):
    try:
        with urllib.request.urlopen(url + "/api/csrf", timeout=5) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, OSError):
        return False


def test_the_page_through_nginx_makes_changes_on_both_instances_and_b_shows_what_went_through_a(driver, cluster):
    open_todos(driver, cluster.url)
    assert "Rewind" in driver.title
    # Round robin: consecutive adds from the one page reach both instances,
    # which accept the page's token.
    add_and_wait(driver, "first through nginx", "second through nginx", "third through nginx")
    assert api(cluster.url).titles() == ["first through nginx", "second through nginx", "third through nginx"]

    api(cluster.a_url).add("added through A")
    open_todos(driver, cluster.b_url)
    wait_for_titles(
        driver, ["first through nginx", "second through nginx", "third through nginx", "added through A"]
    )
    # nginx's log names the instance that answered each request.
    adds = [line for line in (cluster.dir / "nginx-access.log").read_text().splitlines() if "POST /api/todos" in line]
    upstreams = {line.rsplit(" ", 1)[-1] for line in adds}
    assert upstreams == {cluster.a_url.removeprefix("http://"), cluster.b_url.removeprefix("http://")}, adds


def test_status_says_what_runs_and_a_second_start_changes_nothing(cluster):
    status = cluster.run("status")
    assert "PostgreSQL: running" in status.stdout
    assert "instance A: running" in status.stdout
    assert "instance B: running" in status.stdout
    assert "nginx: running" in status.stdout
    pids = (cluster.pid("A"), cluster.pid("B"))
    again = cluster.run("start")
    assert again.stdout.strip() == cluster.url
    assert (cluster.pid("A"), cluster.pid("B")) == pids

    os.kill(cluster.pid("B"), signal.SIGKILL)
    wait_for(lambda: not answers(cluster.b_url), "instance B to stop answering")
    stopped = cluster.run("status", check=False)
    assert stopped.returncode != 0
    assert "instance B: not running" in stopped.stdout
    cluster.run("start")
    assert answers(cluster.b_url)


def test_a_taken_port_is_named_and_nothing_is_left_running(rewind_bin):
    reason = missing_piece()
    if reason:
        pytest.skip(reason)
    instance = Cluster(rewind_bin)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", int(instance.env["REWIND_CLUSTER_A_PORT"])))
        taken.listen()
        try:
            result = instance.run("start", check=False)
        finally:
            instance.run("stop", check=False)
    assert result.returncode == 1
    assert f"port {instance.env['REWIND_CLUSTER_A_PORT']} (instance A) is taken" in result.stderr
    assert "REWIND_CLUSTER_A_PORT" in result.stderr
    assert not instance.dir.exists()


def test_killing_one_instance_during_a_burst_loses_no_acknowledged_add(cluster):
    through_nginx = api(cluster.url)
    through_nginx.token()
    acknowledged = []
    failed = []
    lock = threading.Lock()
    enough_before_kill = threading.Event()
    killed = threading.Event()
    after_kill = []

    def adder(worker):
        for index in range(40):
            title = f"burst {worker}-{index}"
            try:
                through_nginx.add(title)
            except Exception as error:  # an error answer (AssertionError) or no answer
                with lock:
                    failed.append((title, str(error)))
                continue
            with lock:
                acknowledged.append(title)
                if killed.is_set():
                    after_kill.append(title)
                if len(acknowledged) >= 20:
                    enough_before_kill.set()

    workers = [threading.Thread(target=adder, args=(worker,)) for worker in range(4)]
    for worker in workers:
        worker.start()
    assert enough_before_kill.wait(60), f"20 adds were not answered; failures: {failed[:3]}"
    os.kill(cluster.pid("A"), signal.SIGKILL)
    killed.set()
    for worker in workers:
        worker.join(120)

    print(f"burst: {len(acknowledged)} adds acknowledged ({len(after_kill)} after the kill), {len(failed)} refused")
    # Every add answered 2xx is in the database, read through B alone.
    kept = set(api(cluster.b_url).titles())
    lost = [title for title in acknowledged if title not in kept]
    assert not lost, f"acknowledged but lost: {lost}"
    # The other instance kept serving: through nginx after the kill, and on its own port.
    assert after_kill, f"no add was answered after instance A was killed; failures: {failed[:3]}"
    assert answers(cluster.b_url)
    assert answers(cluster.url)
    assert not answers(cluster.a_url)
    # Failures are answers from nginx (502) for requests A had when it died, not lost writes.
    assert all("→ 502" in error for _, error in failed), failed[:3]


def test_a_change_made_through_a_reaches_an_open_page_of_b_live(driver, cluster):
    open_todos(driver, cluster.b_url)
    mark_page(driver)
    through_a = api(cluster.a_url)
    # The first change also waits for the page's event stream and B's
    # listener to be connected.
    through_a.add("first through A")
    wait_for_titles(driver, ["first through A"])
    assert_not_reloaded(driver)
    # Then each change made through A is on B's page within LIVE_TIMEOUT
    # seconds, without a reload.
    through_a.add("second through A")
    wait_for_titles(driver, ["first through A", "second through A"], timeout=LIVE_TIMEOUT)
    through_a.request("POST", "/api/history/undo")
    wait_for_titles(driver, ["first through A"], timeout=LIVE_TIMEOUT)
    assert_not_reloaded(driver)
