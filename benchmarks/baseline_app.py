"""The BASELINE of `make bench`: the soft-lookup plate made the simple way with Panel.

    panel serve benchmarks/baseline_app.py --port M

Everything is recomputed in Python on every change, with Panel's default settings: two
pn.widgets.FloatSlider (angle and length; Panel's default 50 ms server-side debounce), a Bokeh
figure where the query is dragged with a PointDrawTool (which sends the new position to Python
only when the drag is released), five bars fed by a ColumnDataSource named 'weights', and the
output as text. Same layout as the plate: five keys of length 2 at 0, 70, 150, 225 and 300°,
values 10..50, the query at 40° with length 1.5 (output = 16.84, k2 weighs 55.1 %).

Nothing here is tuned: it is the comparison point the suite prints its ratios against.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import panel as pn
from bokeh.models import ColumnDataSource, PointDrawTool, Range1d
from bokeh.plotting import figure

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # attention_core from this checkout
sys.path.insert(1, str(Path(__file__).resolve().parent))  # the shared example
import attention_core as ac  # noqa: E402
from lookup_example import KEYS, NAMES, QUERY_ANGLE, QUERY_LENGTH, VALUES, vectors_plot  # noqa: E402

angle = pn.widgets.FloatSlider(name="Query angle (°)", start=0, end=360, step=1, value=QUERY_ANGLE, width=440)
length = pn.widgets.FloatSlider(name="Query length", start=0.1, end=5.0, step=0.05, value=QUERY_LENGTH, width=440)

q0 = ac.cartesian(QUERY_ANGLE, QUERY_LENGTH)  # (2,)
query = ColumnDataSource({"x": [float(q0[0])], "y": [float(q0[1])]}, name="query")
keys = ColumnDataSource({"x": KEYS[:, 0].tolist(), "y": KEYS[:, 1].tolist(), "name": NAMES}, name="keys")
weights = ColumnDataSource({"key": NAMES, "weight": [0.2] * 5}, name="weights")

plot, q_renderer = vectors_plot(keys, query)
draw = PointDrawTool(renderers=[q_renderer], add=False, num_objects=1)
plot.add_tools(draw)
plot.toolbar.active_drag = draw

bars = figure(name="bars", width=440, height=250, x_range=NAMES, y_range=Range1d(0, 1.12), tools="",
              title="Weight of each key")
bars.vbar(x="key", top="weight", width=0.7, source=weights, color="#E69F00")

output = pn.pane.Markdown("", css_classes=["bench-output"], width=440)


def recompute(x: float, y: float) -> None:
    st = ac.lookup_steps(np.array([x, y]), KEYS, VALUES, scale=1.0)
    weights.data = {"key": NAMES, "weight": st.weight.tolist()}
    hard = VALUES[st.winner]
    output.object = f"output = {float(st.output):.2f} · hard lookup: {hard:.0f} (k{st.winner + 1}) · plain average: 30"


busy = False  # set while one callback updates the other side, so they do not chase each other


def on_slider(event) -> None:
    global busy
    if busy:
        return
    q = ac.cartesian(angle.value, length.value)  # (2,)
    busy = True
    try:
        query.data = {"x": [float(q[0])], "y": [float(q[1])]}
    finally:
        busy = False
    recompute(float(q[0]), float(q[1]))


def on_query(attr, old, new) -> None:
    global busy
    if busy:
        return
    x, y = float(new["x"][0]), float(new["y"][0])
    a, r = ac.polar(np.array([x, y]))
    busy = True
    try:
        angle.value = float(a)
        length.value = float(np.clip(r, 0.1, 5.0))
    finally:
        busy = False
    recompute(x, y)


angle.param.watch(on_slider, "value")
length.param.watch(on_slider, "value")
query.on_change("data", on_query)
recompute(float(q0[0]), float(q0[1]))

pn.Row(plot, pn.Column(bars, output, angle, length)).servable(title="Baseline: soft lookup in plain Panel")
