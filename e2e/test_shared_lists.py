"""Team mode with two people in two separate browsers on one shared list:
each one's Ctrl+Z takes back only their own change, each sees the other's
changes live, and a list that is not shared with someone is not theirs to
open."""

import subprocess
import time
import urllib.error
import urllib.request

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS, PHONE, Server
from helpers import (
    LIVE_TIMEOUT, add_account, again_while_replaced, blur_text_fields, browser_errors, chord, click_css, css, css_all, send_keys_css,
    wait_until,
)

PASSWORD = "correct horse battery"


@pytest.fixture
def team_server(rewind_bin, data_dir, tmp_path):
    for name in ("ann", "bob", "carl"):
        add_account(rewind_bin, name, PASSWORD, "--data-dir", data_dir)
    instance = Server(rewind_bin, data_dir, tmp_path, extra_args=["--accounts"])
    instance.start()
    yield instance
    instance.stop()


def terminal(rewind_cli_bin, data_dir):
    """`rewind …` over the server's data directory, as another process: each
    call must succeed, and answers its standard output."""
    def rewind(*arguments):
        done = subprocess.run(
            [rewind_cli_bin, *arguments, "--data-dir", str(data_dir)], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        return done.stdout
    return rewind


def sign_in(driver, base, name, path="/lists"):
    driver.get(base + path)
    wait_until(driver, lambda d: d.execute_script("return location.pathname") == "/signin", "the sign-in page")
    css(driver, "#signin-name").send_keys(name)
    css(driver, "#signin-password").send_keys(PASSWORD)
    css(driver, ".sign-in-form button[type=submit]").click()
    wait_until(
        driver,
        lambda d: d.execute_script("return location.pathname") == path
        and d.execute_script("return document.readyState") == "complete",
        f"{name} to be signed in on {path}",
    )


def titles(driver):
    # In one script: a live refresh cannot swap the rows halfway through.
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.todo-list li:not([hidden]) label'), l => l.textContent)"
    )


def wait_for_titles(driver, expected, timeout=10):
    wait_until(
        driver, lambda d: titles(d) == expected, lambda: f"titles {expected}, found {titles(driver)}", timeout=timeout
    )


def add(driver, title):
    field = css(driver, ".new-todo")
    field.send_keys(title)
    field.send_keys(Keys.ENTER)


def make_list(driver, name):
    """Makes the list `name` on the lists page and waits for its own page."""
    css(driver, "#new-list-name").send_keys(name)
    css(driver, ".new-list button[type=submit]").click()
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".new-todo"), "the list's page")


def ann_makes_a_list(driver, base, name, title):
    """Signs ann in, makes the list `name` with the item `title`; returns the list's path."""
    sign_in(driver, base, "ann")
    make_list(driver, name)
    add(driver, title)
    wait_for_titles(driver, [title])
    return driver.execute_script("return location.pathname")


def undo_title(driver):
    return css(driver, "#list-undo").get_attribute("title")


def test_two_people_each_undo_only_their_own_change_and_see_each_other_live(driver, second_driver, team_server):
    base = team_server.url
    ann, bob = driver, second_driver
    sign_in(ann, base, "ann")
    sign_in(bob, base, "bob")

    # Ann makes a list and shares it with bob on the lists page.
    css(ann, "#new-list-name").send_keys("Groceries")
    css(ann, ".new-list button[type=submit]").click()
    wait_until(ann, lambda d: d.execute_script("return location.pathname").startswith("/lists/"), "the new list's page")
    list_path = ann.execute_script("return location.pathname")
    ann.get(base + "/lists")
    share = css(ann, ".share-list input[name=account]")
    share.send_keys("bob")
    share.send_keys(Keys.ENTER)
    wait_until(ann, lambda d: "Yours · shared with bob" in css(d, ".list-of-lists").text, "the list shared with bob")
    ARTIFACTS.mkdir(exist_ok=True)
    ann.save_screenshot(str(ARTIFACTS / "lists.png"))

    bob.get(base + "/lists")
    wait_until(bob, lambda d: "ann's · shared with you" in css(d, ".list-of-lists").text, "bob to see ann's list")
    css(bob, ".list-name").click()
    wait_until(bob, lambda d: d.execute_script("return location.pathname") == list_path, "bob on the list")
    ann.get(base + list_path)
    wait_until(ann, lambda d: css(d, ".list-title").text == "Groceries", "ann on the list")

    # Each sees the other's add live.
    add(ann, "Milk")
    wait_for_titles(bob, ["Milk"], timeout=LIVE_TIMEOUT)
    add(bob, "Bread")
    wait_for_titles(ann, ["Milk", "Bread"], timeout=LIVE_TIMEOUT)
    wait_until(ann, lambda d: undo_title(d) == "Undo your step: Add “Milk”", lambda: undo_title(ann))
    wait_until(bob, lambda d: undo_title(d) == "Undo your step: Add “Bread”", lambda: undo_title(bob))

    # Ann's Ctrl+Z takes back her own add, not bob's later one.
    blur_text_fields(ann)
    chord(ann, "z")
    wait_for_titles(ann, ["Bread"])
    wait_for_titles(bob, ["Bread"], timeout=LIVE_TIMEOUT)
    wait_until(ann, lambda d: css(d, "#list-undo").get_attribute("disabled") is not None, "ann to have nothing left to undo")
    # Bob's Undo still names his own step, and his Ctrl+Z takes back Bread.
    assert undo_title(bob) == "Undo your step: Add “Bread”"
    blur_text_fields(bob)
    chord(bob, "z")
    wait_for_titles(bob, [])
    wait_for_titles(ann, [], timeout=LIVE_TIMEOUT)

    # Ann's Redo was kept through bob's changes: Milk comes back.
    css(ann, "#list-redo").click()
    wait_for_titles(ann, ["Milk"])
    wait_for_titles(bob, ["Milk"], timeout=LIVE_TIMEOUT)

    # The history names who did what.
    history = css(ann, ".shared-history").text
    assert "bob" in history and "you" in history, history
    ann.save_screenshot(str(ARTIFACTS / "shared-list-ann.png"))
    bob.save_screenshot(str(ARTIFACTS / "shared-list-bob.png"))
    assert browser_errors(ann) == [] and browser_errors(bob) == []


def test_a_double_clicked_undo_takes_back_one_step_only(driver, team_server):
    base = team_server.url
    sign_in(driver, base, "ann")
    make_list(driver, "Errands")
    for title in ("One", "Two", "Three"):
        add(driver, title)
    wait_for_titles(driver, ["One", "Two", "Three"])
    wait_until(driver, lambda d: undo_title(d) == "Undo your step: Add “Three”", lambda: undo_title(driver))
    driver.execute_script("var b = document.getElementById('list-undo'); b.click(); b.click();")
    wait_for_titles(driver, ["One", "Two"])
    wait_until(driver, lambda d: undo_title(d) == "Undo your step: Add “Two”", lambda: undo_title(driver))
    assert titles(driver) == ["One", "Two"]


