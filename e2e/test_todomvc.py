"""The to-do page follows the TodoMVC app specification: markup, classes,
behaviour and keyboard, as TodoMVC's own test suites check them."""

import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import (
    add_and_wait, add_todos, again_while_replaced, blur_text_fields, chord, classes, css, css_all, focused, has_class,
    open_todos, rendered_titles, row, row_by_title, visible_titles, wait_for_count_text, wait_for_titles,
    wait_until,
)

TODO_ITEM_ONE = "buy some cheese"
TODO_ITEM_TWO = "feed the cat"
TODO_ITEM_THREE = "book a doctors appointment"


def three_todos(driver, base_url):
    open_todos(driver, base_url)
    add_and_wait(driver, TODO_ITEM_ONE, TODO_ITEM_TWO, TODO_ITEM_THREE)


def toggle(driver, index):
    """Clicks the toggle of the `index`th row (found afresh: the page swaps in
    new rows after every change)."""
    again_while_replaced(lambda: row(driver, index).find_element(By.CSS_SELECTOR, "input.toggle").click(), f"row {index}")


def wait_completed(driver, expected):
    """`expected`: one bool per row, whether its li has .completed and its toggle is checked."""
    def state(d):
        return d.execute_script(
            "return Array.from(document.querySelectorAll('.todo-list li')).filter(function (li) {"
            " return li.offsetParent !== null; }).map(function (li) {"
            " return [li.classList.contains('completed'), li.querySelector('input.toggle').checked]; });"
        )
    wait_until(
        driver, lambda d: state(d) == [[value, value] for value in expected],
        f"rows completed/checked to be {expected}; they are {state(driver)}",
    )


def wait_server(api, predicate, message):
    """Waits for the server's list (through the API) to satisfy `predicate`."""
    import time
    deadline = time.monotonic() + 10
    while True:
        items = api.items()
        if predicate(items):
            return items
        if time.monotonic() > deadline:
            raise AssertionError(f"{message}; the server has {items}")
        time.sleep(0.05)


def double_click_label(driver, index):
    label = row(driver, index).find_element(By.CSS_SELECTOR, ".view label")
    ActionChains(driver).double_click(label).perform()
    wait_until(driver, lambda d: has_class(row(d, index), "editing"), f"row {index} to get .editing after a double-click")
    return row(driver, index).find_element(By.CSS_SELECTOR, "input.edit")


# ---------------------------------------------------------------------------
# Markup
# ---------------------------------------------------------------------------

def test_markup_follows_the_todomvc_template(driver, base_url, api):
    api.add("one")
    open_todos(driver, base_url)
    app = css(driver, "section.todoapp")
    assert app.find_element(By.CSS_SELECTOR, "h1").text == "todos"
    new_todo = app.find_element(By.CSS_SELECTOR, "input.new-todo")
    assert new_todo.get_attribute("placeholder") == "What needs to be done?"
    main = app.find_element(By.CSS_SELECTOR, "section.main")
    toggle_all = main.find_element(By.CSS_SELECTOR, "input#toggle-all.toggle-all")
    assert toggle_all.get_attribute("type") == "checkbox"
    main.find_element(By.CSS_SELECTOR, "label[for='toggle-all']")
    li = main.find_element(By.CSS_SELECTOR, "ul.todo-list > li")
    view = li.find_element(By.CSS_SELECTOR, ":scope > div.view")
    assert view.find_element(By.CSS_SELECTOR, "input.toggle").get_attribute("type") == "checkbox"
    assert view.find_element(By.CSS_SELECTOR, "label").text == "one"
    assert view.find_element(By.CSS_SELECTOR, "button.destroy").tag_name == "button"
    assert li.find_element(By.CSS_SELECTOR, ":scope > input.edit").get_attribute("value") == "one"
    footer = app.find_element(By.CSS_SELECTOR, "footer.footer")
    footer.find_element(By.CSS_SELECTOR, "span.todo-count")
    hrefs = [a.get_dom_attribute("href") for a in footer.find_elements(By.CSS_SELECTOR, "ul.filters a")]
    assert hrefs == ["#/", "#/active", "#/completed"]
    assert footer.find_element(By.CSS_SELECTOR, "button.clear-completed")


def test_new_todo_has_the_focus_on_load(driver, base_url):
    driver.get(base_url + "/todos")
    wait_until(
        driver, lambda d: has_class(focused(d), "new-todo"),
        lambda: f"input.new-todo to have the focus on load (the focus is on <{focused(driver).tag_name} class={classes(focused(driver))}>)",
    )


# ---------------------------------------------------------------------------
# No todos
# ---------------------------------------------------------------------------

def test_main_and_footer_are_in_the_dom_but_hidden_when_there_are_no_todos(driver, base_url):
    open_todos(driver, base_url)
    main = css(driver, "section.main")
    footer = css(driver, "footer.footer")
    assert not main.is_displayed(), "section.main should be hidden with no items"
    assert not footer.is_displayed(), "footer.footer should be hidden with no items"
    assert css_all(driver, ".todo-list li") == []


