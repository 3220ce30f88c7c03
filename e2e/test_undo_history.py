"""Undo and redo on the to-do page: the buttons (always visible, disabled when
unavailable, titled with the step's name), the keyboard shortcuts outside
text fields, the history panel (named steps, current position, jump by
click), and the history surviving a server restart."""

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import PHONE

from helpers import (
    add_and_wait, add_todos, blur_text_fields, chord, click_css, css, css_all, focused, has_class, press, history_steps, open_todos, redo_button, row,
    undo_button, wait_for_redo_title, wait_for_titles, wait_for_undo_title, wait_until,
)


def wait_disabled(driver, button, name):
    wait_until(driver, lambda d: not button(d).is_enabled(), f"the {name} button to be disabled")


def wait_history(driver, expected):
    """`expected`: [(name, is_current)] from "Start" on."""
    wait_until(
        driver, lambda d: history_steps(d) == expected,
        f"the history panel to list {expected}; it lists {history_steps(driver)}",
    )


def test_buttons_are_visible_and_disabled_on_a_fresh_list(driver, base_url):
    open_todos(driver, base_url)
    for button, word in ((undo_button(driver), "Undo"), (redo_button(driver), "Redo")):
        assert button.is_displayed(), f"the {word} button should always be visible"
        assert not button.is_enabled(), f"the {word} button should be disabled with nothing to {word.lower()}"
        assert word in button.text


def test_undo_and_redo_buttons_are_named_after_the_step(driver, base_url, api):
    open_todos(driver, base_url)
    add_and_wait(driver, "Buy milk")
    wait_for_undo_title(driver, "Undo Add “Buy milk”")
    wait_disabled(driver, redo_button, "Redo")
    click_css(driver, "#todos-undo")
    wait_for_titles(driver, [])
    wait_for_redo_title(driver, "Redo Add “Buy milk”")
    wait_disabled(driver, undo_button, "Undo")
    click_css(driver, "#todos-redo")
    wait_for_titles(driver, ["Buy milk"])
    wait_for_undo_title(driver, "Undo Add “Buy milk”")
    wait_disabled(driver, redo_button, "Redo")
    assert api.titles() == ["Buy milk"]


def test_undo_of_a_delete_brings_the_item_back_at_its_position(driver, base_url, api):
    for title in ("Buy bread", "Buy milk", "Buy eggs"):
        api.add(title)
    open_todos(driver, base_url)
    wait_for_titles(driver, ["Buy bread", "Buy milk", "Buy eggs"])
    row(driver, 1).find_element(By.CSS_SELECTOR, "button.destroy").click()
    wait_for_titles(driver, ["Buy bread", "Buy eggs"])
    wait_for_undo_title(driver, "Undo Delete “Buy milk”")
    click_css(driver, "#todos-undo")
    wait_for_titles(driver, ["Buy bread", "Buy milk", "Buy eggs"])
    wait_for_redo_title(driver, "Redo Delete “Buy milk”")
    assert api.titles() == ["Buy bread", "Buy milk", "Buy eggs"]


def test_undo_of_complete_and_of_clear_completed(driver, base_url, api):
    for title in ("one", "two"):
        api.add(title)
    open_todos(driver, base_url)
    wait_for_titles(driver, ["one", "two"])
    click_css(driver, ".todo-list li input.toggle")
    wait_for_undo_title(driver, "Undo Complete “one”")
    click_css(driver, "button.clear-completed")
    wait_for_titles(driver, ["two"])
    wait_until(driver, lambda d: "Undo Clear" in undo_button(d).get_attribute("title"), "Undo to name the clearing")
    click_css(driver, "#todos-undo")
    wait_for_titles(driver, ["one", "two"])
    wait_for_undo_title(driver, "Undo Complete “one”")
    click_css(driver, "#todos-undo")
    wait_for_undo_title(driver, "Undo Add “two”")
    wait_until(driver, lambda d: not any("completed" in (li.get_attribute("class") or "") for li in css_all(d, ".todo-list li")),
               "no row to be completed after undoing the completion")
    assert [item["state"] for item in api.items()] == ["active", "active"]