def test_a_change_made_in_the_terminal_reaches_the_open_page_live(driver, team_server, rewind_cli_bin, data_dir):
    # Another process over the same SQLite file: `rewind lists` and
    # `rewind todo --as NAME --list LIST`.
    rewind = terminal(rewind_cli_bin, data_dir)

    base = team_server.url
    sign_in(driver, base, "ann")
    make_list(driver, "Errands")
    add(driver, "Post the letter")
    wait_for_titles(driver, ["Post the letter"])

    rewind("lists", "share", "errands", "bob", "--as", "ann")
    rewind("todo", "add", "Buy stamps", "--as", "bob", "--list", "errands")
    wait_for_titles(driver, ["Post the letter", "Buy stamps"], timeout=LIVE_TIMEOUT)
    assert "bob" in css(driver, ".shared-history").text
    # Bob's undo in the terminal takes back his add, not ann's.
    assert "Undid" in rewind("todo", "undo", "--as", "bob", "--list", "errands")
    wait_for_titles(driver, ["Post the letter"], timeout=LIVE_TIMEOUT)
    assert browser_errors(driver) == []


def test_the_lists_page_counts_each_lists_items_and_follows_changes_live_keeping_what_is_typed(
    driver, second_driver, team_server, rewind_cli_bin, data_dir
):
    rewind = terminal(rewind_cli_bin, data_dir)

    def counts(d):
        return d.execute_script(
            "return Array.from(document.querySelectorAll('.list-row'), r => "
            "r.querySelector('.list-name').textContent + ': ' + r.querySelector('.list-counts').textContent)"
        )

    def wait_for_counts(d, expected, timeout=LIVE_TIMEOUT):
        wait_until(d, lambda d: counts(d) == expected, lambda: f"{expected}, found {counts(d)}", timeout=timeout)

    def field(d, form, name):
        return css(d, f'.list-row .{form} input[name="{name}"]')

    base = team_server.url
    ann_makes_a_list(driver, base, "Errands", "Post the letter")
    driver.get(base + "/lists")
    assert counts(driver) == ["Errands: 1 item left"]
    # Half a new name and half an account name typed, the caret in the second.
    rename_field = field(driver, "rename-list", "name")
    rename_field.send_keys(" and more")
    field(driver, "share-list", "account").send_keys("ca")

    # Others' changes in the terminal (another process) show up without a reload.
    rewind("lists", "share", "errands", "bob", "--as", "ann")
    rewind("todo", "add", "Buy stamps", "--as", "bob", "--list", "errands")
    rewind("todo", "list", "--as", "bob", "--list", "errands")
    rewind("todo", "done", "1", "--as", "bob", "--list", "errands")
    wait_for_counts(driver, ["Errands: 1 item left, 1 completed"])
    # A list made and shared with ann by another process: within the server's poll of the file (0.25 s).
    rewind("lists", "create", "Chores", "--as", "bob")
    rewind("lists", "share", "chores", "ann", "--as", "bob")
    wait_for_counts(driver, ["Errands: 1 item left, 1 completed", "Chores: No items"])
    # What was typed is kept through every refresh, and so is the caret.
    assert field(driver, "rename-list", "name").get_attribute("value") == "Errands and more"
    assert driver.execute_script(
        "var a = document.activeElement; return a.name + ' ' + a.value + ' ' + a.selectionStart"
    ) == "account ca 2"
    send_keys_css(driver, ".list-row .share-list input[name=account]", "rl")
    click_css(driver, ".list-row .share-list button[type=submit]")
    wait_until(driver, lambda d: "carl" in css(d, ".list-row .list-access").text, "Errands shared with carl")
    assert field(driver, "share-list", "account").get_attribute("value") == ""

    # Through the web, from another browser: at once.
    sign_in(second_driver, base, "bob")
    wait_for_counts(second_driver, ["Errands: 1 item left, 1 completed", "Chores: No items"])
    # A live refresh may replace the row between two steps: done again then.
    def rename_errands():
        field(driver, "rename-list", "name").clear()
        field(driver, "rename-list", "name").send_keys("Weekend errands")
        css(driver, ".list-row .rename-list button[type=submit]").click()

    again_while_replaced(rename_errands, "the rename form")
    wait_for_counts(second_driver, ["Weekend errands: 1 item left, 1 completed", "Chores: No items"])
    css(second_driver, ".new-list input[name=name]").send_keys("Garden")
    css(second_driver, ".new-list button[type=submit]").click()
    wait_until(second_driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".new-todo"), "the new list's page")
    add(second_driver, "Water the roses")
    second_driver.get(base + "/lists")
    def share_garden_with_ann():
        rows = second_driver.find_elements(By.CSS_SELECTOR, ".list-row")
        garden = [r for r in rows if r.find_element(By.CSS_SELECTOR, ".list-name").text == "Garden"][0]
        share = garden.find_element(By.CSS_SELECTOR, ".share-list input[name=account]")
        share.clear()
        share.send_keys("ann")
        garden.find_element(By.CSS_SELECTOR, ".share-list button[type=submit]").click()

    again_while_replaced(share_garden_with_ann, "Garden's share form")
    wait_for_counts(
        driver, ["Weekend errands: 1 item left, 1 completed", "Chores: No items", "Garden: 1 item left"]
    )
    assert browser_errors(driver) == []
    assert browser_errors(second_driver) == []