# ---------------------------------------------------------------------------
# New todo
# ---------------------------------------------------------------------------

def test_allows_me_to_add_todo_items(driver, base_url, api):
    open_todos(driver, base_url)
    add_todos(driver, TODO_ITEM_ONE)
    wait_for_titles(driver, [TODO_ITEM_ONE])
    add_todos(driver, TODO_ITEM_TWO)
    wait_for_titles(driver, [TODO_ITEM_ONE, TODO_ITEM_TWO])
    assert api.titles() == [TODO_ITEM_ONE, TODO_ITEM_TWO]


def test_clears_the_input_at_once_when_an_item_is_added(driver, base_url):
    open_todos(driver, base_url)
    field = css(driver, "input.new-todo")
    field.send_keys(TODO_ITEM_ONE, Keys.ENTER)
    # At once: before the server answered.
    assert field.get_attribute("value") == ""
    wait_for_titles(driver, [TODO_ITEM_ONE])
    assert field.get_attribute("value") == ""
    assert has_class(focused(driver), "new-todo"), "the new-todo field should keep the focus"


def test_an_add_that_fails_puts_its_title_back_and_an_edit_cannot_be_longer_than_a_title(driver, base_url, api):
    open_todos(driver, base_url)
    # The server unreachable for the add (the request fails as on a network error).
    driver.execute_script(
        "var original = window.fetch;"
        "window.fetch = function (url, options) {"
        "  if (options && options.method === 'POST') { return Promise.reject(new TypeError('Failed to fetch')); }"
        "  return original.apply(this, arguments);"
        "};"
    )
    field = css(driver, "input.new-todo")
    field.send_keys(TODO_ITEM_ONE, Keys.ENTER)
    wait_until(driver, lambda d: field.get_attribute("value") == TODO_ITEM_ONE, "the title to be put back in the field")
    assert api.titles() == []
    driver.refresh()
    add_and_wait(driver, TODO_ITEM_TWO)
    # The inline editor takes no more than a title may hold, as the new-item field.
    assert css(driver, ".todo-list li .edit").get_attribute("maxlength") == css(driver, "input.new-todo").get_attribute("maxlength")


def test_appends_new_items_to_the_bottom_of_the_list(driver, base_url):
    three_todos(driver, base_url)
    wait_for_count_text(driver, "3 items left")
    assert visible_titles(driver) == [TODO_ITEM_ONE, TODO_ITEM_TWO, TODO_ITEM_THREE]


def test_trims_text_input(driver, base_url, api):
    open_todos(driver, base_url)
    add_todos(driver, "    " + TODO_ITEM_ONE + "  ")
    wait_for_titles(driver, [TODO_ITEM_ONE])
    assert api.titles() == [TODO_ITEM_ONE]


def test_does_not_add_an_empty_or_blank_title(driver, base_url, api):
    open_todos(driver, base_url)
    field = css(driver, "input.new-todo")
    field.send_keys(Keys.ENTER)
    field.send_keys("   ", Keys.ENTER)
    add_todos(driver, "real")
    wait_for_titles(driver, ["real"])
    assert api.titles() == ["real"]


def test_shows_main_and_footer_when_items_are_added(driver, base_url):
    open_todos(driver, base_url)
    add_and_wait(driver, TODO_ITEM_ONE)
    wait_until(driver, lambda d: css(d, "section.main").is_displayed(), "section.main to show")
    wait_until(driver, lambda d: css(d, "footer.footer").is_displayed(), "footer.footer to show")


def test_quick_successive_adds_apply_in_order_none_lost_or_doubled(driver, base_url, api):
    open_todos(driver, base_url)
    titles = [f"item {n}" for n in range(1, 11)]
    # One burst of typing: ten titles, each ended by Enter, without waiting.
    css(driver, "input.new-todo").send_keys(*[part for title in titles for part in (title, Keys.ENTER)])
    wait_for_titles(driver, titles)
    assert api.titles() == titles


def test_quick_successive_toggles_apply_in_order(driver, base_url, api):
    for n in range(4):
        api.add(f"t{n}")
    open_todos(driver, base_url)
    wait_for_titles(driver, [f"t{n}" for n in range(4)])
    # Toggle 0 on, 1 on, 0 off, 2 on, without waiting in between.
    for index in (0, 1, 0, 2):
        driver.execute_script("document.querySelectorAll('.todo-list li input.toggle')[arguments[0]].click();", index)
    wait_completed(driver, [False, True, True, False])
    wait_server(
        api, lambda items: [(item["state"] == "completed") for item in items] == [False, True, True, False],
        "the server should have t1 and t2 completed",
    )


# ---------------------------------------------------------------------------
# Mark all as completed
# ---------------------------------------------------------------------------

def test_allows_me_to_mark_all_items_as_completed(driver, base_url, api):
    three_todos(driver, base_url)
    css(driver, "label[for='toggle-all']").click()
    wait_completed(driver, [True, True, True])
    wait_server(api, lambda items: all((item["state"] == "completed") for item in items), "every item should be completed")
    wait_until(driver, lambda d: css(d, "#toggle-all").is_selected(), "toggle-all to be checked")


