"""The calculator page: the keypad built from the button configuration (the
CLI's, or `--calculator-config FILE`), the display above it, clicks and
keyboard input, Undo/Redo (buttons and shortcuts), the tape, and one
calculator per browser, kept across a restart."""

import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import PHONE, REPO, Server
from helpers import chord, css, css_all, press, wait_until

SHIPPED = json.loads((REPO / "Sources" / "Calculator" / "Resources" / "ButtonConfiguration.json").read_text())


def open_calculator(driver, base_url):
    driver.get(base_url + "/calculator")
    wait_until(driver, lambda d: d.execute_script("return document.readyState") == "complete", "the calculator to load")
    css(driver, "#calc-display")


def display(driver):
    return css(driver, "#calc-display").text


def wait_display(driver, text):
    wait_until(driver, lambda d: display(d) == text, lambda: f"the display to read {text!r} (it reads {display(driver)!r})")


def tape(driver):
    return [li.text for li in css_all(driver, "#calc-tape li")]


def wait_tape(driver, lines):
    wait_until(driver, lambda d: tape(d) == lines, lambda: f"the tape to read {lines} (it reads {tape(driver)})")


def click_keys(driver, *labels):
    for label in labels:
        button = css(driver, f".keypad .key[data-key='{label}']")
        button.click()


def labels(driver):
    return [button.get_attribute("data-key") for button in css_all(driver, ".keypad .key")]


def column_count(driver):
    return driver.execute_script(
        "return getComputedStyle(document.querySelector('.keypad')).gridTemplateColumns.split(' ').length;"
    )


def test_the_keypad_is_built_from_the_shipped_configuration(driver, base_url):
    open_calculator(driver, base_url)
    assert labels(driver) == SHIPPED["labels"]
    # Each key shows its label, but for the typographic signs of times and minus.
    faces = {"x": "\u00d7", "-": "\u2212"}
    assert [button.text for button in css_all(driver, ".keypad .key")] == [
        faces.get(label, label) for label in SHIPPED["labels"]
    ]
    times = css(driver, ".keypad .key[data-key='x']")
    assert (times.get_attribute("aria-label"), times.get_attribute("title")) == ("times", "Times")
    assert css(driver, ".keypad").get_attribute("data-columns") == str(SHIPPED["columnCount"])
    assert column_count(driver) == SHIPPED["columnCount"]
    # The display is above the keypad.
    display_box = css(driver, "#calc-display").rect
    keypad_box = css(driver, ".keypad").rect
    assert display_box["y"] + display_box["height"] <= keypad_box["y"] + 1
    assert display(driver) == "0"


def test_undo_and_redo_are_disabled_on_a_fresh_calculator(driver, base_url):
    open_calculator(driver, base_url)
    for selector in ("#calc-undo", "#calc-redo"):
        button = css(driver, selector)
        assert button.is_displayed() and not button.is_enabled(), f"{selector} should show, disabled"
    assert tape(driver) == []
    assert css(driver, ".tape-empty").is_displayed()


def test_clicks_compute_and_fill_the_tape(driver, base_url):
    open_calculator(driver, base_url)
    click_keys(driver, "1", "2", "+", "3")
    wait_display(driver, "3")
    click_keys(driver, "=")
    wait_display(driver, "15")
    wait_tape(driver, ["12 + 3 = 15"])
    assert not css(driver, ".tape-empty").is_displayed()
    click_keys(driver, "x", "2", "=")
    wait_display(driver, "30")
    wait_tape(driver, ["12 + 3 = 15", "15 × 2 = 30"])


def test_the_key_of_the_operation_that_waits_is_drawn_held_down(driver, base_url):
    open_calculator(driver, base_url)
    held = lambda d: [k.get_attribute("data-key") for k in css_all(d, ".keypad .key.pending")]  # noqa: E731
    click_keys(driver, "7", "+")
    wait_until(driver, lambda d: held(d) == ["+"], lambda: f"+ to be held (held: {held(driver)})")
    assert css(driver, ".keypad .key[data-key='+']").get_attribute("aria-current") == "true"
    click_keys(driver, "x")
    wait_until(driver, lambda d: held(d) == ["x"], lambda: f"x alone to be held (held: {held(driver)})")
    click_keys(driver, "2", "=")
    wait_display(driver, "14")
    wait_until(driver, lambda d: held(d) == [], lambda: f"no key to be held (held: {held(driver)})")
    assert css(driver, ".keypad .key[data-key='x']").get_attribute("aria-current") is None
    # A reload shows the same: the page draws it too.
    css(driver, "#calc-undo").click()
    css(driver, "#calc-undo").click()
    wait_display(driver, "7")
    driver.refresh()
    wait_until(driver, lambda d: held(d) == ["x"], lambda: f"x to be held after a reload (held: {held(driver)})")


