"""BokehJS state that its public API does not offer is read in one module only.

app/runtime/bokeh_view.js (AEBokehView) reads a view's internals (a canvas's event element, a
frame's scales and box, glyph views' mapped coordinates, text boxes) for the runtime and the
plates' glue, for the BokehJS versions it names; app/workarounds/ changes BokehJS's internals
under its own registry. No other product file reads them: every JavaScript file under app/, and
the JavaScript that Python files under app/ hold in strings (app/delivery/figure.py's), is
searched for the names below.

Outside its range the module reads nothing, gives its fallbacks and says so once in the console:
checked in node with a stand-in BokehJS.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app"
MODULE = APP / "runtime" / "bokeh_view.js"

# BokehJS state that is not public API, with what it is. A protected or underscored member in
# BokehJS's own type declarations, a view's unexported fields, or its internal module system.
PRIVATE = {
    r"\b_update_stylesheets\b": "DOMComponentView._update_stylesheets (protected)",
    r"\._rect\b": "TextAnnotationView._rect (protected)",
    r"\bcore/graphics\b|\bTextBox\b": "core/graphics' TextBox (an internal module)",
    r"\bBokeh\.require\(": "BokehJS's internal module system",
    r"\bcanvas_view\b": "PlotView.canvas_view",
    r"\bevents_el\b": "CanvasView.events_el",
    r"\.frame\b": "PlotView.frame (its scales and box)",
    r"\b[xy]_scale\.compute\b|\.[xy]_scales?\b": "a frame's scales",
    r"\.s[xy]\b": "a glyph or annotation view's mapped screen coordinates (sx, sy)",
    r"\.size\.get\(": "a glyph view's mapped sizes",
    r"\.visuals\b": "a view's visuals",
    r"\bshadow_el\b": "DOMComponentView.shadow_el (the public way: view.el.shadowRoot)",
    r"\b(renderer_views|child_views)\b": "a view's child views",
}
ALLOWED = [MODULE]  # and everything under app/workarounds/


def allowed(path: Path) -> bool:
    return path in ALLOWED or (APP / "workarounds") in path.parents


def python_strings(path: Path) -> list[str]:
    """The string constants of a Python file that hold JavaScript (BokehJS is named in them)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and "Bokeh" in n.value]


def reads(text: str) -> list[str]:
    found = []
    for line in text.splitlines():
        code = re.sub(r"(^|\s)//.*$", "", line)  # a comment may name what it does not read
        code = re.sub(r"\bAEBokehView\.\w+", "AEBokehView.f", code)  # the module's functions share the names
        for pattern, what in PRIVATE.items():
            if re.search(pattern, code):
                found.append(f"{what}: {line.strip()[:120]}")
    return found


def test_no_product_file_but_the_module_reads_private_bokehjs_state():
    searched, found = 0, {}
    for path in sorted(APP.rglob("*.js")):
        if not allowed(path):
            searched += 1
            if r := reads(path.read_text(encoding="utf-8")):
                found[str(path.relative_to(REPO))] = r
    for path in sorted(APP.rglob("*.py")):
        if not allowed(path):
            for text in python_strings(path):
                searched += 1
                if r := reads(text):
                    found.setdefault(str(path.relative_to(REPO)), []).extend(r)
    assert searched > 10, searched  # the runtime, the plates' glue, figure.py's scripts
    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)


def test_the_patterns_find_what_they_name():
    """Each pattern finds the read it stands for (the lines the runtime had before the module)."""
    lines = {
        r"\b_update_stylesheets\b": 'if (v && typeof v._update_stylesheets === "function") v._update_stylesheets();',
        r"\._rect\b": "var q = av._rect, left = q.sx - q.anchor.x * q.width;",
        r"\bcore/graphics\b|\bTextBox\b": 'text_box = Bokeh.require("core/graphics").TextBox;',
        r"\bBokeh\.require\(": 'var m = Bokeh.require("core/util/object");',
        r"\bcanvas_view\b": "var el = view && view.canvas_view && view.canvas_view.events_el;",
        r"\bevents_el\b": "var r = el.events_el.getBoundingClientRect();",
        r"\.frame\b": "if (!view || !view.frame) return;",
        r"\b[xy]_scale\.compute\b|\.[xy]_scales?\b": "var fx = view.frame.x_scale, fy = view.frame.y_scale;",
        r"\.s[xy]\b": "var x = gv.sx[i], y = gv.sy[i];",
        r"\.size\.get\(": "h = gv.size.get(i) / 2;",
        r"\.visuals\b": "g.visuals = av.visuals.text.values(i);",
        r"\bshadow_el\b": "return v ? v.shadow_el || v.el : null;",
        r"\b(renderer_views|child_views)\b": "for (const [, cv] of view.renderer_views) {}",
    }
    assert set(lines) == set(PRIVATE)
    for pattern, line in lines.items():
        assert re.search(pattern, line), (pattern, line)
    # ...and not the public reads that replace them, nor a model's own properties
    for line in ["var root = v.el.shadowRoot || v.el;", "if (typeof plot.frame_width === 'number')",
                 "var px = to.x(t.x), py = to.y(t.y);", "m.setv({ size: 12 }, { sync: false });",
                 "// the glyph view's sx (bokeh_view.js)", "var el = AEBokehView.events_el(plot);"]:
        assert reads(line) == [], line


