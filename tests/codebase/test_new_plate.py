'''A new plate is what docs/adding-a-plate.md says: a throwaway plate made from that page's table
alone passes the checks every plate passes.

The test copies the checkout's product and tests (app/, tests/ without node_modules and the
references, docs/, pyproject.toml) into a temporary folder and writes, for each row of the doc's
table and nothing else, the file that row names for a plate "two-scores" (package two_scores:
two scores and their softmax weights, a slider for their gap). The registry's row adds its line
to the copy's app/plates/registry.py; the pictures' rows run the command the doc gives. Then the
shared, registry-driven tests run in the copy, on that plate: the build and Bokeh's checks, the
hostile links, the state properties, the SCORM declarations, the plate's files, and the plate's
own tests. A row missing from the doc is a file missing from the plate, and a check fails; a row
this test cannot make fails here, naming it.
'''

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from test_plate_files import REPO, rows

SLUG, PACKAGE = "two-scores", "two_scores"
LINE = f'    ("{SLUG}", "app.plates.{PACKAGE}:TwoScoresPlate"),\n'

PLATE_FILES = {
    "app/plates/<package>/__init__.py": '''"""The two-scores plate ("Two scores, one softmax"), made by tests/codebase/test_new_plate.py.

What it teaches: a softmax turns two scores into two weights that add up to 1, and only their
gap matters. Open it: `attention-explorable serve`, then /two-scores, or `export OUTDIR`.

Named models: source "weights" (item, score, weight); plot "bars"; widget "gap"; div "readout".
"""

from app.plates.two_scores.state import TwoScoresState
from app.plates.two_scores.view import TwoScoresPlate

__all__ = ["TwoScoresPlate", "TwoScoresState"]
''',
    "app/plates/<package>/state.py": '''"""The two-scores plate's state: the gap between the two scores."""

from __future__ import annotations

import numpy as np
import param

import attention_core as ac
from app.shared.state import PlateState

GAP_BOUNDS = (-8.0, 8.0)


class TwoScoresState(PlateState):
    """The first score minus the second; it round-trips through the URL."""

    gap = param.Number(2.0, bounds=GAP_BOUNDS, doc="The first item's score minus the second's.")

    url_fields = ("gap",)

    def scores(self) -> np.ndarray:
        return np.array([self.gap, 0.0])  # (2,)

    def weights(self) -> np.ndarray:
        return ac.softmax(self.scores())  # (2,)
''',
    "app/plates/<package>/data.py": '''"""What the two-scores plate shows, from its state."""

from __future__ import annotations


def readout_html(w0: float, w1: float) -> str:
    return f"<p>weights {w0:.4f} and {w1:.4f}</p>"


def sources(s) -> dict[str, dict]:
    return {"weights": {"item": ["a", "b"], "score": [float(v) for v in s.scores()],
                        "weight": [float(v) for v in s.weights()]}}


def texts(s) -> dict[str, str]:
    return {"readout": readout_html(*(float(v) for v in s.weights()))}
''',
    "app/plates/<package>/view.py": '''"""The two-scores plate's view: a slider for the gap, the two weights as bars."""

from __future__ import annotations

import math

import panel as pn
from bokeh.layouts import column as bk_column
from bokeh.models import ColumnDataSource, Div, FactorRange, Range1d, Slider
from bokeh.plotting import figure

from app.plates.two_scores.data import sources, texts
from app.plates.two_scores.state import GAP_BOUNDS, TwoScoresState
from app.shared import a11y
from app.plates.two_scores.scenes import SCENES
from app.shared.scenes import with_titles
from app.shared.text import plate_text
from app.shared.theme import style_figure
from app.shared.viewer import PlateViewer, push, set_if_changed

TEXT = plate_text(__package__)


class TwoScoresPlate(PlateViewer):
    state_class = TwoScoresState
    glue, live = "two_scores.js", "TwoScoresLive"
    slug = "two-scores"
    title, summary, lead, explanation = (TEXT.title, TEXT.summary, TEXT.lead, TEXT.explanation)
    scenes = with_titles(SCENES, TEXT.scenes, __package__)

    def _build(self) -> None:
        s = self.state
        self.weights_src = ColumnDataSource(sources(s)["weights"], name="weights")
        self.gap_w = Slider(name="gap", title="Score gap", start=GAP_BOUNDS[0], end=GAP_BOUNDS[1], step=0.5,
                            value=s.gap, width=300)
        self.readout = Div(name="readout", text=texts(s)["readout"], width=300)
        self.plot = figure(name="bars", width=300, height=220, x_range=FactorRange("a", "b"), y_range=Range1d(0, 1.05),
                           tools="", toolbar_location=None, title="The two weights")
        style_figure(self.plot)
        self.plot.vbar(x="item", top="weight", width=0.6, source=self.weights_src)
        models = {"gap": self.gap_w, "weights": self.weights_src, "readout": self.readout}
        toggle, view = a11y.add_to(models, [(self.plot, "Two bars, the softmax weights of the two items.", True)],
                                   [a11y.columns("Weights", self.weights_src, [("item", "item", None),
                                                                               ("weight", "weight", 4)])])
        self.js_models = models
        self.gap_w.js_on_change("value", self.js("TwoScoresLive.on_widget(a);"))
        toggle.js_on_change("active", self.js("AEA11y.on_table_toggle(a);"))
        self._layout = pn.Column(pn.pane.Bokeh(self.gap_w), pn.pane.Bokeh(self.plot), pn.pane.Bokeh(self.readout),
                                 pn.pane.Bokeh(bk_column(toggle, view)))

    def synced(self) -> list[tuple]:
        return [(self.gap_w, "value")]

    def read_page(self, changed: set) -> dict:
        gap = float(self.gap_w.value)
        if not math.isfinite(gap):
            raise ValueError("the gap must be a finite number")
        return {"gap": min(max(gap, GAP_BOUNDS[0]), GAP_BOUNDS[1])}

    def _render(self, force: bool = False) -> None:
        s = self.state
        push(self.weights_src, sources(s)["weights"], force)
        for name, text in texts(s).items():
            set_if_changed(getattr(self, name), "text", text)
        set_if_changed(self.gap_w, "value", s.gap, tol=1e-9)

    def __panel__(self):
        return self._layout
''',
    "app/plates/<package>/<package>.js": '''// two_scores.js: the two-scores plate's live path: the gap slider's change recomputes both
// weights with AttentionMirror, then the slider goes to Python once it is still.
var TwoScoresLive = (typeof globalThis !== "undefined" && globalThis.TwoScoresLive) || (function () {
  "use strict";
  function recompute(a) {
    var gap = Number(a.gap.value), w = AttentionMirror.softmax([gap, 0]), d = a.weights.data;
    a.weights.__ae_gap = gap;
    d.score[0] = gap; d.weight[0] = w[0]; d.weight[1] = w[1];
    a.weights.change.emit();
    AESync.text(a.readout, "<p>weights " + w[0].toFixed(4) + " and " + w[1].toFixed(4) + "</p>");
    if (a.link && typeof AELink !== "undefined") AELink.follow_plate(a, api);
  }
  function on_widget(a) {
    if (a.weights.__ae_gap === Number(a.gap.value)) return;  // shown already: a commit's echo
    recompute(a);
    AESync.until_still(a, function () { return [[a.gap, { value: a.gap.value }]]; });
  }
  function url_values(a) { return { gap: Number(a.gap.value) }; }
  function url_apply(a, v) {
    if (v.gap !== undefined) a.gap.value = v.gap;
    recompute(a);
  }
  function on_ready(a) {
    if (typeof document === "undefined") return;
    AEA11y.init(a, function () { return AEA11y.text_of(a.readout.text); });
  }
  var api = { recompute: recompute, on_widget: on_widget, url_values: url_values, url_apply: url_apply,
              on_ready: on_ready };
  if (typeof globalThis !== "undefined") globalThis.TwoScoresLive = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = TwoScoresLive;
''',
    "app/plates/<package>/text.md": '''# Two scores, one softmax

## Summary
Two scores become two weights that add up to 1; only their gap matters.

## Lead

## Explanation
Move the gap between the two scores: the softmax turns them into two positive weights that add
up to 1, and the wider the gap, the more the first one takes.

## Scenes
- weights: Two weights that add up to 1
- gap: Only the gap matters
''',
    "app/plates/<package>/scenes.py": '''"""The two-scores plate's scenes for a lecture (app/shared/scenes.py); their titles are in text.md."""

from app.shared.scenes import Scene

SCENES = (
    Scene("weights", parts=("bars", "gap"), main=("bars",), sizes={"bars": (0.8, 0.7), "gap": (0.8, None)}),
    Scene("gap", parts=("readout", "gap"), main=("readout",), sizes={"readout": (1, None), "gap": (0.8, None)}),
)
''',
    "app/plates/<package>/contract.py": '''"""What the two-scores plate declares to the checks every plate passes (docs/adding-a-plate.md)."""

from __future__ import annotations

import math

from app.plates.registry import Click

SCORM_DONE = "moved the gap slider"
SCORM_GESTURE = Click("gap", ".noUi-handle")


def state_checks(s) -> dict[str, bool]:
    from app.plates.two_scores.state import GAP_BOUNDS

    w = s.weights()  # (2,)
    return {"gap finite, within its bounds": math.isfinite(s.gap) and GAP_BOUNDS[0] <= s.gap <= GAP_BOUNDS[1],
            "weights summing to 1": abs(float(w.sum()) - 1.0) < 1e-12}


def browser_case(f, p) -> None:
    f.set(p.gap_w, "value", f.widget_number(-10, 10))
''',
    "tests/app/plates/test_<package>_*.py": '''"""The two-scores plate: its weights are attention_core's, a link out of range is clamped with
a notice, and what the page sends becomes the state."""

import numpy as np

import attention_core as ac
from app.plates.two_scores import TwoScoresPlate, TwoScoresState


def test_the_weights_are_attention_cores():
    plate = TwoScoresPlate(gap=3.0)
    np.testing.assert_allclose(plate.weights_src.data["weight"], ac.softmax(np.array([3.0, 0.0])), rtol=0, atol=1e-12)


def test_a_link_out_of_range_is_clamped_with_a_notice():
    state = TwoScoresState()
    assert state.apply_url({"gap": "99"}) and state.gap == 8.0


def test_what_the_page_sends_becomes_the_state():
    plate = TwoScoresPlate()
    plate.gap_w.value = -1.5
    assert plate.state.gap == -1.5 and plate.weights_src.data["weight"][1] > 0.8
''',
    "tests/browser/plates/test_<package>_*.py": '''"""The two-scores plate exported, in Chromium: a key on its slider moves both weights, which
are attention_core's."""

import numpy as np
import pytest

import attention_core as ac
from app.delivery.export import export_plate

pytestmark = pytest.mark.browser
WEIGHTS = "() => Array.from(Bokeh.documents[0].get_model_by_name('weights').data.weight)"


def test_a_key_on_the_slider_moves_the_weights(new_tab, tmp_path):
    tab = new_tab()
    tab.block_network()
    tab.page.goto(export_plate("two-scores", tmp_path).as_uri())
    tab.page.wait_for_function("() => window.Bokeh && Bokeh.documents.length && Bokeh.documents[0].is_idle")
    handle = tab.page.locator(".noUi-handle").first
    handle.focus()
    handle.press("ArrowRight")
    tab.page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('gap').value === 2.5")
    np.testing.assert_allclose(tab.page.evaluate(WEIGHTS), ac.softmax(np.array([2.5, 0.0])), rtol=0, atol=1e-12)
    tab.assert_no_errors()
''',
}


