"""The local cluster of scripts/cluster.sh: a throwaway PostgreSQL, two
`rewind serve` instances on it and nginx in front of them (round robin; the
team list's changes, a shared list's requests and the calculator's each to
one instance, by a key),
each test with a cluster of its own on free ports (never the tests'
PostgreSQL port, 55432), or on the ports and in the directory that
REWIND_CLUSTER_PORT, REWIND_CLUSTER_A_PORT, REWIND_CLUSTER_B_PORT,
REWIND_CLUSTER_PG_PORT and REWIND_CLUSTER_DIR name when they are set (the
tests then run one cluster at a time, as they do).

Skipped, with the reason, when PostgreSQL or nginx is not installed.

A page of one instance hears of a change made through the other live: the
instances tell each other through PostgreSQL (NOTIFY at each commit, one
LISTEN connection per instance).

With PostgreSQL the instances are in team mode: the cluster script makes the
account `admin` (with the password of REWIND_CLUSTER_PASSWORD here), and
every test signs in once through nginx; the session, kept in the database,
is accepted by both instances.
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest
from selenium.webdriver.common.by import By

from conftest import REPO, Api, free_port
from helpers import LIVE_TIMEOUT, add_account, add_and_wait, css, open_todos, wait_for_titles

sys.path.insert(0, str(REPO / "scripts"))
from rewind_session import sign_in  # noqa: E402

CLUSTER = REPO / "scripts" / "cluster.sh"
PG_BIN = Path(os.environ.get("REWIND_PG_BIN", "/usr/lib/postgresql/15/bin"))
TESTS_PG_PORT = 55432
STARTUP_TIMEOUT = 180
ACCOUNT = "admin"
PASSWORD = "cluster test password"


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


CLUSTER_PORT_VARIABLES = ("REWIND_CLUSTER_PORT", "REWIND_CLUSTER_A_PORT", "REWIND_CLUSTER_B_PORT", "REWIND_CLUSTER_PG_PORT")


def cluster_ports():
    """The four ports the environment names, or four free ones."""
    if all(os.environ.get(name) for name in CLUSTER_PORT_VARIABLES):
        return [int(os.environ[name]) for name in CLUSTER_PORT_VARIABLES]
    return distinct_free_ports(4)


def cluster_dir():
    """REWIND_CLUSTER_DIR (which must not exist yet), or a new directory under /tmp."""
    named = os.environ.get("REWIND_CLUSTER_DIR")
    if named:
        path = Path(named)
        assert not path.exists(), f"REWIND_CLUSTER_DIR={named} exists: another cluster runs there, or a stopped one left it"
        return path
    return Path(tempfile.mkdtemp(prefix="rewind-cluster-e2e-", dir="/tmp"))


class Cluster:
    """One run of scripts/cluster.sh with its own directory and ports."""

    def __init__(self, rewind_bin):
        self.dir = cluster_dir()
        port, a_port, b_port, pg_port = cluster_ports()
        self.pg_port = pg_port
        self.env = dict(
            os.environ,
            REWIND_BIN=rewind_bin,
            REWIND_CLUSTER_DIR=str(self.dir),
            REWIND_CLUSTER_PORT=str(port),
            REWIND_CLUSTER_A_PORT=str(a_port),
            REWIND_CLUSTER_B_PORT=str(b_port),
            REWIND_CLUSTER_PG_PORT=str(pg_port),
            REWIND_CLUSTER_PASSWORD=PASSWORD,
        )
        # The session of ACCOUNT, once signed in (sign_in_once).
        self.session = None
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

    def sign_in_once(self):
        """Signs ACCOUNT in through nginx; both instances accept the session."""
        self.session, _ = sign_in(self.url, ACCOUNT, PASSWORD)

    def api(self, url):
        """The API of `url` (nginx or one instance) in the signed-in session."""
        return Api(SimpleNamespace(url=url), session=self.session)

    def sign_in_browser(self, driver):
        """Gives `driver` the session: its cookie is the site's, whatever the port."""
        driver.get(self.url + "/signin")
        driver.add_cookie({"name": "rewind_session", "value": self.session, "path": "/", "httpOnly": True})

    def pid(self, name):
        return int((self.dir / f"{name}.pid").read_text().strip())

    def as_postgres(self, *command):
        """Runs one of PostgreSQL's programs as the `postgres` user, as the cluster script does."""
        prefix = [] if os.geteuid() != 0 else ["runuser", "-u", "postgres", "--"]
        return subprocess.run(prefix + list(command), capture_output=True, text=True, timeout=STARTUP_TIMEOUT)

    def restart_postgres(self):
        """`pg_ctl restart -m fast`, waiting until the server accepts connections again."""
        data = self.dir / "postgres" / "data"
        result = self.as_postgres(
            str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(self.dir / "postgres" / "server.log"),
            "-m", "fast", "-w", "-t", "60", "restart",
        )
        assert result.returncode == 0, f"pg_ctl restart exited {result.returncode}\n{result.stdout}\n{result.stderr}"

    def sql(self, query):
        """The rows of `query`, run as the superuser through the cluster's socket, as lists of strings."""
        result = self.as_postgres(
            str(PG_BIN / "psql"), "-h", str(self.dir / "postgres"), "-p", str(self.pg_port), "-U", "postgres",
            "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-qAt", "-F", "\t", "-c", query,
        )
        assert result.returncode == 0, f"psql: {result.stderr}"
        return [line.split("\t") for line in result.stdout.splitlines() if line]

    def database_ports(self, name):
        """The local ports of instance `name`'s connections to PostgreSQL (read from /proc)."""
        sockets = set()
        fd_dir = Path(f"/proc/{self.pid(name)}/fd")
        for fd in fd_dir.iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                sockets.add(target[len("socket:["):-1])
        ports = set()
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            fields = line.split()
            local, remote, inode = fields[1], fields[2], fields[9]
            if inode in sockets and int(remote.split(":")[1], 16) == self.pg_port:
                ports.add(int(local.split(":")[1], 16))
        return ports

    def listener_started(self, name):
        """When instance `name`'s listening connection started (seconds since the epoch), or None
        while it has none."""
        ports = self.database_ports(name)
        if not ports:
            return None
        rows = self.sql(
            "SELECT extract(epoch FROM backend_start), pid FROM pg_stat_activity "
            f"WHERE application_name = 'rewind-{name.lower()} listen' AND client_port IN ({', '.join(map(str, ports))})"
        )
        return float(rows[0][0]) if rows else None

    def end_listener(self, name):
        """Ends instance `name`'s listening connection from the server's side."""
        ports = self.database_ports(name)
        if ports:
            self.sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE application_name = 'rewind-{name.lower()} listen' AND client_port IN ({', '.join(map(str, ports))})"
            )


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
        assert f"sign in as {ACCOUNT}" in started.stderr, started.stderr
        instance.sign_in_once()
        yield instance
    finally:
        instance.run("stop", check=False)