def test_allows_me_to_clear_the_complete_state_of_all_items(driver, base_url, api):
    three_todos(driver, base_url)
    css(driver, "label[for='toggle-all']").click()
    wait_completed(driver, [True, True, True])
    wait_until(driver, lambda d: css(d, "#toggle-all").is_selected(), "toggle-all to be checked")
    css(driver, "label[for='toggle-all']").click()
    wait_completed(driver, [False, False, False])
    wait_server(api, lambda items: not any((item["state"] == "completed") for item in items), "no item should be completed")


def test_complete_all_checkbox_follows_the_items(driver, base_url):
    three_todos(driver, base_url)
    toggle_all = lambda d: css(d, "#toggle-all")  # noqa: E731
    assert not toggle_all(driver).is_selected()
    for index in range(3):
        toggle(driver, index)
        wait_completed(driver, [i <= index for i in range(3)])
    wait_until(driver, lambda d: toggle_all(d).is_selected(), "toggle-all to be checked when every item is completed")
    toggle(driver, 0)
    wait_completed(driver, [False, True, True])
    wait_until(driver, lambda d: not toggle_all(d).is_selected(), "toggle-all to be unchecked when one item is active")


# ---------------------------------------------------------------------------
# Item
# ---------------------------------------------------------------------------

def test_allows_me_to_mark_items_as_complete(driver, base_url, api):
    open_todos(driver, base_url)
    add_and_wait(driver, TODO_ITEM_ONE, TODO_ITEM_TWO)
    toggle(driver, 0)
    wait_completed(driver, [True, False])
    toggle(driver, 1)
    wait_completed(driver, [True, True])
    wait_server(api, lambda items: all((item["state"] == "completed") for item in items), "both items should be completed")


def test_allows_me_to_un_mark_items_as_complete(driver, base_url, api):
    open_todos(driver, base_url)
    add_and_wait(driver, TODO_ITEM_ONE, TODO_ITEM_TWO)
    toggle(driver, 0)
    wait_completed(driver, [True, False])
    toggle(driver, 0)
    wait_completed(driver, [False, False])
    wait_server(api, lambda items: not any((item["state"] == "completed") for item in items), "no item should be completed")


def test_allows_me_to_edit_an_item(driver, base_url, api):
    three_todos(driver, base_url)
    edit = double_click_label(driver, 1)
    assert focused(driver) == edit, "the edit field should have the focus"
    assert edit.get_attribute("value") == TODO_ITEM_TWO
    edit.send_keys(Keys.CONTROL, "a")
    edit.send_keys("buy some sausages", Keys.ENTER)
    wait_until(driver, lambda d: not has_class(row(d, 1), "editing"), "Enter to end editing")
    wait_for_titles(driver, [TODO_ITEM_ONE, "buy some sausages", TODO_ITEM_THREE])
    wait_server(api, lambda items: [i["title"] for i in items] == [TODO_ITEM_ONE, "buy some sausages", TODO_ITEM_THREE],
                "the server should have the new title")


def test_a_rename_made_elsewhere_while_editing_is_not_replaced_unseen(driver, base_url, api):
    item = api.add("Milk")
    open_todos(driver, base_url)
    edit = double_click_label(driver, 0)
    edit.send_keys(Keys.CONTROL, "a")
    edit.send_keys("Soy milk")
    # Another tab, the terminal or a teammate renames it meanwhile.
    api.request("PATCH", f"/api/todos/{item['id']}", {"title": "Oat milk"})
    edit.send_keys(Keys.ENTER)
    wait_until(
        driver, lambda d: "someone renamed “Milk” to “Oat milk”, so “Soy milk” was not saved" in css(d, "#todo-error").text,
        "the page to say that the item was renamed meanwhile")
    assert api.get(f"/api/todos/{item['id']}")["title"] == "Oat milk"
    # The row shows their title, and the edit field holds the person's again: Enter puts it in its place.
    wait_until(driver, lambda d: has_class(row(d, 0), "editing"), "the row to be edited again")
    edit = row(driver, 0).find_element(By.CSS_SELECTOR, "input.edit")
    assert edit.get_attribute("value") == "Soy milk"
    assert focused(driver) == edit
    assert driver.execute_script("return document.querySelector('.todo-list li .view label').textContent") == "Oat milk"
    edit.send_keys(Keys.ENTER)
    wait_server(api, lambda items: [i["title"] for i in items] == ["Soy milk"], "the second Enter to save the title")
    wait_for_titles(driver, ["Soy milk"])


def test_destroy_button_deletes_the_row_at_once(driver, base_url, api):
    three_todos(driver, base_url)
    li = row(driver, 1)
    ActionChains(driver).move_to_element(li).perform()
    destroy = li.find_element(By.CSS_SELECTOR, "button.destroy")
    wait_until(driver, lambda d: destroy.is_displayed(), "button.destroy to show when hovering the row")
    destroy.click()
    # Immediate: no confirmation card for a row.
    assert not any(dialog.is_displayed() for dialog in css_all(driver, "dialog")), "row deletion must not ask for confirmation"
    wait_for_titles(driver, [TODO_ITEM_ONE, TODO_ITEM_THREE])
    wait_server(api, lambda items: len(items) == 2, "the server should have two items")