def test_a_list_not_shared_with_someone_is_not_theirs_to_open(driver, second_driver, team_server):
    base = team_server.url
    path = ann_makes_a_list(driver, base, "Private plans", "Surprise party")

    sign_in(second_driver, base, "carl")
    assert "Private plans" not in css(second_driver, "main").text
    second_driver.get(base + path)
    body = second_driver.find_element(By.TAG_NAME, "body").text
    assert "Surprise party" not in body and "Private plans" not in body
    # The API and the event stream answer 404 in carl's session as well.
    cookie = second_driver.get_cookie("rewind_session")["value"]
    list_id = path.rsplit("/", 1)[1]
    for target in (f"/api/lists/{list_id}", f"/lists/{list_id}/events", f"/api/lists/{list_id}/history"):
        request = urllib.request.Request(base + target, headers={"Cookie": f"rewind_session={cookie}"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 404, target
        assert "Surprise" not in refused.value.read().decode()
    # Ann's list is as she left it.
    driver.refresh()
    wait_for_titles(driver, ["Surprise party"])


def test_the_owner_renames_and_deletes_a_list_after_confirming_and_a_member_has_no_such_buttons(
    driver, second_driver, team_server
):
    base = team_server.url
    sign_in(driver, base, "ann")
    make_list(driver, "Trip")
    driver.get(base + "/lists")
    rename = css(driver, ".rename-list input[name=name]")
    rename.clear()
    rename.send_keys("Summer trip")
    rename.send_keys(Keys.ENTER)
    wait_until(driver, lambda d: css(d, ".list-name").text == "Summer trip", "the new name")
    share = css(driver, ".share-list input[name=account]")
    share.send_keys("nobody")
    share.send_keys(Keys.ENTER)
    wait_until(driver, lambda d: "no account “nobody”" in css(d, "#todo-error").text, "the refusal of an unknown account")
    share = css(driver, ".share-list input[name=account]")
    share.clear()
    share.send_keys("bob")
    share.send_keys(Keys.ENTER)
    wait_until(driver, lambda d: "shared with bob" in css(d, ".list-of-lists").text, "the list shared with bob")

    # The member sees the list but none of the owner's buttons.
    sign_in(second_driver, base, "bob")
    wait_until(second_driver, lambda d: "Summer trip" in css(d, ".list-of-lists").text, "bob to see the list")
    assert second_driver.find_elements(By.CSS_SELECTOR, ".delete-list, .rename-list, .share-list") == []

    # Cancel keeps the list; Delete list deletes it for both.
    click_css(driver, ".delete-list")
    dialog = css(driver, "dialog[open]")
    assert "Summer trip" in dialog.text
    assert driver.switch_to.active_element.text == "Keep it"
    dialog.find_element(By.CSS_SELECTOR, "[data-modal-role=cancel]").click()
    wait_until(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog[open]"), "the card to close")
    assert css(driver, ".list-name").text == "Summer trip"
    click_css(driver, ".delete-list")
    css(driver, "dialog[open] [data-modal-role=primary]").click()
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".lists-empty"), "the list to be gone")
    second_driver.refresh()
    wait_until(second_driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".lists-empty"), "the list gone for bob too")


def test_a_member_whose_open_list_is_deleted_is_told_so_in_place_of_the_list(
    driver, second_driver, team_server, rewind_cli_bin, data_dir
):
    base = team_server.url
    path = ann_makes_a_list(driver, base, "Weekend", "Bake bread")
    driver.get(base + "/lists")
    share = css(driver, ".share-list input[name=account]")
    share.send_keys("bob")
    share.send_keys(Keys.ENTER)
    wait_until(driver, lambda d: "shared with bob" in css(d, ".list-of-lists").text, "the list shared with bob")
    sign_in(second_driver, base, "bob", path)
    wait_for_titles(second_driver, ["Bake bread"])

    # The owner deletes it in her browser: bob's page says so, live.
    click_css(driver, ".delete-list")
    css(driver, "dialog[open] [data-modal-role=primary]").click()
    wait_until(
        second_driver,
        lambda d: "This list was deleted" in css(d, "main").text,
        lambda: f"the notice on bob's page, found {css(second_driver, 'main').text!r}",
        timeout=LIVE_TIMEOUT,
    )
    assert titles(second_driver) == []
    assert second_driver.find_elements(By.CSS_SELECTOR, "main a[href='/lists']")
    assert second_driver.title == "List gone · Rewind", "the tab no longer names the list"

    # And when another process deletes a list: removing its owner with --delete-lists.
    make_list(driver, "Chores")
    add(driver, "Sweep")
    wait_for_titles(driver, ["Sweep"])
    chores = driver.execute_script("return location.pathname")
    subprocess.run(
        [rewind_cli_bin, "lists", "share", "chores", "bob", "--as", "ann", "--data-dir", str(data_dir)],
        check=True, capture_output=True, timeout=60,
    )
    second_driver.get(base + chores)
    wait_for_titles(second_driver, ["Sweep"])
    # What bob is typing when it goes is not lost with the page.
    css(second_driver, ".new-todo").send_keys("Half typed item")
    removed = subprocess.run(
        [rewind_cli_bin, "users", "rm", "ann", "--delete-lists", "--yes", "--data-dir", str(data_dir)],
        capture_output=True, text=True, timeout=60,
    )
    assert removed.returncode == 0, removed.stderr
    assert "Deleted 1 list: “Chores”" in removed.stdout
    wait_until(
        second_driver,
        lambda d: "This list was deleted" in css(d, "main").text,
        lambda: f"the notice on bob's page, found {css(second_driver, 'main').text!r}",
        timeout=LIVE_TIMEOUT,
    )
    assert "no longer shared with you: “Chores”." in css(second_driver, ".list-gone").text
    assert css(second_driver, "textarea.list-gone-typed").get_attribute("value") == "Half typed item"
    # The 404 of the closed event stream is the one console line; nothing else failed.
    unexpected = [e for e in browser_errors(second_driver) if "/events" not in e["message"] and "/fragment" not in e["message"]]
    assert unexpected == []


def rename(driver, old, new):
    # A live refresh may swap the row between finding and double-clicking it:
    # try again until the row is being edited.
    def start_editing(d):
        try:
            label = next(label for label in css_all(d, ".todo-list li label") if label.text == old)
            ActionChains(d).double_click(label).perform()
        except (StaleElementReferenceException, StopIteration):
            return False
        return d.find_elements(By.CSS_SELECTOR, ".todo-list li.editing .edit")

    wait_until(driver, start_editing, f"to edit “{old}”")
    field = css(driver, ".todo-list li.editing .edit")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(new)
    field.send_keys(Keys.ENTER)


