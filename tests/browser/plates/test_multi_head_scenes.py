"""The multi-head plate's scenes (app/plates/multi_head/scenes.py) beyond the first state, in the
rooms of tests/browser/test_scenes.py (a 960×540 slide frame resized to 1280×720 while open, a
960×540 frame without present mode, and for the heads' clicks a present page at 1280×720): eight
heads, the widest maps and the paper's counts read as the default state does. A slide shows at
most two heads' maps (eight maps of numbers at a slide's type fit no frame): a real click on "8"
draws heads 1 and 2 "of 8", with attention_core's weights, and resizes nothing; served, Python
places them so from the link on.
"""

from __future__ import annotations

import numpy as np
import pytest

import attention_core as ac
from app.plates import registry
from helpers import wait_synced
from test_scenes import ROOMS, SETTLED, SETTLED_AT, check_scene

pytestmark = [pytest.mark.browser, pytest.mark.on_only]
SCENES = registry.plate_class("multi-head").scenes
INDEX = {s.name: i for i, s in enumerate(SCENES)}
ROOM = {r[0]: r for r in ROOMS}
# The head maps' titles and the weights they draw, with the figure's frame.
HEADS = r"""() => {
  const d = Bokeh.documents[0], s = d.get_model_by_name("head_weights").data, f = d.get_model_by_name("head_maps");
  return {titles: Array.from(d.get_model_by_name("head_titles").data.text), head: Array.from(s.head),
          i: Array.from(s.i), j: Array.from(s.j), value: Array.from(s.value), h: d.get_model_by_name("setting").data.h[0],
          frame: [f.frame_width, f.frame_height], scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight]};
}"""


def weights(h: int, n: int = 5, d_model: int = 8) -> np.ndarray:
    X, Wq, Wk, Wv, Wo = ac.multi_head_recipe(n, min(d_model, 16), 0)
    return ac.multi_head_attention(X, Wq, Wk, Wv, Wo, h)[1]  # (h, n, n)


def assert_two_heads_of(st: dict, h: int, n: int = 5, d_model: int = 8) -> None:
    shown = min(h, 2)
    of = f" of {h}" if h > 2 else ""
    assert st["h"] == h and [t.split(" · ")[0] for t in st["titles"]] == [f"head {k + 1}{of}" for k in range(shown)], st["titles"]
    want = weights(h, n, d_model)
    assert sorted(set(st["head"])) == list(range(shown)) and len(st["value"]) == shown * n * n
    np.testing.assert_allclose(st["value"], want[st["head"], st["i"], st["j"]], rtol=0, atol=1e-9)


def click_heads(page, h: int) -> None:
    page.evaluate("() => { const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('h'));"
                  " v.el.setAttribute('data-ae-name', 'h'); }")
    page.locator("[data-ae-name=h] button", has_text=str(h)).first.click()
    page.wait_for_function("(h) => Bokeh.documents[0].get_model_by_name('setting').data.h[0] === h", arg=h)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


# The rooms a page is opened in, each with the rooms it is then resized into (test_scenes' slide
# frame at 960×540 resized to 1280×720 while open): one load for the rooms of the same link.
PAGES = {"slide": ["slide-960", "slide-1280"], "present": ["present-1280"], "frame": ["frame-960"]}


def resize(page, room: tuple, scene: int) -> None:
    """The open page resized into `room`: the scene on screen fitted again."""
    page.set_viewport_size({"width": room[1], "height": room[2]})
    page.wait_for_function(SETTLED_AT, arg=[scene, room[1], room[2]], timeout=20_000)


@pytest.mark.parametrize("kind", list(PAGES))
def test_a_click_on_eight_heads_draws_two_of_eight_that_read(new_tab, export_plate, kind):
    rooms = [ROOM[r] for r in PAGES[kind]]
    name, width, height, settings, _, _ = rooms[0]
    tab = new_tab(viewport={"width": width, "height": height})
    page = tab.page
    page.goto(export_plate("multi-head").as_uri() + "?" + settings + "&scene=heads")
    page.wait_for_function(SETTLED, arg=INDEX["heads"], timeout=20_000)
    for r, room in enumerate(rooms):
        if r:
            resize(page, room, INDEX["heads"])
        before = page.evaluate(HEADS)
        assert_two_heads_of(before, 2 if r == 0 else 4)
        for h in (8, 1, 4):
            click_heads(page, h)
            st = page.evaluate(HEADS)
            assert_two_heads_of(st, h)
            assert st["frame"] == before["frame"], (room[0], h, st["frame"], before["frame"])  # a click resizes nothing
            problems = check_scene(page, "multi-head", SCENES[INDEX["heads"]], room)
            assert not problems, "\n".join(problems)
    tab.assert_no_errors()


# The states whose scenes are the largest: the widest maps with the most tokens and heads, the
# paper's width (the counter's widest counts), and one head (a map alone in the room of two).
# In the slide frame, at 960×540 and resized to 1280×720 while open, and in the plain 960×540
# frame: a present page at 1280×720 scales a slide's type with the frame, and test_scenes reads
# every scene in it (and the click test above, two heads of eight, one, and four).
STATES = ["d_model=16&h=8&n=8", "d_model=512&h=8&n=2", "h=1&n=3"]


@pytest.mark.parametrize("kind", ["slide", "frame"])
@pytest.mark.parametrize("state", STATES)
def test_every_scene_reads_at_the_largest_states(new_tab, export_plate, kind, state):
    rooms = [ROOM[r] for r in PAGES[kind]]
    name, width, height, settings, _, _ = rooms[0]
    tab = new_tab(viewport={"width": width, "height": height})
    page = tab.page
    page.goto(export_plate("multi-head").as_uri() + "?" + settings + "&" + state)
    problems, order = [], list(range(len(SCENES)))
    for r, room in enumerate(rooms):
        if r:  # the scene on screen is fitted again, then the others
            order = order[::-1]
            resize(page, room, order[0])
        for k, i in enumerate(order):
            if k or r == 0 and i:
                page.evaluate("(i) => AEScenes.go(i)", i)
            page.wait_for_function(SETTLED, arg=i, timeout=20_000)
            problems += check_scene(page, "multi-head", SCENES[i], room)
    tab.assert_no_errors()
    assert not problems, "\n".join(problems)


def test_served_present_page_places_two_heads_of_eight_from_the_link_on(new_tab, served_url):
    """Python reads present=1 in the link (MultiHeadState.apply_url sets `slide`) and builds the
    slide's placement itself, so the fit starts from it; its answer to a click keeps it."""
    tab = new_tab(viewport={"width": 1280, "height": 720})
    page = tab.page
    page.goto(f"{served_url}/multi-head?present=1&h=8&n=8&d_model=16")
    page.wait_for_function(SETTLED, arg=0, timeout=30_000)
    wait_synced(page)
    first = page.evaluate(HEADS)
    assert_two_heads_of(first, 8, n=8, d_model=16)
    from helpers import ws_count

    sent = ws_count(page)
    click_heads(page, 4)
    wait_synced(page, sent)
    st = page.evaluate(HEADS)
    assert_two_heads_of(st, 4, n=8, d_model=16)
    assert st["frame"] == first["frame"]
    problems = check_scene(page, "multi-head", SCENES[0], ROOMS[2])
    assert not problems, "\n".join(problems)
    tab.assert_no_errors()