def mark_page(driver):
    """Marks the document, so that a test can tell a live update from a reload."""
    driver.execute_script("window.__rewindNoReload = true;")


def assert_not_reloaded(driver):
    assert driver.execute_script("return window.__rewindNoReload === true"), "the page reloaded instead of updating live"


def wait_for(condition, message, timeout=30):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"after {timeout}s: {message}")
        time.sleep(0.05)


def answers(url):
    """Whether `url` answers at all (a document open without a sign-in)."""
    try:
        with urllib.request.urlopen(url + "/openapi.yaml", timeout=5) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, OSError):
        return False


def test_the_page_through_nginx_sends_the_team_lists_changes_to_one_instance_and_its_reads_to_both(driver, cluster):
    """nginx sends every change of the team's list to one instance (which
    then holds the list and writes its changes in batches, with no other
    instance's rows to read first) and its reads, pages and event streams
    to either; a change made on the other instance reaches the page live."""
    cluster.sign_in_browser(driver)
    open_todos(driver, cluster.url)
    assert "Rewind" in driver.title
    both = {upstream(cluster.a_url), upstream(cluster.b_url)}
    earlier = len(access_log(cluster))
    titles = ["first through nginx", "second through nginx", "third through nginx"]
    for title in titles:
        add_and_wait(driver, title)
    through_nginx = cluster.api(cluster.url)
    # Round robin: of consecutive reads, some go to each instance.
    for _ in range(6):
        assert through_nginx.titles() == titles
    since = access_log(cluster)[earlier:]
    writers = add_upstreams(cluster, earlier)
    assert len(writers) == 1, answered(since)
    readers = {line.rsplit(" ", 1)[-1] for line in since if re.search(r'"GET /api/todos[ ?]', line)}
    assert readers == both, answered(since)

    other = cluster.b_url if writers == {upstream(cluster.a_url)} else cluster.a_url
    cluster.api(other).add("added on the other instance")
    wait_for_titles(driver, titles + ["added on the other instance"])
    open_todos(driver, other)
    wait_for_titles(driver, titles + ["added on the other instance"])


