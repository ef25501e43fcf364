"""The lookup plate's key and query labels stay off the arrows (issue 55, 3).

Each label ("k4 · 40", "q") is read where the page draws it (its <text> in Bokeh's SVG drawing of
the figure, tests/browser/text_boxes.js) and each arrow from where its data puts it on the page:
no label lies across its own arrow's shaft, and none covers an arrowhead (a disc around each tip
as large as the head). A label may cross another arrow that runs through its place (the query
turned onto a key's line): that is the student's doing, and moves on with the drag. Checked on the plate's page and in a present scene, at several turns of the
query (the labels follow their arrows' directions as the query turns or a key is dragged).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from helpers import to_page_xys

pytestmark = pytest.mark.browser

TEXT_BOXES = (Path(__file__).parent.parent / "text_boxes.js").read_text(encoding="utf-8")
READY = ("() => window.AEScenes && Bokeh.documents.length && Bokeh.documents[0].is_idle !== false && "
         "(!AEScenes.current() || (AEPage.fit_state && AEPage.fit_state.settled))")
HEAD_PX = 9  # an arrowhead's reach around its tip, in CSS pixels (VeeHead size 10-12 at k = 1)


def crosses(box, a, b) -> bool:
    """Whether the segment a-b passes through the box (shrunk by a pixel: touching is fine)."""
    left, top, right, bottom = box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1
    for i in range(101):  # the shaft, sampled every 1 % of its length
        x, y = a[0] + (b[0] - a[0]) * i / 100, a[1] + (b[1] - a[1]) * i / 100
        if left < x < right and top < y < bottom:
            return True
    return False


def covers(box, point, r) -> bool:
    """Whether the box comes within r pixels of the point."""
    dx = max(box[0] - point[0], 0, point[0] - box[2])
    dy = max(box[1] - point[1], 0, point[1] - box[3])
    return math.hypot(dx, dy) < r


def labels_off_arrows(page) -> list[str]:
    st = page.evaluate("""() => { const d = Bokeh.documents[0];
      const k = d.get_model_by_name("keys").data, q = d.get_model_by_name("query").data;
      return {keys: Array.from(k.x, (x, i) => [x, k.y[i]]), names: Array.from(k.name), query: [q.x[0], q.y[0]]}; }""")
    tips = to_page_xys(page, "vectors", [st["query"], *st["keys"], (0.0, 0.0)])
    origin, tips = tips[-1], tips[:-1]
    scale = page.evaluate("() => { const m = Bokeh.documents[0].get_model_by_name('vectors'); "
                          "const v = m.renderers.find(r => r.glyph && r.glyph.type === 'Scatter').glyph; "
                          "return (typeof v.size === 'object' ? v.size.value : v.size) / 16; }")
    texts = [t for t in page.evaluate(TEXT_BOXES)["texts"] if t["kind"] == "figure" and t["where"] == "vectors"]
    labels = [t for t in texts if t["text"] in ("q", *st["names"])]
    assert len(labels) == 1 + len(st["names"]), [t["text"] for t in texts]
    own = dict(zip(["q", *st["names"]], tips))
    bad = []
    for t in labels:
        if crosses(t["box"], origin, own[t["text"]]):
            bad.append(f"'{t['text']}' across its own arrow")
        for tip in tips:
            if covers(t["box"], tip, HEAD_PX * max(scale, 1)):
                bad.append(f"'{t['text']}' on the arrowhead at {tuple(round(c) for c in tip)}")
    return bad


@pytest.mark.parametrize("settings", ["", "present=1", "angle=90", "angle=200&length=3", "angle=300&length=4.5"])
def test_labels_lie_beyond_their_arrows(new_tab, exports, settings):
    tab = new_tab(viewport={"width": 1280, "height": 720})
    tab.page.goto((exports("on") / "lookup.html").as_uri() + ("?" + settings if settings else ""))
    tab.page.wait_for_function(READY, timeout=30_000)
    bad = labels_off_arrows(tab.page)
    assert not bad, f"lookup ({settings or 'its page'}): {bad}"
    tab.assert_no_errors()


# How far (CSS pixels) a label may lie from its own arrow's tip: its gap out from the tip plus the
# text's own size at k = 1. One left where the arrow was lies much further off.
NEAR_TIP_PX = 40
FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"


def far_from_own_tip(page) -> list[str]:
    st = page.evaluate("""() => { const d = Bokeh.documents[0];
      const k = d.get_model_by_name("keys").data, q = d.get_model_by_name("query").data;
      return {keys: Array.from(k.x, (x, i) => [x, k.y[i]]), names: Array.from(k.name), query: [q.x[0], q.y[0]]}; }""")
    own = dict(zip(["q", *st["names"]], to_page_xys(page, "vectors", [st["query"], *st["keys"]])))
    texts = [t for t in page.evaluate(TEXT_BOXES)["texts"] if t["kind"] == "figure" and t["where"] == "vectors"]
    return [f"'{t['text']}' {tuple(round(c) for c in t['box'])} far from its tip {tuple(round(c) for c in own[t['text']])}"
            for t in texts if t["text"] in own and not covers(t["box"], own[t["text"]], NEAR_TIP_PX)]


def test_labels_follow_their_arrows_while_the_hand_drags(new_tab, exports):
    """The query dragged, then a key, with the mouse held: a frame after each move every label
    lies at its own arrow's tip and off the arrows, not where the drag began (the labels' places
    are worked out from the dragged source's columns, which the drag rewrites in place)."""
    tab = new_tab(viewport={"width": 1280, "height": 720})
    page = tab.page
    page.goto((exports("on") / "lookup.html").as_uri())
    page.wait_for_function(READY, timeout=30_000)
    # Each drag's stops, in the figure's data units: clear of the other arrows and their labels.
    for target, stops in (("query", [(1.0, 3.2), (-0.6, 3.9), (-3.0, 3.2)]), ("k2", [(2.6, 3.4), (3.6, 2.4)])):
        st = page.evaluate("""() => { const d = Bokeh.documents[0], k = d.get_model_by_name("keys").data,
          q = d.get_model_by_name("query").data; return {query: [q.x[0], q.y[0]], k2: [k.x[1], k.y[1]]}; }""")
        x, y = to_page_xys(page, "vectors", [st[target]])[0]
        page.mouse.move(x, y)
        page.mouse.down()
        for stop in stops:
            page.mouse.move(*to_page_xys(page, "vectors", [stop])[0], steps=4)
            page.evaluate(FRAMES)
            assert not far_from_own_tip(page), (target, stop, far_from_own_tip(page))
            assert not labels_off_arrows(page), (target, stop)
        page.mouse.up()
    tab.assert_no_errors()
