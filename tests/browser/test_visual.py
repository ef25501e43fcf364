"""The look: fresh screenshots of every plate at 1280×720 and 390×844 against the
committed references in tests/browser/references/ (made by `make screenshots`; see visual.py).

A page passes when at most MAX_DIFFERING of its pixels differ after a small blur. The threshold
is checked here too: a rerun passes, while hiding a figure or shifting the page by 40 px fails.
Renew the references with `make screenshots` after a deliberate change of look, look at them,
and commit them.
"""

from __future__ import annotations

import pytest

from app.plates import registry
from visual import FRAMES, MAX_DIFFERING, REFERENCES, SIZES, difference, shoot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", list(SIZES))
def test_plates_look_like_their_references(browser, export_plate, tmp_path, size):
    ctx = browser.new_context(device_scale_factor=1, **SIZES[size])
    try:
        page = ctx.new_page()
        off = {}
        for slug in registry.slugs():
            ref = REFERENCES / f"{slug}-{size}.png"
            assert ref.is_file(), (f"no reference {ref.name}: make it with `make screenshots SHOTS_ARGS='--plate {slug}'` "
                                   f"(tests/browser/visual.py), look at it and commit it")
            # One shot is enough to pass: the second shot that shoot() takes to be sure the page
            # has stopped changing (a reference must be) is taken only when the first one differs.
            fresh = shoot(page, export_plate(slug).as_uri(), tries=0)
            d = difference(fresh, ref.read_bytes())
            if d > MAX_DIFFERING:
                fresh = shoot(page, export_plate(slug).as_uri())
                d = difference(fresh, ref.read_bytes())
            if d > MAX_DIFFERING:
                (tmp_path / ref.name).write_bytes(fresh)
                off[slug] = d
    finally:
        ctx.close()
    assert not off, (f"differ from their references (fraction of pixels, allowed {MAX_DIFFERING}): {off}; "
                     f"fresh screenshots in {tmp_path}; if the change is meant, run `make screenshots`")


def test_threshold_catches_a_broken_layout(browser, export_plate):
    """The tolerance is calibrated: a rerun passes; a hidden figure or a 40 px shift does not.
    One load: the figure is hidden, then shown again and the page shifted."""
    ctx = browser.new_context(device_scale_factor=1, **SIZES["1280x720"])
    try:
        page = ctx.new_page()
        ref = (REFERENCES / "lookup-1280x720.png").read_bytes()
        rerun = difference(shoot(page, export_plate("lookup").as_uri()), ref)
        assert rerun <= MAX_DIFFERING / 5, rerun  # well inside the tolerance

        page.evaluate("() => Bokeh.documents[0].get_model_by_name('bars').setv({visible: false}, {sync: false})")
        hidden = difference(redrawn(page), ref)
        assert hidden > 2 * MAX_DIFFERING, hidden

        page.evaluate("() => Bokeh.documents[0].get_model_by_name('bars').setv({visible: true}, {sync: false})")
        assert difference(redrawn(page), ref) <= MAX_DIFFERING / 5  # shown again, as it was
        page.add_style_tag(content="body { margin-top: 40px !important; }")
        shifted = difference(redrawn(page), ref)
        assert shifted > 2 * MAX_DIFFERING, shifted
        print(f"difference from the reference: rerun {rerun:.5f}, hidden figure {hidden:.4f}, 40 px shift {shifted:.4f}")
    finally:
        ctx.close()


def redrawn(page) -> bytes:
    """A screenshot once Bokeh is idle and the page has painted the frames after the change."""
    page.wait_for_function("() => Bokeh.documents[0].is_idle")
    page.evaluate(FRAMES)
    return page.screenshot(full_page=True, animations="disabled", caret="hide")