def copy_of_the_checkout(root: Path) -> None:
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "node_modules", "references", ".pytest_cache")
    for name in ("app", "tests", "docs"):
        shutil.copytree(REPO / name, root / name, ignore=skip)
    shutil.copy(REPO / "pyproject.toml", root)
    (root / "assets" / "screenshots").mkdir(parents=True)
    (root / "tests" / "browser" / "references").mkdir()


def env_for(root: Path) -> dict:
    """The copy's app first on the path (the checkout's is installed editable, after it), and
    nothing of this run's pytest (an xdist worker's variables)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    return {**env, "PYTHONPATH": str(root), "AE_STATE_CASES": "400", "AE_STATE_BROWSER_CASES": "200",
            "PYTHONDONTWRITEBYTECODE": "1"}


def add_registry_line(root: Path) -> None:
    registry = root / "app" / "plates" / "registry.py"
    text = registry.read_text(encoding="utf-8")
    end = re.search(r"^PLATES: .*?^\]", text, re.S | re.M)
    assert end, "app/plates/registry.py has no PLATES list to add a line to"
    registry.write_text(text[:end.end() - 1] + LINE + text[end.end() - 1:], encoding="utf-8")


def build(root: Path) -> list[str]:
    """Write the plate into the copy at `root`, row by row of the doc's table; the picture rows
    are returned (a command makes them)."""
    pictures = []
    for row in rows():
        if row == "app/plates/registry.py":
            add_registry_line(root)
        elif row.endswith(".png"):
            pictures.append(row)
        elif row in PLATE_FILES:
            path = root / row.replace("<package>", PACKAGE).replace("*", "plate")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(PLATE_FILES[row], encoding="utf-8")
        else:
            pytest.fail(f"docs/adding-a-plate.md lists {row}, which this test cannot make: teach it (PLATE_FILES)")
    unused = sorted(set(PLATE_FILES) - set(rows()))
    assert not unused, f"docs/adding-a-plate.md no longer lists {unused}: drop them here, or list them there"
    return pictures


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    root = tmp_path_factory.mktemp("checkout")
    copy_of_the_checkout(root)
    return root, build(root)


def run_pytest(root: Path, *args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                          cwd=root, env=env_for(root), capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-6000:]
    return out


def test_a_plate_made_from_the_doc_passes_the_checks_every_plate_passes(checkout):
    root, _ = checkout
    out = run_pytest(root, "-k", f"({SLUG} or {PACKAGE} or registry_is_consistent or cover_every_kind) and not pictures",
                     "tests/app/test_plates_build.py", "tests/app/test_hostile_links.py",
                     "tests/app/test_state_properties.py", "tests/app/test_scorm_package.py", "tests/app/test_plate_scenes.py",
                     "tests/codebase/test_plate_files.py", f"tests/app/plates/test_{PACKAGE}_plate.py")
    # 6 builds and document checks and the registry's, 2 of links, 2 state runs, 1 SCORM
    # declaration, 1 of scenes, 1 of files, 3 of the plate's own
    passed = int(re.search(r"(\d+) passed", out).group(1))
    assert passed >= 17 and " skipped" not in out, out[-3000:]


@pytest.mark.browser
def test_the_docs_command_makes_its_pictures_and_its_page_works_in_a_browser(checkout, chromium_path):
    """The pictures' rows: the command the doc gives makes them (the visual references and the
    thumbnail, the first screenful of the wide one). Meanwhile, the plate's own browser test."""
    from PIL import Image

    root, pictures = checkout
    shots = subprocess.Popen([sys.executable, "tests/browser/visual.py", "--plate", SLUG], cwd=root, env=env_for(root),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        out = run_pytest(root, f"tests/browser/plates/test_{PACKAGE}_plate.py")
    finally:
        printed, _ = shots.communicate(timeout=600)
    assert re.search(r"\b1 passed\b", out) and " skipped" not in out, out[-3000:]
    assert shots.returncode == 0, printed[-4000:]
    made = [row.replace("<slug>", SLUG) for row in pictures]
    assert len(made) == 3 and all((root / m).is_file() for m in made), (made, printed[-2000:])
    thumbnail = Image.open(root / "assets" / "screenshots" / f"{SLUG}.png")
    assert thumbnail.size == (1280, 720), thumbnail.size