def test_a_browsers_calculator_through_nginx_is_kept_by_one_instance_and_served_by_the_other_when_it_goes(
    driver, cluster
):
    """nginx sends the calculator's page and API to one instance, so that
    every key press and reload through nginx finds the calculator in its
    memory; the calculator is in the database, so when that instance goes
    the other serves it as it was, with its undo, and the first one, started
    again, shows what the other made of it."""
    cluster.sign_in_browser(driver)
    earlier = len(access_log(cluster))
    open_calculator(driver, cluster.url)
    for key in ("1", "2", "+", "3", "="):
        css(driver, f".keypad .key[data-key='{key}']").click()
    wait_for(lambda: calculator_display(driver) == "15", f"the display to read 15 (it reads {calculator_display(driver)!r})")
    for _ in range(3):
        open_calculator(driver, cluster.url)
        assert calculator_display(driver) == "15"
    since = [line for line in access_log(cluster)[earlier:] if re.match(r'[A-Z]+ /(?:api/)?calculator', line.split('"')[1])]
    assert len(since) >= 9, answered(since)
    served_by = {line.rsplit(" ", 1)[-1] for line in since}
    assert len(served_by) == 1, answered(since)

    gone = "A" if served_by == {upstream(cluster.a_url)} else "B"
    os.kill(cluster.pid(gone), signal.SIGKILL)
    gone_url = cluster.a_url if gone == "A" else cluster.b_url
    wait_for(lambda: not answers(gone_url), f"instance {gone} to be gone")
    # The page (a GET, which nginx passes on to the other instance).
    open_calculator(driver, cluster.url)
    assert calculator_display(driver) == "15"
    assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#calc-tape li")] == ["12 + 3 = 15"]
    css(driver, "#calc-undo").click()
    wait_for(lambda: calculator_display(driver) == "3", f"undo to show 3 (it shows {calculator_display(driver)!r})")
    cluster.run("start")
    assert answers(gone_url)
    open_calculator(driver, cluster.url)
    assert calculator_display(driver) == "3"


def open_calculator(driver, base_url):
    driver.get(base_url + "/calculator")
    wait_for(lambda: driver.execute_script("return document.readyState") == "complete", "the calculator to load")
    css(driver, "#calc-display")


def calculator_display(driver):
    return css(driver, "#calc-display").text


def answered(lines):
    """Each request of nginx's log lines, the path cut short, and the instance that answered it."""
    return [line.split('"')[1][:40] + " → " + line.rsplit(" ", 1)[-1] for line in lines]


def upstream(url):
    """How nginx's log names the instance at `url`."""
    return url.removeprefix("http://")


def access_log(cluster):
    """nginx's access log: one line per request, ending with the instance that answered."""
    return (cluster.dir / "nginx-access.log").read_text().splitlines()


def add_upstreams(cluster, earlier):
    """The instances that answered adds after the first `earlier` lines of the log."""
    return {line.rsplit(" ", 1)[-1] for line in access_log(cluster)[earlier:] if "POST /api/todos" in line}


def test_status_says_what_runs_and_a_second_start_changes_nothing(cluster):
    status = cluster.run("status")
    assert "PostgreSQL: running" in status.stdout
    assert "instance A: running" in status.stdout
    assert "instance B: running" in status.stdout
    assert "nginx: running" in status.stdout
    # With PostgreSQL the instances are in team mode without --accounts:
    # nothing is served without a session, through nginx or directly.
    for url in (cluster.url, cluster.a_url, cluster.b_url):
        assert answer_of(url, "")[0] == 401, url
        assert answer_of(url, cluster.session)[0] == 200, url
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


