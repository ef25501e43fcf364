"""The masking plate's scenes in a real Chromium (issue 55).

tests/browser/test_scenes.py reads every scene in its rooms in the plate's first state. Here:
- the scenes also hold eight tokens, with the weights masked before the softmax and zeroed after
  it (the contrast switch shows the other figure of the pair), in a 960×540 slide frame and a
  1280×720 present page: a scene shows fewer maps, never smaller numbers;
- on a served present page, a real tap on the mask in its scene is computed in the browser and
  then by Python as attention_core does, and the cells keep the scene's type (masking.js set them
  back to the plate's own 7.5-11 pt at every change); the contrast switch in its scene shows the
  zeroed weights at the same size, and they still read when the lecturer steps back a scene;
- the contrast switch flipped (either way) in a scene that hides the weights: the next scenes show
  one figure of each pair, not both side by side.
"""

from __future__ import annotations

import pytest

from app.plates import registry
from helpers import wait_synced, ws_count
from test_masking_browser import assert_matches_core, check_tap_empties_row_one, read
from test_scenes import MODEL_FONTS, PARTS_SHOWN, ROOMS, SETTLED, check_scene

pytestmark = pytest.mark.browser

SLUG = "masking"
SCENES = registry.plate_class(SLUG).scenes
NAMES = [s.name for s in SCENES]
ROOM = {r[0]: r for r in ROOMS}
# With the contrast on, the plate shows the zeroed figure of each pair in place of the masked one.
PAIRS = {"weights_plot": "contrast_weights_plot", "output_plot": "contrast_output_plot"}


def check_zeroed(page, scene, room) -> list[str]:
    """check_scene with the contrast on: the zeroed figure of a pair stands for the masked one."""
    problems = [p for p in check_scene(page, SLUG, scene, room) if "parts not on screen" not in p]
    names = [PAIRS.get(p, p) for p in scene.parts]
    missing = [n for n, on in page.evaluate(PARTS_SHOWN, names).items() if not on]
    return problems + ([f"{SLUG} scene '{scene.name}': not on screen: {missing}"] if missing else [])


def go(page, index: int) -> None:
    page.evaluate("(i) => AEScenes.go(i)", index)
    page.wait_for_function(SETTLED, arg=index, timeout=30_000)


@pytest.mark.on_only
@pytest.mark.parametrize("room", ["slide-960", "present-1280"])
@pytest.mark.parametrize("state", ["n=8&kind=padding&p=3", "n=8&kind=window&contrast=1"])
def test_every_scene_holds_eight_tokens(new_tab, export_plate, room, state):
    name, width, height, settings, _, _ = ROOM[room]
    tab = new_tab(viewport={"width": width, "height": height})
    page = tab.page
    page.goto(export_plate(SLUG).as_uri() + f"?{settings}&{state}")
    page.wait_for_function(SETTLED, arg=0, timeout=30_000)
    assert page.evaluate("() => Bokeh.documents[0].get_model_by_name('mask').data.allowed.length") == 64
    problems = []
    for i, scene in enumerate(SCENES):
        if i:
            go(page, i)
        problems += check_zeroed(page, scene, ROOM[room]) if "contrast=1" in state else \
            check_scene(page, SLUG, scene, ROOM[room])
    tab.assert_no_errors()
    assert not problems, "\n".join(problems)


