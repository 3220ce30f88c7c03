"""Live updates: a change made in a second browser window, through the API,
or by the CLI on the same data directory shows up in an open page within
about a second, without a reload (Server-Sent Events)."""

import socket
import time
from urllib.parse import urlsplit

from selenium.webdriver.common.by import By

from helpers import (
    LIVE_TIMEOUT, add_and_wait, click_css, css, has_class, history_steps, open_todos, row, rendered_titles,
    wait_for_titles, wait_for_undo_title, wait_until,
)


def mark_page(driver):
    """Marks the document, so that a test can tell a live update from a reload."""
    driver.execute_script("window.__rewindNoReload = true;")


def assert_not_reloaded(driver):
    assert driver.execute_script("return window.__rewindNoReload === true"), "the page reloaded instead of updating live"


def wait_live(driver, titles):
    wait_for_titles(driver, titles, timeout=LIVE_TIMEOUT)
    assert_not_reloaded(driver)


def test_a_second_window_sees_adds_toggles_and_undo_live(driver, second_driver, base_url):
    open_todos(driver, base_url)
    open_todos(second_driver, base_url)
    mark_page(driver)
    mark_page(second_driver)

    add_and_wait(driver, "from window one")
    wait_live(second_driver, ["from window one"])

    add_and_wait(second_driver, "from window two")
    wait_live(driver, ["from window one", "from window two"])

    click_css(second_driver, ".todo-list li input.toggle")
    wait_until(driver, lambda d: has_class(row(d, 0), "completed"), "window one to show the item completed",
               timeout=LIVE_TIMEOUT)
    wait_until(driver, lambda d: css(d, "span.todo-count").text == "1 item left", "window one's count to update",
               timeout=LIVE_TIMEOUT)

    wait_for_undo_title(driver, "Undo Complete “from window one”")
    click_css(driver, "#todos-undo")
    wait_until(second_driver, lambda d: not has_class(row(d, 0), "completed"), "window two to show the undo",
               timeout=LIVE_TIMEOUT)
    wait_until(
        second_driver,
        lambda d: d.find_element(By.CSS_SELECTOR, "#todos-redo").get_attribute("title") == "Redo Complete “from window one”",
        "window two's Redo button to name the undone step", timeout=LIVE_TIMEOUT,
    )
    # Window one redraws its panel after its own undo, as window two does
    # after the event: either may be first.
    wait_until(driver, lambda d: history_steps(d) == history_steps(second_driver),
               "both windows' history panels to agree", timeout=LIVE_TIMEOUT)
    assert_not_reloaded(driver)
    assert_not_reloaded(second_driver)


def test_a_second_window_sees_deletes_and_clear_completed_live(driver, second_driver, base_url, api):
    for title in ("a", "b", "c"):
        api.add(title)
    open_todos(driver, base_url)
    open_todos(second_driver, base_url)
    wait_for_titles(second_driver, ["a", "b", "c"])
    mark_page(second_driver)
    click_css(driver, ".todo-list li button.destroy", index=1)
    wait_live(second_driver, ["a", "c"])
    click_css(driver, ".todo-list li input.toggle", index=0)
    wait_until(second_driver, lambda d: has_class(row(d, 0), "completed"), "window two to show 'a' completed",
               timeout=LIVE_TIMEOUT)
    click_css(driver, "button.clear-completed")
    wait_live(second_driver, ["c"])


def test_the_detail_view_updates_live(driver, second_driver, base_url, api):
    item = api.add("Buy milk")
    second_driver.get(f"{base_url}/todos/items/{item['id']}")
    wait_until(second_driver, lambda d: d.find_element(By.CSS_SELECTOR, "h1.detail-title").text == "Buy milk", "the detail view")
    mark_page(second_driver)
    open_todos(driver, base_url)
    wait_for_titles(driver, ["Buy milk"])
    click_css(driver, ".todo-list li input.toggle")
    wait_until(
        second_driver,
        lambda d: d.find_element(By.CSS_SELECTOR, "#detail-form [name='completed']").is_selected(),
        "the detail view's Completed box to tick live", timeout=LIVE_TIMEOUT,
    )
    assert_not_reloaded(second_driver)


