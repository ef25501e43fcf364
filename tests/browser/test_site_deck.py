"""The static site (export --site) and its slide deck, opened from disk with the network blocked,
and the deck served: a real mouse drag inside a slide's iframe gives attention_core's numbers."""

from __future__ import annotations

import math

import pytest

from app.plates import registry
from helpers import angle_slider_handle, assert_matches_core, changed, core_from_query, drag, query_xy, read_state, to_page_xy, wait_ready

pytestmark = pytest.mark.browser

DOC_READY = ("() => window.Bokeh && Bokeh.documents.length > 0 && document.readyState === 'complete' && "
             "Bokeh.documents[0].roots().every(r => Bokeh.index.find_one(r) != null)")


class InFrame:
    """A plate inside an iframe, seen as the helpers expect a page: evaluate and waits go to the
    frame, the mouse is the top page's, and coordinates are shifted by the iframe's position."""

    def __init__(self, page, frame, iframe_selector: str):
        self.page, self.frame, self.mouse = page, frame, page.mouse
        self.selector = iframe_selector

    def evaluate(self, *a, **k):
        return self.frame.evaluate(*a, **k)

    def wait_for_function(self, *a, **k):
        return self.frame.wait_for_function(*a, **k)

    def to_top(self, xy):
        box = self.page.locator(self.selector).bounding_box()
        return xy[0] + box["x"], xy[1] + box["y"]


NOT_BUSY = "() => !Array.from(Bokeh.documents[0].all_models).some(m => Array.isArray(m.tags) && m.tags.includes('busy'))"


def drag_query_in_frame(view: InFrame, before: dict) -> dict:
    """A real mouse drag of the lookup plate's query inside its frame to (-1, 2.5): it ends
    within two pixels of the pointer, the weights moved from `before`, and every number is
    attention_core's. Returns the plate's state after it."""
    start = view.to_top(to_page_xy(view, "vectors", *query_xy(view)))
    end = view.to_top(to_page_xy(view, "vectors", -1.0, 2.5))
    drag(view, start, end, steps=12)
    view.wait_for_function(NOT_BUSY)
    st = read_state(view)
    x, y = st["query"]["x"][0], st["query"]["y"][0]
    px = view.evaluate("() => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('vectors')).frame.bbox.width")
    assert math.hypot(x + 1.0, y - 2.5) <= max(2 * 11.2 / px, 0.05), (x, y, px)  # within two pixels
    assert changed(st["weights"]["weight"], before["weights"]["weight"])
    assert_matches_core(st, core_from_query(x, y))
    return st


def drag_in_deck(page, selector: str, plate_url_part: str) -> None:
    """Drag the lookup plate's query inside the deck's iframe; check the numbers."""
    frame = page.locator(selector).element_handle(timeout=120_000).content_frame()
    view = InFrame(page, frame, selector)
    # The plate is fitted to the slide first (embed mode resizes it): drag once it has settled.
    frame.wait_for_function("() => window.AEPage && AEPage.fit_state && AEPage.fit_state.fitted", timeout=180_000)
    wait_ready(view, timeout=120_000)
    before = read_state(view)
    assert plate_url_part in frame.url and "embed=1" in frame.url
    st = drag_query_in_frame(view, before)
    # Embed mode: the page chrome is hidden inside the slide.
    assert frame.evaluate("() => Bokeh.documents[0].get_model_by_name('ae-header').visible") is False


COUNT = "(n) => document.querySelector('.count').textContent.startsWith(n + ' /')"


def deck_keys_after_a_drag_in_a_plate(page, selector: str) -> None:
    """Issue 43, 3: after a drag inside a slide's plate the keys go to its frame, and the deck's
    arrow keys still move the deck; an arrow key on a focused plate control moves the control."""
    frame = page.locator(selector).element_handle().content_frame()
    assert page.evaluate("() => document.activeElement && document.activeElement.tagName") == "IFRAME"
    page.evaluate("() => { window.__ae_keys = []; window.addEventListener('message', ev => window.__ae_keys.push(ev.data)); }")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(COUNT, arg=2, timeout=10_000)
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(COUNT, arg=1, timeout=10_000)
    # The angle slider keeps its keys: the angle moves and the frame passes nothing on. The
    # frame's own message after the key arrives after any it would have passed on (one source's
    # messages keep their order), so once it is here the deck has seen all there was.
    angle = frame.evaluate("() => Bokeh.documents[0].get_model_by_name('angle').value")
    angle_slider_handle(frame).focus()
    page.evaluate("() => { window.__ae_keys = []; }")
    page.keyboard.press("ArrowRight")
    frame.wait_for_function("(a) => Bokeh.documents[0].get_model_by_name('angle').value !== a", arg=angle)
    frame.evaluate("() => window.parent.postMessage({type: 'test-marker'}, '*')")
    page.wait_for_function("() => window.__ae_keys.some(d => d && d.type === 'test-marker')")
    assert [d for d in page.evaluate("() => window.__ae_keys") if d.get("type") == "ae-key"] == []
    assert page.evaluate(COUNT, 1)


def test_static_site_and_deck_offline(new_tab, exported_site):
    tab = new_tab(viewport={"width": 1280, "height": 720})
    tab.block_network()
    page = tab.page
    pages = ["index", *registry.slugs()]
    for name in pages:
        page.goto((exported_site / f"{name}.html").as_uri())
        page.wait_for_function(DOC_READY, timeout=60_000)
    page.goto((exported_site / "slides.html").as_uri(), wait_until="commit")  # three slides' plates load at once
    drag_in_deck(page, ".slide.current iframe", "lookup.html")
    assert len([u for u in tab.requests if u.endswith(".html") or ".html?" in u]) >= len(pages) + 2  # all opened
    deck_keys_after_a_drag_in_a_plate(page, ".slide.current iframe")
    tab.assert_offline()
    tab.assert_no_errors()


def test_served_deck(new_tab, served_url):
    tab = new_tab(viewport={"width": 1280, "height": 720})
    tab.page.goto(f"{served_url}/assets/slides.html", wait_until="commit")
    drag_in_deck(tab.page, ".slide.current iframe", "/lookup")
    tab.assert_no_errors()
