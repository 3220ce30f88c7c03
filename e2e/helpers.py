"""Waits and small page helpers shared by the browser tests."""

import subprocess
import time
from contextlib import contextmanager

from selenium.common.exceptions import (
    ElementNotInteractableException,
    StaleElementReferenceException,
    TimeoutException,
    WebDriverException,
)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

# How long a wait lasts. The machine is small and shared, so this is generous;
# waits end as soon as their condition holds.
TIMEOUT = 10
# How soon a change made elsewhere must show up (the issue says "within a
# second"; a little slack for a loaded two-core machine).
LIVE_TIMEOUT = 3


class _Wait(WebDriverWait):
    """A wait that takes an element of a page being replaced as "not yet":
    a stale element, and chromedriver's "Node with given id does not belong
    to the document", which newer versions report as an unknown error
    instead when a form's submission replaces the page mid-read."""

    def until(self, method, message=""):
        def tolerant(driver):
            try:
                return method(driver)
            except WebDriverException as error:
                if "does not belong to the document" in str(error):
                    return False
                raise

        return super().until(tolerant, message)


def wait(driver, timeout=TIMEOUT):
    return _Wait(driver, timeout, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,))


def wait_until(driver, condition, message, timeout=TIMEOUT):
    """Waits for `condition(driver)` to be truthy; on timeout the message says
    what was expected and `describe` what was there."""
    try:
        return wait(driver, timeout).until(condition)
    except TimeoutException:
        if callable(message):
            try:
                message = message()
            except Exception as error:  # the page changed while describing it
                message = f"(could not describe: {error.__class__.__name__})"
        raise AssertionError(f"after {timeout}s: {message}") from None


def css(driver, selector):
    return driver.find_element(By.CSS_SELECTOR, selector)


def css_all(driver, selector):
    return driver.find_elements(By.CSS_SELECTOR, selector)


def press(driver, *keys):
    """Sends keys to whatever has the focus (like a person typing)."""
    ActionChains(driver).send_keys(*keys).perform()


def chord(driver, key, ctrl=True, shift=False):
    """Ctrl(+Shift)+key to the focused element (or the body)."""
    actions = ActionChains(driver)
    if ctrl:
        actions.key_down(Keys.CONTROL)
    if shift:
        actions.key_down(Keys.SHIFT)
    actions.send_keys(key)
    if shift:
        actions.key_up(Keys.SHIFT)
    if ctrl:
        actions.key_up(Keys.CONTROL)
    actions.perform()


# What chromedriver says of an element a live refresh replaced between finding
# it and using it: stale, or, when the swap comes in the middle of typing,
# not interactable.
REPLACED = (StaleElementReferenceException, ElementNotInteractableException)


def again_while_replaced(steps, what, tries=10):
    """Runs `steps` (which find what they touch afresh) and runs them again
    when a live refresh replaced an element between two of them; returns
    what `steps` returns."""
    for _ in range(tries):
        try:
            return steps()
        except REPLACED:
            time.sleep(0.1)
    raise AssertionError(f"{what} kept being replaced")


def click_css(driver, selector, index=0):
    """Clicks the element found afresh (the page swaps in new regions after
    every change, which makes old references stale)."""
    def click():
        elements = driver.find_elements(By.CSS_SELECTOR, selector)
        if len(elements) <= index:
            raise AssertionError(f"no element #{index} for {selector!r}")
        elements[index].click()

    again_while_replaced(click, repr(selector))


def send_keys_css(driver, selector, keys):
    """Types `keys` into the element found afresh, as click_css clicks it (a
    live refresh may swap the region between finding and typing)."""
    again_while_replaced(lambda: css(driver, selector).send_keys(keys), repr(selector))


def focused(driver):
    return driver.switch_to.active_element


def blur_text_fields(driver):
    """Moves the focus out of any text field by clicking the page's heading,
    as a person would before using the undo shortcuts."""
    headings = css_all(driver, "section.todoapp h1") or css_all(driver, "h1")
    headings[0].click()
    wait_until(
        driver,
        lambda d: d.execute_script(
            "var e = document.activeElement; return !e || e === document.body || "
            "!(e.tagName === 'TEXTAREA' || (e.tagName === 'INPUT' && !['checkbox','radio','button'].includes(e.type)));"
        ),
        "the focus to leave the text field",
    )


# ---------------------------------------------------------------------------
# The to-do page
# ---------------------------------------------------------------------------

def open_todos(driver, base_url, hash=""):
    driver.get(base_url + "/todos" + hash)
    wait_until(driver, lambda d: d.execute_script("return document.readyState") == "complete", "the page to load")
    # The script focuses the new-todo field when it has started.
    wait_until(
        driver,
        lambda d: d.execute_script("return document.activeElement && document.activeElement.classList.contains('new-todo')"),
        "input.new-todo to have the focus (the page's script to start)",
    )


def visible_titles(driver):
    """The labels of the rows a person sees, top to bottom."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.todo-list li'))"
        ".filter(function (li) { return li.offsetParent !== null; })"
        ".map(function (li) { var l = li.querySelector('.view label'); return l ? l.textContent : null; });"
    )


def rendered_titles(driver):
    """The labels of every `li` in the list, hidden or not."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.todo-list li'))"
        ".map(function (li) { var l = li.querySelector('.view label'); return l ? l.textContent : null; });"
    )


