"""The FLOOR of `make bench`: the minimal lookup app as one static Bokeh file, no Panel, no server.

    .venv/bin/python benchmarks/floor_page.py OUT.html
    .venv/bin/python benchmarks/floor_page.py --drag [--patched] OUT.html  # its query dragged
    .venv/bin/python benchmarks/floor_page.py --serve PORT   # the same page from Bokeh's server

The issue's fourth anchor ("Bokeh CustomJS, one static file"): the baseline's five keys, its
angle and length sliders, five bars and the output text, with the arithmetic in a CustomJS
callback and BokehJS inlined, saved with bokeh.io.save. It has none of a plate's other parts
(arrows, labels, table, readout, the explanation, keyboard handles), so its cold load and slider
are what BokehJS itself costs on this machine for such a page: the suite prints it beside the
baseline and the peers as a reference, not as a peer to beat.

With `--drag` (`write(path, drag=True)`), the same app with the baseline's plot of the keys
and the query beside it, the query dragged: a pan on the plot moves the query there and, in one
CustomJS, sets both sliders (their own callback held off meanwhile) and recomputes the bars and
the output, as the slider's callback does. It gives the suite the floor of a drag move, a pointer
move to painted bars in Bokeh alone, which a plate's drag cannot go below on this machine.

Served by Bokeh's own server (`--serve`, a session per page, the same document), it gives the
suite the floor of the server's figures: what a Python server holding such a page takes in memory
and CPU per page load, before any Panel, plate or arithmetic on the server.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bokeh.document import Document
from bokeh.io import save
from bokeh.events import Pan
from bokeh.layouts import column, row
from bokeh.models import ColumnDataSource, CustomJS, Div, Range1d, Slider
from bokeh.plotting import figure
from bokeh.resources import INLINE

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # attention_core from this checkout
sys.path.insert(1, str(Path(__file__).resolve().parent))  # the shared example
import attention_core as ac  # noqa: E402
from lookup_example import KEYS, NAMES, QUERY_ANGLE, QUERY_LENGTH, VALUES, vectors_plot  # noqa: E402

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


# The drag: the query goes where the pointer is, the sliders follow (their callback waits: it
# would compute the same numbers twice more), then the bars and the output as above.
PAN = """
const deg = (Math.atan2(cb_obj.y, cb_obj.x) * 180 / Math.PI + 360) % 360, len = Math.hypot(cb_obj.x, cb_obj.y);
query.data = {x: [cb_obj.x], y: [cb_obj.y]};
window.__floor_drag = true;
try { angle.value = deg; length.value = Math.min(5.0, Math.max(0.1, len)); } finally { window.__floor_drag = false; }
""" + CODE
# Moved by a slider, the query follows (the drag page only).
FOLLOW = """
if (window.__floor_drag) return;
""" + CODE + """
query.data = {x: [q[0]], y: [q[1]]};
"""


def build(drag: bool = False):
    """The page's root: sliders, bars and the output text (names as the suite's driver expects);
    with `drag`, the plot of the keys and the query too, the query dragged (`vectors`, `query`)."""
    q0 = ac.cartesian(QUERY_ANGLE, QUERY_LENGTH)  # (2,)
    w0 = ac.softmax(KEYS @ q0)  # (5,)
    weights = ColumnDataSource({"key": NAMES, "weight": w0.tolist()}, name="weights")
    angle = Slider(title="Query angle (°)", start=0, end=360, step=1, value=QUERY_ANGLE, width=440, name="angle")
    length = Slider(title="Query length", start=0.1, end=5.0, step=0.05, value=QUERY_LENGTH, width=440, name="length")
    bars = figure(x_range=NAMES, y_range=Range1d(0, 1), width=440, height=260, name="bars", tools="",
                  toolbar_location=None, title="Weight of each key")
    bars.vbar(x="key", top="weight", width=0.8, source=weights)
    text = Div(text=f"output = {float(w0 @ VALUES):.2f}", css_classes=["bench-output"], name="output")
    args = {"angle": angle, "length": length, "weights": weights, "text": text,
            "keys": {"x": KEYS[:, 0].tolist(), "y": KEYS[:, 1].tolist()}, "values": VALUES.tolist()}
    if not drag:
        cb = CustomJS(args=args, code=CODE)
        angle.js_on_change("value", cb)
        length.js_on_change("value", cb)
        return column(angle, length, bars, text)
    # The baseline's plot of the keys and the query (benchmarks/baseline_app.py), dragged by pans.
    query = ColumnDataSource({"x": [float(q0[0])], "y": [float(q0[1])]}, name="query")
    keys = ColumnDataSource({"x": KEYS[:, 0].tolist(), "y": KEYS[:, 1].tolist()}, name="keys")
    plot, _ = vectors_plot(keys, query, toolbar_location=None)
    args["query"] = query
    plot.js_on_event(Pan, CustomJS(args=args, code=PAN))
    follow = CustomJS(args=args, code=FOLLOW)
    angle.js_on_change("value", follow)
    length.js_on_change("value", follow)
    return row(plot, column(angle, length, bars, text))


def live_patches(doc: Document) -> None:
    """The browser-side workarounds (app/workarounds/js/, as the pages carry them) installed on
    BokehJS once `doc` is ready in the page (then `window.__ae_floor_patched` is true): BokehJS's
    cost for the same figures as the workarounds cut it."""
    from app.runtime.scripts import workarounds_js

    doc.js_on_event("document_ready", CustomJS(code=workarounds_js() + (
        "\nAEWorkarounds.install(Bokeh.documents[0]); window.__ae_floor_patched = true;")))


def write(path: Path, drag: bool = False, patched: bool = False) -> Path:
    """The floor's file at `path`; with `drag`, its query dragged; with `patched`, the browser-side
    workarounds on BokehJS."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = Document()
    doc.add_root(build(drag))
    if patched:
        live_patches(doc)
    title = ("Bokeh-only lookup (the floor)" + (", its query dragged" if drag else "")
             + (", with the workarounds" if patched else ""))
    save(doc, filename=str(path), resources=INLINE, title=title)
    return bokeh_alone(path)


def bokeh_alone(path: Path) -> Path:
    """The page at `path` without the scripts Panel adds to every Bokeh page once it is imported
    in the process (the suite imports it): an inlined page otherwise asks for es-module-shims
    next to the file, a failed request at every load."""
    html = path.read_text(encoding="utf-8")
    if "es-module-shims" in html or "panel.min.js" in html:
        from app.workarounds.exported_bokeh_only import without_panel_scripts

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
    elif sys.argv[1:2] == ["--drag"]:
        args = sys.argv[2:]
        patched = "--patched" in args
        args = [x for x in args if x != "--patched"]
        print(write(Path(args[0] if args else "floor-drag.html"), drag=True, patched=patched))
    else:
        print(write(Path(sys.argv[1] if len(sys.argv) > 1 else "floor.html")))