def test_undo_of_an_edit(driver, base_url, api):
    api.add("old title")
    open_todos(driver, base_url)
    wait_for_titles(driver, ["old title"])
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(driver).double_click(row(driver, 0).find_element(By.CSS_SELECTOR, ".view label")).perform()
    edit = row(driver, 0).find_element(By.CSS_SELECTOR, "input.edit")
    wait_until(driver, lambda d: edit.is_displayed(), "the edit field to show")
    edit.send_keys(Keys.CONTROL, "a")
    edit.send_keys("new title", Keys.ENTER)
    wait_for_titles(driver, ["new title"])
    wait_until(driver, lambda d: "Rename" in undo_button(d).get_attribute("title"), "Undo to name the rename")
    click_css(driver, "#todos-undo")
    wait_for_titles(driver, ["old title"])
    assert api.titles() == ["old title"]


# ---------------------------------------------------------------------------
# Keyboard
# ---------------------------------------------------------------------------

def test_ctrl_z_undoes_and_ctrl_shift_z_redoes_outside_text_fields(driver, base_url, api):
    open_todos(driver, base_url)
    add_and_wait(driver, "one", "two")
    wait_for_undo_title(driver, "Undo Add “two”")
    blur_text_fields(driver)
    chord(driver, "z")
    wait_for_titles(driver, ["one"])
    chord(driver, "z")
    wait_for_titles(driver, [])
    chord(driver, "z", shift=True)
    wait_for_titles(driver, ["one"])
    chord(driver, "z", shift=True)
    wait_for_titles(driver, ["one", "two"])
    assert api.titles() == ["one", "two"]


def test_ctrl_y_redoes(driver, base_url):
    open_todos(driver, base_url)
    add_and_wait(driver, "one")
    wait_for_undo_title(driver, "Undo Add “one”")
    blur_text_fields(driver)
    chord(driver, "z")
    wait_for_titles(driver, [])
    wait_for_redo_title(driver, "Redo Add “one”")
    chord(driver, "y")
    wait_for_titles(driver, ["one"])


def test_ctrl_z_inside_the_new_todo_field_does_not_undo_the_list(driver, base_url, api):
    open_todos(driver, base_url)
    add_and_wait(driver, "one")
    wait_for_undo_title(driver, "Undo Add “one”")
    field = css(driver, "input.new-todo")
    field.click()
    field.send_keys("typing")
    chord(driver, "z")  # the field's own text undo, not the list's
    # Anything the shortcut sent would reach the server before this add.
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("two", Keys.ENTER)
    wait_for_titles(driver, ["one", "two"])
    assert api.titles() == ["one", "two"]
    assert api.history()["position"] == 2


def test_shortcuts_with_nothing_to_undo_change_nothing(driver, base_url, api):
    open_todos(driver, base_url)
    blur_text_fields(driver)
    chord(driver, "z")
    chord(driver, "z", shift=True)
    css(driver, "input.new-todo").click()
    add_todos(driver, "after")
    wait_for_titles(driver, ["after"])
    assert css(driver, "#todo-error").text == "", "nothing to undo is no error worth showing"


def test_the_keyboard_alone_adds_completes_and_undoes(driver, base_url, api):
    """Usable with the keyboard alone: Tab to a row's toggle, Space, then undo."""
    open_todos(driver, base_url)
    add_and_wait(driver, "by keyboard")
    # Tab from the new-todo field reaches the toggle-all, then the first row's toggle.
    press(driver, Keys.TAB)
    wait_until(driver, lambda d: focused(d).get_attribute("id") == "toggle-all", "Tab to reach #toggle-all")
    press(driver, Keys.TAB)
    wait_until(driver, lambda d: has_class(focused(d), "toggle"), "Tab to reach the first row's toggle")
    press(driver, Keys.SPACE)
    wait_for_undo_title(driver, "Undo Complete “by keyboard”")
    # Focus is on a checkbox, not a text field: the shortcut applies.
    chord(driver, "z")
    wait_for_undo_title(driver, "Undo Add “by keyboard”")
    assert api.items()[0]["state"] == "active"


# ---------------------------------------------------------------------------
# History panel
# ---------------------------------------------------------------------------

def test_history_panel_lists_the_named_steps_and_the_current_position(driver, base_url):
    open_todos(driver, base_url)
    wait_history(driver, [("Start", True)])
    add_and_wait(driver, "Buy milk", "Buy eggs")
    wait_history(driver, [("Start", False), ("Add “Buy milk”", False), ("Add “Buy eggs”", True)])
    click_css(driver, "#todos-undo")
    wait_history(driver, [("Start", False), ("Add “Buy milk”", True), ("Add “Buy eggs”", False)])
    undone = css_all(driver, ".history-panel .history-step")[2]
    assert "undone" in undone.get_attribute("class"), "a step after the current position should look undone"


