"""The "Copy link to this state" control gives the link of the state on screen, served and exported.

Served (http://localhost, where the clipboard may be granted): the state is changed with real key
presses, the button is clicked, the clipboard holds the link, and that link opened in a new tab
shows the same state with attention_core's numbers. Exported, with the clipboard refused (as in an iframe
without permission):
the link is shown selected in a text field instead, and it reopens the same state offline.
"""

from __future__ import annotations

import pytest

from helpers import (angle_slider_handle, assert_matches_core, core_state, read_state, wait_ready,
                     wait_synced)

pytestmark = pytest.mark.browser
COPY = "Copy link to this state"


def turn_angle(page, presses: int) -> None:
    handle = angle_slider_handle(page)
    handle.focus()
    for _ in range(presses):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => Bokeh.documents[0].get_model_by_name('angle').value === {40 + presses}")


def test_served_copy_link_reopens_the_state(new_tab, served_url):
    tab = new_tab(permissions=["clipboard-read", "clipboard-write"])
    page = tab.page
    page.goto(f"{served_url}/lookup?length=3")
    wait_ready(page)
    wait_synced(page)
    turn_angle(page, 7)
    page.get_by_role("button", name=COPY).click()
    page.get_by_text("Link copied").wait_for(timeout=10_000)
    link = page.evaluate("() => navigator.clipboard.readText()")
    assert "angle=47" in link and "length=3" in link, link

    again = new_tab()
    again.page.goto(link)
    wait_ready(again.page)
    st = read_state(again.page)
    assert (st["angle"], st["length"]) == (47, 3)
    assert_matches_core(st, core_state(angle=47.0, length=3.0))
    tab.assert_no_errors()
    again.assert_no_errors()


def test_exported_copy_link_shows_the_link_when_the_clipboard_is_refused(new_tab, exported_file):
    tab = new_tab()
    tab.block_network()
    # As in an iframe without clipboard permission: every write is refused.
    tab.context.add_init_script("navigator.clipboard.writeText = () => Promise.reject(new Error('denied'));")
    page = tab.page
    page.goto(exported_file.as_uri())
    wait_ready(page)
    turn_angle(page, 5)
    page.get_by_role("button", name=COPY).click()
    field = page.get_by_role("textbox", name="Link to this state (copy it)")
    field.wait_for(timeout=10_000)
    link = field.input_value()
    assert link.startswith("file:") and "angle=45" in link, link

    again = new_tab()
    again.block_network()
    again.page.goto(link)
    wait_ready(again.page)
    st = read_state(again.page)
    assert st["angle"] == 45
    assert_matches_core(st, core_state(angle=45.0))
    tab.assert_offline()
    again.assert_offline()
    tab.assert_no_errors()
    again.assert_no_errors()
