"""Fixtures of the browser tests: a fresh `rewind serve` per test on its own
temporary data directory, headless Chromium through Selenium, the JSON API,
and the `rewind` command line on the same data directory.

Environment:
  REWIND_BIN      the binary that has `serve` (default: .build/debug/rewind,
                  built with `swift build --product rewind` when missing)
  REWIND_CLI_BIN  the binary that has `todo` (default: REWIND_BIN)
  CHROMEDRIVER    the chromedriver (default: /usr/bin/chromedriver)
  CHROME_BIN      the browser (default: Debian's /usr/bin/chromium)
"""

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

os.environ.setdefault("SE_OFFLINE", "true")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
DESKTOP = (1280, 900)
PHONE = (390, 844)
STARTUP_TIMEOUT = 30.0
# A clean stop takes milliseconds; the tests do not wait long for a server that
# hangs (test_server_lifecycle checks the clean stop on its own).
STOP_TIMEOUT = 1.5


# ---------------------------------------------------------------------------
# The binary
# ---------------------------------------------------------------------------

def _has_subcommand(binary, name):
    try:
        result = subprocess.run(
            [binary, name, "--help"], capture_output=True, text=True, timeout=60, cwd=REPO
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


@pytest.fixture(scope="session")
def rewind_bin():
    """The `rewind` binary with a `serve` subcommand."""
    explicit = os.environ.get("REWIND_BIN")
    if explicit:
        binary = str(Path(explicit).resolve())
        if not _has_subcommand(binary, "serve"):
            pytest.exit(f"REWIND_BIN={explicit} has no working `serve` subcommand", returncode=2)
        return binary
    binary = str(REPO / ".build" / "debug" / "rewind")
    if not _has_subcommand(binary, "serve"):
        print("e2e: building `rewind` (swift build --product rewind)…", file=sys.stderr)
        build = subprocess.run(["swift", "build", "--product", "rewind"], cwd=REPO)
        if build.returncode != 0:
            pytest.exit("swift build --product rewind failed", returncode=2)
        if not _has_subcommand(binary, "serve"):
            pytest.exit(f"{binary} has no `serve` subcommand", returncode=2)
    return binary


@pytest.fixture(scope="session")
def rewind_cli_bin(rewind_bin):
    """The binary that runs `rewind todo …` (the same one unless REWIND_CLI_BIN says otherwise)."""
    return os.environ.get("REWIND_CLI_BIN", rewind_bin)


# ---------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------

def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """One `rewind serve` process; `start()` again after `stop()` restarts it
    on the same data directory (and a new port)."""

    def __init__(self, binary, data_dir, log_dir, extra_args=()):
        self.binary = binary
        self.data_dir = Path(data_dir)
        self.log_dir = Path(log_dir)
        self.extra_args = list(extra_args)
        self.process = None
        self.url = None
        self.lines = []
        self.runs = 0

    def start(self, port=None):
        self.runs += 1
        port = port or free_port()
        args = [self.binary, "serve", "--port", str(port), "--data-dir", str(self.data_dir), *self.extra_args]
        stderr = open(self.log_dir / f"server-{self.runs}.stderr", "w")
        self.process = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=stderr, text=True, cwd=self.data_dir.parent,
            start_new_session=True,
        )
        stderr.close()
        ready = threading.Event()
        found = {}

        def read():
            for line in self.process.stdout:
                self.lines.append(line)
                if "http://" in line and "url" not in found:
                    found["url"] = line[line.index("http://"):].strip().rstrip("/")
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        ready.wait(STARTUP_TIMEOUT)
        if "url" not in found:
            self.stop()
            log = (self.log_dir / f"server-{self.runs}.stderr").read_text()
            raise RuntimeError(f"`{' '.join(args)}` printed no URL within {STARTUP_TIMEOUT}s: {''.join(self.lines)} {log}")
        self.url = found["url"]
        # The URL line says the server is ready; make sure the port answers too.
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            try:
                with urllib.request.urlopen(self.url + "/api/csrf", timeout=5):
                    break
            except urllib.error.HTTPError:
                # An answer all the same (401 in team mode, before sign-in).
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        return self.url

    def stop(self, timeout=STOP_TIMEOUT):
        """SIGTERM, then SIGKILL after `timeout` seconds. Returns the exit
        status (-9 when it had to be killed)."""
        if self.process is None:
            return None
        process, self.process = self.process, None
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        return process.returncode


@pytest.fixture
def data_dir(tmp_path):
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture
def server(rewind_bin, data_dir, tmp_path):
    """A fresh server on a fresh data directory; `server.url` is its base URL."""
    instance = Server(rewind_bin, data_dir, tmp_path)
    instance.start()
    yield instance
    instance.stop()


@pytest.fixture
def base_url(server):
    return server.url