def test_an_edited_title_keeps_its_caret_at_the_end_and_an_untouched_rename_of_a_list_changes_nothing(
    driver, team_server, rewind_cli_bin, data_dir
):
    base = team_server.url
    sign_in(driver, base, "ann")
    make_list(driver, "Bakery")
    add(driver, "Bread")
    wait_for_titles(driver, ["Bread"])
    label = next(label for label in css_all(driver, ".todo-list li label") if label.text == "Bread")
    ActionChains(driver).double_click(label).perform()
    field = css(driver, ".todo-list li.editing .edit")
    field.send_keys(" rolls")
    field.send_keys(Keys.ENTER)
    wait_for_titles(driver, ["Bread rolls"])

    # A name with a line break, made in the terminal, shows it as a space in
    # the Rename field; Rename pressed without a change renames nothing.
    made = subprocess.run(
        [rewind_cli_bin, "lists", "create", "Two\nlines", "--as", "ann", "--data-dir", str(data_dir)],
        capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    driver.get(base + "/lists")
    row = next(row for row in css_all(driver, ".list-row") if "Two" in row.text)
    assert row.find_element(By.CSS_SELECTOR, ".rename-list input").get_attribute("value") == "Two lines"
    row.find_element(By.CSS_SELECTOR, ".rename-list button").click()
    css(driver, "#new-list-name").send_keys("   ")
    css(driver, ".new-list button[type=submit]").click()
    wait_until(driver, lambda d: "must not be empty" in css(d, "#todo-error").text, "the blank name refused on the page")
    listed = subprocess.run(
        [rewind_cli_bin, "lists", "--json", "--as", "ann", "--data-dir", str(data_dir)],
        capture_output=True, text=True, timeout=60)
    assert '"Two\\nlines"' in listed.stdout, listed.stdout
    # Renamed to the name of another of her lists: done, and said, as the terminal says it.
    row = next(row for row in css_all(driver, ".list-row") if "Two" in row.text)
    name = row.find_element(By.CSS_SELECTOR, ".rename-list input")
    name.send_keys(Keys.CONTROL, "a")
    name.send_keys(Keys.DELETE)
    name.send_keys("bakery")
    row.find_element(By.CSS_SELECTOR, ".rename-list button").click()
    # Said as what was done (the status line), not as an error over the buttons.
    wait_until(driver, lambda d: "Another of your lists has this name too" in css(d, "#lists-status").text,
               lambda: f"the repeated name said: {css(driver, '#lists-status').text!r}")
    assert css(driver, "#todo-error").text == ""
    assert browser_errors(driver) == []


def test_the_keyboard_keeps_its_place_after_an_undo_and_after_a_list_is_deleted(driver, team_server):
    base = team_server.url
    sign_in(driver, base, "ann")
    make_list(driver, "Chores")
    add(driver, "Sweep")
    wait_for_titles(driver, ["Sweep"])
    wait_until(driver, lambda d: not css(d, "#list-undo").get_property("disabled"), "Undo enabled")
    driver.execute_script("document.getElementById('list-undo').focus()")
    css(driver, "#list-undo").send_keys(Keys.ENTER)
    wait_for_titles(driver, [])
    # Nothing of ann's is left to undo: the focus goes to Redo, not the page's body.
    wait_until(driver, lambda d: d.execute_script("return document.activeElement.id") == "list-redo", "the focus on Redo")

    driver.get(base + "/lists")
    click_css(driver, ".delete-list")
    css(driver, "dialog[open] [data-modal-role=primary]").click()
    wait_until(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".list-row"), "the list deleted")
    wait_until(
        driver, lambda d: d.execute_script("return document.activeElement.id") == "new-list-name",
        "the focus on the field that makes a list")
    assert browser_errors(driver) == []


def test_an_undo_that_meets_another_persons_later_rename_keeps_it_and_says_so(driver, second_driver, team_server):
    base = team_server.url
    ann, bob = driver, second_driver
    sign_in(ann, base, "ann")
    make_list(ann, "Groceries")
    path = ann.execute_script("return location.pathname")
    list_id = path.rsplit("/", 1)[1]
    ann.execute_script(
        "return fetch('/api/lists/' + arguments[0] + '/members', {method: 'POST', headers: {"
        "'Content-Type': 'application/json', 'X-Rewind-CSRF': document.querySelector('meta[name=rewind-csrf]').content},"
        "body: JSON.stringify({account: 'bob'})}).then(r => r.status)",
        list_id,
    )
    sign_in(bob, base, "bob", path=path)
    add(ann, "Milk")
    wait_for_titles(bob, ["Milk"], timeout=LIVE_TIMEOUT)

    rename(ann, "Milk", "Oat milk")
    wait_for_titles(bob, ["Oat milk"], timeout=LIVE_TIMEOUT)
    rename(bob, "Oat milk", "Soy milk")
    wait_for_titles(ann, ["Soy milk"], timeout=LIVE_TIMEOUT)

    # Ann's Undo names her rename; it leaves bob's later one, and says why.
    wait_until(ann, lambda d: undo_title(d) == "Undo your step: Rename “Milk” to “Oat milk”", lambda: undo_title(ann))
    css(ann, "#list-undo").click()
    wait_until(
        ann,
        lambda d: "bob renamed it since" in css(d, "#list-message").text,
        lambda: f"the message, found “{css(ann, '#list-message').text}”",
    )
    assert titles(ann) == ["Soy milk"]
    wait_until(ann, lambda d: "bob renamed it since" in css(d, ".shared-history").text, "the history to say so too")
    ann.save_screenshot(str(ARTIFACTS / "shared-list-conflict.png"))
    assert titles(bob) == ["Soy milk"]
    # Ann's next change of her own takes what the undo said away.
    add(ann, "Bread")
    wait_until(ann, lambda d: css(d, "#list-message").text == "",
               lambda: f"the old message to go; it says {css(ann, '#list-message').text!r}")


def test_the_lists_pages_have_no_accessibility_violations(driver, team_server):
    from test_accessibility import violations  # axe-core 3 and 4, light and dark, desktop and phone

    base = team_server.url
    sign_in(driver, base, "ann")
    make_list(driver, "Groceries")
    for title in ("Milk", "Bread"):
        add(driver, title)
    wait_for_titles(driver, ["Milk", "Bread"])
    problems = violations(driver, "a shared list")
    driver.get(base + css(driver, ".todo-list a.item-details").get_dom_attribute("href"))
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#detail-form"), "a shared list's item")
    problems += violations(driver, "a shared list's item")
    driver.get(base + "/lists")
    share = css(driver, ".share-list input[name=account]")
    share.send_keys("bob")
    share.send_keys(Keys.ENTER)
    wait_until(driver, lambda d: "shared with bob" in css(d, ".list-of-lists").text, "the list shared with bob")
    problems += violations(driver, "lists")
    # The share's own refresh and its event's may replace the row between two steps.
    click_css(driver, ".delete-list")
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog[open]"), "the delete card")
    problems += violations(driver, "lists with the delete card open")
    assert not problems, "\n".join(problems)


