"""The drag floor of the benchmark (benchmarks/floor_page.py --drag): the minimal app in Bokeh alone
with its query dragged. A real drag with the mouse moves the query to the pointer, the sliders
follow it, and the bars and the output are attention_core's for the query where it was left."""

from __future__ import annotations

import importlib
import math
import sys
from pathlib import Path

import numpy as np
import pytest

import attention_core as ac

pytestmark = pytest.mark.browser

BENCHMARKS = Path(__file__).resolve().parents[1]


def bench(name: str):
    path = list(sys.path)
    sys.path[:0] = [str(BENCHMARKS), str(BENCHMARKS.parent)]
    try:
        return importlib.import_module(name)
    finally:
        sys.path[:] = path


STATE = r"""() => { const d = Bokeh.documents[0], m = (n) => d.get_model_by_name(n);
  return {q: [m('query').data.x[0], m('query').data.y[0]], angle: m('angle').value, length: m('length').value,
          w: Array.from(m('weights').data.weight), out: m('output').text}; }"""


def test_a_real_drag_moves_the_query_and_the_numbers_are_attention_cores(tab, tmp_path):
    floor_page, H, example = bench("floor_page"), bench("_harness"), bench("lookup_example")
    path = floor_page.write(tmp_path / "floor-drag.html", drag=True)
    tab.block_network()
    page = tab.page
    page.goto(path.as_uri())
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length && "
                           "Bokeh.documents[0].get_model_by_name('vectors') != null", timeout=60_000)
    page.wait_for_function("() => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('vectors')) != null")
    start = page.evaluate(STATE)
    sx, sy = page.evaluate(H.TO_PAGE, ["vectors", *start["q"]])
    to = (-2.0, 3.0)  # 123.7°, length 3.61
    tx, ty = page.evaluate(H.TO_PAGE, ["vectors", *to])
    page.mouse.move(sx, sy)
    page.mouse.down()
    for i in range(1, 13):
        page.mouse.move(sx + (tx - sx) * i / 12, sy + (ty - sy) * i / 12)
    page.mouse.up()
    page.wait_for_function("([x, y]) => { const d = Bokeh.documents[0].get_model_by_name('query').data;"
                           " return Math.abs(d.x[0] - x) < 0.05 && Math.abs(d.y[0] - y) < 0.05; }", arg=list(to))
    st = page.evaluate(STATE)
    assert st["angle"] == pytest.approx(math.degrees(math.atan2(st["q"][1], st["q"][0])) % 360, abs=1e-9)
    assert st["length"] == pytest.approx(math.hypot(*st["q"]), abs=1e-9)
    w = ac.softmax(example.KEYS @ ac.cartesian(st["angle"], st["length"]))  # (5,)
    np.testing.assert_allclose(st["w"], w, rtol=0, atol=1e-12)
    assert st["out"] == f"output = {float(w @ example.VALUES):.2f}"
    assert st["w"] != start["w"]
    tab.assert_offline()
    tab.assert_no_errors()