# ---------------------------------------------------------------------------
# Editing
# ---------------------------------------------------------------------------

def test_hides_other_controls_when_editing(driver, base_url):
    three_todos(driver, base_url)
    double_click_label(driver, 1)
    li = row(driver, 1)
    assert not li.find_element(By.CSS_SELECTOR, "input.toggle").is_displayed(), "the toggle should hide while editing"
    assert not li.find_element(By.CSS_SELECTOR, ".view label").is_displayed(), "the label should hide while editing"
    assert li.find_element(By.CSS_SELECTOR, "input.edit").is_displayed(), "the edit field should show while editing"
    # The other rows keep their view and hide their edit field.
    other = row(driver, 0)
    assert other.find_element(By.CSS_SELECTOR, ".view label").is_displayed()
    assert not other.find_element(By.CSS_SELECTOR, "input.edit").is_displayed()


def test_saves_edits_on_blur(driver, base_url, api):
    three_todos(driver, base_url)
    edit = double_click_label(driver, 1)
    edit.send_keys(Keys.CONTROL, "a")
    edit.send_keys("buy some sausages")
    blur_text_fields(driver)
    wait_until(driver, lambda d: not has_class(row(d, 1), "editing"), "blur to end editing")
    wait_for_titles(driver, [TODO_ITEM_ONE, "buy some sausages", TODO_ITEM_THREE])
    wait_server(api, lambda items: items[1]["title"] == "buy some sausages", "the server should have the edit")


def test_a_title_with_a_line_break_is_left_as_it_is_by_an_edit_that_changes_nothing(driver, base_url, api):
    # A title made in the terminal or through the API may hold a line break; the one-line edit field shows it as a space.
    item = api.add("two\nlines")
    open_todos(driver, base_url)
    edit = double_click_label(driver, 0)
    assert edit.get_attribute("value") == "two lines"
    edit.send_keys(Keys.ENTER)
    wait_until(driver, lambda d: not has_class(row(d, 0), "editing"), "Enter to end editing")
    edit = double_click_label(driver, 0)
    blur_text_fields(driver)
    wait_until(driver, lambda d: not has_class(row(d, 0), "editing"), "blur to end editing")
    # Nothing saved: the title keeps its line break and no step was made.
    api.add("after")
    assert [i["title"] for i in api.items()] == ["two\nlines", "after"]
    assert api.get(f"/api/todos/{item['id']}")["title"] == "two\nlines"
    assert [step["name"] for step in api.get("/api/history")["steps"]][-1] == "Add “after”"
    # An edit that changes it saves what the field showed, the break as a space.
    edit = double_click_label(driver, 0)
    edit.send_keys(" more", Keys.ENTER)
    wait_server(api, lambda items: items[0]["title"] == "two lines more", "the server should have the edit")


def test_trims_entered_text_when_editing(driver, base_url, api):
    three_todos(driver, base_url)
    edit = double_click_label(driver, 1)
    edit.send_keys(Keys.CONTROL, "a")
    edit.send_keys("    buy some sausages    ", Keys.ENTER)
    wait_for_titles(driver, [TODO_ITEM_ONE, "buy some sausages", TODO_ITEM_THREE])
    wait_server(api, lambda items: items[1]["title"] == "buy some sausages", "the server should have the trimmed title")


def test_removes_the_item_if_an_empty_title_was_entered(driver, base_url, api):
    three_todos(driver, base_url)
    edit = double_click_label(driver, 1)
    edit.send_keys(Keys.CONTROL, "a")
    edit.send_keys(Keys.BACKSPACE, Keys.ENTER)
    wait_for_titles(driver, [TODO_ITEM_ONE, TODO_ITEM_THREE])
    wait_server(api, lambda items: [i["title"] for i in items] == [TODO_ITEM_ONE, TODO_ITEM_THREE],
                "the server should have deleted the item")


def test_cancels_edits_on_escape_and_a_blur_after_escape_does_not_save(driver, base_url, api):
    three_todos(driver, base_url)
    edit = double_click_label(driver, 1)
    edit.send_keys(Keys.CONTROL, "a")
    edit.send_keys("foo")
    edit.send_keys(Keys.ESCAPE)
    wait_until(driver, lambda d: not has_class(row(d, 1), "editing"), "Escape to end editing")
    assert visible_titles(driver) == [TODO_ITEM_ONE, TODO_ITEM_TWO, TODO_ITEM_THREE]
    # The blur that follows Escape (the edit field hides) must not save "foo".
    blur_text_fields(driver)
    # A later action goes through the same ordered queue: once it shows, any
    # save of "foo" would have reached the server before it.
    css(driver, "input.new-todo").click()
    add_todos(driver, "later")
    wait_for_titles(driver, [TODO_ITEM_ONE, TODO_ITEM_TWO, TODO_ITEM_THREE, "later"])
    assert api.titles() == [TODO_ITEM_ONE, TODO_ITEM_TWO, TODO_ITEM_THREE, "later"]