def test_a_change_through_the_api_shows_up_live(driver, base_url, api):
    open_todos(driver, base_url)
    mark_page(driver)
    api.add("from a script")
    wait_live(driver, ["from a script"])


def test_a_change_by_the_cli_on_the_same_data_directory_shows_up_live(driver, base_url, cli):
    open_todos(driver, base_url)
    mark_page(driver)
    result = cli.todo("add", "From the CLI")
    assert "From the CLI" in result.stdout + result.stderr
    wait_live(driver, ["From the CLI"])
    wait_for_undo_title(driver, "Undo Add “From the CLI”")

    cli.todo("list")  # numbers refer to the last listing
    cli.todo("done", "1")
    wait_until(driver, lambda d: has_class(row(d, 0), "completed"), "the CLI's `done` to show live", timeout=LIVE_TIMEOUT)

    cli.todo("undo")
    wait_until(driver, lambda d: not has_class(row(d, 0), "completed"), "the CLI's `undo` to show live", timeout=LIVE_TIMEOUT)

    cli.todo("list")
    cli.todo("rm", "1")
    wait_live(driver, [])
    assert_not_reloaded(driver)


def test_a_stream_the_server_refused_is_tried_again_and_the_page_catches_up(driver, base_url, api):
    """Every event stream the server allows (256) held by others: the page's
    stream is refused (503), which the browser does not try again by itself.
    Once streams are free, the page opens a new one, shows what changed
    meanwhile and follows changes again, without a reload."""
    address = urlsplit(base_url)
    held = []
    try:
        for _ in range(256):
            stream = socket.create_connection((address.hostname, address.port), timeout=10)
            stream.sendall(f"GET /events HTTP/1.1\r\nHost: {address.netloc}\r\nAccept: text/event-stream\r\n\r\n".encode())
            held.append(stream)
        for stream in held:
            received = b""
            while b": connected" not in received:
                chunk = stream.recv(4096)
                assert chunk, "a held stream was refused"
                received += chunk
        open_todos(driver, base_url)
        mark_page(driver)
        # The first refusal makes the page catch up once (a fetch of its fragment); the next ones do not.
        wait_until(driver, lambda d: d.execute_script(
            "return performance.getEntriesByType('resource').some(function (e) { return e.name.indexOf('/todos/fragment') >= 0; });"),
            "the page's one catch-up after its stream was refused")
        api.add("while refused")
        # Refused: the page does not hear of it.
        time.sleep(2)
        assert rendered_titles(driver) == []
    finally:
        for stream in held:
            stream.close()
    # A new stream makes room at once (the gone ones fail the heartbeat it sends them), and the page
    # tries again 1, 2, 4, 8 s after its refusals.
    wait_for_titles(driver, ["while refused"], timeout=45)
    api.add("live again")
    wait_live(driver, ["while refused", "live again"])


def test_a_change_in_the_browser_is_seen_by_the_cli(driver, base_url, cli):
    open_todos(driver, base_url)
    add_and_wait(driver, "From the browser")
    result = cli.todo("list", "--json")
    assert "From the browser" in result.stdout, f"the CLI should list the browser's item: {result.stdout!r}"


def test_the_page_catches_up_after_the_server_restarts(driver, server, api):
    open_todos(driver, server.url)
    add_and_wait(driver, "before")
    mark_page(driver)
    port = server.url.rsplit(":", 1)[1]
    server.stop(timeout=10)
    server.start(port=int(port))
    api.add("after the restart")
    # The event stream reconnects by itself and the page refreshes.
    wait_for_titles(driver, ["before", "after the restart"], timeout=15)
    assert_not_reloaded(driver)
    assert rendered_titles(driver) == ["before", "after the restart"]