def test_undo_and_redo_buttons_are_named_and_step_back_and_forth(driver, base_url):
    open_calculator(driver, base_url)
    click_keys(driver, "7", "+", "1", "=")
    wait_display(driver, "8")
    undo = lambda d: css(d, "#calc-undo")  # noqa: E731
    redo = lambda d: css(d, "#calc-redo")  # noqa: E731
    wait_until(driver, lambda d: undo(d).is_enabled() and undo(d).get_attribute("title") == "Undo Press =",
               lambda: f"Undo to be titled 'Undo Press =' (it is {undo(driver).get_attribute('title')!r})")
    undo(driver).click()
    wait_display(driver, "1")
    wait_tape(driver, [])
    wait_until(driver, lambda d: redo(d).is_enabled() and redo(d).get_attribute("title") == "Redo Press =",
               lambda: f"Redo to be titled 'Redo Press =' (it is {redo(driver).get_attribute('title')!r})")
    redo(driver).click()
    wait_display(driver, "8")
    wait_tape(driver, ["7 + 1 = 8"])
    wait_until(driver, lambda d: not redo(d).is_enabled(), "Redo to be disabled again")


def test_keyboard_digits_operators_enter_escape_backspace(driver, base_url):
    open_calculator(driver, base_url)
    css(driver, "h1").click()
    press(driver, "12*3")
    wait_display(driver, "3")
    press(driver, Keys.ENTER)
    wait_display(driver, "36")
    wait_tape(driver, ["12 × 3 = 36"])
    press(driver, Keys.ESCAPE)
    wait_display(driver, "0")
    press(driver, "123")
    wait_display(driver, "123")
    press(driver, Keys.BACKSPACE)
    wait_display(driver, "12")
    press(driver, "/4=")
    wait_display(driver, "3")
    press(driver, "-5", Keys.ENTER)
    wait_display(driver, "-2")
    press(driver, Keys.ESCAPE, "1.5+1.5", Keys.ENTER)
    wait_display(driver, "3")
    # The function keys as the terminal's calculator types them: n for ±, ^ for x², s for √.
    press(driver, Keys.ESCAPE, "9n")
    wait_display(driver, "-9")
    press(driver, "^")
    wait_display(driver, "81")
    press(driver, "s")
    wait_display(driver, "9")


def test_keyboard_undo_and_redo(driver, base_url):
    open_calculator(driver, base_url)
    css(driver, "h1").click()
    press(driver, "2+2", Keys.ENTER)
    wait_display(driver, "4")
    wait_tape(driver, ["2 + 2 = 4"])
    chord(driver, "z")
    wait_display(driver, "2")
    wait_tape(driver, [])
    chord(driver, "z", shift=True)
    wait_display(driver, "4")
    wait_tape(driver, ["2 + 2 = 4"])
    chord(driver, "z")
    wait_display(driver, "2")
    chord(driver, "y")
    wait_display(driver, "4")
    wait_until(driver, lambda d: not css(d, "#calc-redo").is_enabled(), "Redo to be disabled at the end")


def test_enter_after_mouse_clicks_means_equals(driver, base_url):
    open_calculator(driver, base_url)
    click_keys(driver, "2", "+", "3")
    wait_display(driver, "3")
    press(driver, Keys.ENTER)
    wait_display(driver, "5")


def test_an_error_shows_on_the_display(driver, base_url):
    open_calculator(driver, base_url)
    click_keys(driver, "1", "÷", "0", "=")
    wait_display(driver, "Cannot divide by zero")
    assert css(driver, "#calc-display").get_attribute("data-error") == "Cannot divide by zero"
    click_keys(driver, "AC")
    wait_display(driver, "0")
    assert css(driver, "#calc-display").get_attribute("data-error") == ""


def display_fit(driver):
    return driver.execute_script("""
        const display = document.getElementById('calc-display');
        return {overflow: display.scrollWidth - display.clientWidth, size: parseFloat(getComputedStyle(display).fontSize)};""")