# ---------------------------------------------------------------------------
# The JSON API (for setting up state and checking it)
# ---------------------------------------------------------------------------

class Api:
    """Same-origin requests as the page's script makes them (CSRF header);
    in team mode with `session`, the signed-in session's cookie (see
    scripts/rewind_session.py)."""

    def __init__(self, server, session=None):
        self.server = server
        self.session = session
        self._token = None

    def token(self):
        if self._token is None:
            self._token = self.get("/api/csrf")["token"]
        return self._token

    def request(self, method, path, body=None, retry=True):
        url = self.server.url + path
        headers = {"Accept": "application/json"}
        if self.session:
            headers["Cookie"] = "rewind_session=" + self.session
        data = None
        if method not in ("GET", "HEAD"):
            headers["X-Rewind-CSRF"] = self.token()
            headers["Origin"] = self.server.url
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as error:
            if error.code == 403 and retry and method not in ("GET", "HEAD"):
                # A restarted server has a new token.
                self._token = None
                return self.request(method, path, body, retry=False)
            raise AssertionError(f"{method} {path} → {error.code}: {error.read().decode()}") from None
        return json.loads(text) if text else None

    def get(self, path):
        return self.request("GET", path)

    def add(self, title, **fields):
        return self.request("POST", "/api/todos", {"title": title, **fields})

    def items(self, filter="all"):
        return self.get(f"/api/todos?filter={filter}")["items"]

    def titles(self, filter="all"):
        return [item["title"] for item in self.items(filter)]

    def history(self):
        return self.get("/api/history")


@pytest.fixture
def api(server):
    return Api(server)


# ---------------------------------------------------------------------------
# The CLI on the same data directory
# ---------------------------------------------------------------------------

class Cli:
    def __init__(self, binary, data_dir):
        self.binary = binary
        self.data_dir = data_dir

    def todo(self, *args, check=True):
        command = [self.binary, "todo", *args, "--data-dir", str(self.data_dir)]
        env = dict(os.environ, NO_COLOR="1")
        result = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
        if check and result.returncode != 0:
            raise AssertionError(
                f"`{' '.join(command)}` exited {result.returncode}\nstdout: {result.stdout}\nstderr: {result.stderr}"
            )
        return result


@pytest.fixture
def cli(rewind_cli_bin, data_dir):
    return Cli(rewind_cli_bin, data_dir)


# ---------------------------------------------------------------------------
# Browsers
# ---------------------------------------------------------------------------

def make_driver(size=DESKTOP, dark=False, arguments=()):
    """A headless Chromium; `arguments` are added to its command line."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROME_BIN", "/usr/bin/chromium")
    for argument in (
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--disable-extensions", "--no-first-run", "--no-default-browser-check",
        "--disable-background-networking", "--disable-sync", "--disable-translate",
        "--hide-scrollbars", "--lang=en-US", f"--window-size={size[0]},{size[1]}", *arguments,
    ):
        options.add_argument(argument)
    if dark:
        options.add_argument("--force-dark-mode")
        options.add_argument("--blink-settings=preferredColorScheme=0")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(30)
    driver.set_window_size(*size)
    return driver


@pytest.fixture(scope="session")
def _browser():
    driver = make_driver()
    yield driver
    driver.quit()


@pytest.fixture
def driver(_browser, request):
    """The session's browser, reset for this test: desktop size, no cookies."""
    _browser.set_window_size(*DESKTOP)
    _browser.delete_all_cookies()
    # The machine's time zone again, should an earlier test have set another.
    _browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
    try:
        # Drop console messages left by earlier tests (a page whose server an
        # earlier test stopped on purpose), so this test reads only its own.
        _browser.get_log("browser")
    except Exception:
        pass
    yield _browser
    _save_failure_screenshot(_browser, request)
    try:
        # Leave the page, so that its event stream closes before the server stops.
        _browser.get("about:blank")
    except Exception:
        pass


@pytest.fixture
def second_driver(request):
    """A second, independent browser (its own cookies and storage)."""
    driver = make_driver()
    yield driver
    _save_failure_screenshot(driver, request, suffix="-second")
    driver.quit()


@pytest.fixture
def browser_factory(request):
    """Makes extra browsers (size, dark) that are closed after the test."""
    made = []

    def factory(size=DESKTOP, dark=False):
        driver = make_driver(size=size, dark=dark)
        made.append(driver)
        return driver

    yield factory
    for driver in made:
        driver.quit()


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, "rep_" + report.when, report)


def _save_failure_screenshot(driver, request, suffix=""):
    report = getattr(request.node, "rep_call", None)
    if report is None or not report.failed:
        return
    try:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "failures").mkdir(exist_ok=True)
        name = request.node.name.replace("/", "_")
        driver.save_screenshot(str(ARTIFACTS / "failures" / f"{name}{suffix}.png"))
    except Exception:
        pass