def test_clicking_a_history_step_jumps_there(driver, base_url, api):
    open_todos(driver, base_url)
    add_and_wait(driver, "a", "b", "c")
    wait_history(driver, [("Start", False), ("Add “a”", False), ("Add “b”", False), ("Add “c”", True)])
    click_css(driver, ".history-panel .history-step[data-step='1']")
    wait_for_titles(driver, ["a"])
    wait_history(driver, [("Start", False), ("Add “a”", True), ("Add “b”", False), ("Add “c”", False)])
    click_css(driver, ".history-panel .history-step[data-step='3']")
    wait_for_titles(driver, ["a", "b", "c"])
    click_css(driver, ".history-panel .history-step[data-step='0']")
    wait_for_titles(driver, [])
    wait_history(driver, [("Start", True), ("Add “a”", False), ("Add “b”", False), ("Add “c”", False)])
    assert api.history()["position"] == 0


def branch(driver):
    """Add a, add b, undo, add c: b is left on an abandoned branch."""
    add_and_wait(driver, "a", "b")
    click_css(driver, "#todos-undo")
    wait_for_titles(driver, ["a"])
    css(driver, "input.new-todo").click()
    add_and_wait(driver, "c")
    wait_history(driver, [("Start", False), ("Add “a”", False), ("Add “b”", False), ("Add “c”", True)])


def step_button(driver, name):
    for button in css_all(driver, ".history-panel .history-step"):
        if button.find_element(By.CSS_SELECTOR, ".history-name").text == name:
            return button
    raise AssertionError(f"the history panel has no step {name!r}")


def click_step(driver, name):
    """Clicks the step named `name`, found afresh by its number."""
    number = wait_until(driver, lambda d: step_button(d, name).get_attribute("data-step"), f"the step {name!r}")
    click_css(driver, f".history-panel .history-step[data-step='{number}']")


def test_a_new_step_after_undo_leaves_the_undone_step_on_an_abandoned_branch(driver, base_url):
    open_todos(driver, base_url)
    branch(driver)
    wait_disabled(driver, redo_button, "Redo")
    abandoned = step_button(driver, "Add “b”")
    assert has_class(abandoned, "abandoned"), "the undone step should now be marked as abandoned"
    assert "abandoned" in abandoned.text
    current = step_button(driver, "Add “c”")
    assert current.get_attribute("aria-current") == "step"
    # c was made after a, as b was: its branch is indented one level.
    assert current.find_element(By.XPATH, "..").get_attribute("data-level") == "1"
    assert abandoned.find_element(By.XPATH, "..").get_attribute("data-level") is None


def test_clicking_an_abandoned_step_returns_the_list_to_it(driver, base_url, api):
    open_todos(driver, base_url)
    branch(driver)
    click_step(driver, "Add “b”")
    wait_for_titles(driver, ["a", "b"])
    wait_history(driver, [("Start", False), ("Add “a”", False), ("Add “b”", True), ("Add “c”", False)])
    wait_until(driver, lambda d: has_class(step_button(d, "Add “c”"), "abandoned"), "the step left behind to be abandoned")
    wait_for_undo_title(driver, "Undo Add “b”")
    assert api.titles() == ["a", "b"]
    # And back: the other branch is one click away, too.
    click_step(driver, "Add “c”")
    wait_for_titles(driver, ["a", "c"])
    wait_until(driver, lambda d: has_class(step_button(d, "Add “b”"), "abandoned"), "b to be abandoned again")
    assert api.titles() == ["a", "c"]


def test_a_jump_onto_an_abandoned_step_redoes_what_its_branch_has_after_it(driver, base_url, api):
    for title in ("a", "b", "c"):
        api.add(title)
    api.request("POST", "/api/history/undo")
    api.request("POST", "/api/history/undo")
    api.add("d")
    open_todos(driver, base_url)
    wait_for_titles(driver, ["a", "d"])
    # d was made after a, not after c above it: it says so.
    after = step_button(driver, "Add “d”").find_element(By.CSS_SELECTOR, ".history-after")
    assert after.text == "after Add “a”"
    assert not step_button(driver, "Add “c”").find_elements(By.CSS_SELECTOR, ".history-after")
    click_step(driver, "Add “b”")
    wait_for_titles(driver, ["a", "b"])
    # c, undone after b before d was made, is what Redo makes again.
    wait_for_redo_title(driver, "Redo Add “c”")
    wait_until(driver, lambda d: has_class(step_button(d, "Add “c”"), "undone"), "c to be undone, not abandoned")
    click_css(driver, "#todos-redo")
    wait_for_titles(driver, ["a", "b", "c"])
    assert api.titles() == ["a", "b", "c"]