def test_a_long_number_shows_whole_on_the_display(driver, base_url, browser_factory):
    # 16 digits, and a result with an exponent: before, the display showed
    # "9.99999999999" and hid "9998e31" past its right edge.
    for browser in (driver, browser_factory(size=PHONE)):
        open_calculator(browser, base_url)
        css(browser, "h1").click()
        full = display_fit(browser)["size"]
        press(browser, Keys.ESCAPE, "9" * 16)
        wait_display(browser, "9" * 16)
        assert display_fit(browser)["overflow"] <= 0, f"16 digits do not fit: {display_fit(browser)}"
        press(browser, "*", "9" * 16, Keys.ENTER)
        wait_display(browser, "9.999999999999998e31")
        fit = display_fit(browser)
        assert fit["overflow"] <= 0 and fit["size"] < full, f"the result does not fit: {fit} (full size {full})"
        # A short number gets the full size back.
        press(browser, Keys.ESCAPE, "7")
        wait_display(browser, "7")
        assert display_fit(browser)["size"] == full


def test_a_long_negative_result_shows_its_sign_on_a_narrow_phone(base_url, browser_factory):
    # 320 px, as a 1280 px window at 400 %: before, the display shrank to half
    # its size and no further, and "-9.999999999999998e31" lost its minus sign
    # past the left edge, under a scroll bar.
    browser = browser_factory(size=(320, 640))
    open_calculator(browser, base_url)
    css(browser, "h1").click()
    press(browser, Keys.ESCAPE, "9" * 16)
    click_keys(browser, "±")
    press(browser, "*", "9" * 16, Keys.ENTER)
    wait_display(browser, "-9.999999999999998e31")
    fit = display_fit(browser)
    assert fit["overflow"] <= 0, f"the result does not fit: {fit}"
    assert browser.execute_script("return document.getElementById('calc-display').scrollLeft;") == 0


def server_with_keypad(rewind_bin, tmp_path, layout):
    """A server of its own, started, with `layout` as its --calculator-config."""
    config = tmp_path / "keypad.json"
    config.write_text(json.dumps(layout))
    data = tmp_path / "data-keypad"
    data.mkdir()
    custom = Server(rewind_bin, data, tmp_path, extra_args=["--calculator-config", str(config)])
    custom.start()
    return custom


def test_a_keypad_of_twelve_columns_stays_inside_its_card(rewind_bin, browser_factory, tmp_path):
    layout = {"labels": ["AC", "C", "⌫", "÷", "√", "x²", "%", "x", "7", "8", "9", "-", "4", "5", "6", "+", "1", "2", "3", "=",
                         "±", "0", "."], "columnCount": 12}
    custom = server_with_keypad(rewind_bin, tmp_path, layout)
    try:
        for size in ((1280, 900), PHONE):
            browser = browser_factory(size=size)
            open_calculator(browser, custom.url)
            box = browser.execute_script("""
                const card = document.querySelector('.calculator').getBoundingClientRect();
                const keys = [...document.querySelectorAll('.key')].map(key => key.getBoundingClientRect());
                const tape = document.querySelector('.tape').getBoundingClientRect();
                return {card: [card.left, card.right], keys: [Math.min(...keys.map(k => k.left)), Math.max(...keys.map(k => k.right))],
                        widths: [...new Set(keys.map(k => Math.round(k.width)))], tape: tape.left,
                        scroll: document.documentElement.scrollWidth, window: window.innerWidth};""")
            assert box["card"][0] <= box["keys"][0] and box["keys"][1] <= box["card"][1], f"keys outside the card at {size}: {box}"
            assert len(box["widths"]) == 1, f"columns of several widths at {size}: {box}"
            assert box["scroll"] <= box["window"], f"the page scrolls sideways at {size}: {box}"
            if size[0] >= 760:
                assert box["tape"] >= box["card"][1], f"the tape covers the calculator: {box}"
    finally:
        custom.stop()


def test_a_long_error_shows_whole_and_readable(driver, base_url, browser_factory):
    for browser in (driver, browser_factory(size=PHONE)):
        open_calculator(browser, base_url)
        css(browser, "h1").click()
        press(browser, Keys.ESCAPE, "4")
        click_keys(browser, "±", "√")
        wait_display(browser, "Invalid input: square root of a negative number")
        fit = display_fit(browser)
        assert fit["overflow"] <= 0 and fit["size"] >= 18, f"the error does not fit, or is shrunk: {fit}"
        keypad_top = browser.execute_script("return document.querySelector('.keypad').getBoundingClientRect().top;")
        press(browser, Keys.ESCAPE)
        wait_display(browser, "0")
        assert browser.execute_script("return document.querySelector('.keypad').getBoundingClientRect().top;") == keypad_top, \
            "the keypad moved"