def test_the_health_checks_follow_postgresql_and_status_shows_them(cluster):
    """`GET /healthz` of each instance (and through nginx) answers 200 with no
    session, by the instance's address or any other `Host`; with PostgreSQL
    stopped, each instance answers 503 within the connect timeout and
    `status` says which; `start` brings PostgreSQL back and both answer 200
    again within 10 seconds."""
    for url in (cluster.a_url, cluster.b_url, cluster.url):
        assert answer_of(url, "", "/healthz") == (200, {"status": "ok"}), url
    by_address = urllib.request.Request(cluster.a_url + "/healthz", headers={"Host": f"10.0.0.5:{cluster.a_url.rsplit(':', 1)[1]}"})
    with urllib.request.urlopen(by_address, timeout=10) as response:
        assert response.status == 200
    running = cluster.run("status")
    assert "instance A: running" in running.stdout and "instance B: running" in running.stdout
    assert running.stdout.count(", healthy") == 2, running.stdout

    stopped = cluster.as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(cluster.dir / "postgres" / "data"), "-m", "fast", "-w", "stop")
    assert stopped.returncode == 0, stopped.stderr
    try:
        for url in (cluster.a_url, cluster.b_url):
            started = time.monotonic()
            status, body = answer_of(url, "", "/healthz")
            took = time.monotonic() - started
            print(f"health: {url} answered {status} in {took:.2f}s with PostgreSQL stopped")
            assert status == 503, (url, status, body)
            assert isinstance(body, dict) and body.get("error"), body
            assert took < 6.5, took
        unhealthy = cluster.run("status", check=False)
        assert unhealthy.returncode != 0
        assert "PostgreSQL: not running" in unhealthy.stdout
        assert unhealthy.stdout.count("/healthz answers") == 2, unhealthy.stdout
    finally:
        cluster.run("start")
    back = time.monotonic()
    for url in (cluster.a_url, cluster.b_url):
        wait_for(lambda: answer_of(url, "", "/healthz")[0] == 200, f"{url}/healthz to answer 200",
                 timeout=back + 10 - time.monotonic())
    print(f"health: both instances healthy {time.monotonic() - back:.2f}s after `start`")


def test_a_taken_port_is_named_and_nothing_is_left_running(rewind_bin):
    reason = missing_piece()
    if reason:
        pytest.skip(reason)
    instance = Cluster(rewind_bin)
    with socket.socket() as taken:
        # The port may be one a cluster of an earlier test used (REWIND_CLUSTER_A_PORT),
        # with connections still in TIME_WAIT.
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
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


def test_a_directory_the_script_did_not_make_is_neither_used_nor_deleted(rewind_bin, tmp_path):
    reason = missing_piece()
    if reason:
        pytest.skip(reason)
    instance = Cluster(rewind_bin)
    if instance.dir.exists():
        instance.dir.rmdir()
    precious = tmp_path / "documents"
    precious.mkdir()
    (precious / "thesis.txt").write_text("precious")
    instance.dir = precious
    instance.env["REWIND_CLUSTER_DIR"] = str(precious)
    stopped = instance.run("stop", check=False)
    assert stopped.returncode == 1
    assert "is not a cluster's directory; nothing was stopped or deleted" in stopped.stderr
    started = instance.run("start", check=False)
    assert started.returncode == 1
    assert "holds files this script did not make" in started.stderr
    assert (precious / "thesis.txt").read_text() == "precious"
    assert sorted(p.name for p in precious.iterdir()) == ["thesis.txt"]