def test_the_module_names_the_range_pyproject_allows():
    text = MODULE.read_text(encoding="utf-8")
    lo, hi = json.loads(re.search(r"var RANGE = (\[[^\]]*\]);", text).group(1).replace("'", '"'))
    assert f"Read against: BokehJS {lo} (Bokeh.version from {lo} up to, not including, {hi})" in text
    deps = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert f"bokeh>={lo},<{hi}" in [d.replace(" ", "") for d in deps], deps
    # loaded with the runtime, before the files that use it
    from app.runtime.scripts import RUNTIME

    assert RUNTIME[0] == "bokeh_view.js", RUNTIME


def node() -> str:
    found = shutil.which("node") or ("/usr/bin/node" if os.path.exists("/usr/bin/node") else None)
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is not installed: bokeh_view.js's fallback is NOT checked")
        pytest.skip("node is not installed: bokeh_view.js's fallback is not checked")
    return found


# A stand-in BokehJS: one plot view with a canvas, a frame (scales x -> 10x + 1, y -> 100 - 10y)
# and a box; every function of the module is called on it.
STAND_IN = r"""
const said = [];
console.info = (m) => said.push(m);
const el = {shadowRoot: {id: "root"}};
const plot_view = {
  el, bbox: {left: 0, top: 0, right: 300, bottom: 200, width: 300, height: 200},
  canvas_view: {el: {id: "canvas"}, events_el: {id: "events"}},
  frame: {x_scale: {compute: (d) => 10 * d + 1}, y_scale: {compute: (d) => 100 - 10 * d},
          bbox: {left: 40, top: 10, right: 290, bottom: 170, width: 250, height: 160}},
};
globalThis.Bokeh = {version: process.argv[1], index: {find_one: () => plot_view}};
const V = require(process.argv[2]);
const plot = {id: "p"};
const to = V.scales(plot);
const out = {
  root: V.root(plot) && V.root(plot).id, events: V.events_el(plot) && V.events_el(plot).id,
  canvas: V.canvas_el(plot) && V.canvas_el(plot).id, scaled: to && [to.x(2), to.y(3)],
  frame: V.frame_box(plot), box: V.box(plot) && V.box(plot).width,
  marks: V.scatter_marks(plot), text: V.text_rect(plot),
};
V.frame_box(plot); V.events_el(plot);  // asked again: said once only
out.said = said;
console.log(JSON.stringify(out));
"""


def run_stand_in(version: str) -> dict:
    done = subprocess.run([node(), "-e", STAND_IN, version, str(MODULE)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.node
def test_in_range_the_module_reads_the_views():
    got = run_stand_in("3.10.2")
    assert got["root"] == "root" and got["events"] == "events" and got["canvas"] == "canvas"
    assert got["scaled"] == [21, 70]
    assert got["frame"] == {"left": 40, "top": 10, "right": 290, "bottom": 170, "width": 250, "height": 160}
    assert got["box"] == 300
    assert got["marks"] is None and got["text"] is None  # this plot has no glyph view nor text box
    assert got["said"] == []


@pytest.mark.node
@pytest.mark.parametrize("version", ["3.11.0", "3.9.3", "4.0.0"])
def test_outside_the_range_it_reads_nothing_and_says_so_once(version):
    got = run_stand_in(version)
    assert got["root"] == "root"  # public: the element's shadow root
    for name in ("events", "canvas", "scaled", "frame", "box", "marks", "text"):
        assert got[name] is None, (name, got[name])
    assert len(got["said"]) == 1, got["said"]
    assert f"this is {version}" in got["said"][0] and "bokeh_view.js" in got["said"][0], got["said"]