def test_a_screen_reader_hears_the_operation_that_waits(driver, base_url):
    def heard(d):
        return d.execute_script("return document.getElementById('calc-spoken').textContent;")
    open_calculator(driver, base_url)
    click_keys(driver, "2", "+")
    wait_until(driver, lambda d: heard(d) == "2 plus", lambda: f"“2 plus” to be said; it is {heard(driver)!r}")
    assert css(driver, "#calc-display").get_attribute("aria-live") == "off", "the number is not said twice"
    click_keys(driver, "3")
    wait_until(driver, lambda d: heard(d) == "3", lambda: f"“3” to be said; it is {heard(driver)!r}")
    click_keys(driver, "x")
    wait_until(driver, lambda d: heard(d) == "5 times", lambda: f"“5 times” to be said; it is {heard(driver)!r}")
    # A second number made by a function key is there: 5 × 4² is said as 16, not “16 times”.
    click_keys(driver, "4", "x²")
    wait_until(driver, lambda d: heard(d) == "16", lambda: f"“16” to be said; it is {heard(driver)!r}")
    click_keys(driver, "=")
    wait_display(driver, "80")


def test_the_keyboard_goes_to_redo_when_undo_runs_out_and_back(driver, base_url):
    open_calculator(driver, base_url)
    click_keys(driver, "1", "2")
    wait_display(driver, "12")
    active = lambda d: d.execute_script("return document.activeElement.id")  # noqa: E731
    driver.execute_script("document.getElementById('calc-undo').focus()")
    for shown in ("1", "0"):
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait_display(driver, shown)
    wait_until(driver, lambda d: active(d) == "calc-redo", lambda: f"the focus on Redo; it is on {active(driver)!r}")
    for shown in ("1", "12"):
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait_display(driver, shown)
    wait_until(driver, lambda d: active(d) == "calc-undo", lambda: f"the focus on Undo; it is on {active(driver)!r}")
    # Steps are named by the key as drawn: × for x.
    click_keys(driver, "x")
    wait_until(driver, lambda d: css(d, "#calc-undo").get_attribute("aria-label") == "Undo Press ×",
               lambda: css(driver, "#calc-undo").get_attribute("aria-label"))


def test_enter_on_a_link_follows_it_and_presses_no_key(driver, base_url):
    open_calculator(driver, base_url)
    click_keys(driver, "2", "+", "3")
    wait_display(driver, "3")
    link = css(driver, "nav.site-nav a[href='/todos']")
    driver.execute_script("arguments[0].focus();", link)
    link.send_keys(Keys.ENTER)
    wait_until(driver, lambda d: d.current_url.endswith("/todos"), f"Enter to follow the link; the page is {driver.current_url}")
    open_calculator(driver, base_url)
    wait_display(driver, "3")
    assert tape(driver) == [], "Enter on the link pressed ="


def test_each_browser_keeps_its_own_calculator(driver, second_driver, base_url):
    open_calculator(driver, base_url)
    click_keys(driver, "4", "2")
    wait_display(driver, "42")
    open_calculator(second_driver, base_url)
    assert display(second_driver) == "0", "a second browser should get a calculator of its own"
    click_keys(second_driver, "7")
    wait_display(second_driver, "7")
    # The first browser keeps its own, across a reload.
    driver.refresh()
    wait_display(driver, "42")


def test_a_second_tab_of_the_calculator_follows_the_first(driver, base_url):
    open_calculator(driver, base_url)
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    second = driver.current_window_handle
    try:
        open_calculator(driver, base_url)
        click_keys(driver, "1", "+", "2", "=")
        wait_display(driver, "3")
        # The first tab shows it without a reload: same browser, same calculator.
        driver.switch_to.window(first)
        wait_display(driver, "3")
        wait_tape(driver, ["1 + 2 = 3"])
        assert not css(driver, "#calc-undo").get_attribute("disabled")
        css(driver, "#calc-undo").click()
        wait_display(driver, "2")
        driver.switch_to.window(second)
        wait_display(driver, "2")
        wait_until(driver, lambda d: not css(d, "#calc-redo").get_attribute("disabled"), "Redo to be offered in the second tab")
    finally:
        driver.switch_to.window(second)
        driver.close()
        driver.switch_to.window(first)