def test_killing_one_instance_during_a_burst_loses_no_acknowledged_add(cluster):
    through_nginx = cluster.api(cluster.url)
    through_nginx.token()
    earlier = len(access_log(cluster))
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
    # The instance that takes the team list's changes (nginx sends them all to one).
    writers = add_upstreams(cluster, earlier)
    assert len(writers) == 1, writers
    (killed_name, survivor), = [
        (name, other) for name, url, other in (("A", cluster.a_url, cluster.b_url), ("B", cluster.b_url, cluster.a_url))
        if upstream(url) in writers
    ]
    os.kill(cluster.pid(killed_name), signal.SIGKILL)
    killed.set()
    for worker in workers:
        worker.join(120)

    print(f"burst: {len(acknowledged)} adds acknowledged ({len(after_kill)} after the kill), {len(failed)} refused")
    # Every add answered 2xx is in the database, read through the other instance alone.
    kept = set(cluster.api(survivor).titles())
    lost = [title for title in acknowledged if title not in kept]
    assert not lost, f"acknowledged but lost: {lost}"
    # The other instance kept serving, and took the changes: through nginx
    # after the kill, and on its own port.
    assert after_kill, f"no add was answered after instance {killed_name} was killed; failures: {failed[:3]}"
    assert answers(survivor)
    assert answers(cluster.url)
    assert not answers(cluster.a_url if killed_name == "A" else cluster.b_url)
    # Failures are answers from nginx (502) for requests the killed instance had when it died, not lost writes.
    other = [(title, error[:300]) for title, error in failed if "→ 502" not in error]
    assert not other, f"failures other than nginx's 502: {other}"


def test_restarting_postgresql_during_a_burst_of_adds_loses_no_acknowledged_add(cluster):
    """Adds through nginx to the team's list and to a shared list while
    PostgreSQL restarts (`-m fast`, which ends every backend, also one in the
    middle of a commit): each add is answered 2xx or 503, and every add
    answered 2xx is in the database afterwards, once."""
    through_nginx = cluster.api(cluster.url)
    through_nginx.token()
    shared = through_nginx.request("POST", "/api/lists", {"name": "Restart"})["id"]
    paths = {"team": "/api/todos", "shared": f"/api/lists/{shared}/todos"}
    acknowledged = {"team": [], "shared": []}
    failed = []
    lock = threading.Lock()
    adding = threading.Event()
    adding.set()

    def adder(worker, where):
        index = 0
        while adding.is_set() and index < 400:
            title = f"restart {where} {worker}-{index}"
            index += 1
            try:
                through_nginx.request("POST", paths[where], {"title": title})
            except Exception as error:
                with lock:
                    failed.append((title, str(error)))
                time.sleep(0.05)
                continue
            with lock:
                acknowledged[where].append(title)

    workers = [threading.Thread(target=adder, args=(worker, where)) for worker in range(3) for where in paths]
    for worker in workers:
        worker.start()
    wait_for(lambda: len(acknowledged["team"]) >= 20 and len(acknowledged["shared"]) >= 20, "adds before the restart", timeout=60)
    before = {where: len(titles) for where, titles in acknowledged.items()}
    cluster.restart_postgres()
    back = time.monotonic()
    wait_for(
        lambda: all(len(acknowledged[where]) > before[where] + 20 for where in paths), "adds after the restart", timeout=30
    )
    adding.clear()
    for worker in workers:
        worker.join(60)
    print(
        f"restart burst: {len(acknowledged['team'])} team adds and {len(acknowledged['shared'])} shared adds acknowledged, "
        f"{len(failed)} refused; adds again {time.monotonic() - back:.1f}s after PostgreSQL was back"
    )
    other = [(title, error[:300]) for title, error in failed if "→ 503" not in error]
    assert not other, f"failures other than 503: {other}"
    # Every acknowledged add is saved, once, read through each instance.
    for url in (cluster.a_url, cluster.b_url):
        api = cluster.api(url)
        team = api.titles()
        items = api.get(f"/api/lists/{shared}")["items"]
        kept = {"team": team, "shared": [item["title"] for item in items]}
        for where in paths:
            lost = [title for title in acknowledged[where] if title not in kept[where]]
            assert not lost, f"{where}: acknowledged but lost on {url}: {lost}"
            twice = sorted({title for title in kept[where] if kept[where].count(title) > 1})
            assert not twice, f"{where}: saved twice on {url}: {twice}"


