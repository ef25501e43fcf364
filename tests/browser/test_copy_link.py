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
    tab.page.add_init_script("navigator.clipboard.writeText = () => Promise.reject(new Error('denied'));")
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


def test_copy_embed_code_frames_the_state_on_screen(new_tab, served_url, tmp_path):
    """'Copy embed code' puts an <iframe> of the state on screen, with ?embed=1, on the clipboard
    (issue 43, §3); pasted into a page, it shows that state with the plate alone."""
    import html
    import re

    tab = new_tab(permissions=["clipboard-read", "clipboard-write"])
    page = tab.page
    page.goto(f"{served_url}/lookup?length=3")
    wait_ready(page)
    wait_synced(page)
    turn_angle(page, 4)
    page.get_by_role("button", name="Copy embed code").click()
    page.get_by_text("Embed code copied").wait_for(timeout=10_000)
    code = page.evaluate("() => navigator.clipboard.readText()")
    m = re.fullmatch(r'<iframe src="([^"]+)" title="([^"]+)" width="960" height="540" '
                     r'style="border: 0; max-width: 100%" loading="lazy"></iframe>', code)
    assert m, code
    src = html.unescape(m.group(1))
    assert "angle=44" in src and "length=3" in src and "embed=1" in src, src
    assert html.unescape(m.group(2)) == "Soft lookup"

    host = new_tab()
    host.page.set_content(f"<!doctype html><title>course page</title>{code}")
    frame = host.page.frame_locator("iframe")
    frame.locator(".bk-Canvas, canvas").first.wait_for(timeout=30_000)
    inner = host.page.frames[1]
    inner.wait_for_function("() => window.Bokeh && Bokeh.documents.length && "
                            "Bokeh.documents[0].get_model_by_name('angle') && Bokeh.documents[0].get_model_by_name('angle').value === 44")
    assert inner.evaluate("() => Bokeh.documents[0].get_model_by_name('ae-header').visible") is False  # the plate alone
    tab.assert_no_errors()