def test_the_calculator_is_kept_across_a_restart_with_its_undo_and_redo(driver, server):
    open_calculator(driver, server.url)
    click_keys(driver, "1", "2", "+", "3", "=", "x", "2", "=")
    wait_display(driver, "30")
    css(driver, "#calc-undo").click()
    wait_display(driver, "2")
    wait_tape(driver, ["12 + 3 = 15"])
    server.stop(timeout=10)
    server.start()
    # The same browser (its cookie) on the restarted server, at a new port.
    open_calculator(driver, server.url)
    wait_display(driver, "2")
    wait_tape(driver, ["12 + 3 = 15"])
    redo = css(driver, "#calc-redo")
    assert redo.is_enabled() and redo.get_attribute("title") == "Redo Press =", "the undone press should still be redone"
    redo.click()
    wait_display(driver, "30")
    wait_tape(driver, ["12 + 3 = 15", "15 × 2 = 30"])
    # Undo goes on back through the steps pressed before the restart.
    for expected in ["2", "15"]:
        css(driver, "#calc-undo").click()
        wait_display(driver, expected)
    wait_tape(driver, ["12 + 3 = 15"])


def test_serve_takes_a_calculator_configuration(rewind_bin, driver, tmp_path):
    # A keypad labelled with aliases: `*` for ×.
    layout = {"labels": ["7", "8", "9", "4", "5", "6", "1", "2", "3", "0", "+", "=", "*", "+/-", "sqrt"], "columnCount": 3}
    custom = server_with_keypad(rewind_bin, tmp_path, layout)
    try:
        open_calculator(driver, custom.url)
        assert labels(driver) == layout["labels"]
        assert column_count(driver) == 3
        click_keys(driver, "9", "+", "1", "=")
        wait_display(driver, "10")
        # Typed x multiplies on it too (its key is labelled *), and the step is named by its sign.
        press(driver, "3", "x")
        wait_until(driver, lambda d: css(d, "#calc-undo").get_attribute("aria-label") == "Undo Press ×",
                   lambda: css(driver, "#calc-undo").get_attribute("aria-label"))
        press(driver, "2", "=")
        wait_display(driver, "6")
        # n and s press ± and √ under these spellings too.
        press(driver, "n")
        wait_display(driver, "-6")
        press(driver, "4", "s")
        wait_display(driver, "2")
        driver.get("about:blank")
    finally:
        custom.stop()


def test_the_tape_shows_its_newest_line_and_a_key_the_server_did_not_take_is_said(driver, base_url):
    open_calculator(driver, base_url)
    # A hundred calculations through the page's own calculator (its cookie), then the page again.
    status = driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "var keys = []; for (var i = 0; i < 100; i++) { keys.push('1', '+', '1', '='); }"
        "fetch('/api/calculator/keys', {method: 'POST', credentials: 'same-origin', headers: {"
        "  'Content-Type': 'application/json',"
        "  'X-Rewind-CSRF': document.querySelector('meta[name=rewind-csrf]').content},"
        "  body: JSON.stringify({keys: keys})}).then(function (r) { done(r.status); });"
    )
    assert status == 200
    open_calculator(driver, base_url)
    newest_shown = (
        "var t = document.getElementById('calc-tape'); var last = t.lastElementChild.getBoundingClientRect();"
        "var box = t.getBoundingClientRect(); return t.scrollHeight > t.clientHeight && last.bottom <= box.bottom + 1;"
    )
    assert driver.execute_script(newest_shown), "the tape should show its newest line on load"
    click_keys(driver, "2", "+", "2", "=")
    wait_until(driver, lambda d: tape(d)[-1].endswith("= 4"), "the new line")
    assert driver.execute_script(newest_shown), "the tape should show the line just made"

    # The server unreachable (the request fails as on a network error): said under the display.
    driver.execute_script(
        "var original = window.fetch;"
        "window.fetch = function () { return Promise.reject(new TypeError('Failed to fetch')); };"
    )
    click_keys(driver, "3")
    wait_until(driver, lambda d: "cannot be reached" in css(d, "#calc-error").text, "the failure to be said")
    assert css(driver, "#calc-error").is_displayed()
    # The display goes on showing its number, not drawn as an error.
    assert css(driver, "#calc-display").text == "4"
    assert css(driver, "#calc-display").get_attribute("data-error") == ""