def test_the_lists_pages_fit_a_narrow_phone(driver, team_server, rewind_cli_bin, data_dir):
    # 320 pixels wide: the site's row wraps between its links, the list's
    # forms wrap their fields and buttons, and an account name of 64
    # letters wraps where it is shown; nothing scrolls sideways.
    longest = "a" * 30 + "verylongaccountname" + "z" * 15
    add_account(rewind_cli_bin, longest, PASSWORD, "--data-dir", data_dir)
    base = team_server.url
    sign_in(driver, base, "ann")
    make_list(driver, "Trip to the mountains with the whole family and the dog")
    driver.get(base + "/lists")
    for account in ("bob", longest):
        share = css(driver, ".share-list input[name=account]")
        share.send_keys(account)
        share.send_keys(Keys.ENTER)
        wait_until(driver, lambda d: account in css(d, ".list-of-lists").text, f"the list shared with {account}")
    driver.set_window_size(320, 700)
    wait_until(driver, lambda d: d.execute_script("return window.innerWidth") <= 320, "the window to be 320 wide")
    for path in ("/lists", css(driver, ".list-name").get_dom_attribute("href")):
        driver.get(base + path)
        overflow = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        links = driver.execute_script(
            "return Array.from(document.querySelectorAll('.site-nav a'), a => a.getClientRects().length)")
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at 320 pixels"
        assert links and all(count == 1 for count in links), f"{path}: a link of the site's row breaks over lines: {links}"


def test_show_more_lists_older_steps_of_a_shared_list_and_keeps_them_listed(driver, team_server, rewind_cli_bin, data_dir):
    rewind = terminal(rewind_cli_bin, data_dir)

    def listed():
        return driver.execute_script("return document.querySelectorAll('.shared-history .shared-step').length")

    base = team_server.url
    sign_in(driver, base, "ann")
    make_list(driver, "Chores")
    for number in range(1, 56):
        rewind("todo", "add", f"Chore {number}", "--as", "ann", "--list", "chores")
    driver.refresh()
    wait_until(driver, lambda d: listed() == 50, lambda: f"the newest 50 steps listed, not {listed()}")
    assert css(driver, ".shared-history .history-more").text.startswith("… older steps")
    click_more = css(driver, ".shared-history .history-show-more")
    click_more.click()
    wait_until(driver, lambda d: listed() == 55, lambda: f"all 55 steps listed, not {listed()}")
    assert not driver.find_elements(By.CSS_SELECTOR, ".shared-history .history-show-more")
    # A change made meanwhile: the page asks for as many steps again.
    rewind("todo", "add", "One more", "--as", "ann", "--list", "chores")
    wait_until(driver, lambda d: listed() == 56, lambda: f"56 steps listed after the change, not {listed()}", timeout=LIVE_TIMEOUT)
    assert browser_errors(driver) == []


def test_a_shared_lists_rows_show_due_dates_given_in_the_terminal(driver, team_server, rewind_cli_bin, data_dir):
    rewind = terminal(rewind_cli_bin, data_dir)

    base = team_server.url
    sign_in(driver, base, "ann")
    make_list(driver, "Trip")
    rewind("todo", "add", "Renew the passport", "--due", "2020-04-30", "--as", "ann", "--list", "trip")
    rewind("todo", "add", "Book the hotel", "--due", "2040-06-01 09:00", "--as", "ann", "--list", "trip")
    rewind("todo", "add", "Pack", "--as", "ann", "--list", "trip")
    wait_for_titles(driver, ["Renew the passport", "Book the hotel", "Pack"], timeout=LIVE_TIMEOUT)
    marks = driver.execute_script(
        "return Array.from(document.querySelectorAll('.todo-list li'), li => {"
        " const due = li.querySelector('time.due'); return due ? [due.textContent, due.classList.contains('overdue')] : null; })")
    assert marks == [["Overdue · 30 Apr 2020", True], ["1 Jun 2040 09:00", False], None]


def test_the_find_field_of_a_shared_list_shows_what_contains_every_word_and_follows_changes(driver, team_server, rewind_cli_bin, data_dir):
    base = team_server.url
    sign_in(driver, base, "ann")
    make_list(driver, "Groceries")
    for title in ["Milk", "Oat milk", "Bread"]:
        add(driver, title)
    wait_for_titles(driver, ["Milk", "Oat milk", "Bread"])
    css(driver, "#search").send_keys("MILK")
    wait_for_titles(driver, ["Milk", "Oat milk"])
    assert css(driver, ".search-result").text == "2 items contain “MILK”."
    assert "search=MILK" in driver.current_url
    # A change made in the terminal shows when it matches; the count stays the list's.
    done = subprocess.run(
        [rewind_cli_bin, "todo", "add", "Milk chocolate", "--as", "ann", "--list", "groceries", "--data-dir", str(data_dir)],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    wait_for_titles(driver, ["Milk", "Oat milk", "Milk chocolate"], timeout=LIVE_TIMEOUT)
    assert css(driver, ".todo-count").text == "4 items left"
    # A reload keeps the search; emptying the field shows every item.
    driver.refresh()
    wait_for_titles(driver, ["Milk", "Oat milk", "Milk chocolate"])
    field = css(driver, "#search")
    assert field.get_attribute("value") == "MILK"
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.BACKSPACE)
    wait_for_titles(driver, ["Milk", "Oat milk", "Bread", "Milk chocolate"])
    assert not css_all(driver, ".search-result")
    assert not browser_errors(driver)


def test_a_shared_lists_filters_show_what_they_name_and_complete_all_and_clear_completed_are_one_step(driver, team_server):
    base = team_server.url
    sign_in(driver, base, "ann")
    make_list(driver, "Chores")
    for title in ("One", "Two", "Three"):
        add(driver, title)
    wait_for_titles(driver, ["One", "Two", "Three"])
    driver.execute_script("document.querySelectorAll('.todo-list li')[1].querySelector('input.toggle').click()")
    wait_until(driver, lambda d: undo_title(d) == "Undo your step: Complete “Two”", lambda: undo_title(driver))
    for label, expected in (("Active", ["One", "Three"]), ("Completed", ["Two"]), ("All", ["One", "Two", "Three"])):
        css(driver, ".filters").find_element(By.LINK_TEXT, label).click()
        wait_for_titles(driver, expected)
    driver.back()
    wait_for_titles(driver, ["Two"])
    css(driver, ".clear-completed").click()
    wait_for_titles(driver, [])
    wait_until(driver, lambda d: undo_title(d) == "Undo your step: Clear 1 completed item", lambda: undo_title(driver))
    driver.get(base + driver.execute_script("return location.pathname") + "#/active")
    wait_for_titles(driver, ["One", "Three"])
    assert css(driver, ".filters a.selected").text == "Active"
    # The arrow left of the new-item field completes every item, as one step.
    css(driver, "label[for=toggle-all]").click()
    wait_for_titles(driver, [])
    wait_until(driver, lambda d: undo_title(d) == "Undo your step: Complete 2 items", lambda: undo_title(driver))
    chord(driver, "z")
    wait_for_titles(driver, ["One", "Three"])


