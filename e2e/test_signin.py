"""Team mode in the browser: `rewind serve --accounts` after `rewind users
add ann --password-stdin`; sign in, add an item, sign out, and the sign-in
page is back."""

import subprocess
import time
from urllib.parse import urlparse

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, Server
from helpers import add_account, add_and_wait, add_todos, css, wait_for_titles, wait_until

PASSWORD = "correct horse battery"


@pytest.fixture
def team_server(rewind_bin, data_dir, tmp_path):
    add_account(rewind_bin, "ann", PASSWORD, "--data-dir", data_dir)
    instance = Server(rewind_bin, data_dir, tmp_path, extra_args=["--accounts"])
    instance.start()
    yield instance
    instance.stop()


def wait_for_path(driver, path):
    wait_until(
        driver,
        lambda d: d.execute_script("return location.pathname") == path
        and d.execute_script("return document.readyState") == "complete",
        f"the browser to show {path}",
    )


def test_sign_in_add_an_item_and_sign_out(driver, team_server):
    base = team_server.url
    driver.get(base + "/todos")
    # Not signed in: the sign-in page, which brings the browser back to /todos.
    wait_for_path(driver, "/signin")
    assert driver.find_element(By.CSS_SELECTOR, "input[name=next]").get_attribute("value") == "/todos"
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "signin.png"))

    # A wrong password is refused, and says so.
    css(driver, "#signin-name").send_keys("ann")
    css(driver, "#signin-password").send_keys("wrong password")
    css(driver, ".sign-in-form button[type=submit]").click()
    wait_until(
        driver,
        lambda d: "Wrong account name or password." in d.find_element(By.CSS_SELECTOR, "main").text,
        "the refusal to show",
    )

    css(driver, "#signin-password").send_keys(PASSWORD)
    css(driver, ".sign-in-form button[type=submit]").click()
    wait_for_path(driver, "/todos")
    wait_until(
        driver,
        lambda d: d.execute_script("return document.activeElement && document.activeElement.classList.contains('new-todo')"),
        "the to-do page's script to start",
    )
    assert css(driver, ".signed-in-as").text == "Signed in as ann"
    assert driver.get_cookie("rewind_session")["httpOnly"] is True

    add_and_wait(driver, "Buy milk")

    css(driver, ".sign-out button").click()
    wait_for_path(driver, "/signin")
    assert driver.get_cookie("rewind_session") is None
    # The session is over: the list is out of reach again.
    driver.get(base + "/todos")
    wait_for_path(driver, "/signin")


def test_a_page_whose_session_ends_asks_to_sign_in_again_saying_why(driver, team_server, rewind_bin, data_dir):
    base = team_server.url
    driver.get(base + "/todos?sort=smart")
    wait_for_path(driver, "/signin")
    # A plain visit to the sign-in page says nothing of an ended session.
    assert not driver.find_elements(By.CSS_SELECTOR, ".sign-in-notice")
    css(driver, "#signin-name").send_keys("ann")
    css(driver, "#signin-password").send_keys(PASSWORD)
    css(driver, ".sign-in-form button[type=submit]").click()
    wait_for_path(driver, "/todos")
    add_and_wait(driver, "Before")
    # A new password ends every session of the account. The server trusts a
    # session it checked for a second; after that, the page's next request
    # (here an add) finds it gone, and the page goes to sign in again. (The
    # open event stream would end too, at its next heartbeat, 15 s at most.)
    changed = subprocess.run(
        [rewind_bin, "users", "passwd", "ann", "--password-stdin", "--data-dir", str(data_dir)],
        input="another long password\n", capture_output=True, text=True, timeout=60,
    )
    assert changed.returncode == 0, changed.stderr
    time.sleep(1.5)
    # A refresh of its own (the database file changed) may have found the
    # session gone first, on a busy machine: then the page is at sign-in already.
    typed = False
    try:
        if urlparse(driver.current_url).path == "/todos":
            add_todos(driver, "After")
            typed = True
    except (NoSuchElementException, StaleElementReferenceException):
        pass  # it went to sign in while the add was typed
    wait_for_path(driver, "/signin")
    assert "Your session ended" in css(driver, ".sign-in-notice").text
    assert driver.find_element(By.CSS_SELECTOR, "input[name=next]").get_attribute("value") == "/todos?sort=smart"
    css(driver, "#signin-name").send_keys("ann")
    css(driver, "#signin-password").send_keys("another long password")
    css(driver, ".sign-in-form button[type=submit]").click()
    wait_for_path(driver, "/todos")
    # The add made without a session changed nothing.
    wait_for_titles(driver, ["Before"])
    # What was typed for it is back in the field, to be added now.
    if typed:
        assert css(driver, "input.new-todo").get_attribute("value") == "After"