# With the workarounds off, each scene's fit lays the page out once per model it resizes: a change
# of scene takes 9 to 48 s on this plate, past the waits. The tap and the switch themselves are
# tested [off] in test_masking_browser.py.
@pytest.mark.on_only
def test_served_tap_and_contrast_work_in_their_scenes(new_tab, served_url):
    from app.plates.masking.state import MaskingState

    room = ROOM["present-1280"]
    tab = new_tab(viewport={"width": room[1], "height": room[2]})
    page = tab.page
    tap, zeroed = NAMES.index("tap"), NAMES.index("zeroed")
    page.goto(f"{served_url}/{SLUG}?present=1&scene={NAMES[tap]}")
    page.wait_for_function(SETTLED, arg=tap, timeout=30_000)
    wait_synced(page)
    st0 = read(page)
    assert_matches_core(st0, MaskingState())
    fonts = page.evaluate(MODEL_FONTS)

    sent = ws_count(page)
    live, want = check_tap_empties_row_one(page, st0)  # a real click; the browser's numbers
    page.mouse.move(room[1] - 1, room[2] - 1)  # the cell's hover tooltip goes
    wait_synced(page, sent)
    assert_matches_core(read(page), want)  # and Python's
    assert page.evaluate("() => AEScenes.current().name") == "tap"
    assert page.evaluate(MODEL_FONTS) == fonts  # the cells keep the scene's type
    problems = check_scene(page, SLUG, SCENES[tap], room)

    page.get_by_role("button", name="Next scene").click()
    page.wait_for_function(SETTLED, arg=zeroed, timeout=30_000)
    sent = ws_count(page)
    page.get_by_text("Zero the weights (after softmax)").click()
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('contrast_weights_plot').visible")
    want.contrast = True
    assert_matches_core(read(page), want)
    wait_synced(page, sent)
    assert_matches_core(read(page), want)
    sizes = page.evaluate("""() => ['weights_plot', 'contrast_weights_plot'].map((n) => {
      const m = Bokeh.documents[0].get_model_by_name(n); return [m.width, m.height]; })""")
    assert sizes[0] == sizes[1], sizes  # the zeroed weights take the masked ones' place, at their size
    problems += check_zeroed(page, SCENES[zeroed], room)

    page.get_by_role("button", name="Previous scene").click()  # the state carries back
    page.wait_for_function(SETTLED, arg=tap, timeout=30_000)
    problems += check_zeroed(page, SCENES[tap], room)
    tab.assert_no_errors()
    assert not problems, "\n".join(problems)


def check_one_of_each_pair(page, scene, contrast: bool) -> list[str]:
    """The scene shows the figure of each pair the switch chose, and not its partner beside it."""
    pairs = [(p, PAIRS[p]) for p in scene.parts if p in PAIRS]
    names = [n for pair in pairs for n in pair]
    shown = page.evaluate(PARTS_SHOWN, names)
    want = {n: (n in PAIRS.values()) == contrast for n in names}
    wrong = {n: shown[n] for n in names if shown[n] != want[n]}
    state = "on" if contrast else "off"
    return [f"{SLUG} scene '{scene.name}', contrast {state}: shown {wrong}"] if wrong else []


# The switch flipped while the scene on screen hides the weights changes nothing on screen: the
# scene must still learn which figure of each pair the plate now shows (app/runtime/scenes.js's
# watch), or the next scene shows both figures side by side, their labels on each other and cut
# off. One page, both ways: on in the first scene, then off there again.
@pytest.mark.on_only
def test_contrast_flipped_in_a_scene_without_the_weights_shows_one_of_each_pair(new_tab, export_plate):
    room = ROOM["slide-960"]
    tab = new_tab(viewport={"width": room[1], "height": room[2]})
    page = tab.page
    tap, zeroed = NAMES.index("tap"), NAMES.index("zeroed")
    assert not set(PAIRS) & set(SCENES[0].parts)  # the first scene hides the weights and the outputs
    page.goto(export_plate(SLUG).as_uri() + f"?{room[3]}&scene={NAMES[0]}")
    page.wait_for_function(SETTLED, arg=0, timeout=30_000)
    flip = "(v) => { Bokeh.documents[0].get_model_by_name('contrast').active = v; }"
    problems = []
    page.evaluate(flip, 1)
    for i in (tap, zeroed):
        go(page, i)
        problems += check_one_of_each_pair(page, SCENES[i], True) + check_zeroed(page, SCENES[i], room)
    go(page, 0)
    page.evaluate(flip, 0)
    go(page, zeroed)
    problems += check_one_of_each_pair(page, SCENES[zeroed], False) + check_scene(page, SLUG, SCENES[zeroed], room)
    tab.assert_no_errors()
    assert not problems, "\n".join(problems)