def test_a_shared_lists_item_opens_in_its_detail_page_and_changes_as_the_accounts_step(driver, team_server):
    base = team_server.url
    sign_in(driver, base, "ann")
    make_list(driver, "Errands")
    for title in ("Post office", "Bank"):
        add(driver, title)
    wait_for_titles(driver, ["Post office", "Bank"])
    list_path = driver.execute_script("return location.pathname")
    driver.execute_script("document.querySelectorAll('.todo-list li')[1].querySelector('a.item-details').click()")
    wait_until(driver, lambda d: d.execute_script("return location.pathname").startswith(list_path + "/items/"), "the item's page")
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#detail-form"), "the form")
    assert css(driver, ".site-nav [aria-current=page]").text == "Lists"
    css(driver, "input[name=dueKind][value=text]").click()
    due = css(driver, "input[name=dueText]")
    due.clear()
    due.send_keys("2040-06-01 10:00")
    css(driver, "textarea[name=details]").send_keys("open until noon")
    css(driver, "#detail-form button[type=submit]").click()
    wait_until(driver, lambda d: css(d, "#form-status").text == "Saved.", lambda: css(driver, "#form-status").text)
    wait_until(driver, lambda d: "Due 1 Jun 2040 10:00" in css(d, ".detail-summary").text, lambda: css(driver, ".detail-summary").text)
    # The account's Undo and Redo are here too (outside the text fields).
    wait_until(driver, lambda d: undo_title(d) == "Undo your step: Edit “Bank”", lambda: undo_title(driver))
    blur_text_fields(driver)
    chord(driver, "z")
    wait_until(driver, lambda d: "Due" not in css(d, ".detail-summary").text, lambda: css(driver, ".detail-summary").text)
    assert css(driver, "textarea[name=details]").get_attribute("value") == ""
    chord(driver, "z", shift=True)
    wait_until(driver, lambda d: "Due 1 Jun 2040 10:00" in css(d, ".detail-summary").text, lambda: css(driver, ".detail-summary").text)
    # Delete… asks first, then goes back to the list, where the account's Undo brings the item back.
    css(driver, "#delete-item").click()
    wait_until(driver, lambda d: css(d, "dialog#confirm-delete-item").get_attribute("open") is not None, "the confirmation")
    css(driver, "dialog#confirm-delete-item button.destructive").click()
    wait_until(driver, lambda d: d.execute_script("return location.pathname") == list_path, "back on the list's page")
    wait_for_titles(driver, ["Post office"])
    wait_until(driver, lambda d: undo_title(d) == "Undo your step: Delete “Bank”", lambda: undo_title(driver))
    css(driver, "#list-undo").click()
    wait_for_titles(driver, ["Post office", "Bank"])
    assert "1 Jun 2040" in css_all(driver, ".todo-list li")[1].text


def test_a_refused_share_is_said_until_the_next_change_goes_through_and_a_long_name_fits_the_item_page(
    driver, team_server
):
    base = team_server.url
    long_name = "L" * 200
    path = ann_makes_a_list(driver, base, long_name, "Nails")
    # A name with no space in it wraps on the item's page too (its "← list" link).
    driver.execute_script("document.querySelector('.todo-list li a.item-details').click()")
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#detail-form"), "the item's page")
    assert driver.execute_script(
        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    ), "the item's page should not scroll sideways"

    driver.get(base + "/lists")

    def fill_and_submit(form, name, text):
        # A live refresh may replace the row between two steps: done again then.
        def steps():
            field = css(driver, f".list-row .{form} input[name={name}]")
            field.clear()
            field.send_keys(text)
            field.find_element(By.XPATH, "ancestor::form//button[@type='submit']").click()

        again_while_replaced(steps, f"the {form} form")

    fill_and_submit("share-list", "account", "nobody")
    wait_until(driver, lambda d: "nobody" in css(d, "#todo-error").text, "the refusal to be said")
    fill_and_submit("rename-list", "name", "Hardware")
    wait_until(driver, lambda d: css(d, ".list-row .list-name").text == "Hardware", "the rename to show")
    wait_until(driver, lambda d: css(d, "#todo-error").text == "", "the old refusal to be gone", timeout=2)
    assert path.startswith("/lists/")


