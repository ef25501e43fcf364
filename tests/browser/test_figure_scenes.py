"""`attention-explorable figure PLATE scene=NAME`: a scene drawn for a slide (issue 55, 2).

The picture is a still (no controls, no words asking a hand to act: "Drag the query…"), in present
mode's type, and its SVG holds everything its PNG shows: every word and number the page shows at
those settings (read from the page by tests/browser/text_boxes.js) is a <text> of the SVG, the
readout's output is attention_core's, and no text in it is under the slide's smallest size. A
size the command cannot draw at is refused with a message, never a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlencode

import pytest

from app.cli import main
from app.plates.lookup.state import LookupState
from app.shared import scenes as rules
from app.shared.formatting import fix
from test_figure_command import png_size, run_figure, svg_texts

pytestmark = pytest.mark.browser

TEXT_BOXES = (Path(__file__).parent / "text_boxes.js").read_text(encoding="utf-8")
HINTS = re.compile(r"\b(drag|tap|click|hover|press)\b", re.I)


def words(texts) -> set[str]:
    return {w for t in texts for w in t.split()}


def test_a_scene_for_a_slide_png_and_svg_hold_the_same(new_tab, exports, tmp_path):
    png, svg = tmp_path / "s.png", tmp_path / "s.svg"
    settings = ["angle=90", "scene=output"]
    run_figure("lookup", *settings, "--out", str(png))
    run_figure("lookup", *settings, "--out", str(svg))
    assert png_size(png.read_bytes()) == (1280, 720)
    drawn = svg_texts(svg.read_text(encoding="utf-8"))

    # The page the PNG shows: the same settings as the command's (still, present, embedded).
    tab = new_tab(viewport={"width": 1280, "height": 720})
    query = urlencode({"angle": "90", "scene": "output", "embed": "1", "still": "1", "present": "1"})
    tab.page.goto((exports("on") / "lookup.html").as_uri() + "?" + query)
    tab.page.wait_for_function("() => window.AEScenes && AEScenes.current() && AEPage.fit_state && AEPage.fit_state.settled")
    shown = [t["text"] for t in tab.page.evaluate(TEXT_BOXES)["texts"]]
    assert shown, "the page shows no text"
    missing = words(shown) - words(drawn)
    assert not missing, f"the SVG lacks what the picture shows: {sorted(missing)[:20]}"

    output = LookupState(angle=90.0).steps().output
    assert f"output = {fix(float(output), 2)}" in " ".join(drawn), drawn
    asking = [t for t in shown + drawn if HINTS.search(t)]
    assert not asking, f"a still picture asks a hand to act: {asking}"
    sizes = [float(m) for m in re.findall(r'font-size[:=]\s*"?([\d.]+)px', svg.read_text(encoding="utf-8"))]
    assert sizes and min(sizes) >= rules.MIN_PX * 720 / 540 - 0.5, sorted(sizes)[:5]
    tab.assert_no_errors()


@pytest.mark.parametrize("flag, value", [("--width", "0"), ("--height", "-40"), ("--width", "100000")])
def test_a_size_the_command_cannot_draw_is_refused_with_a_message(capsys, tmp_path, flag, value):
    out = tmp_path / "x.png"
    code = main(["figure", "lookup", "--out", str(out), flag, value])
    err = capsys.readouterr().err
    assert code == 2 and flag in err and "Traceback" not in err, err
    assert not out.exists()