def test_a_shared_lists_requests_through_nginx_go_to_one_instance_and_to_the_other_when_it_is_down(cluster):
    """nginx sends a shared list's pages and API to one instance, chosen by
    the list's id, so that the instance that holds the list makes its
    changes; when that instance is down, to the other, with nothing lost."""
    through_nginx = cluster.api(cluster.url)
    through_nginx.token()
    lists = [through_nginx.request("POST", "/api/lists", {"name": f"List {n}"})["id"] for n in range(8)]
    earlier = len(access_log(cluster))
    for shared in lists:
        for n in range(4):
            through_nginx.request("POST", f"/api/lists/{shared}/todos", {"title": f"item {n}"})
        through_nginx.get(f"/api/lists/{shared}")
    answered_by = {}
    for line in access_log(cluster)[earlier:]:
        for shared in lists:
            if f"/api/lists/{shared}" in line:
                answered_by.setdefault(shared, set()).add(line.rsplit(" ", 1)[-1])
    assert all(len(upstreams) == 1 for upstreams in answered_by.values()), answered_by
    # Eight ids spread over both instances (the chance that all eight hash to one is 1 in 128).
    assert len(set().union(*answered_by.values())) == 2, answered_by

    a_upstream = f"127.0.0.1:{cluster.a_url.rsplit(':', 1)[-1]}"
    on_a = [shared for shared in lists if answered_by[shared] == {a_upstream}]
    os.kill(cluster.pid("A"), signal.SIGKILL)
    wait_for(lambda: not answers(cluster.a_url), "instance A to be gone")
    for shared in on_a:
        # A read first: nginx passes it on to B when a connection it kept
        # open to A fails (it never sends a POST again once sent).
        through_nginx.get(f"/api/lists/{shared}")
        through_nginx.request("POST", f"/api/lists/{shared}/todos", {"title": "after A went"})
        titles = [item["title"] for item in through_nginx.get(f"/api/lists/{shared}")["items"]]
        assert titles == ["item 0", "item 1", "item 2", "item 3", "after A went"], (shared, titles)


def test_a_change_made_through_a_reaches_an_open_page_of_b_live(driver, cluster):
    cluster.sign_in_browser(driver)
    open_todos(driver, cluster.b_url)
    mark_page(driver)
    through_a = cluster.api(cluster.a_url)
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


def answer_of(url, session, path="/api/todos"):
    """GET `path` in `session`: (status, decoded JSON body or None), never raising."""
    request = urllib.request.Request(
        url + path, headers={"Accept": "application/json", "Cookie": "rewind_session=" + session}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read().decode() or "null")
    except urllib.error.HTTPError as error:
        text = error.read().decode()
        try:
            return error.code, json.loads(text)
        except ValueError:
            return error.code, text
    except (urllib.error.URLError, ConnectionError, OSError) as error:
        return None, str(error)


def add_until_answered(through, title, deadline):
    """Adds `title`, again (with a new title) after each error answer, until one is
    answered 2xx or `deadline` (time.monotonic()) passes. Returns the title that was
    acknowledged and the error answers before it."""
    errors = []
    attempt = 0
    while True:
        attempt += 1
        name = title if attempt == 1 else f"{title} (attempt {attempt})"
        try:
            through.add(name)
            return name, errors
        except AssertionError as error:
            errors.append(str(error))
        if time.monotonic() > deadline:
            raise AssertionError(f"{title!r} was not acknowledged in time; answers: {errors[-3:]}")
        time.sleep(0.05)