# ---------------------------------------------------------------------------
# Counter
# ---------------------------------------------------------------------------

def test_counter_displays_the_number_of_active_items(driver, base_url):
    open_todos(driver, base_url)
    add_and_wait(driver, TODO_ITEM_ONE)
    wait_for_count_text(driver, "1 item left")
    assert css(driver, "span.todo-count strong").text == "1"
    add_and_wait(driver, TODO_ITEM_TWO)
    wait_for_count_text(driver, "2 items left")
    assert css(driver, "span.todo-count strong").text == "2"
    toggle(driver, 0)
    wait_for_count_text(driver, "1 item left")
    toggle(driver, 1)
    wait_for_count_text(driver, "0 items left")


# ---------------------------------------------------------------------------
# Clear completed
# ---------------------------------------------------------------------------

def test_clear_completed_displays_the_correct_text(driver, base_url):
    three_todos(driver, base_url)
    toggle(driver, 0)
    button = lambda d: css(d, "button.clear-completed")  # noqa: E731
    wait_until(driver, lambda d: button(d).is_displayed(), "button.clear-completed to show")
    assert button(driver).text == "Clear completed"


def test_clear_completed_removes_completed_items(driver, base_url, api):
    three_todos(driver, base_url)
    toggle(driver, 1)
    wait_until(driver, lambda d: css(d, "button.clear-completed").is_displayed(), "button.clear-completed to show")
    css(driver, "button.clear-completed").click()
    assert not any(dialog.is_displayed() for dialog in css_all(driver, "dialog")), "Clear completed must not ask"
    wait_for_titles(driver, [TODO_ITEM_ONE, TODO_ITEM_THREE])
    wait_server(api, lambda items: [i["title"] for i in items] == [TODO_ITEM_ONE, TODO_ITEM_THREE],
                "the server should have cleared the completed item")


def test_clear_completed_is_hidden_when_no_item_is_completed(driver, base_url):
    three_todos(driver, base_url)
    button = lambda d: css(d, "button.clear-completed")  # noqa: E731
    assert not button(driver).is_displayed()
    toggle(driver, 0)
    wait_until(driver, lambda d: button(d).is_displayed(), "button.clear-completed to show")
    button(driver).click()
    wait_for_titles(driver, [TODO_ITEM_TWO, TODO_ITEM_THREE])
    wait_until(driver, lambda d: not button(d).is_displayed(), "button.clear-completed to hide again")
    assert len(css_all(driver, "button.clear-completed")) == 1, "the button stays in the DOM"


# ---------------------------------------------------------------------------
# Persistence
# ---------------------------------------------------------------------------

def test_state_persists_across_a_reload(driver, base_url):
    open_todos(driver, base_url)
    add_and_wait(driver, TODO_ITEM_ONE, TODO_ITEM_TWO)
    toggle(driver, 0)
    wait_completed(driver, [True, False])
    # Wait for the server to have the change before reloading.
    wait_until(driver, lambda d: css(d, "button.clear-completed").is_displayed(), "the footer to refresh")
    driver.refresh()
    wait_for_titles(driver, [TODO_ITEM_ONE, TODO_ITEM_TWO])
    wait_completed(driver, [True, False])


def test_state_is_shared_with_another_page_load_and_the_api(driver, base_url, api):
    api.add("from the API")
    open_todos(driver, base_url)
    wait_for_titles(driver, ["from the API"])


# ---------------------------------------------------------------------------
# Routing
# ---------------------------------------------------------------------------

def click_filter(driver, label):
    for link in css_all(driver, "ul.filters a"):
        if link.text == label:
            link.click()
            return
    raise AssertionError(f"no filter link {label!r}")


def wait_selected_filter(driver, href):
    def selected(d):
        return [a.get_dom_attribute("href") for a in css_all(d, "ul.filters a.selected")]
    wait_until(driver, lambda d: selected(d) == [href], f"only the {href} filter to be .selected; selected: {selected(driver)}")


def three_todos_second_done(driver, base_url):
    three_todos(driver, base_url)
    toggle(driver, 1)
    wait_completed(driver, [False, True, False])
    wait_until(driver, lambda d: css(d, "button.clear-completed").is_displayed(), "the footer to refresh")


def test_displays_active_items(driver, base_url):
    three_todos_second_done(driver, base_url)
    click_filter(driver, "Active")
    wait_for_titles(driver, [TODO_ITEM_ONE, TODO_ITEM_THREE])
    assert driver.current_url.endswith("#/active")
    wait_selected_filter(driver, "#/active")


def test_displays_completed_items(driver, base_url):
    three_todos_second_done(driver, base_url)
    click_filter(driver, "Completed")
    wait_for_titles(driver, [TODO_ITEM_TWO])
    wait_selected_filter(driver, "#/completed")


