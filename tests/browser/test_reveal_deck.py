"""examples/reveal-deck: the reveal.js deck built by its build.py, opened from disk with the network
blocked. Arrow keys pressed after a click inside the plate move the deck (the plate's page passes
them on, app/runtime/page.js); an arrow key on a focused slider moves the slider, not the deck;
a real mouse drag inside the slide's iframe gives attention_core's numbers."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from helpers import REPO, angle_slider_handle, assert_matches_core, core_state, read_state, to_page_xy, wait_ready
from test_site_deck import NOT_BUSY, InFrame, drag_query_in_frame

pytestmark = pytest.mark.browser

BUILD = REPO / "examples" / "reveal-deck" / "build.py"
PLATE = "section.plate-slide.present iframe"  # the slide on screen (each scene has one)


@pytest.fixture(scope="module")
def deck(exported_site, tmp_path_factory):
    """OUTDIR/index.html of `build.py OUTDIR --site <the session's export --site>`, built once."""
    out = tmp_path_factory.mktemp("reveal-deck")
    t0 = time.monotonic()
    res = subprocess.run([sys.executable, str(BUILD), str(out), "--site", str(exported_site)], cwd=REPO,
                         capture_output=True, text=True, timeout=600)
    if res.returncode != 0:
        pytest.fail(f"build.py failed ({res.returncode}):\n{res.stdout}\n{res.stderr}")
    print(f"reveal deck built in {time.monotonic() - t0:.1f} s")
    return out / "index.html"


def indices(page) -> int:
    return page.evaluate("() => Reveal.getIndices().h")


def press(page, key: str, want: int) -> None:
    """Press `key`; wait until the deck shows slide `want` and its slide transition has ended."""
    page.keyboard.press(key)
    page.wait_for_function("(h) => Reveal.getIndices().h === h", arg=want, timeout=5_000)
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')", timeout=5_000)


def click_in_plate(page, view) -> None:
    """A click on an empty part of the plate's vector plot: the plate has the keyboard now."""
    page.mouse.click(*view.to_top(to_page_xy(view, "vectors", -4.0, 4.0)))
    assert page.evaluate("() => document.activeElement && document.activeElement.matches('section.plate-slide iframe')")


def test_reveal_deck_keys_and_drag_offline(new_tab, deck):
    tab = new_tab(viewport={"width": 1280, "height": 720})
    tab.block_network()
    page = tab.page
    page.goto(deck.as_uri())
    page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=30_000)
    assert indices(page) == 0
    press(page, "ArrowRight", 1)  # the deck's own keys: focus is in the deck

    frame = page.locator(PLATE).element_handle(timeout=60_000).content_frame()
    view = InFrame(page, frame, PLATE)
    frame.wait_for_function("() => window.AEPage && AEPage.fit_state && AEPage.fit_state.fitted", timeout=120_000)
    wait_ready(view, timeout=60_000)
    assert "embed=1" in frame.url and "present=1" in frame.url
    st = read_state(view)
    assert st["angle"] == 40 and st["length"] == 1.5  # the slide's state
    assert_matches_core(st, core_state(angle=40, length=1.5))
    # The plate fills its slide: most of the window, and readable (not shrunk below its own size).
    box = page.locator(PLATE).bounding_box()
    assert box["width"] >= 0.9 * 1280 and box["height"] >= 0.8 * 720, box
    assert frame.evaluate("() => AEPage.fit_state.k") >= 0.9

    # Inside the plate, the arrow keys still move the deck: forward, then back.
    click_in_plate(page, view)
    press(page, "ArrowRight", 2)
    press(page, "ArrowLeft", 1)
    click_in_plate(page, view)
    press(page, "ArrowLeft", 0)
    press(page, "ArrowRight", 1)

    # An arrow key on the focused angle slider moves the slider, not the deck.
    angle_slider_handle(frame).focus()
    page.keyboard.press("ArrowRight")
    frame.wait_for_function("() => Bokeh.documents[0].get_model_by_name('angle').value !== 40")
    view.wait_for_function(NOT_BUSY)
    time.sleep(0.3)  # a deck that moved would have moved by now
    assert indices(page) == 1
    st = read_state(view)
    assert st["angle"] > 40
    assert_matches_core(st, core_state(angle=st["angle"], length=1.5))

    # A real drag of the query inside the slide's iframe.
    before = st
    st = drag_query_in_frame(view, before)
    assert indices(page) == 1

    assert any(u.endswith("/reveal/reveal.js") for u in tab.requests), tab.requests
    tab.assert_offline()
    tab.assert_no_errors()
