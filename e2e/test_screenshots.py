"""A screenshot of each page at desktop and phone width, in light and dark
mode, saved to e2e/artifacts/ (git-ignored; CI keeps them as artifacts).
Each shot also checks what a screenshot can show a test: no horizontal
overflow at phone width, and the page really switches to dark colours."""

import base64

import pytest
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, DESKTOP, PHONE
from helpers import click_css, css, open_todos, wait_for_titles, wait_until

SIZES = {"desktop": DESKTOP, "phone": PHONE}
SCHEMES = ("light", "dark")


def set_scheme(driver, scheme):
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
    )
    settle(driver)


def settle(driver):
    """Waits for CSS transitions (colours fade on the rows) to end."""
    wait_until(
        driver,
        lambda d: d.execute_script(
            "return document.getAnimations().every(function (a) { return a.playState !== 'running'; });"
        ),
        "CSS transitions to end",
    )


def background(driver):
    return driver.execute_script("return getComputedStyle(document.body).backgroundColor")


def luminance(rgb):
    parts = [float(p) for p in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    return 0.2126 * parts[0] + 0.7152 * parts[1] + 0.0722 * parts[2]


def full_page_png(driver):
    """The whole page, not only the viewport (CDP)."""
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
    return base64.b64decode(shot["data"])


def shoot(driver, name):
    """Saves every size × scheme of the current page; returns the overflow problems found."""
    ARTIFACTS.mkdir(exist_ok=True)
    problems = []
    url = driver.current_url
    backgrounds = {}
    for scheme in SCHEMES:
        set_scheme(driver, scheme)
        for size_name, size in SIZES.items():
            driver.set_window_size(*size)
            wait_until(
                driver, lambda d: d.execute_script("return window.innerWidth") <= size[0],
                f"the window to be {size[0]} wide",
            )
            driver.execute_script("window.scrollTo(0, 0)")
            settle(driver)
            overflow = driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            if overflow > 0:
                wide = driver.execute_script(
                    "var w = document.documentElement.clientWidth; return Array.from(document.querySelectorAll('body *'))"
                    ".filter(function (e) { var r = e.getBoundingClientRect(); return r.right > w + 1 && r.width > 0; })"
                    ".slice(0, 5).map(function (e) { return e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : ''); });"
                )
                problems.append(f"{name} {size_name} {scheme}: {overflow}px horizontal overflow from {wide}")
            # Every control of a list's row stays inside the row (a long
            # overdue date once pushed the move handle out, beside the list).
            outside = driver.execute_script(
                "return Array.from(document.querySelectorAll('.todo-list li[data-id]')).flatMap(function (li) {"
                " var row = li.getBoundingClientRect();"
                " return Array.from(li.querySelectorAll('.view > *')).filter(function (e) {"
                "  var r = e.getBoundingClientRect(); return r.width > 0 && (r.right > row.right + 1 || r.left < row.left - 1); })"
                "  .map(function (e) { return li.querySelector('label').textContent + ': ' + e.className; }); });"
            )
            if outside:
                problems.append(f"{name} {size_name} {scheme}: outside their row: {outside}")
            driver.save_screenshot(str(ARTIFACTS / f"{name}-{size_name}-{scheme}.png"))
            (ARTIFACTS / f"{name}-{size_name}-{scheme}-full.png").write_bytes(full_page_png(driver))
            backgrounds[scheme] = background(driver)
    set_scheme(driver, "")
    driver.set_window_size(*DESKTOP)
    assert driver.current_url == url
    if luminance(backgrounds["dark"]) >= luminance(backgrounds["light"]):
        problems.append(f"{name}: dark mode does not darken the page ({backgrounds})")
    return problems


@pytest.fixture
def scheme_reset(driver):
    yield driver
    try:
        set_scheme(driver, "")
    except Exception:
        pass


def test_landing_page(scheme_reset, base_url):
    driver = scheme_reset
    driver.get(base_url + "/")
    links = [a.get_dom_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "main a")]
    assert "/todos" in links and "/calculator" in links
    problems = shoot(driver, "landing")
    assert not problems, "\n".join(problems)