def test_displays_all_items(driver, base_url):
    three_todos_second_done(driver, base_url)
    click_filter(driver, "Active")
    wait_for_titles(driver, [TODO_ITEM_ONE, TODO_ITEM_THREE])
    click_filter(driver, "Completed")
    wait_for_titles(driver, [TODO_ITEM_TWO])
    click_filter(driver, "All")
    wait_for_titles(driver, [TODO_ITEM_ONE, TODO_ITEM_TWO, TODO_ITEM_THREE])
    wait_selected_filter(driver, "#/")


def test_respects_the_back_button(driver, base_url):
    three_todos_second_done(driver, base_url)
    wait_selected_filter(driver, "#/")
    click_filter(driver, "Active")
    wait_for_titles(driver, [TODO_ITEM_ONE, TODO_ITEM_THREE])
    click_filter(driver, "Completed")
    wait_for_titles(driver, [TODO_ITEM_TWO])
    driver.back()
    wait_for_titles(driver, [TODO_ITEM_ONE, TODO_ITEM_THREE])
    wait_selected_filter(driver, "#/active")
    driver.back()
    wait_for_titles(driver, [TODO_ITEM_ONE, TODO_ITEM_TWO, TODO_ITEM_THREE])
    wait_selected_filter(driver, "#/")


def test_a_filter_url_opens_filtered(driver, base_url, api):
    first = api.add("active one")
    done = api.add("done one")
    api.request("PATCH", f"/api/todos/{done['id']}", {"completed": True})
    assert first
    driver.get(base_url + "/todos#/completed")
    wait_for_titles(driver, ["done one"])
    wait_selected_filter(driver, "#/completed")


def test_a_filter_chosen_with_the_keyboard_keeps_the_keyboard(driver, base_url, api):
    api.add("active one")
    done = api.add("done one")
    api.request("PATCH", f"/api/todos/{done['id']}", {"completed": True})
    open_todos(driver, base_url)
    wait_for_titles(driver, ["active one", "done one"])
    href = lambda d: d.execute_script("return document.activeElement.getAttribute('href')")  # noqa: E731
    for target, shown in (("#/active", ["active one"]), ("#/completed", ["done one"])):
        driver.execute_script(f"document.querySelector('.filters a[href=\"{target}\"]').focus()")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait_for_titles(driver, shown)
        wait_selected_filter(driver, target)
        # On the filter chosen, not on Undo, where a second Enter would undo a step.
        wait_until(driver, lambda d: href(d) == target, lambda: f"the focus on {target}; it is on {href(driver)!r}")
    # A change from elsewhere keeps it there too.
    api.add("from elsewhere")
    wait_for_titles(driver, ["done one"])
    driver.execute_script("return new Promise(r => setTimeout(r, 1500))")
    assert href(driver) == "#/completed"


def test_f2_edits_a_row_from_the_keyboard_and_adds_and_undos_are_said(driver, base_url):
    open_todos(driver, base_url)
    said = lambda d: d.execute_script("return document.getElementById('move-status').textContent")  # noqa: E731
    add_and_wait(driver, TODO_ITEM_ONE)
    wait_until(driver, lambda d: said(d) == f"Added “{TODO_ITEM_ONE}”.", lambda: f"the add said: {said(driver)!r}")
    driver.execute_script("document.querySelector('.todo-list li .toggle').focus()")
    driver.switch_to.active_element.send_keys(Keys.F2)
    wait_until(driver, lambda d: has_class(row(d, 0), "editing"), "the row in edit")
    assert driver.execute_script("return document.activeElement.classList.contains('edit')")
    driver.switch_to.active_element.send_keys(" now", Keys.ENTER)
    wait_for_titles(driver, [TODO_ITEM_ONE + " now"])
    wait_until(driver, lambda d: said(d) == f"Renamed “{TODO_ITEM_ONE}” to “{TODO_ITEM_ONE} now”.",
               lambda: f"the rename said: {said(driver)!r}")
    blur_text_fields(driver)
    css(driver, "#todos-undo").click()
    wait_for_titles(driver, [TODO_ITEM_ONE])
    wait_until(driver, lambda d: said(d).startswith("Undid Rename"), lambda: f"the undo said: {said(driver)!r}")
    # A completion, "Mark all", "Clear completed" and a delete are said too, not only adds and undos.
    css(driver, ".todo-list li .toggle").click()
    wait_until(driver, lambda d: said(d) == f"Completed “{TODO_ITEM_ONE}”.", lambda: f"the completion said: {said(driver)!r}")
    css(driver, ".clear-completed").click()
    wait_until(driver, lambda d: said(d) == "Cleared the completed items.", lambda: f"the clearing said: {said(driver)!r}")
    add_and_wait(driver, TODO_ITEM_TWO)
    css(driver, "label[for=toggle-all]").click()
    wait_until(driver, lambda d: said(d) == "Marked every item completed.", lambda: f"mark all said: {said(driver)!r}")
    destroy = row(driver, 0).find_element(By.CSS_SELECTOR, "button.destroy")
    driver.execute_script("arguments[0].focus();", destroy)
    destroy.send_keys(Keys.ENTER)
    wait_until(driver, lambda d: said(d) == f"Deleted “{TODO_ITEM_TWO}”.", lambda: f"the delete said: {said(driver)!r}")


