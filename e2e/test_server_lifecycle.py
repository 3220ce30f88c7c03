"""`rewind serve` as a process, with browsers attached: it shuts down cleanly
on SIGTERM while pages hold open event streams, and loses no acknowledged
change across the restart."""

import time

from conftest import Api
from helpers import add_and_wait, open_todos, wait_for_titles, wait_until


def test_sigterm_stops_the_server_promptly_while_a_page_is_open(driver, server):
    open_todos(driver, server.url)
    add_and_wait(driver, "acknowledged")
    # The page keeps an /events stream open; a graceful shutdown must end it.
    started = time.monotonic()
    status = server.stop(timeout=6)
    elapsed = time.monotonic() - started
    assert status == 0, (
        f"SIGTERM with a page open: the server should exit 0 by itself; it had to be killed after "
        f"{elapsed:.1f}s (exit status {status})"
    )
    assert elapsed < 5, f"the graceful shutdown took {elapsed:.1f}s"


def test_sigterm_stops_the_server_promptly_after_the_page_left(driver, server):
    open_todos(driver, server.url)
    add_and_wait(driver, "acknowledged")
    driver.get("about:blank")
    started = time.monotonic()
    status = server.stop(timeout=6)
    elapsed = time.monotonic() - started
    assert status == 0, f"the server should exit 0 on SIGTERM; it had to be killed after {elapsed:.1f}s (status {status})"


def test_no_acknowledged_change_is_lost_across_a_restart(driver, server):
    open_todos(driver, server.url)
    add_and_wait(driver, "one", "two", "three")
    server.stop(timeout=10)
    server.start()
    open_todos(driver, server.url)
    wait_for_titles(driver, ["one", "two", "three"])


def test_a_page_cut_off_from_its_server_says_so_and_catches_up_when_it_is_back(driver, server):
    open_todos(driver, server.url)
    add_and_wait(driver, "before")
    port = int(server.url.rsplit(":", 1)[1])
    server.stop(timeout=10)
    said = lambda d: d.execute_script("return document.getElementById('todo-error').textContent;")
    wait_until(driver, lambda d: "may be out of date" in said(d),
               lambda: f"the page to say it is cut off; it says {said(driver)!r}", timeout=15)
    server.start(port=port)
    Api(server).add("after")
    wait_for_titles(driver, ["before", "after"])
    wait_until(driver, lambda d: said(d) == "", lambda: f"the notice to go; the page says {said(driver)!r}", timeout=15)
