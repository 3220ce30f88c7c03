"""TLS at the proxy: nginx ends TLS on https://localhost:9443 with a
self-signed certificate (made by openssl for the test) and passes plain HTTP
to one `rewind serve` on 127.0.0.1:9444. The browser (Chromium told to
accept the certificate) opens the page over https.

With `--public-origin https://localhost:9443` the page makes changes; without
it every change is refused with 403, as before the option existed.

Skipped, with the reason, when nginx or openssl is not installed.
"""

import shutil
import socket
import ssl
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import Api, Server, _save_failure_screenshot, make_driver
from helpers import add_and_wait, add_todos, open_todos, wait_until

PROXY_PORT = 9443
INSTANCE_PORT = 9444
PUBLIC_ORIGIN = f"https://localhost:{PROXY_PORT}"
STARTUP_TIMEOUT = 30


def nginx_binary():
    return shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def missing_piece():
    """Why the proxy cannot start on this machine, or None."""
    if nginx_binary() is None:
        return "nginx is not installed (Debian: apt-get install nginx)"
    if shutil.which("openssl") is None:
        return "openssl is not installed (Debian: apt-get install openssl)"
    return None


def require_free(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            raise AssertionError(f"port {port} is taken by another program; test_tls_proxy needs it") from None


NGINX_CONF = """
daemon off;
master_process off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/nginx-error.log warn;
events {{ worker_connections 64; }}
http {{
    access_log {dir}/nginx-access.log;
    client_body_temp_path {dir}/client-body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    server {{
        listen 127.0.0.1:{proxy_port} ssl;
        ssl_certificate {dir}/cert.pem;
        ssl_certificate_key {dir}/key.pem;
        location / {{
            proxy_pass http://127.0.0.1:{instance_port};
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_buffering off;
            proxy_read_timeout 1h;
        }}
    }}
}}
"""


class TLSProxy:
    """nginx with a fresh self-signed certificate for localhost."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="rewind-tls-e2e-", dir="/tmp"))
        self.process = None

    def start(self):
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-keyout", str(self.dir / "key.pem"), "-out", str(self.dir / "cert.pem"),
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
            ],
            check=True, capture_output=True, timeout=60,
        )
        (self.dir / "nginx.conf").write_text(
            NGINX_CONF.format(dir=self.dir, proxy_port=PROXY_PORT, instance_port=INSTANCE_PORT)
        )
        self.process = subprocess.Popen(
            [nginx_binary(), "-p", str(self.dir), "-c", str(self.dir / "nginx.conf"),
             "-e", str(self.dir / "nginx-error.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
        )
        unverified = ssl.create_default_context()
        unverified.check_hostname = False
        unverified.verify_mode = ssl.CERT_NONE
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise AssertionError(f"nginx exited {self.process.returncode}: {self.process.stderr.read()}")
            try:
                with urllib.request.urlopen(PUBLIC_ORIGIN + "/api/csrf", timeout=5, context=unverified):
                    return
            except (urllib.error.URLError, ConnectionError, OSError):
                if time.monotonic() > deadline:
                    raise AssertionError(f"nginx did not answer on {PUBLIC_ORIGIN} within {STARTUP_TIMEOUT}s") from None
                time.sleep(0.05)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def behind_tls(rewind_bin, data_dir, tmp_path):
    """Starts the instance (with the `serve` arguments given) and nginx in
    front of it; returns the instance."""
    reason = missing_piece()
    if reason:
        print(f"test_tls_proxy: skipped: {reason}")
        pytest.skip(reason)
    started = []

    def start(*arguments):
        require_free(INSTANCE_PORT)
        require_free(PROXY_PORT)
        instance = Server(rewind_bin, data_dir, tmp_path, extra_args=arguments)
        started.append(instance)
        instance.start(port=INSTANCE_PORT)
        proxy = TLSProxy()
        started.append(proxy)
        proxy.start()
        return instance

    yield start
    for piece in reversed(started):
        piece.stop()


@pytest.fixture
def tls_driver(request):
    """A browser that accepts the test's self-signed certificate."""
    driver = make_driver(arguments=("--ignore-certificate-errors",))
    yield driver
    _save_failure_screenshot(driver, request)
    driver.quit()


def post_from_page(driver, path, body):
    """The status of a POST that the open page's script makes with its token."""
    return driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "var token = document.querySelector('meta[name=\"rewind-csrf\"]').content;"
        "fetch(arguments[0], {method: 'POST', credentials: 'same-origin',"
        " headers: {'Content-Type': 'application/json', 'X-Rewind-CSRF': token},"
        " body: JSON.stringify(arguments[1])})"
        ".then(function (r) { done(r.status); }, function (e) { done(String(e)); });",
        path, body,
    )


def test_a_page_over_https_makes_changes_when_the_instance_knows_its_public_origin(behind_tls, tls_driver):
    instance = behind_tls("--public-origin", PUBLIC_ORIGIN)
    open_todos(tls_driver, PUBLIC_ORIGIN)
    assert tls_driver.current_url.startswith(PUBLIC_ORIGIN + "/")
    add_and_wait(tls_driver, "added over TLS", "and another")
    # What the page shows is what the instance stored.
    assert Api(SimpleNamespace(url=instance.url)).titles() == ["added over TLS", "and another"]
    # The calculator's cookie, set by a key press, is Secure behind https.
    assert post_from_page(tls_driver, "/api/calculator/keys", {"keys": ["1"]}) == 200
    cookie = tls_driver.get_cookie("rewind_calculator")
    assert cookie is not None and cookie["secure"] is True, cookie


def test_without_the_public_origin_a_page_over_https_is_refused_with_403(behind_tls, tls_driver):
    instance = behind_tls()
    open_todos(tls_driver, PUBLIC_ORIGIN)
    add_todos(tls_driver, "refused over TLS")
    # The answer names the option that tells the server its public address.
    expected = (f"Cross-origin request refused (Origin: {PUBLIC_ORIGIN}); a page served through a TLS proxy at {PUBLIC_ORIGIN}"
                f" is refused unless the server is started with --public-origin {PUBLIC_ORIGIN}, which tells it that address")
    wait_until(
        tls_driver,
        lambda d: d.find_element("id", "todo-error").text == expected,
        lambda: f"the page to say {expected!r}; it says {tls_driver.find_element('id', 'todo-error').text!r}",
    )
    assert post_from_page(tls_driver, "/api/todos", {"title": "refused too"}) == 403
    assert Api(SimpleNamespace(url=instance.url)).titles() == []
