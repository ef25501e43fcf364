"""Phones: every plate at 390 × 844 with touch (Playwright's has_touch and is_mobile), served.

A finger's drag (CDP touch events) or tap changes the numbers, and they are attention_core's;
the page does not scroll sideways (its width is at most the phone's 390 px: a phone widens its
layout viewport to what overflows, so innerWidth alone would always pass).
"""

from __future__ import annotations

import numpy as np
import pytest

from helpers import PHONE_FITTED, READ_STATE, assert_matches_core, core_from_query, to_page_xy, touch_drag, wait_synced

pytestmark = pytest.mark.browser
WAIT = 120_000  # ms: the machine may be shared
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}

IDLE = r"""(plot) => {
  if (!window.Bokeh || !Bokeh.documents || !Bokeh.documents.length || !Bokeh.documents[0].is_idle) return false;
  const m = Bokeh.documents[0].get_model_by_name(plot), v = m && Bokeh.index.find_one(m);
  return !!(v && v.frame && v.frame.bbox.width > 0 && v.canvas_view.el.getAttribute("role") === "img");
}"""
WIDTH = "() => document.documentElement.scrollWidth"



def open_phone(new_tab, url: str, plot: str):
    tab = new_tab(**PHONE)
    page = tab.page
    page.goto(url)
    page.wait_for_function(IDLE, arg=plot, timeout=WAIT, polling=200)
    wait_synced(page, timeout=WAIT)
    # a11y.js fits the layout to the phone in a few passes after ready (and again on a resize).
    page.wait_for_function(PHONE_FITTED, timeout=WAIT)
    return tab, page


def check_width(page, slug: str) -> None:
    width = page.evaluate(WIDTH)
    assert width <= 390, f"{slug}: the page is {width} px wide on a 390 px phone"


def centre(page, plot: str, x, y):
    page.evaluate("(n) => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(n)).canvas_view.events_el"
                  ".scrollIntoView({block: 'center'})", plot)
    return to_page_xy(page, plot, x, y)


def visual(page, xy):
    """Layout coordinates as the touchscreen sees them: a phone zooms out a page wider than itself."""
    return page.evaluate("([x, y]) => { const v = window.visualViewport;"
                         " return [(x - v.offsetLeft) * v.scale, (y - v.offsetTop) * v.scale]; }", list(xy))


def test_lookup_phone(new_tab, served_url):
    tab, page = open_phone(new_tab, f"{served_url}/lookup", "vectors")
    st = page.evaluate(READ_STATE)
    x, y = st["query"]["x"][0], st["query"]["y"][0]
    sent = wait_synced(page)["sent"]
    start, end = centre(page, "vectors", x, y), to_page_xy(page, "vectors", -1.0, 2.5)
    readings = touch_drag(page, start, end)
    assert any(abs(a - b) > 1e-6 for a, b in zip(readings[0], st["weights"]["weight"])), "the drag changed nothing"
    wait_synced(page, sent_before=sent, timeout=WAIT)
    st = page.evaluate(READ_STATE)
    qx, qy = st["query"]["x"][0], st["query"]["y"][0]
    assert abs(qx + 1.0) < 0.2 and abs(qy - 2.5) < 0.2, (qx, qy)
    assert_matches_core(st, core_from_query(qx, qy), check_query=False)
    check_width(page, "lookup")
    tab.assert_no_errors()


def test_a_swipe_on_a_plots_background_scrolls_the_page(new_tab, served_url):
    """Issue 43, 1: on a phone a finger that starts on the lookup plot's empty background scrolls
    the page (the plot keeps only the touches that start on a point; test_lookup_phone drags one)."""
    tab, page = open_phone(new_tab, f"{served_url}/lookup", "vectors")
    before = page.evaluate(READ_STATE)
    start = visual(page, centre(page, "vectors", 4.5, -4.5))  # a corner with no point near it
    assert not page.evaluate("([x, y]) => AEA11y.on_a_point(Bokeh.documents[0].get_model_by_name('vectors'), x, y)",
                             list(start))
    y0 = page.evaluate("() => window.scrollY")
    touch_drag(page, start, (start[0], start[1] - 250), read=False)
    page.wait_for_function("(y0) => window.scrollY > y0 + 100", arg=y0, timeout=WAIT)
    after = page.evaluate(READ_STATE)
    assert after["query"] == before["query"] and after["keys"] == before["keys"]
    check_width(page, "lookup")
    tab.assert_no_errors()