def wait_for_titles(driver, titles, timeout=TIMEOUT):
    """Waits until the list shows exactly `titles`, with no hidden leftovers."""
    titles = list(titles)
    try:
        wait(driver, timeout).until(lambda d: rendered_titles(d) == titles and visible_titles(d) == titles)
    except TimeoutException:
        raise AssertionError(
            f"after {timeout}s the list should show {titles}; it shows {visible_titles(driver)} "
            f"(all li: {rendered_titles(driver)})"
        ) from None


def add_todos(driver, *titles):
    field = css(driver, "input.new-todo")
    for title in titles:
        field.send_keys(title, Keys.ENTER)


def add_and_wait(driver, *titles):
    before = rendered_titles(driver)
    add_todos(driver, *titles)
    wait_for_titles(driver, before + list(titles))


def row(driver, index):
    return css_all(driver, ".todo-list li")[index]


def row_by_title(driver, title):
    for li in css_all(driver, ".todo-list li"):
        if li.find_element(By.CSS_SELECTOR, ".view label").text == title:
            return li
    raise AssertionError(f"no row titled {title!r}; rows: {rendered_titles(driver)}")


def classes(element):
    return (element.get_attribute("class") or "").split()


def has_class(element, name):
    return name in classes(element)


def wait_for_count_text(driver, text):
    wait_until(
        driver,
        lambda d: css(d, "span.todo-count").text == text,
        lambda: f"span.todo-count to read {text!r} (it reads {css(driver, 'span.todo-count').text!r})",
    )


def undo_button(driver):
    return css(driver, "#todos-undo")


def redo_button(driver):
    return css(driver, "#todos-redo")


def wait_for_undo_title(driver, title):
    wait_until(
        driver,
        lambda d: undo_button(d).get_attribute("title") == title and undo_button(d).is_enabled(),
        lambda: f"the Undo button to be enabled and titled {title!r} "
        f"(it is titled {undo_button(driver).get_attribute('title')!r}, enabled={undo_button(driver).is_enabled()})",
    )


def wait_for_redo_title(driver, title):
    wait_until(
        driver,
        lambda d: redo_button(d).get_attribute("title") == title and redo_button(d).is_enabled(),
        lambda: f"the Redo button to be enabled and titled {title!r} "
        f"(it is titled {redo_button(driver).get_attribute('title')!r}, enabled={redo_button(driver).is_enabled()})",
    )


def history_steps(driver):
    """[(name, is_current)] of the history panel, oldest first."""
    steps = driver.execute_script(
        "return Array.from(document.querySelectorAll('.history-panel .history-step')).map(function (b) {"
        " var n = b.querySelector('.history-name'); return [n ? n.textContent : b.textContent,"
        " b.classList.contains('current') || b.getAttribute('aria-current') === 'step']; });"
    )
    return [tuple(step) for step in steps]


def browser_errors(driver):
    """Severe console messages (script errors, failed requests)."""
    try:
        return [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    except Exception:
        return []


# Counts, in the page, the live-update events it hears and the fetches whose
# answers it has read, on one sequence: "a fetch that started after the last
# event has been applied" is then a condition a test can wait for.
_LIVE_REFRESH_TRACKER = r"""
(function () {
  var tracker = window.__liveRefreshTracker = { seq: 0, events: 0, lastEvent: 0, lastApplied: 0 };
  var PageEventSource = window.EventSource;
  if (PageEventSource) {
    var Tracked = function (url, options) {
      var source = new PageEventSource(url, options);
      // Added before the page's own listener, so it counts the event first.
      source.addEventListener('todos', function () { tracker.events += 1; tracker.lastEvent = ++tracker.seq; });
      return source;
    };
    Tracked.prototype = PageEventSource.prototype;
    window.EventSource = Tracked;
  }
  var pageFetch = window.fetch;
  window.fetch = function () {
    var started = ++tracker.seq;
    function applied() {
      // A task after the answer was read runs after the page's own
      // callbacks on it, which are microtasks.
      setTimeout(function () { tracker.lastApplied = Math.max(tracker.lastApplied, started); }, 0);
    }
    return pageFetch.apply(this, arguments).then(function (response) {
      ['text', 'json'].forEach(function (name) {
        var read = response[name].bind(response);
        response[name] = function () { var body = read(); body.then(applied, applied); return body; };
      });
      return response;
    });
  };
})();
"""


@contextmanager
def tracking_live_refreshes(driver):
    """Pages loaded inside the block count the live-update events they hear
    and the answers they apply (see `wait_for_live_refresh`)."""
    added = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _LIVE_REFRESH_TRACKER})
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})


def live_events_heard(driver):
    """How many live-update events the page heard (a page loaded inside
    `tracking_live_refreshes`)."""
    return driver.execute_script("return window.__liveRefreshTracker.events;")


def wait_for_live_refresh(driver, events_before):
    """Waits until the page heard a live-update event after `events_before`
    and applied the refresh that follows it: the page then shows what the
    live update made of it, for a test to check that something survived."""
    wait_until(
        driver,
        lambda d: d.execute_script(
            "var t = window.__liveRefreshTracker;"
            "return t.events > arguments[0] && t.lastApplied > t.lastEvent;",
            events_before,
        ),
        lambda: "the page to hear a live update and apply the refresh that follows; it counted "
        + driver.execute_script("return JSON.stringify(window.__liveRefreshTracker);"),
    )


def add_account(rewind_bin, name, password, *location):
    """`rewind users add NAME --password-stdin` with `location`: `--data-dir DIR`
    or `--database URL`."""
    made = subprocess.run(
        [rewind_bin, "users", "add", name, "--password-stdin", *map(str, location)],
        input=password + "\n", capture_output=True, text=True, timeout=60,
    )
    assert made.returncode == 0, made.stderr
