"""The FLOOR of `make bench`: the minimal lookup app as one static Bokeh file, no Panel, no server.

    .venv/bin/python benchmarks/floor_page.py OUT.html
    .venv/bin/python benchmarks/floor_page.py --serve PORT   # the same page from Bokeh's server

The issue's fourth anchor ("Bokeh CustomJS, one static file"): the baseline's five keys, its
angle and length sliders, five bars and the output text, with the arithmetic in a CustomJS
callback and BokehJS inlined, saved with bokeh.io.save. It has none of a plate's other parts
(arrows, labels, table, readout, the explanation, keyboard handles), so its cold load and slider
are what BokehJS itself costs on this machine for such a page: the suite prints it beside the
baseline and the peers as a reference, not as a peer to beat.

Served by Bokeh's own server (`--serve`, a session per page, the same document), it gives the
suite the floor of the server's figures: what a Python server holding such a page takes in memory
and CPU per page load, before any Panel, plate or arithmetic on the server.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bokeh.io import save
from bokeh.layouts import column
from bokeh.models import ColumnDataSource, CustomJS, Div, Range1d, Slider
from bokeh.plotting import figure
from bokeh.resources import INLINE

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # attention_core from this checkout
sys.path.insert(1, str(Path(__file__).resolve().parent))  # the shared example
import attention_core as ac  # noqa: E402
from lookup_example import KEYS, NAMES, QUERY_ANGLE, QUERY_LENGTH, VALUES  # noqa: E402

# The softmax of the five dot products and the weighted average, as the baseline computes it
# with attention_core (max subtracted before exp).
CODE = """
const a = angle.value * Math.PI / 180, q = [length.value * Math.cos(a), length.value * Math.sin(a)];
const s = keys.x.map((x, j) => q[0] * x + q[1] * keys.y[j]);
const m = Math.max(...s), e = s.map((v) => Math.exp(v - m)), z = e.reduce((p, v) => p + v, 0);
const w = e.map((v) => v / z);
weights.data = {key: weights.data.key, weight: w};
const out = w.reduce((p, v, j) => p + v * values[j], 0);
text.text = "output = " + out.toFixed(2);
"""


def build():
    """The page's root: sliders, bars and the output text (names as the suite's driver expects)."""
    q0 = ac.cartesian(QUERY_ANGLE, QUERY_LENGTH)  # (2,)
    w0 = ac.softmax(KEYS @ q0)  # (5,)
    weights = ColumnDataSource({"key": NAMES, "weight": w0.tolist()}, name="weights")
    angle = Slider(title="Query angle (°)", start=0, end=360, step=1, value=QUERY_ANGLE, width=440, name="angle")
    length = Slider(title="Query length", start=0.1, end=5.0, step=0.05, value=QUERY_LENGTH, width=440, name="length")
    bars = figure(x_range=NAMES, y_range=Range1d(0, 1), width=440, height=260, name="bars", tools="",
                  toolbar_location=None, title="Weight of each key")
    bars.vbar(x="key", top="weight", width=0.8, source=weights)
    text = Div(text=f"output = {float(w0 @ VALUES):.2f}", css_classes=["bench-output"], name="output")
    cb = CustomJS(args={"angle": angle, "length": length, "weights": weights, "text": text,
                        "keys": {"x": KEYS[:, 0].tolist(), "y": KEYS[:, 1].tolist()}, "values": VALUES.tolist()},
                  code=CODE)
    angle.js_on_change("value", cb)
    length.js_on_change("value", cb)
    return column(angle, length, bars, text)


def write(path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    save(build(), filename=str(path), resources=INLINE, title="Bokeh-only lookup (the floor)")
    return bokeh_alone(path)


def bokeh_alone(path: Path) -> Path:
    """The page at `path` without the scripts Panel adds to every Bokeh page once it is imported
    in the process (the suite imports it): an inlined page otherwise asks for es-module-shims
    next to the file, a failed request at every load."""
    html = path.read_text(encoding="utf-8")
    if "es-module-shims" in html or "panel.min.js" in html:
        from app.bokeh_only import without_panel_scripts

        path.write_text(without_panel_scripts(html), encoding="utf-8")
    return path


def serve(port: int) -> None:
    """The page from Bokeh's server on localhost:port, a session per visitor (blocks)."""
    from bokeh.server.server import Server

    def session(doc):
        doc.title = "Bokeh-only lookup (the floor)"
        doc.add_root(build())

    server = Server({"/": session}, port=port, address="localhost", allow_websocket_origin=[f"localhost:{port}"])
    server.start()
    server.io_loop.start()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(int(sys.argv[2]))
    else:
        print(write(Path(sys.argv[1] if len(sys.argv) > 1 else "floor.html")))