def test_adding_while_a_filter_is_shown(driver, base_url):
    three_todos_second_done(driver, base_url)
    click_filter(driver, "Completed")
    wait_for_titles(driver, [TODO_ITEM_TWO])
    css(driver, "input.new-todo").click()
    add_todos(driver, "new while filtered")
    # A new item is active: the completed view does not show it, the count does.
    wait_for_count_text(driver, "3 items left")
    wait_for_titles(driver, [TODO_ITEM_TWO])
    click_filter(driver, "Active")
    wait_for_titles(driver, [TODO_ITEM_ONE, TODO_ITEM_THREE, "new while filtered"])


# ---------------------------------------------------------------------------
# Escaping
# ---------------------------------------------------------------------------

def test_a_hostile_title_renders_as_text(driver, base_url, api):
    hostile = '"><script>alert(1)</script><img src=x onerror=alert(2)>'
    open_todos(driver, base_url)
    add_todos(driver, hostile)
    wait_for_titles(driver, [hostile])
    driver.refresh()
    wait_for_titles(driver, [hostile])
    assert css_all(driver, ".todo-list img") == []
    assert css_all(driver, ".todo-list script") == []
    assert row(driver, 0).find_element(By.CSS_SELECTOR, "input.edit").get_attribute("value") == hostile
    assert driver.execute_script("return document.querySelectorAll('script:not([src])').length") == 0
    assert rendered_titles(driver) == [hostile]


def test_the_overdue_filter_lists_the_items_past_their_due_date(driver, base_url, api):
    # Beyond TodoMVC: with an item past its due date, the footer counts it
    # and offers the filter that `rewind todo list --overdue` and
    # `GET /api/todos?filter=overdue` also have.
    api.add("File the tax return", due={"kind": "date", "date": "2020-04-30T10:00:00.000Z"})
    api.add("Water the plants")
    open_todos(driver, base_url)
    wait_for_titles(driver, ["File the tax return", "Water the plants"])
    assert css(driver, ".todo-count").text == "2 items left, 1 overdue"
    css(driver, "ul.filters a[href='#/overdue']").click()
    wait_for_titles(driver, ["File the tax return"])
    assert driver.execute_script("return location.hash") == "#/overdue"
    driver.refresh()
    wait_for_titles(driver, ["File the tax return"])
    # Done: nothing is overdue; the filter shown stays, with an empty list.
    css(driver, ".todo-list li .toggle").click()
    wait_for_titles(driver, [])
    assert css(driver, "ul.filters a.selected").get_dom_attribute("href") == "#/overdue"
    css(driver, "ul.filters a[href='#/']").click()
    wait_for_titles(driver, ["File the tax return", "Water the plants"])
    assert not driver.find_elements(By.CSS_SELECTOR, "ul.filters a[href='#/overdue']")


# ---------------------------------------------------------------------------
# A change the server never gets, and the keyboard's place
# ---------------------------------------------------------------------------

CUT_OFF = (
    "window.realFetch = window.realFetch || window.fetch;"
    "window.fetch = function () { return Promise.reject(new TypeError('Failed to fetch')); };"
)
RECONNECTED = "window.fetch = window.realFetch;"


def error_box(driver):
    """The page's error line: its text, and whether all of it lies inside the window."""
    return driver.execute_script(
        "var box = document.getElementById('todo-error'); var r = box.getBoundingClientRect();"
        "return [box.textContent, r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0];"
    )


def test_a_change_the_server_never_gets_is_put_back_and_said_in_view(driver, base_url, api):
    # A list longer than the window: the error line used to sit under it.
    for number in range(30):
        api.add(f"Item {number}")
    open_todos(driver, base_url)
    wait_until(driver, lambda d: len(visible_titles(d)) == 30, "the 30 items to show")
    driver.execute_script(CUT_OFF)
    toggle(driver, 0)
    wait_until(driver, lambda d: "cannot be reached" in error_box(d)[0], f"the failure to be said; {error_box(driver)}")
    assert error_box(driver)[1], "the error shows inside the window, not under the list"
    wait_completed(driver, [False] * 30)
    # × and an edited title are put back too.
    li = row(driver, 1)
    ActionChains(driver).move_to_element(li).perform()
    li.find_element(By.CSS_SELECTOR, "button.destroy").click()
    wait_until(driver, lambda d: len(visible_titles(d)) == 30, "the deleted row to come back")
    edit = double_click_label(driver, 2)
    edit.send_keys(Keys.CONTROL, "a")
    edit.send_keys("Renamed", Keys.ENTER)
    wait_until(driver, lambda d: visible_titles(d)[2] == "Item 2", f"the title to be put back; {visible_titles(driver)[:3]}")
    assert [item["title"] for item in api.items()][:3] == ["Item 0", "Item 1", "Item 2"]
    assert all(item["state"] == "active" for item in api.items())
    # Once requests go through again, the next change clears what was said.
    driver.execute_script(RECONNECTED)
    toggle(driver, 3)
    wait_until(driver, lambda d: error_box(d)[0] == "", f"the old error to go; {error_box(driver)}")
    wait_server(api, lambda items: items[3]["state"] == "completed", "the server should have the item completed")


