"""A long list on the to-do page and on a shared list's page: the page shows
its first 200 rows and "Show more" the next ones, the counts stay those of
the whole list, and an item added at the end of the list appears after the
rows shown (and goes and comes back with Undo and Redo); a row does not
move across the gap."""

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import (
    blur_text_fields, chord, css, css_all, open_todos, rendered_titles, row_by_title, wait_for_count_text, wait_until,
)
from test_shared_lists import make_list, sign_in, team_server  # noqa: F401 (team_server: a fixture)


def more_line(driver):
    lines = css_all(driver, ".more-rows")
    return lines[0].text.replace("\n", " ") if lines else None


def wait_for_rows(driver, count, last=None):
    wait_until(
        driver,
        lambda d: len(rendered_titles(d)) == count and (last is None or rendered_titles(d)[-1] == last),
        lambda: f"{count} rows ending with {last!r}; there are {len(rendered_titles(driver))}, "
        f"the last {rendered_titles(driver)[-1:]}",
    )


def test_a_long_list_shows_its_first_rows_show_more_and_an_item_added_at_its_end(driver, base_url, api):
    for number in range(1, 206):
        api.add(f"Item {number}")
    open_todos(driver, base_url)
    wait_for_rows(driver, 200, "Item 200")
    assert more_line(driver) == "200 of 205 shown Show the last 5"
    wait_for_count_text(driver, "205 items left")

    # Added at the end of the list, past the rows shown: it appears after them.
    css(driver, "input.new-todo").send_keys("Call the plumber\n")
    wait_for_rows(driver, 201, "Call the plumber")
    assert "after-gap" in css_all(driver, ".todo-list li")[-1].get_attribute("class").split()
    assert more_line(driver) == "201 of 206 shown Show the last 6"
    wait_for_count_text(driver, "206 items left")

    # The rows above the dashed line move among themselves: ↓ on the last
    # does not send it past the rows not shown.
    row_by_title(driver, "Item 200").find_element(By.CSS_SELECTOR, "button.move").send_keys(Keys.ARROW_DOWN)
    time.sleep(0.3)
    assert rendered_titles(driver)[-2:] == ["Item 200", "Call the plumber"]
    assert api.titles()[199:201] == ["Item 200", "Item 201"]

    blur_text_fields(driver)
    chord(driver, "z")
    wait_for_rows(driver, 200, "Item 200")
    chord(driver, "z", shift=True)
    wait_for_rows(driver, 201, "Call the plumber")

    # "Show more": every row, in the list's order; the focus on the first that came in.
    css(driver, ".show-more-rows").click()
    wait_for_rows(driver, 206, "Call the plumber")
    assert rendered_titles(driver)[200] == "Item 201"
    assert not css_all(driver, ".more-rows")
    assert not css_all(driver, ".todo-list li.after-gap")
    wait_until(
        driver,
        lambda d: d.execute_script(
            "var e = document.activeElement; var li = e && e.closest('li');"
            " return e.classList.contains('toggle') && li.querySelector('label').textContent;"
        ) == "Item 201",
        "the focus on the toggle of the first row that came in",
    )
    # Later refreshes keep as many rows, and so does the page's address.
    css(driver, "input.new-todo").send_keys("One more\n")
    wait_for_rows(driver, 207, "One more")
    assert driver.execute_script("return new URLSearchParams(location.search).get('rows')") == "400"
    driver.refresh()
    wait_for_rows(driver, 207, "One more")
    assert not css_all(driver, ".more-rows")


def test_a_long_shared_list_shows_its_first_rows_and_an_item_added_at_its_end(driver, team_server):
    sign_in(driver, team_server.url, "ann")
    make_list(driver, "Chores")
    driver.set_script_timeout(120)
    failed = driver.execute_async_script(
        """
        var done = arguments[arguments.length - 1];
        var token = document.querySelector('meta[name="rewind-csrf"]').content;
        var list = document.querySelector('main[data-list]').getAttribute('data-list');
        (async function () {
          for (var number = 1; number <= 201; number++) {
            var answer = await fetch('/api/lists/' + list + '/todos', {
              method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Rewind-CSRF': token },
              body: JSON.stringify({ title: 'Chore ' + number }) });
            if (!answer.ok) { return answer.status; }
          }
          return 0;
        })().then(done, function (error) { done(String(error)); });
        """
    )
    assert failed == 0
    driver.refresh()
    wait_for_rows(driver, 200, "Chore 200")
    assert more_line(driver) == "200 of 201 shown Show the last 1"
    css(driver, "input.new-todo").send_keys("Fresh chore\n")
    wait_for_rows(driver, 201, "Fresh chore")
    assert "after-gap" in css_all(driver, ".todo-list li")[-1].get_attribute("class").split()
    css(driver, ".show-more-rows").click()
    wait_for_rows(driver, 202, "Fresh chore")
    assert rendered_titles(driver)[200] == "Chore 201"


def test_beside_a_long_list_the_history_stays_in_view_and_a_long_due_and_place_leave_the_title_room(driver, base_url, api):
    for number in range(1, 41):
        api.add(f"Item {number}")
    api.add(
        "Pick up the dry cleaning before the shop closes tonight",
        due={"kind": "span", "start": "2031-05-06T09:00:00.000Z", "end": "2031-05-08T17:00:00.000Z"},
        location={"kind": "address", "street": "1234 Extraordinarily Long Boulevard Name", "city": "Springfield"},
    )
    open_todos(driver, base_url)
    wait_for_rows(driver, 41)
    # Halfway down the list, the history panel beside it is still in view.
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight / 2)")
    wait_until(driver, lambda d: d.execute_script(
        "var r = document.querySelector('.history-panel').getBoundingClientRect();"
        " return window.scrollY > 500 && r.top >= 0 && r.top < window.innerHeight / 2;"),
        lambda: "the history panel to stay in view: " + str(driver.execute_script(
            "return [window.scrollY, document.querySelector('.history-panel').getBoundingClientRect().top]")))
    # The title keeps a good part of its row; the span breaks after its dash, not inside a side.
    title, row, due = driver.execute_script(
        "var li = [...document.querySelectorAll('.todo-list li')].pop();"
        " return [li.querySelector('label').getBoundingClientRect().width, li.querySelector('.view').getBoundingClientRect().width,"
        " [...li.querySelectorAll('time.due > span')].map(function (s) { return s.getClientRects().length; })];")
    assert title >= 0.35 * row, f"the title has {title:.0f} of {row:.0f} px"
    assert due == [1, 1], f"each side of the span on one line: {due}"
