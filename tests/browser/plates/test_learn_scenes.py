"""The learn plate's scenes (app/plates/learn/scenes.py) while the head trains: a present page
trains with a real click on Train, the loss chart moves (its line is drawn further, its steps
axis grows), the numbers are NumPy's replay of as many steps, and the scene still reads in its
room afterwards (tests/browser/test_scenes.py's checks: the readout grows a line when the
scores turn symmetric, the charts' axes follow the run). Then, in the same page, each story's
scene in turn: its story button (which sets the story's settings and trains), then Pause, with
the story's numbers.
"""

from __future__ import annotations

import numpy as np
import pytest

import attention_core as ac
from app.plates import registry
from app.plates.learn.state import LearnState, preset_values
from test_learn_browser import WAIT, assert_numpys, button, read, step_at_least, stopped
from test_scenes import ROOMS, SETTLED, check_scene

pytestmark = [pytest.mark.browser, pytest.mark.on_only]
SCENES = registry.plate_class("learn").scenes
INDEX = {s.name: i for i, s in enumerate(SCENES)}
ROOM = {r[0]: r for r in ROOMS}
# The loss chart's steps axis and how many points its line has.
CHART = r"""() => {
  const d = Bokeh.documents[0], f = d.get_model_by_name("loss_plot");
  return {end: f.x_range.end, points: d.get_model_by_name("train_loss").data.step.length};
}"""


def open_scene(tab, exported, room: tuple, scene: str):
    name, width, height, settings, _, _ = room
    page = tab.page
    page.goto(exported.as_uri() + "?" + settings + "&scene=" + scene)
    page.wait_for_function(SETTLED, arg=INDEX[scene], timeout=WAIT)
    return page


def train_for(page, steps: int) -> dict:
    """A real click on Train, `steps` steps or more, a real click on Pause; the page once stopped."""
    button(page, "train").click()
    step_at_least(page, steps)
    button(page, "train").click()
    st = stopped(page)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return st


@pytest.fixture
def exported(export_plate):
    return export_plate("learn")


# One page per room (a page load costs as much as some ten changes of scene), opened at the loss
# scene from its link: Train moves the loss chart; then each story's scene in the order a
# lecture takes them, where a story's button sets all of its settings and trains from step 0,
# whatever the page held before.
STORIES = [("one-map", "one-map"), ("saturated", "saturated"), ("scale", "dk64-raw"), ("scale", "dk64-scaled")]


@pytest.mark.parametrize("room", ["present-1280", "slide-960"])
def test_train_moves_the_loss_chart_then_each_storys_scene_trains_its_story(new_tab, exported, room):
    tab = new_tab(viewport={"width": ROOM[room][1], "height": ROOM[room][2]})
    page = open_scene(tab, exported, ROOM[room], "loss")
    check_loss_chart_moves(page, room)
    for scene, story in STORIES:
        page.evaluate("(i) => AEScenes.go(i)", INDEX[scene])  # nothing to do when it is on screen
        page.wait_for_function(SETTLED, arg=INDEX[scene], timeout=WAIT)
        check_story(page, room, scene, story)
    tab.assert_no_errors()


def check_loss_chart_moves(page, room: str) -> None:
    before = page.evaluate(CHART)
    chart = page.locator("[data-ae-name=loss_plot]")
    page.evaluate("() => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('loss_plot'))"
                  ".el.setAttribute('data-ae-name', 'loss_plot')")
    drawn = chart.screenshot()
    st = train_for(page, 40)
    n = st["readout"]["step"][0]
    assert n >= 40 and before["points"] == 1
    assert_numpys(st, LearnState(step=n), "trained in a scene")
    after = page.evaluate(CHART)
    assert after["points"] == n + 1 and after["end"] >= n > before["end"], (before, after)
    assert st["train_loss"]["loss"][-1] < st["train_loss"]["loss"][0]  # the loss falls (seed 0, two maps)
    assert chart.screenshot() != drawn  # the chart on screen moved with it
    problems = check_scene(page, "learn", SCENES[INDEX["loss"]], ROOM[room])
    assert not problems, "loss: " + "\n".join(problems)


def check_story(page, room: str, scene: str, story: str) -> None:
    button(page, "story_" + story.replace("-", "_")).click()  # a story's settings from step 0, and it trains
    page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('train').label === 'Pause'", timeout=WAIT)
    step_at_least(page, 10)
    button(page, "train").click()  # Pause
    st = stopped(page)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    n = st["readout"]["step"][0]
    state = LearnState(**{**preset_values(story), "step": n})
    if story == "dk64-raw":
        # Chaotic: the page's doubles part from NumPy's after some 30 steps (test_learn_plate's
        # a_chaotic_run...; served, Python's replay replaces them), and a Pause lands later than that.
        hist = ac.train(state.settings(), n)[1]
        assert st["train_loss"]["step"] == list(range(n + 1))
        page.wait_for_function("(n) => location.search.includes('step=' + n)", arg=n, timeout=WAIT)
        url = read(page)["url"]
        assert all(f"{k}={v}" in url for k, v in state.to_url().items()), (url, state.to_url())  # the story's settings
        np.testing.assert_allclose(st["train_loss"]["loss"][:25], hist.loss[:25], rtol=1e-9, atol=0)
    else:
        assert_numpys(st, state, story)
    if story == "one-map":
        assert "the scores are symmetric" in read(page)["readout_div"]
    problems = check_scene(page, "learn", SCENES[INDEX[scene]], ROOM[room])
    assert not problems, f"{story}: " + "\n".join(problems)