def test_a_member_leaves_a_list_after_confirming_and_it_stays_for_its_owner(driver, second_driver, team_server):
    base = team_server.url
    ann_makes_a_list(driver, base, "Garden", "Rake leaves")
    driver.get(base + "/lists")
    send_keys_css(driver, ".list-row .share-list input[name=account]", "bob")
    click_css(driver, ".list-row .share-list button[type=submit]")
    wait_until(driver, lambda d: "bob" in css(d, ".list-row .list-access").text, "Garden shared with bob")
    bob = second_driver
    sign_in(bob, base, "bob")
    wait_until(bob, lambda d: css(d, ".list-row .list-name").text == "Garden", "bob's lists page to show Garden")
    assert not bob.find_elements(By.CSS_SELECTOR, ".list-row .rename-list"), "a member has no Rename"
    click_css(bob, ".list-row .leave-list")
    wait_until(bob, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog[open]"), "the confirmation")
    css(bob, "dialog[open] button.destructive").click()
    wait_until(bob, lambda d: not d.find_elements(By.CSS_SELECTOR, ".list-row"), "Garden gone from bob's lists")
    # Ann's page follows: not shared any more, and her list is as it was.
    wait_until(driver, lambda d: css(d, ".list-row .list-access").text == "Yours · not shared",
               lambda: f"ann's page to follow, it shows {css(driver, '.list-row .list-access').text!r}; {driver.current_url}")
    assert css(driver, ".list-row .list-counts").text == "1 item left"


def test_an_item_page_follows_its_item_going_and_coming_back_and_then_its_list_going(
    driver, second_driver, team_server, rewind_cli_bin, data_dir
):
    rewind = terminal(rewind_cli_bin, data_dir)

    base = team_server.url
    path = ann_makes_a_list(driver, base, "Weekend", "Bake bread")
    rewind("lists", "share", "Weekend", "bob", "--as", "ann")
    sign_in(second_driver, base, "bob", path)
    wait_for_titles(second_driver, ["Bake bread"])
    second_driver.execute_script("document.querySelector('.todo-list li a.item-details').click()")
    wait_until(second_driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#detail-form"), "bob on the item's page")
    details = css(second_driver, "textarea[name=details]")
    details.send_keys("bring flour")
    # Ann deletes it: bob's page says it is gone, and what brings it back.
    click_css(driver, ".todo-list li button.destroy")
    wait_for_titles(driver, [])
    wait_until(second_driver, lambda d: "This item is gone" in css(d, "#form-status").text,
               lambda: f"the item gone on bob's page: {css(second_driver, '#form-status').text!r}", timeout=LIVE_TIMEOUT)
    assert "If that step was yours, Undo brings it back." in css(second_driver, "#form-status").text
    # Her undo brings it back: what said it was gone goes, and bob's typing stays.
    click_css(driver, "#list-undo")
    wait_for_titles(driver, ["Bake bread"])
    wait_until(second_driver, lambda d: "gone" not in css(d, "#form-status").text,
               lambda: f"the notice gone from bob's page: {css(second_driver, '#form-status').text!r}", timeout=LIVE_TIMEOUT)
    assert css(second_driver, "textarea[name=details]").get_attribute("value") == "bring flour"
    # A rename elsewhere reaches the tab's title too.
    item = second_driver.execute_script("return location.pathname").rsplit("/", 1)[1][:8]
    rewind("todo", "edit", item, "--title", "Bake rye bread", "--as", "ann", "--list", "Weekend")
    wait_until(second_driver, lambda d: d.title == "Bake rye bread · Weekend · Rewind",
               lambda: f"the tab renamed: {second_driver.title!r}", timeout=LIVE_TIMEOUT)
    # The list deleted: the item's page says so in its place, as the list's page does.
    rewind("lists", "rm", "Weekend", "--yes", "--as", "ann")
    wait_until(second_driver, lambda d: "This list was deleted" in css(d, "main").text,
               lambda: f"the list gone on bob's page: {css(second_driver, 'main').text!r}", timeout=LIVE_TIMEOUT)
    assert not second_driver.find_elements(By.CSS_SELECTOR, "#detail-form")
    assert second_driver.title == "List gone · Rewind"


def test_a_title_edited_while_its_item_goes_says_so_by_name_and_the_counts_wait_with_the_rows(
    driver, team_server, rewind_cli_bin, data_dir
):
    rewind = terminal(rewind_cli_bin, data_dir)

    base = team_server.url
    ann_makes_a_list(driver, base, "Weekend", "Zeta")
    zeta = driver.execute_script("return document.querySelector('.todo-list li').dataset.id")[:8]
    ActionChains(driver).double_click(css(driver, ".todo-list li label")).perform()
    edit = css(driver, ".todo-list li.editing input.edit")
    edit.send_keys(" edited")
    # Added elsewhere while the title is edited: the rows and their count wait together.
    rewind("todo", "add", "Delta", "--as", "ann", "--list", "Weekend")
    wait_until(driver, lambda d: "Add “Delta”" in css(d, "#list-undo").get_attribute("title"), "the refresh", timeout=LIVE_TIMEOUT)
    assert css(driver, ".todo-count").text.startswith("1 item"), css(driver, ".todo-count").text
    rewind("todo", "rm", zeta, "--as", "ann", "--list", "Weekend")
    edit.send_keys(Keys.ENTER)
    wait_until(driver, lambda d: "“Zeta” is no longer on the list" in css(d, "#todo-error").text,
               lambda: f"the edit's failure by name: {css(driver, '#todo-error').text!r}")
    assert "0000" not in css(driver, "#todo-error").text.upper().replace("-", "")
    wait_for_titles(driver, ["Delta"])
    wait_until(driver, lambda d: css(d, ".todo-count").text.startswith("1 item"), lambda: css(driver, ".todo-count").text)


def test_the_lists_page_keeps_the_keyboard_in_the_row_acted_on_and_says_what_was_done(
    driver, second_driver, team_server, rewind_cli_bin, data_dir
):
    rewind = terminal(rewind_cli_bin, data_dir)

    for name in ("Pantry", "Zoo"):
        rewind("lists", "create", name, "--as", "ann")
        rewind("lists", "share", name, "bob", "--as", "ann")
        rewind("lists", "share", name, "carl", "--as", "ann")
    base = team_server.url
    ann, bob = driver, second_driver
    sign_in(ann, base, "ann")
    sign_in(bob, base, "bob")

    def status(d):
        return css(d, "#lists-status").text

    def row_of(d, selector="document.activeElement"):
        return d.execute_script(
            f"var e = {selector}; var row = e && e.closest('[data-list]');"
            " return row ? row.querySelector('.list-name').textContent : null;")

    zoo = "[...document.querySelectorAll('[data-list]')].find(r => r.querySelector('.list-name').textContent === 'Zoo')"
    ann.execute_script(f"{zoo}.querySelector('.unshare[data-account=carl]').focus()")
    ann.switch_to.active_element.send_keys(Keys.ENTER)
    # Asked first, as a delete or a leave is: carl's open page would close.
    card = css(ann, "dialog[open]")
    assert card.find_element(By.CSS_SELECTOR, "h2, .modal-card-title").text == "Stop sharing “Zoo” with carl"
    card.find_element(By.CSS_SELECTOR, "button[data-action=request]").click()
    wait_until(ann, lambda d: status(d) == "Stopped sharing “Zoo” with carl.", lambda: f"the unshare said: {status(ann)!r}")
    # The keyboard stays in Zoo's row, on its name: never on another list's "Stop sharing".
    wait_until(ann, lambda d: row_of(d) == "Zoo", lambda: f"the focus in Zoo's row; it is in {row_of(ann)!r}")
    assert not ann.execute_script("return document.activeElement.classList.contains('unshare')")
    ann.switch_to.active_element.send_keys(Keys.ENTER)  # A second Enter opens Zoo: it stops sharing nothing.
    wait_until(ann, lambda d: "/lists/" in d.execute_script("return location.pathname"), "Zoo's page")
    # Carl lost Zoo only; bob keeps both.
    carls = rewind("lists", "--as", "carl")
    assert "Pantry" in carls and "Zoo" not in carls, carls
    assert "Zoo" in rewind("lists", "--as", "bob")

    # A list that goes from bob's page by someone else's hand is said so.
    ann.get(base + "/lists")
    rewind("lists", "unshare", "pantry", "bob", "--as", "ann")
    wait_until(bob, lambda d: "“Pantry” is no longer among your lists" in status(d), lambda: f"Pantry's going said: {status(bob)!r}")
    rewind("lists", "share", "pantry", "bob", "--as", "ann")
    wait_until(bob, lambda d: status(d) == "“Pantry” is now among your lists.", lambda: f"Pantry's coming said: {status(bob)!r}")

    # Share from the keyboard: the keyboard stays on Zoo's Share, not on its Rename.
    wait_until(ann, lambda d: len(css_all(d, ".list-row")) == 2, "both lists on ann's page")
    ann.execute_script(f"{zoo}.querySelector('.share-list input').focus()")
    ann.switch_to.active_element.send_keys("carl")
    ann.execute_script(f"{zoo}.querySelector('.share-list button').focus()")
    ann.switch_to.active_element.send_keys(Keys.ENTER)
    wait_until(ann, lambda d: status(d) == "Shared “Zoo” with carl.", lambda: f"the share said: {status(ann)!r}")
    wait_until(ann, lambda d: d.execute_script("return document.activeElement.closest('form.share-list') !== null"),
               lambda: f"the focus on Share; it is on {ann.execute_script('return document.activeElement.outerHTML.slice(0, 90)')}")
    assert row_of(ann) == "Zoo"

    # Ann's own delete is said as hers; the keyboard goes to the field that makes a list.
    ann.execute_script(f"{zoo}.querySelector('.delete-list').click()")
    css(ann, "dialog[open] [data-modal-role=primary]").click()
    wait_until(ann, lambda d: status(d) == "Deleted “Zoo”.", lambda: f"the delete said: {status(ann)!r}")
    wait_until(ann, lambda d: d.execute_script("return document.activeElement.id") == "new-list-name", "the focus on the new list's field")
    assert browser_errors(ann) == [] and browser_errors(bob) == []


def test_a_list_name_longer_than_allowed_is_refused_with_the_reason_not_cut(driver, team_server):
    sign_in(driver, team_server.url, "ann")
    css(driver, "#new-list-name").send_keys("n" * 250)
    css(driver, ".new-list button[type=submit]").click()
    wait_until(driver, lambda d: "at most 200 characters" in css(d, "#todo-error").text, lambda: css(driver, "#todo-error").text)
    assert driver.execute_script("return location.pathname") == "/lists"
    assert css_all(driver, ".list-row") == []


def test_on_a_shared_items_page_the_keyboard_keeps_undo_and_a_shortcut_waits_behind_a_card(
    driver, team_server, rewind_cli_bin, data_dir
):
    base = team_server.url
    path = ann_makes_a_list(driver, base, "Errands", "Bank")
    driver.execute_script("document.querySelector('.todo-list li a.item-details').click()")
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#detail-form"), "the item's page")
    title = css(driver, "#detail-form input[name=title]")
    title.clear()
    title.send_keys("Bank at noon", Keys.ENTER)
    wait_until(driver, lambda d: undo_title(d) == "Undo your step: Rename “Bank” to “Bank at noon”", lambda: undo_title(driver))
    driver.execute_script("document.getElementById('list-undo').focus()")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_until(driver, lambda d: css(d, "h1").text == "Bank", lambda: css(driver, "h1").text)
    # The keyboard stays on Undo (enabled again once the page shows the step), not on the page's body.
    wait_until(driver, lambda d: d.execute_script("return document.activeElement.id") == "list-undo",
               lambda: f"the focus on Undo; it is on {driver.execute_script('return document.activeElement.outerHTML.slice(0, 80)')}")
    # Behind an open confirmation card, Ctrl+Z changes nothing.
    css(driver, "#delete-item").click()
    wait_until(driver, lambda d: css(d, "dialog#confirm-delete-item").get_attribute("open") is not None, "the card")
    chord(driver, "z")
    time.sleep(1)
    done = subprocess.run([rewind_cli_bin, "todo", "list", "--as", "ann", "--list", "errands", "--data-dir", str(data_dir)],
                          capture_output=True, text=True, timeout=60)
    assert "Bank" in done.stdout and "Undo: Add “Bank”" in done.stdout, done.stdout
    css(driver, "dialog#confirm-delete-item [data-modal-role=cancel]").click()
    assert path in driver.execute_script("return location.pathname")


def test_an_items_way_back_names_its_list_as_renamed(driver, team_server, rewind_cli_bin, data_dir):
    base = team_server.url
    ann_makes_a_list(driver, base, "Pantry", "Oats")
    driver.execute_script("document.querySelector('.todo-list li a.item-details').click()")
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#detail-form"), "the item's page")
    assert css(driver, ".back-link").text == "← Pantry"
    subprocess.run([rewind_cli_bin, "lists", "rename", "pantry", "Larder", "--as", "ann", "--data-dir", str(data_dir)],
                   check=True, capture_output=True, timeout=60)
    wait_until(driver, lambda d: css(d, ".back-link").text == "← Larder", lambda: css(driver, ".back-link").text, timeout=LIVE_TIMEOUT)


def test_a_list_made_with_a_name_the_person_has_already_says_so_on_its_page(driver, team_server):
    sign_in(driver, team_server.url, "ann")
    make_list(driver, "Groceries")
    driver.get(team_server.url + "/lists")
    make_list(driver, "groceries")
    wait_until(driver, lambda d: "Another of your lists is named “groceries” too" in css(d, "#list-message").text,
               lambda: f"the repeated name said: {css(driver, '#list-message').text!r}")
    # Said once: not again after a reload.
    driver.refresh()
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".new-todo"), "the list's page again")
    assert css(driver, "#list-message").text == ""
    # The lists page's buttons name their list.
    driver.get(team_server.url + "/lists")
    names = driver.execute_script("return Array.from(document.querySelectorAll('.delete-list'), b => b.getAttribute('aria-label'))")
    assert sorted(names) == ["Delete “Groceries”…", "Delete “groceries”…"], names