def press_on_row(driver, index, control, key, titles_after):
    """Presses `key` on row `index`'s `control` (its class) and waits for the list to show `titles_after`."""
    element = row(driver, index).find_element(By.CSS_SELECTOR, "." + control)
    driver.execute_script("arguments[0].focus();", element)
    element.send_keys(key)
    wait_for_titles(driver, titles_after)


def wait_for_focus_on(driver, control, title):
    """Waits until the keyboard is on `control` (its class) of the row titled `title`."""
    wait_until(
        driver, lambda d: d.execute_script(
            "var e = document.activeElement; var li = e && e.closest('li[data-id]');"
            "return e.classList.contains(arguments[0]) && li.querySelector('label').textContent;", control) == title,
        lambda: f"the focus on {title}'s {control}; it is on {driver.execute_script('return document.activeElement.outerHTML.slice(0, 80);')}",
    )


def test_the_keyboard_stays_in_the_list_after_a_delete_or_an_edit(driver, base_url, api):
    three_todos(driver, base_url)
    # × pressed with Enter: the focus goes to the next row's ×.
    press_on_row(driver, 1, "destroy", Keys.ENTER, [TODO_ITEM_ONE, TODO_ITEM_THREE])
    wait_for_focus_on(driver, "destroy", TODO_ITEM_THREE)
    # The last row's ×: the row before it.
    focused(driver).send_keys(Keys.ENTER)
    wait_for_titles(driver, [TODO_ITEM_ONE])
    wait_until(
        driver, lambda d: d.execute_script(
            "var li = document.activeElement.closest('li[data-id]');"
            "return li && li.querySelector('label').textContent;") == TODO_ITEM_ONE,
        "the focus on the remaining row",
    )
    # An edit ended with Enter or Escape leaves the focus on its row.
    for key in (Keys.ENTER, Keys.ESCAPE):
        edit = double_click_label(driver, 0)
        edit.send_keys(" now", key)
        wait_until(driver, lambda d: not has_class(row(d, 0), "editing"), "the edit to end")
        wait_until(
            driver, lambda d: d.execute_script("return document.activeElement.classList.contains('toggle');"),
            "the focus on the row's checkbox",
        )
    wait_server(api, lambda items: [i["title"] for i in items] == [TODO_ITEM_ONE + " now"], "the edit saved once")
    # The only row's ×: Undo, not the new-item field, where Ctrl+Z would do nothing.
    destroy = row(driver, 0).find_element(By.CSS_SELECTOR, "button.destroy")
    driver.execute_script("arguments[0].focus();", destroy)
    destroy.send_keys(Keys.ENTER)
    wait_for_titles(driver, [])
    wait_until(driver, lambda d: d.execute_script("return document.activeElement.id;") == "todos-undo",
               lambda: f"the focus on Undo; it is on {driver.execute_script('return document.activeElement.outerHTML.slice(0, 80);')}")
    # In the empty new-item field, where a page opens with the keyboard, Ctrl+Z undoes the list's step.
    css(driver, "input.new-todo").click()
    chord(driver, "z")
    wait_for_titles(driver, [TODO_ITEM_ONE + " now"])
    # With typing in it, Ctrl+Z is the field's own.
    css(driver, "input.new-todo").send_keys("typed")
    chord(driver, "z")
    time.sleep(0.5)
    wait_for_titles(driver, [TODO_ITEM_ONE + " now"])


def test_a_row_completed_from_the_keyboard_under_active_leaves_the_keyboard_on_the_next_row(driver, base_url):
    three_todos(driver, base_url)
    click_filter(driver, "Active")
    press_on_row(driver, 0, "toggle", Keys.SPACE, [TODO_ITEM_TWO, TODO_ITEM_THREE])
    wait_for_focus_on(driver, "toggle", TODO_ITEM_TWO)


def test_undo_and_redo_show_the_step_they_would_take_back(driver, base_url):
    def text(d, kind):
        # Read afresh: the toolbar is drawn again after every change.
        return d.execute_script(f"return document.getElementById('todos-{kind}').innerText;")
    open_todos(driver, base_url)
    add_and_wait(driver, TODO_ITEM_ONE)
    wait_until(driver, lambda d: text(d, "undo") == f"↶ Undo: Add “{TODO_ITEM_ONE}”",
               f"the step on Undo; it reads {text(driver, 'undo')!r}")
    assert text(driver, "redo") == "↷ Redo"
    blur_text_fields(driver)
    css(driver, "#todos-undo").click()
    wait_until(driver, lambda d: text(d, "redo") == f"↷ Redo: Add “{TODO_ITEM_ONE}”",
               f"the step on Redo; it reads {text(driver, 'redo')!r}")
