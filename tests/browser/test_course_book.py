"""examples/course-book: the two-page Jupyter Book built by its build.py with the real
`jupyter-book`, opened from disk with the network blocked. The pages embed the exported site's
plates by relative <iframe> addresses at a given state: a real mouse drag in the lookup plate
and a real click on the masking plate's mask give attention_core's numbers."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time

import pytest

from helpers import REPO, assert_matches_core, core_state, read_state, wait_ready
from test_site_deck import NOT_BUSY, InFrame, drag_query_in_frame

pytestmark = pytest.mark.browser

BUILD = REPO / "examples" / "course-book" / "build.py"
PLATE = "iframe.plate"
FITTED = "() => window.AEPage && AEPage.fit_state && AEPage.fit_state.fitted"


def masking_checks():
    """The masking plate's test module (tests/browser/plates/test_masking_browser.py), for its READ,
    CELL and assert_matches_core: the same reading of the page and the same comparison."""
    path = REPO / "tests" / "browser" / "plates" / "test_masking_browser.py"
    spec = importlib.util.spec_from_file_location("course_book_masking_checks", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def book(exported_site, tmp_path_factory):
    """OUTDIR/_build/html of `build.py OUTDIR --site <the session's export --site>`, built once
    (the first build on a machine also installs Jupyter Book into examples/course-book/.venv)."""
    out = tmp_path_factory.mktemp("course-book")
    t0 = time.monotonic()
    res = subprocess.run([sys.executable, str(BUILD), str(out), "--site", str(exported_site)], cwd=REPO,
                         capture_output=True, text=True, timeout=900)
    if res.returncode != 0:
        pytest.fail(f"build.py failed ({res.returncode}):\n{res.stdout[-4000:]}\n{res.stderr[-4000:]}")
    print(f"course book built in {time.monotonic() - t0:.1f} s")
    html = out / "_build" / "html"
    assert (html / "lookup.html").is_file() and (html / "masking.html").is_file()
    assert (html / "explorable" / "lookup.html").is_file()
    return html


def plate_frame(page, slug: str):
    frame = page.locator(PLATE).element_handle(timeout=60_000).content_frame()
    frame.wait_for_function(FITTED, timeout=120_000)
    assert f"/_build/html/explorable/{slug}.html?embed=1" in frame.url, frame.url  # the relative address
    return frame


def test_course_book_offline(new_tab, book):
    tab = new_tab(viewport={"width": 1280, "height": 900})
    tab.block_network()
    page = tab.page
    page.goto((book / "index.html").as_uri())  # the book's front door sends the reader to page one
    page.wait_for_url("**/lookup.html", timeout=30_000)

    # Page one: the lookup plate at angle 40, length 1.5; drag its query with the mouse.
    frame = plate_frame(page, "lookup")
    view = InFrame(page, frame, PLATE)
    wait_ready(view, timeout=60_000)
    before = read_state(view)
    assert_matches_core(before, core_state(angle=40, length=1.5))
    assert frame.evaluate("() => AEPage.fit_state.k") >= 0.8  # readable in the page's column
    st = drag_query_in_frame(view, before)
    # The drag left the keyboard in the plate: Page Down still scrolls the book (the plate passes
    # navigation keys on to its parent page and keeps their default action).
    assert page.evaluate("() => document.activeElement.matches('iframe.plate')")
    top = page.evaluate("() => document.scrollingElement.scrollTop")
    page.keyboard.press("PageDown")
    page.wait_for_function("(y) => document.scrollingElement.scrollTop > y + 100", arg=top, timeout=5_000)

    # Page two, through the book's own navigation: the masking plate with the padding mask (p=2);
    # a real click on cell (q1, k1) blocks it.
    from app.plates.masking.state import MaskingState

    m = masking_checks()
    page.get_by_role("link", name="Masking").first.click()
    page.wait_for_url("**/masking.html", timeout=30_000)
    frame = plate_frame(page, "masking")
    frame.wait_for_function(m.READY, timeout=60_000)
    want = MaskingState(kind="padding", p=2)
    got = frame.evaluate(m.READ, list(m.SOURCES))
    m.assert_matches_core(got, want)
    view = InFrame(page, frame, PLATE)
    page.mouse.click(*view.to_top(frame.evaluate(m.CELL, ["mask_plot", "k1", "q1"])))
    frame.wait_for_function("() => Bokeh.documents[0].get_model_by_name('kind').active === 4")  # custom
    frame.wait_for_function(NOT_BUSY)
    want.flip(0, 0)
    got = frame.evaluate(m.READ, list(m.SOURCES))
    assert got["weights"]["value"][0] == 0.0 and got["weights"]["value"][1] > 0  # q1 left k1 for k2, k3
    m.assert_matches_core(got, want)

    tab.assert_offline()
    tab.assert_no_errors()
