"""Moving rows on the to-do page and on a shared list's page: a row's ⠿
handle is dragged, or moves the row with the arrow keys; each move is one
step that undo takes back, and a filtered list moves among the rows
shown."""

import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import chord, css, css_all, open_todos, row, send_keys_css, wait_for_titles, wait_for_undo_title, wait_until
from test_shared_lists import add, make_list, sign_in, team_server  # noqa: F401 (team_server: a fixture)
from test_shared_lists import wait_for_titles as wait_for_shared_titles


def wait_server_titles(api, expected):
    deadline = time.monotonic() + 10
    while api.titles() != expected:
        if time.monotonic() > deadline:
            raise AssertionError(f"the server's order should be {expected}; it is {api.titles()}")
        time.sleep(0.05)


def handle(driver, index):
    return row(driver, index).find_element(By.CSS_SELECTOR, "button.move")


def focused_row_title(driver):
    return driver.execute_script(
        "var e = document.activeElement; var li = e && e.closest('li[data-id]');"
        " return e && e.classList.contains('move') && li ? li.querySelector('.view label').textContent : null;"
    )


def test_dragging_a_row_by_its_handle_moves_it_and_undo_puts_it_back(driver, base_url, api):
    for title in ("One", "Two", "Three", "Four"):
        api.add(title)
    open_todos(driver, base_url)
    wait_for_titles(driver, ["One", "Two", "Three", "Four"])
    grip = handle(driver, 3)
    assert grip.get_attribute("aria-labelledby") == "tm t3"
    first = row(driver, 0)
    # From the handle to the upper half of the first row: the row goes first.
    offset = first.rect["y"] + first.rect["height"] * 0.25 - (grip.rect["y"] + grip.rect["height"] / 2)
    ActionChains(driver).click_and_hold(grip).move_by_offset(0, offset / 2).move_by_offset(0, offset / 2).pause(0.1).release().perform()
    wait_for_titles(driver, ["Four", "One", "Two", "Three"])
    wait_server_titles(api, ["Four", "One", "Two", "Three"])
    wait_for_undo_title(driver, "Undo Move “Four”")
    assert not css_all(driver, ".todo-list li.dragging")
    # A drag that ends where it started sends nothing.
    steps = len(api.history()["steps"])
    grip = handle(driver, 1)
    ActionChains(driver).click_and_hold(grip).move_by_offset(0, 3).release().perform()
    time.sleep(0.3)
    assert len(api.history()["steps"]) == steps
    # Escape during a drag puts the row back; the drop then sends nothing.
    grip = handle(driver, 3)
    ActionChains(driver).click_and_hold(grip).move_by_offset(0, offset).pause(0.1).perform()
    wait_for_titles(driver, ["Three", "Four", "One", "Two"])
    ActionChains(driver).send_keys(Keys.ESCAPE).release().perform()
    wait_for_titles(driver, ["Four", "One", "Two", "Three"])
    time.sleep(0.3)
    assert len(api.history()["steps"]) == steps
    assert api.titles() == ["Four", "One", "Two", "Three"]
    chord(driver, "z")
    wait_for_titles(driver, ["One", "Two", "Three", "Four"])
    wait_server_titles(api, ["One", "Two", "Three", "Four"])


def test_the_arrow_keys_on_a_handle_move_its_row_keep_the_focus_and_say_where(driver, base_url, api):
    for title in ("One", "Two", "Three"):
        api.add(title)
    open_todos(driver, base_url)
    wait_for_titles(driver, ["One", "Two", "Three"])
    handle(driver, 0).send_keys(Keys.ARROW_DOWN)
    wait_for_titles(driver, ["Two", "One", "Three"])
    wait_until(driver, lambda d: focused_row_title(d) == "One", lambda: f"the focus on One's handle, not {focused_row_title(driver)}")
    assert css(driver, "#move-status").get_attribute("textContent") == "“One” moved to 2 of 3."
    # To whatever has the focus when the key goes (a refresh may have put a fresh row in place).
    ActionChains(driver).send_keys(Keys.ARROW_DOWN).perform()
    wait_for_titles(driver, ["Two", "Three", "One"])
    # At the bottom, down does nothing; up goes back.
    ActionChains(driver).send_keys(Keys.ARROW_DOWN).send_keys(Keys.ARROW_UP).perform()
    wait_for_titles(driver, ["Two", "One", "Three"])
    wait_server_titles(api, ["Two", "One", "Three"])
    assert [step["name"] for step in api.history()["steps"]][-3:] == ["Move “One”"] * 3
    assert focused_row_title(driver) == "One"


def test_in_a_filtered_list_a_row_moves_among_the_rows_shown(driver, base_url, api):
    for title in ("Done", "Two", "Three", "Four"):
        api.add(title)
    done = api.items()[0]["id"]
    api.request("POST", f"/api/todos/{done}/toggle")
    open_todos(driver, base_url, "#/active")
    wait_for_titles(driver, ["Two", "Three", "Four"])
    handle(driver, 0).send_keys(Keys.ARROW_DOWN)
    wait_for_titles(driver, ["Three", "Two", "Four"])
    wait_server_titles(api, ["Done", "Three", "Two", "Four"])
    # In another order than the list's own, rows have no handle.
    send_keys_css(driver, "#sort-order", "Smart")
    wait_until(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".todo-list button.move"), "the handles to go in the smart order")


def test_a_member_moves_a_row_of_a_shared_list_with_the_keys(driver, team_server):
    base = team_server.url
    sign_in(driver, base, "ann")
    make_list(driver, "Errands")
    for title in ("One", "Two", "Three"):
        add(driver, title)
    wait_for_shared_titles(driver, ["One", "Two", "Three"])
    # Found and focused in one script: the page may still be swapping in the rows of the adds.
    name = driver.execute_script(
        "var grip = document.querySelectorAll('.todo-list li')[2].querySelector('button.move');"
        " grip.focus(); return grip.getAttribute('aria-label');"
    )
    assert name == "Move Three"
    ActionChains(driver).send_keys(Keys.ARROW_UP).perform()
    wait_for_shared_titles(driver, ["One", "Three", "Two"])
    wait_until(
        driver, lambda d: css(d, "#list-undo").get_attribute("title") == "Undo your step: Move “Three”",
        lambda: css(driver, "#list-undo").get_attribute("title"),
    )
    driver.refresh()
    wait_for_shared_titles(driver, ["One", "Three", "Two"])