def test_worked_phone(new_tab, served_url):
    from plates.test_worked_served import READ, assert_matches_core as worked_matches_core

    tab, page = open_phone(new_tab, f"{served_url}/worked?preset=four-tokens&step=5", "keys_plot")
    sent = wait_synced(page)["sent"]
    start = visual(page, centre(page, "keys_plot", 1.5, 1.0))
    touch_drag(page, start, visual(page, to_page_xy(page, "keys_plot", 2.0, -1.0)), read=False)
    wait_synced(page, sent_before=sent, timeout=WAIT)
    st = page.evaluate(READ)
    q = st["query"]["vec"][0]
    assert abs(q[0] - 2.0) <= 0.15 and abs(q[1] + 1.0) <= 0.15, q
    worked_matches_core(st)
    check_width(page, "worked")
    tab.assert_no_errors()


def test_scaling_phone(new_tab, served_url):
    from plates.test_scaling_served import READ, assert_matches_core as scaling_matches_core

    tab, page = open_phone(new_tab, f"{served_url}/scaling", "flat_plot")
    sent = wait_synced(page)["sent"]
    page.touchscreen.tap(*visual(page, centre(page, "flat_plot", 256, 0.5)))
    wait_synced(page, sent_before=sent, timeout=WAIT)
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('rendered').data.d_k[0] === 256", timeout=WAIT)
    scaling_matches_core(page.evaluate(READ, False), 256, False)
    check_width(page, "scaling")
    tab.assert_no_errors()


def test_masking_phone(new_tab, served_url):
    from app.plates.masking.state import MaskingState
    from plates.test_masking_browser import CELL, assert_matches_core as masking_matches_core, read

    tab, page = open_phone(new_tab, f"{served_url}/masking", "mask_plot")
    sent = wait_synced(page)["sent"]
    centre(page, "mask_plot", 0.5, 0.5)
    page.touchscreen.tap(*visual(page, page.evaluate(CELL, ["mask_plot", "k1", "q1"])))
    wait_synced(page, sent_before=sent, timeout=WAIT)
    want = MaskingState()
    want.flip(0, 0)
    masking_matches_core(read(page), want)
    check_width(page, "masking")
    tab.assert_no_errors()


def test_self_attention_phone(new_tab, served_url):
    from app.plates.self_attention.state import SelfAttentionState, compute

    tab, page = open_phone(new_tab, f"{served_url}/self-attention", "weights_map")
    k = SelfAttentionState().shuffle + 1  # the shuffle button moves to the next permutation
    button = page.get_by_role("button", name="Shuffle the tokens")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function("(k) => Bokeh.documents[0].get_model_by_name('shuffle').value === k", arg=k, timeout=WAIT)
    wait_synced(page, timeout=WAIT)
    got = page.evaluate("() => Array.from(Bokeh.documents[0].get_model_by_name('weights').data.value)")
    want = compute(5, k, False, False).weights  # (n, n)
    np.testing.assert_allclose(got, want.ravel(), atol=1e-9)
    check_width(page, "self-attention")
    tab.assert_no_errors()


def test_multi_head_phone(new_tab, served_url):
    from plates.test_multi_head_browser import core

    tab, page = open_phone(new_tab, f"{served_url}/multi-head", "head_maps")
    button = page.get_by_role("button", name="4", exact=True)
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('divisors').data.head.length === 4", timeout=WAIT)
    wait_synced(page, timeout=WAIT)
    d = page.evaluate("() => { const d = Bokeh.documents[0].get_model_by_name('head_weights').data;"
                      " return [Array.from(d.head), Array.from(d.i), Array.from(d.j), Array.from(d.value)]; }")
    weights = core(8, 4, 5)[2]  # (h, n, n)
    got = np.full(weights.shape, np.nan)  # (h, n, n)
    for h, i, j, v in zip(*d):
        got[h, i, j] = v
    np.testing.assert_allclose(got, weights, atol=1e-9)
    check_width(page, "multi-head")
    tab.assert_no_errors()