def test_after_postgresql_restarts_both_instances_serve_within_10_seconds_and_no_page_misses_an_update(
    driver, second_driver, cluster
):
    on_a, on_b = driver, second_driver
    cluster.sign_in_browser(on_a)
    cluster.sign_in_browser(on_b)
    through_a, through_b = cluster.api(cluster.a_url), cluster.api(cluster.b_url)
    open_todos(on_a, cluster.a_url)
    open_todos(on_b, cluster.b_url)
    mark_page(on_a)
    mark_page(on_b)
    # Both pages' streams and both listeners are connected once a change
    # through each instance reaches the page of the other.
    through_a.add("before the restart, through A")
    through_b.add("before the restart, through B")
    titles = ["before the restart, through A", "before the restart, through B"]
    wait_for_titles(on_a, titles)
    wait_for_titles(on_b, titles)
    assert cluster.listener_started("B") is not None

    # Requests made while the server restarts are answered: 2xx, or a 503
    # with a JSON error; never a hang or a 500.
    during = []
    restarting = threading.Event()

    def ask_during_restart():
        while restarting.is_set():
            for url in (cluster.a_url, cluster.b_url):
                started = time.monotonic()
                status, body = answer_of(url, cluster.session)
                during.append((url, status, body, time.monotonic() - started))

    restarting.set()
    asking = threading.Thread(target=ask_during_restart)
    asking.start()
    restart_started = time.monotonic()
    try:
        cluster.restart_postgres()
    finally:
        back = time.monotonic()
        back_wall = time.time()
        restarting.clear()
        asking.join(60)
    print(f"restart: pg_ctl restart took {back - restart_started:.2f}s")

    # (a) Both instances serve again within 10 seconds of PostgreSQL being back.
    deadline = back + 10
    made_through_a, errors_a = add_until_answered(through_a, "after the restart, through A", deadline)
    acknowledged_a = time.monotonic()
    acknowledged_a_wall = time.time()
    made_through_b, errors_b = add_until_answered(through_b, "after the restart, through B", deadline)
    acknowledged_b = time.monotonic()
    for url in (cluster.a_url, cluster.b_url):
        wait_for(lambda: answer_of(url, cluster.session)[0] == 200, f"GET /api/todos of {url} to be answered", timeout=deadline - time.monotonic())
    served = time.monotonic()
    print(
        f"restart: add through A acknowledged {acknowledged_a - back:.2f}s after PostgreSQL was back "
        f"({len(errors_a)} error answers before), through B {acknowledged_b - back:.2f}s ({len(errors_b)}); "
        f"both answer GETs {served - back:.2f}s after"
    )
    print(f"restart: {len(during)} requests during the restart: " + ", ".join(
        sorted({f"{status}" for _, status, _, _ in during})) + f"; slowest {max((d[3] for d in during), default=0):.2f}s")
    for url, status, body, seconds in during:
        assert status == 200 or (status == 503 and isinstance(body, dict) and body.get("error")), (url, status, body)
        assert seconds < 8, f"{url} took {seconds:.1f}s to answer during the restart"
    titles += [made_through_a, made_through_b]

    # (b) The add through A was committed before B's listener was back (a
    # notification B could not hear): B's page shows it all the same, by the
    # catch-up at the listener's reconnection. Should B's listener have been
    # back already, it is ended once more and another add is made while it is away.
    wait_for(lambda: cluster.listener_started("B") is not None, "B's listener to connect again", timeout=15)
    caught_up = cluster.listener_started("B") > acknowledged_a_wall
    print(f"restart: B's listener connected again {cluster.listener_started('B') - back_wall:.2f}s after PostgreSQL was back")
    attempts = 0
    while not caught_up:
        attempts += 1
        assert attempts <= 20, "no add could be made while B's listener was away"
        cluster.end_listener("B")
        title = f"while B's listener is away ({attempts})"
        through_a.add(title)
        acknowledged = time.time()
        titles.append(title)
        wait_for(lambda: cluster.listener_started("B") is not None, "B's listener to connect again", timeout=15)
        caught_up = cluster.listener_started("B") > acknowledged
    wait_for_titles(on_b, titles, timeout=LIVE_TIMEOUT)
    wait_for_titles(on_a, titles, timeout=LIVE_TIMEOUT)

    # A change through A after everything is back reaches B's page live.
    through_a.add("live after the restart")
    titles.append("live after the restart")
    wait_for_titles(on_b, titles, timeout=LIVE_TIMEOUT)
    wait_for_titles(on_a, titles, timeout=LIVE_TIMEOUT)
    assert_not_reloaded(on_a)
    assert_not_reloaded(on_b)
    # Every page shows what the server holds; nothing acknowledged was lost.
    assert through_a.titles() == titles
    assert through_b.titles() == titles