def test_the_shortcuts_undo_with_the_order_drop_down_focused(driver, base_url, api):
    api.add("Buy milk")
    open_todos(driver, base_url)
    wait_for_titles(driver, ["Buy milk"])
    css(driver, "#sort-order").click()
    press(driver, Keys.ESCAPE)
    assert focused(driver).get_attribute("id") == "sort-order"
    chord(driver, "z")
    wait_for_titles(driver, [])
    chord(driver, "y")
    wait_for_titles(driver, ["Buy milk"])


def test_clear_completed_leaves_the_keyboard_on_undo(driver, base_url, api):
    for title in ("a", "b"):
        api.add(title)
    item = api.items()[0]
    api.request("PATCH", f"/api/todos/{item['id']}", {"completed": True})
    open_todos(driver, base_url)
    wait_until(driver, lambda d: css(d, ".clear-completed").is_displayed(), "Clear completed")
    driver.execute_script("document.querySelector('.clear-completed').focus()")
    press(driver, Keys.ENTER)
    wait_for_titles(driver, ["b"])
    wait_until(driver, lambda d: focused(d).get_attribute("id") == "todos-undo",
               lambda: f"the focus on Undo; it is on {focused(driver).tag_name} {focused(driver).get_attribute('class')!r}")


def test_history_survives_a_server_restart(driver, server, api):
    open_todos(driver, server.url)
    add_and_wait(driver, "Buy milk", "Buy eggs")
    click_css(driver, "#todos-undo")
    wait_for_titles(driver, ["Buy milk"])
    wait_for_redo_title(driver, "Redo Add “Buy eggs”")
    driver.get("about:blank")
    # (test_server_lifecycle checks that SIGTERM stops it cleanly.)
    server.stop(timeout=10)
    server.start()
    open_todos(driver, server.url)
    wait_for_titles(driver, ["Buy milk"])
    wait_history(driver, [("Start", False), ("Add “Buy milk”", True), ("Add “Buy eggs”", False)])
    wait_for_undo_title(driver, "Undo Add “Buy milk”")
    wait_for_redo_title(driver, "Redo Add “Buy eggs”")
    click_css(driver, "#todos-redo")
    wait_for_titles(driver, ["Buy milk", "Buy eggs"])


CURRENT_STEP_IN_VIEW = """
var list = document.querySelector('.history-panel .history-list');
var current = list && list.querySelector('[aria-current="step"]');
if (!current) { return null; }
var shown = list.getBoundingClientRect(), box = current.closest('li').getBoundingClientRect();
return [box.top >= shown.top - 1 && box.bottom <= shown.bottom + 1,
        current.querySelector('.history-name').textContent, list.scrollTop];
"""


def current_step(driver):
    """[in view in the panel's list, its name, the list's scrollTop]."""
    return driver.execute_script(CURRENT_STEP_IN_VIEW)


def wait_current_step_in_view(driver, name):
    wait_until(
        driver, lambda d: (current_step(d) or [False, None])[:2] == [True, name],
        lambda: f"the step {name!r} current and in view in the history panel; it is {current_step(driver)}",
    )


def scroll_to_the_top_of_the_list(driver, step):
    """Scrolls the panel's list so that `step` is its first row, once no
    swap (of a change made before, heard again from /events) moves it."""
    for _ in range(20):
        driver.execute_script(
            "var list = document.querySelector('.history-panel .history-list');"
            "var item = list.querySelector('.history-step[data-step=\"' + arguments[0] + '\"]').closest('li');"
            "list.scrollTop += item.getBoundingClientRect().top - list.getBoundingClientRect().top;",
            step,
        )
        scrolled = current_step(driver)[2]
        time.sleep(0.3)
        if current_step(driver)[2] == scrolled:
            return scrolled
    raise AssertionError("the history list kept moving")