def seed_todos(api):
    api.add("Buy milk", details="Two litres")
    api.add("File the tax return", due={"kind": "date", "date": "2020-04-30T10:00:00.000Z"})
    api.add("Book the holiday flights", due={"kind": "date", "date": "2040-06-01T09:00:00.000Z"},
            location={"kind": "address", "street": "1 Main Street", "city": "Springfield", "zipCode": "12345",
                      "country": "USA"})
    done = api.add("Water the plants")
    api.request("PATCH", f"/api/todos/{done['id']}", {"completed": True})
    # An abandoned branch in the history panel: a step undone, then replaced.
    api.add("Call the dentist")
    api.request("POST", "/api/history/undo")
    api.add("A rather long title that has to wrap somewhere on a narrow phone screen without breaking the layout")
    return done


def test_todos_page(scheme_reset, base_url, api):
    driver = scheme_reset
    seed_todos(api)
    open_todos(driver, base_url)
    wait_for_titles(driver, [
        "Buy milk", "File the tax return", "Book the holiday flights", "Water the plants",
        "A rather long title that has to wrap somewhere on a narrow phone screen without breaking the layout",
    ])
    css(driver, "input.new-todo").send_keys("Call the plumber")
    problems = shoot(driver, "todos")
    assert not problems, "\n".join(problems)


def test_todo_detail_page(scheme_reset, base_url, api):
    driver = scheme_reset
    seed_todos(api)
    item = api.items()[2]
    driver.get(f"{base_url}/todos/items/{item['id']}")
    css(driver, "#detail-form")
    problems = shoot(driver, "todo-detail")
    assert not problems, "\n".join(problems)
    click_css(driver, "#delete-item")
    wait_until(driver, lambda d: css(d, "dialog#confirm-delete-item").get_attribute("open") is not None, "the card to open")
    problems = shoot(driver, "todo-detail-modal")
    assert not problems, "\n".join(problems)


def test_calculator_page(scheme_reset, base_url):
    driver = scheme_reset
    driver.get(base_url + "/calculator")
    for label in ("1", "2", "+", "3", "=", "x", "2", "=", "-", "5"):
        css(driver, f".keypad .key[data-key='{label}']").click()
    wait_until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#calc-tape li")) == 2, "two lines on the tape")
    wait_until(driver, lambda d: css(d, "#calc-display").text == "5", "the display to read 5")
    problems = shoot(driver, "calculator")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------
# Contrast (WCAG AA) of the text a person must read, in light and dark mode
# ---------------------------------------------------------------------------

CONTRAST_SCRIPT = """
function parse(c) {
  var m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) { return [0, 0, 0, 0]; }
  var p = m[1].split(',').map(parseFloat); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
}
function over(top, bottom) {
  var a = top[3]; return [top[0]*a + bottom[0]*(1-a), top[1]*a + bottom[1]*(1-a), top[2]*a + bottom[2]*(1-a), 1];
}
function background(e) {
  var layers = [];
  for (var n = e; n && n.nodeType === 1; n = n.parentElement) {
    var b = parse(getComputedStyle(n).backgroundColor); if (b[3] > 0) { layers.push(b); }
    if (b[3] >= 1) { break; }
  }
  var c = [255, 255, 255, 1];
  if (layers.length && layers[layers.length - 1][3] >= 1) { c = layers.pop(); }
  else { c = parse(getComputedStyle(document.documentElement).backgroundColor); if (c[3] === 0) { c = [255,255,255,1]; } }
  while (layers.length) { c = over(layers.pop(), c); }
  return c;
}
function lum(c) {
  var v = c.slice(0, 3).map(function (x) { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}
var out = [];
arguments[0].forEach(function (selector) {
  document.querySelectorAll(selector).forEach(function (e) {
    if (!e.getClientRects().length || e.disabled) { return; }
    var cs = getComputedStyle(e); var opacity = 1;
    for (var n = e; n && n.nodeType === 1; n = n.parentElement) { opacity *= parseFloat(getComputedStyle(n).opacity); }
    var bg = background(e); var fg = parse(cs.color); fg[3] *= opacity; fg = over(fg, bg);
    var l1 = lum(fg), l2 = lum(bg); var ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    var size = parseFloat(cs.fontSize), bold = parseInt(cs.fontWeight, 10) >= 700;
    var large = size >= 24 || (bold && size >= 18.66);
    out.push({selector: selector, text: (e.textContent || e.value || e.placeholder || '').trim().slice(0, 30),
              ratio: Math.round(ratio * 100) / 100, needed: large ? 3 : 4.5,
              fg: fg.slice(0, 3).map(Math.round), bg: bg.slice(0, 3).map(Math.round)});
  });
});
return out;
"""