def test_two_people_on_one_shared_list_through_the_two_instances_undo_only_their_own_steps_live(
    driver, second_driver, cluster, rewind_bin
):
    """Ann on instance A and bob on instance B, one shared list: each sees the
    other's change live (NOTIFY rewind_shared), and each one's Undo takes back
    only their own step, whichever instance made the other's."""
    database = f"postgres://rewind:rewind@127.0.0.1:{cluster.pg_port}/rewind"
    for name in ("ann", "bob"):
        add_account(rewind_bin, name, PASSWORD, "--database", database)
    ann_session, _ = sign_in(cluster.a_url, "ann", PASSWORD)
    bob_session, _ = sign_in(cluster.b_url, "bob", PASSWORD)
    through_a = Api(SimpleNamespace(url=cluster.a_url), session=ann_session)
    listed = through_a.request("POST", "/api/lists", {"name": "Groceries"})
    through_a.request("POST", f"/api/lists/{listed['id']}/members", {"account": "bob"})

    pages = []
    for browser, url, session in ((driver, cluster.a_url, ann_session), (second_driver, cluster.b_url, bob_session)):
        browser.get(url + "/signin")
        browser.add_cookie({"name": "rewind_session", "value": session, "path": "/", "httpOnly": True})
        browser.get(f"{url}/lists/{listed['id']}")
        wait_for(lambda: browser.find_elements("css selector", ".new-todo"), f"the list's page on {url}")
        pages.append(browser)
    ann, bob = pages

    def titles(browser):
        return browser.execute_script(
            "return Array.from(document.querySelectorAll('.todo-list li:not([hidden]) label'), l => l.textContent)"
        )

    def wait_for_list(browser, expected, timeout=LIVE_TIMEOUT):
        wait_for(lambda: titles(browser) == expected, f"{expected}, found {titles(browser)}", timeout=timeout)

    def add(browser, title):
        field = browser.find_element("css selector", ".new-todo")
        field.send_keys(title)
        field.send_keys("\n")

    add(ann, "Milk")
    wait_for_list(ann, ["Milk"], timeout=10)
    wait_for_list(bob, ["Milk"])
    add(bob, "Bread")
    wait_for_list(bob, ["Milk", "Bread"], timeout=10)
    wait_for_list(ann, ["Milk", "Bread"])

    # Ann's Undo (on A) takes back her add, not bob's later one made on B.
    wait_for(lambda: ann.find_element("id", "list-undo").get_attribute("title") == "Undo your step: Add “Milk”",
             "ann's Undo to name her own step")
    ann.find_element("id", "list-undo").click()
    wait_for_list(ann, ["Bread"], timeout=10)
    wait_for_list(bob, ["Bread"])
    wait_for(lambda: bob.find_element("id", "list-undo").get_attribute("title") == "Undo your step: Add “Bread”",
             "bob's Undo to still name his own step")
    bob.find_element("id", "list-undo").click()
    wait_for_list(bob, [], timeout=10)
    wait_for_list(ann, [])
    # Ann's Redo was kept through bob's undo.
    ann.find_element("id", "list-redo").click()
    wait_for_list(ann, ["Milk"], timeout=10)
    wait_for_list(bob, ["Milk"])

    # Renamed through A, which no log row says: bob's page on B shows it live
    # (NOTIFY '<list>:list:<instance>'); then no longer shared with him: his
    # page on B says so in place of the list.
    def heading(browser):
        return browser.execute_script("var h = document.querySelector('.list-title'); return h ? h.textContent : null")

    through_a.request("PATCH", f"/api/lists/{listed['id']}", {"name": "Weekend"})
    wait_for(lambda: heading(bob) == "Weekend", f"bob's heading “Weekend”, found {heading(bob)}", timeout=LIVE_TIMEOUT)
    through_a.request("DELETE", f"/api/lists/{listed['id']}/members/bob")
    wait_for(lambda: bob.find_elements("css selector", ".list-gone"), "bob's page to say the list is no longer his",
             timeout=LIVE_TIMEOUT)

    # A list made and shared with bob through A: his lists page on B shows it
    # live (NOTIFY '<list>:joined:<instance>:bob'), not at a later look.
    def names(browser):
        return browser.execute_script(
            "return Array.from(document.querySelectorAll('.list-row .list-name'), n => n.textContent)")

    bob.get(cluster.b_url + "/lists")
    wait_for(lambda: names(bob) == [], f"bob's lists page to show no list, found {names(bob)}")
    hardware = through_a.request("POST", "/api/lists", {"name": "Hardware"})
    through_a.request("POST", f"/api/lists/{hardware['id']}/members", {"account": "bob"})
    wait_for(lambda: names(bob) == ["Hardware"], f"bob's lists page to show “Hardware”, found {names(bob)}",
             timeout=LIVE_TIMEOUT)