def test_the_current_step_stays_in_view_in_a_long_history(driver, base_url, api):
    # More steps than the panel's list shows at once: the newest is current.
    for number in range(1, 41):
        api.add(f"Step {number}")
    open_todos(driver, base_url)
    wait_current_step_in_view(driver, "Add “Step 40”")
    assert current_step(driver)[2] > 0, "the list should have scrolled down to the newest step"
    add_and_wait(driver, "One more")
    wait_current_step_in_view(driver, "Add “One more”")
    # A jump to a step in view leaves the list where it is, under the
    # pointer: here the list is scrolled to show Step 19 at its top.
    scrolled = scroll_to_the_top_of_the_list(driver, "19")
    click_css(driver, ".history-panel .history-step[data-step='20']")
    wait_current_step_in_view(driver, "Add “Step 20”")
    assert current_step(driver)[2] == scrolled, f"the list should not move when the new current step is in view: {scrolled} then {current_step(driver)}"
    # Scrolled to the top to pick an old step: the jump leaves the list
    # there (the step is in view), not sent back down or to its top.
    driver.execute_script("document.querySelector('.history-panel .history-list').scrollTop = 0")
    click_css(driver, ".history-panel .history-step[data-step='2']")
    wait_current_step_in_view(driver, "Add “Step 2”")
    # And Redo from there moves the current step down, still in view.
    click_css(driver, "#todos-redo")
    wait_current_step_in_view(driver, "Add “Step 3”")
    assert current_step(driver)[2] < 200, "the list should stay near its top, where the current step is"


def test_long_step_names_wrap_inside_the_history_panel(driver, base_url, api, browser_factory):
    # A title of one long word (its step name is shortened to 40 characters,
    # still one word) and one of several words: neither may widen the list
    # past the panel, which hid the end of every step and its time.
    api.add("x" * 300)
    api.add("Call Anna about the trip to the mountains")
    for browser in (driver, browser_factory(size=PHONE)):
        open_todos(browser, base_url)
        wait_until(browser, lambda d: len(history_steps(d)) == 3, "the history panel to list the two adds")
        widths = browser.execute_script("""
            const list = document.querySelector('.history-panel .history-list');
            const right = list.getBoundingClientRect().right;
            return {
                scroll: list.scrollWidth, client: list.clientWidth,
                past: [...list.querySelectorAll('.history-step, .history-step time')]
                    .filter(element => element.getBoundingClientRect().right > right + 0.5)
                    .map(element => element.textContent),
            };""")
        assert widths["scroll"] <= widths["client"], f"the history list scrolls sideways: {widths}"
        assert widths["past"] == [], f"steps reach past the list's right edge: {widths}"


def panel_state(driver):
    return driver.execute_script("""
        const list = document.querySelector('.history-panel .history-list');
        return {steps: list.querySelectorAll('.history-step').length,
                more: Array.from(list.querySelectorAll('.history-more span'), span => span.textContent)};""")


def test_show_more_lists_earlier_steps_and_the_panel_keeps_them_after_a_change(driver, base_url, api):
    for number in range(1, 261):
        api.add(f"Task {number}")
    open_todos(driver, base_url)
    # 100 steps around the current (the newest) one, and Start.
    assert panel_state(driver) == {"steps": 101, "more": ["… 160 steps earlier"]}
    from test_accessibility import violations  # axe-core 3 and 4, light and dark, desktop and phone

    problems = violations(driver, "a history panel with Show more")
    assert not problems, "\n".join(problems)
    driver.execute_script("document.querySelector('.history-panel .history-list').scrollTop = 0")
    driver.execute_script("document.querySelector('.history-panel .history-show-more').focus()")
    press(driver, Keys.ENTER)
    wait_until(driver, lambda d: panel_state(d) == {"steps": 261, "more": []}, lambda: f"every step listed: {panel_state(driver)}")
    # The keyboard goes on to the first step that came in, where the button was.
    wait_until(driver, lambda d: focused(d).get_attribute("data-step") == "1",
               lambda: f"the focus on step 1; it is on {focused(driver).tag_name} {focused(driver).get_attribute('data-step')!r}")
    # The list stayed at its top, where the button was: the steps now below it.
    assert current_step(driver)[2] < 100, "the list should stay where it was scrolled"
    # An old step, listed now, is a click away.
    click_css(driver, ".history-panel .history-step[data-step='3']")
    wait_current_step_in_view(driver, "Add “Task 3”")
    # After a change the panel still lists every step (the page asks for as many).
    add_and_wait(driver, "One more")
    wait_until(driver, lambda d: panel_state(d)["steps"] == 262 and panel_state(d)["more"] == [],
               lambda: f"every step still listed: {panel_state(driver)}")
    # The detail page's panel too.
    item = api.items()[0]
    driver.get(base_url + f"/todos/items/{item['id']}")
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".history-panel .history-show-more"), "the detail page's panel")
    click_css(driver, ".history-panel .history-show-more")
    wait_until(driver, lambda d: panel_state(d)["more"] == [], lambda: f"every step listed on the detail page: {panel_state(driver)}")