def low_contrast(driver, selectors):
    problems = []
    for scheme in SCHEMES:
        set_scheme(driver, scheme)
        for entry in driver.execute_script(CONTRAST_SCRIPT, selectors):
            if entry["ratio"] < entry["needed"]:
                problems.append(
                    f"{scheme}: {entry['selector']} “{entry['text']}” contrast {entry['ratio']}:1 < {entry['needed']}:1 "
                    f"(text rgb{tuple(entry['fg'])} on rgb{tuple(entry['bg'])})"
                )
    set_scheme(driver, "")
    return problems


TODO_SELECTORS = [
    "section.todoapp h1", "input.new-todo", ".todo-list li:not(.completed) .view label", ".todo-list .item-details",
    ".todo-list time.due", "span.todo-count", "ul.filters a", "button.clear-completed", "#todos-undo",
    "#delete-all", ".toolbar label", ".history-panel h2", ".history-step .history-name", ".history-step time",
    ".history-step .history-branch",
    ".keyboard-help", ".site-nav a",
]


def test_todos_page_text_has_enough_contrast(scheme_reset, base_url, api):
    driver = scheme_reset
    seed_todos(api)
    open_todos(driver, base_url)
    wait_for_titles(driver, [item["title"] for item in api.items()])
    problems = low_contrast(driver, TODO_SELECTORS)
    assert not problems, "\n".join(problems)


def test_detail_page_and_card_text_has_enough_contrast(scheme_reset, base_url, api):
    driver = scheme_reset
    seed_todos(api)
    item = api.items()[2]
    driver.get(f"{base_url}/todos/items/{item['id']}")
    css(driver, "#detail-form")
    problems = low_contrast(driver, [
        "h1.detail-title", ".detail-summary", ".back-link", "#todos-undo", "#detail-form .field span",
        "#detail-form input[name='title']", "#detail-form legend", "#detail-form .choice-row label",
        "#detail-form button[type='submit']", "#delete-item",
    ])
    click_css(driver, "#delete-item")
    wait_until(driver, lambda d: css(d, "dialog#confirm-delete-item").get_attribute("open") is not None, "the card to open")
    problems += low_contrast(driver, [
        "dialog[open] .modal-card-title", "dialog[open] .modal-card-message", "dialog[open] button",
    ])
    assert not problems, "\n".join(problems)


def test_calculator_and_landing_text_has_enough_contrast(scheme_reset, base_url):
    driver = scheme_reset
    driver.get(base_url + "/calculator")
    for label in ("1", "+", "2", "="):
        css(driver, f".keypad .key[data-key='{label}']").click()
    wait_until(driver, lambda d: css(d, "#calc-display").text == "3", "the display to read 3")
    problems = low_contrast(driver, ["#calc-display", "#calc-undo", ".keypad .key", "#calc-tape li", ".tape h2",
                                     ".keyboard-help"])
    driver.get(base_url + "/")
    problems += low_contrast(driver, [".landing h1", ".lead", ".app-card h2", ".app-card p", ".api-note", ".api-note a"])
    assert not problems, "\n".join(problems)