def test_a_double_clicked_make_list_makes_one_list_and_a_long_names_card_fits_a_phone(driver, team_server, browser_factory):
    sign_in(driver, team_server.url, "ann")
    css(driver, "#new-list-name").send_keys("Double")
    ActionChains(driver).double_click(css(driver, ".new-list button[type=submit]")).perform()
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".new-todo"), "the list's page")
    made = driver.execute_script("""
        return fetch('/api/lists').then(r => r.json()).then(body => body.lists.filter(l => l.name === 'Double').length);""")
    assert made == 1, f"{made} lists named Double"
    # A name of 200 letters without a space wraps in its delete card, on a phone too.
    driver.get(team_server.url + "/lists")
    make_list(driver, "y" * 200)
    phone = browser_factory(size=PHONE)
    sign_in(phone, team_server.url, "ann")
    phone.get(team_server.url + "/lists")
    button = [b for b in css_all(phone, ".delete-list") if "y" * 200 in b.get_attribute("aria-label")][0]
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    button.click()
    card = css(phone, "dialog[open]")
    box = phone.execute_script("""
        const card = arguments[0];
        const buttons = [...card.querySelectorAll('button')].map(b => b.getBoundingClientRect().right);
        return {card: card.getBoundingClientRect().right, scroll: card.scrollWidth - card.clientWidth,
                buttons: Math.max(...buttons), window: window.innerWidth};""", card)
    assert box["scroll"] <= 0 and box["card"] <= box["window"] and box["buttons"] <= box["card"], f"the card does not fit: {box}"
