"""axe-core, the engine behind most accessibility checkers, over every page:
light and dark, desktop and phone width, with the ModalCard dialogs open.
Every rule axe-core runs by default must pass (WCAG 2.x A and AA among them).

axe-core comes bundled in PyPI packages (see requirements.txt): version 4.9
in selenium-axe-python, and version 3.1 in axe-selenium-python, whose
rules differ in places (3.1 checks that radio buttons of one name form a
labelled group), so both run.
"""

import pytest
from axe_selenium_python import Axe as Axe3
from selenium_axe_python import Axe as Axe4

from conftest import DESKTOP, PHONE
from helpers import click_css, css, open_todos, wait_for_titles, wait_until
from test_screenshots import SCHEMES, seed_todos, set_scheme, settle

SIZES = {"desktop": DESKTOP, "phone": PHONE}


def violations(driver, state):
    """The violations axe-core finds on the current page, in every scheme and size."""
    engines = {"axe-core 4": Axe4(driver), "axe-core 3": Axe3(driver)}
    found = []
    for scheme in SCHEMES:
        set_scheme(driver, scheme)
        for size_name, size in SIZES.items():
            driver.set_window_size(*size)
            wait_until(
                driver, lambda d: d.execute_script("return window.innerWidth") <= size[0],
                f"the window to be {size[0]} wide",
            )
            settle(driver)
            for engine, axe in engines.items():
                axe.inject()
                for violation in axe.run()["violations"]:
                    targets = [" ".join(node["target"]) for node in violation["nodes"]][:5]
                    found.append(
                        f"{state} {scheme} {size_name} ({engine}): {violation['id']} ({violation['impact']}) "
                        f"{violation['help']} at {targets}"
                    )
    set_scheme(driver, "")
    driver.set_window_size(*DESKTOP)
    return found


@pytest.fixture
def page(driver):
    yield driver
    try:
        set_scheme(driver, "")
        driver.set_window_size(*DESKTOP)
    except Exception:
        pass


def open_dialog(driver, opener, dialog_id):
    click_css(driver, opener)
    wait_until(
        driver, lambda d: css(d, f"dialog#{dialog_id}").get_attribute("open") is not None, f"dialog#{dialog_id} to open"
    )


def test_landing_page_has_no_violations(page, base_url):
    page.get(base_url + "/")
    problems = violations(page, "landing")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", ["/calc", "/todos?steps=0"])
def test_error_pages_have_no_violations(page, base_url, path):
    """The page a browser gets for an address with no page (404) and for one
    whose query the page does not take (400)."""
    page.get(base_url + path)
    assert css(page, "body").get_attribute("data-page") == "error"
    problems = violations(page, path)
    assert not problems, "\n".join(problems)


def test_todos_page_has_no_violations(page, base_url, api):
    seed_todos(api)
    api.request("POST", "/api/history/undo")
    open_todos(page, base_url)
    wait_for_titles(page, [item["title"] for item in api.items()])
    problems = violations(page, "todos")
    open_dialog(page, "#delete-all", "confirm-delete-all")
    problems += violations(page, "todos with the delete-all card open")
    word = api.items()[0]["title"].split()[0]
    page.get(base_url + "/todos?search=" + word)
    wait_until(page, lambda d: css(d, ".search-result").text.endswith(f"“{word}”."), "the search's result")
    problems += violations(page, "todos with a search")
    assert not problems, "\n".join(problems)


def test_empty_todos_page_has_no_violations(page, base_url):
    open_todos(page, base_url)
    problems = violations(page, "empty todos")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("kind", ["span", "duration", "coordinate"])
def test_detail_page_has_no_violations(page, base_url, api, kind):
    seed_todos(api)
    fields = {
        "span": {"due": {"kind": "span", "start": "2027-01-01T09:00:00.000Z", "end": "2027-01-02T09:00:00.000Z"}},
        "duration": {"due": {"kind": "duration", "start": "2027-01-01T09:00:00.000Z", "amount": 3, "unit": "days"},
                     "location": {"kind": "directions", "steps": ["north", "left"]}},
        "coordinate": {"location": {"kind": "coordinate", "latitude": 52.5, "longitude": 13.4}},
    }[kind]
    item = api.add(f"Item with a {kind}", **fields)
    page.get(f"{base_url}/todos/items/{item['id']}")
    css(page, "#detail-form")
    problems = violations(page, f"detail ({kind})")
    open_dialog(page, "#delete-item", "confirm-delete-item")
    problems += violations(page, f"detail ({kind}) with the delete card open")
    assert not problems, "\n".join(problems)


def test_calculator_page_has_no_violations(page, base_url):
    page.get(base_url + "/calculator")
    for label in ("1", "2", "+", "3", "="):
        css(page, f".keypad .key[data-key='{label}']").click()
    wait_until(page, lambda d: css(d, "#calc-display").text == "15", "the display to read 15")
    problems = violations(page, "calculator")
    assert not problems, "\n".join(problems)
