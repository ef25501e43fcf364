"""What the suite knows about each page it measures: how to tell it is ready, what to watch, what to drive.

A plate's *driver* names its Bokeh models (the draggable plot, the query source, the sources and
texts that must change for "bars and numbers updated", the slider) and the attention_core calls
it makes. Plates without a driver are still measured for cold load and bytes; the table says so.
Add a plate's driver to DRIVERS when it lands (the names are the ones each plate module's
docstring lists under "Named models").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Driver:
    """How to drive one plate. Each interaction is optional; `watch` is what must change for
    "updated" (per interaction if `watch_by` names its own list)."""

    slug: str
    watch: tuple[str, ...]  # ColumnDataSources / models that all change on an update ("bars and numbers")
    text: str  # model whose DOM shows the output text, checked for first render
    text_contains: str  # ... and what it shows once rendered
    frame: str  # a figure that must have a frame before the page counts as rendered
    slider: str | None = None  # a Bokeh Slider model, stepped with the arrow keys on its .noUi-handle
    plot: str | None = None  # drag: the Bokeh figure the gesture runs in
    query: str | None = None  # drag round a point: its ColumnDataSource (x, y, first row)
    radius: float | None = None  # ... on a circle of this radius about the origin (None: through the point)
    sweep: tuple[float, ...] = ()  # drag along x instead: data x values visited in turn (and back)
    sweep_y: float = 0.5  # ... at this fraction of the frame's height
    clicks: str | None = None  # JS (i) => [page x, page y] of the i-th click, for taps on cells or buttons
    click_label: str = ""  # what a click does, for the table
    watch_by: dict = field(default_factory=dict)  # {"drag" | "slider" | "click": (names...)} when it differs
    params: str = ""  # added to the page's address (a preset with something to drag)
    core: Callable[[], dict[str, Callable[[], object]]] = field(default=lambda: {})


def _lookup_core() -> dict[str, Callable[[], object]]:
    """attention_core calls at the soft-lookup plate's sizes: q (2,), K (5, 2), V (5,)."""
    import attention_core as ac
    from app.plates.lookup.state import DEFAULT_KEYS, VALUES, LookupState

    q = ac.cartesian(40.0, 1.5)  # (2,)
    K = DEFAULT_KEYS.copy()  # (5, 2)
    V = VALUES.copy()  # (5,)
    state = LookupState()
    return {
        "lookup_steps": lambda: ac.lookup_steps(q, K, V, scale=1.0),
        "attention": lambda: ac.attention(q[None, :], K, V[:, None], scale=1.0),
        "LookupState.steps": state.steps,  # what the plate's Python does per change, core included
    }


def _worked_core() -> dict[str, Callable[[], object]]:
    """The worked plate's default preset: what Python runs when a drag or the slider commits."""
    from app.plates.worked.state import WorkedState

    state = WorkedState(preset="four-tokens")
    return {"WorkedState.steps": state.steps}


def _scaling_core() -> dict[str, Callable[[], object]]:
    """The scaling plate at d_k = 64: the weights, their Jacobian and entropy (the histogram is a table)."""
    import attention_core as ac
    from app.plates.scaling.state import BASE, ScalingState

    state = ScalingState(d_k=64)
    return {"flat_line": lambda: ac.flat_line([64], BASE, scaled=True),
            "ScalingState.jacobian": state.jacobian, "ScalingState.entropy": state.entropy}


def _self_attention_core() -> dict[str, Callable[[], object]]:
    from app.plates.self_attention.state import SelfAttentionState, compute

    s = SelfAttentionState()
    return {"self_attention.compute": lambda: compute(s.n, s.shuffle, s.positions, s.cross)}


def _masking_core() -> dict[str, Callable[[], object]]:
    from app.plates.masking.state import MaskingState

    return {"MaskingState.steps": MaskingState().steps}


def _learn_core() -> dict[str, Callable[[], object]]:
    """The learn plate one step on from the default run: what Python runs when the page commits it."""
    from app.plates.learn.data import live_sources
    from app.plates.learn.state import LearnState

    s = LearnState(step=1)
    return {"learn.live_sources": lambda: live_sources(s)}


def _multi_head_core() -> dict[str, Callable[[], object]]:
    from app.plates.multi_head.state import MultiHeadState

    s = MultiHeadState()
    return {"MultiHeadState.result": s.result, "MultiHeadState.counts": s.counts}


# Clicks on the cells of a categorical heat map (the masking plate's mask): walk the cells below
# and on the diagonal, row by row, so every click flips one cell and no row is ever left empty
# for long (the second pass flips them back).
MASK_CELL = """(i) => {
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('mask_plot'));
  const fr = v.frame.bbox, r = v.canvas_view.events_el.getBoundingClientRect();
  const nq = v.model.y_range.factors.length, nk = v.model.x_range.factors.length;
  const cells = [];
  for (let q = 1; q < nq; q++) for (let k = 0; k < q; k++) cells.push([q, k]);
  const [q, k] = cells[i % cells.length];
  return [r.left + fr.left + (k + 0.5) * fr.width / nk, r.top + fr.top + (q + 0.5) * fr.height / nq];
}"""

# Clicks on the multi-head plate's h buttons, alternating between the two head counts that split
# the default width (so no click is refused).
HEAD_BUTTON = """(i) => {
  const m = Bokeh.documents[0].get_model_by_name('h'), v = Bokeh.index.find_one(m);
  const want = [1, 2][i % 2], idx = m.labels.indexOf(String(want));
  const b = v.shadow_el.querySelectorAll('button')[idx].getBoundingClientRect();
  return [b.left + b.width / 2, b.top + b.height / 2];
}"""


# Clicks on the learn plate's One step button: each click trains one step more.
ONE_STEP_BUTTON = """(i) => {
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('one_step'));
  const b = v.shadow_el.querySelector('button').getBoundingClientRect();
  return [b.left + b.width / 2, b.top + b.height / 2];
}"""


DRIVERS: dict[str, Driver] = {
    "lookup": Driver(slug="lookup", plot="vectors", query="query", radius=2.5, slider="angle", watch=("weights", "output"),
                     text="readout", text_contains="output =", frame="vectors", core=_lookup_core),
    # The default example is one-dimensional (no pictures): the 2-D one has keys and a query to drag.
    "worked": Driver(slug="worked", plot="keys_plot", query="query", slider="length", params="?preset=four-tokens",
                     watch=("worked_table", "worked_output"), text="output_view", text_contains="",
                     frame="keys_plot", core=_worked_core),
    # The flat-line chart: a drag along x sets the width to the nearest power of two; each move
    # goes to the next width, so every move changes the plate.
    "scaling": Driver(slug="scaling", plot="flat_plot", sweep=tuple(float(2 ** e) for e in range(11)), sweep_y=0.5,
                      slider="d_k", watch=("histogram", "jacobian"), text="readout", text_contains="d_k",
                      frame="histogram_plot", core=_scaling_core),
    "self-attention": Driver(slug="self-attention", slider="n", watch=("weights", "output"), text="check_readout",
                             text_contains="", frame="worked_map", core=_self_attention_core),
    "masking": Driver(slug="masking", slider="n", clicks=MASK_CELL, click_label="tap a mask cell",
                      watch=("weights", "output"), text="notes", text_contains="", frame="mask_plot",
                      core=_masking_core),
    "multi-head": Driver(slug="multi-head", slider="n", clicks=HEAD_BUTTON, click_label="click an h button",
                         watch=("head_weights", "mh_output"), text="summary", text_contains="head",
                         frame="head_maps", core=_multi_head_core),
    "learn": Driver(slug="learn", clicks=ONE_STEP_BUTTON, click_label="click One step",
                    watch=("train_loss", "learned_weights"), text="readout_div", text_contains="loss",
                    frame="loss_plot", core=_learn_core),
}

# --- readiness tests (run at every frame from navigation start) ------------------------------
BOKEH_IDLE = ("window.Bokeh && Bokeh.documents && Bokeh.documents.length > 0 && Bokeh.documents[0].is_idle && "
              "Bokeh.documents[0].roots().every((r) => Bokeh.index.find_one(r) != null)")


def ready_for_driver(d: Driver | None) -> str:
    """A page of ours is ready when the Bokeh document is idle (every root view has rendered)
    and, with a driver, its main figure has a frame and the output text is on screen."""
    if d is None:
        return f"() => !!({BOKEH_IDLE})"
    return (f"() => {{ if (!({BOKEH_IDLE})) return false; const d = Bokeh.documents[0];"
            f" const v = Bokeh.index.find_one(d.get_model_by_name({d.frame!r}));"
            f" if (!v || !v.frame || !(v.frame.bbox.width > 0)) return false;"
            f" const t = Bokeh.index.find_one(d.get_model_by_name({d.text!r}));"
            f" return !!t && (t.shadow_el || t.el).textContent.includes({d.text_contains!r}); }}")


BASELINE_READY = (
    f"() => {{ if (!({BOKEH_IDLE})) return false; const d = Bokeh.documents[0];"
    " const v = Bokeh.index.find_one(d.get_model_by_name('vectors'));"
    " if (!v || !v.frame || !(v.frame.bbox.width > 0)) return false;"
    " for (const m of d.all_models) if (m.css_classes && Array.from(m.css_classes).includes('bench-output')) {"
    "   const t = Bokeh.index.find_one(m); return !!t && (t.shadow_el || t.el).textContent.includes('output ='); }"
    " return false; }"
)

# --- how each kind of page is driven ---------------------------------------------------------
TAG_BOKEH_SLIDER = """(spec) => {
  const d = Bokeh.documents[0];
  let m = spec.name ? d.get_model_by_name(spec.name) : null;
  if (m == null && spec.title) for (const x of d.all_models) if (x.title === spec.title) { m = x; break; }
  Bokeh.index.find_one(m).el.setAttribute('data-bench-slider', '1');
  return true;
}"""


@dataclass
class Target:
    """One page to measure: ours (served or exported, per plate), the baseline, or a peer."""

    key: str  # JSON key
    label: str
    url: str
    ready: str  # JS readiness test
    hook: tuple  # ("bokeh", [specs]) or ("text", "js function returning the output text") or ()
    slider: dict | None  # {"tag": (js, arg) or None, "selector": css}
    drag: dict | None  # {"plot", "query" or "sweep", "live": bool}
    server: object | None = None  # _harness.Server, for CPU and memory
    note: str = ""
    idle: float = 0.0  # the server's idle CPU, ms per s (measured before the interactions)
    clicks: dict | None = None  # {"at": js (i) => [x, y], "label": what a click does}
    need: dict = field(default_factory=dict)  # interaction -> the hook labels that must all change


def ours(slug: str, url: str, driver: Driver | None, served: bool, server=None) -> Target:
    where = "served" if served else "exported"
    if driver is None:
        return Target(f"{slug}.{where}", f"{slug} · {where}", url, ready_for_driver(None), (), None, None, server,
                      note="no driver for this plate yet: cold load and bytes only")
    names = list(dict.fromkeys([*driver.watch, *(n for v in driver.watch_by.values() for n in v)]))
    need = {k: list(driver.watch_by.get(k, driver.watch)) for k in ("drag", "slider", "click")}
    slider = ({"tag": (TAG_BOKEH_SLIDER, {"name": driver.slider}), "selector": "[data-bench-slider] .noUi-handle"}
              if driver.slider else None)
    url += driver.params
    drag = None
    if driver.plot and driver.query:
        drag = {"plot": driver.plot, "query": driver.query, "radius": driver.radius, "live": True}
    elif driver.plot and driver.sweep:
        drag = {"plot": driver.plot, "sweep": list(driver.sweep), "sweep_y": driver.sweep_y, "live": True}
    clicks = {"at": driver.clicks, "label": driver.click_label} if driver.clicks else None
    return Target(f"{slug}.{where}", f"{slug} · {where}", url, ready_for_driver(driver),
                  ("bokeh", [{"label": n, "name": n} for n in names]), slider, drag, server, clicks=clicks, need=need)


def baseline(url: str, server) -> Target:
    specs = [{"label": "weights", "name": "weights"}, {"label": "text", "css_class": "bench-output"}]
    return Target("baseline", "baseline (plain Panel)", url, BASELINE_READY, ("bokeh", specs),
                  {"tag": (TAG_BOKEH_SLIDER, {"title": "Query angle (°)"}),
                   "selector": "[data-bench-slider] .noUi-handle"},
                  {"plot": "vectors", "query": "query", "live": False}, server)


FLOOR_READY = (
    f"() => {{ if (!({BOKEH_IDLE})) return false; const d = Bokeh.documents[0];"
    " const v = Bokeh.index.find_one(d.get_model_by_name('bars'));"
    " if (!v || !v.frame || !(v.frame.bbox.width > 0)) return false;"
    " const t = Bokeh.index.find_one(d.get_model_by_name('output'));"
    " return !!t && (t.shadow_el || t.el).textContent.includes('output ='); }"
)


def floor(url: str, server=None) -> Target:
    """benchmarks/floor_page.py: the minimal app in Bokeh alone, one static file (a reference), or
    the same page from Bokeh's server (`server`: for the server's memory and CPU per page load)."""
    specs = [{"label": "weights", "name": "weights"}, {"label": "text", "name": "output"}]
    if server is not None:
        return Target("floor.served", "Bokeh only, from Bokeh's server (floor)", url, FLOOR_READY, ("bokeh", specs),
                      None, None, server, note="server figures only")
    return Target("floor", "Bokeh only, one static file (floor)", url, FLOOR_READY, ("bokeh", specs),
                  {"tag": (TAG_BOKEH_SLIDER, {"name": "angle"}), "selector": "[data-bench-slider] .noUi-handle"},
                  None, None, note="no draggable plot; no server")


def floor_drag(url: str) -> Target:
    """benchmarks/floor_page.py --drag: the minimal app in Bokeh alone with its query dragged, driven
    as the lookup plate's query is (the same circle through the query); its drag only."""
    specs = [{"label": "weights", "name": "weights"}, {"label": "text", "name": "output"}]
    return Target("floor.drag", "Bokeh only, one static file, its query dragged (floor)", url, FLOOR_READY,
                  ("bokeh", specs), None, {"plot": "vectors", "query": "query", "radius": DRIVERS["lookup"].radius,
                                           "live": True},
                  None, note="drag only; no server")


def plate_floor(slug: str, url: str, patched: bool) -> Target:
    """benchmarks/plate_floors.py: a heavy plate's shown figures in Bokeh alone (a reference),
    driven as the plate is (same names, its slider `n`); it has no taps."""
    t = ours(slug, url, DRIVERS[slug], False)
    t.key = f"{slug}.floor" + ("_patched" if patched else "")
    t.label = f"{slug}'s figures in Bokeh alone" + (", the workarounds on" if patched else "") + " (floor)"
    t.clicks = None
    t.note = "no taps, no server; every n's data worked out beforehand"
    return t


STREAMLIT_TEXT = ("() => { for (const e of document.querySelectorAll('[data-testid=\"stMarkdownContainer\"]'))"
                  " if (e.textContent.includes('output =')) return e.textContent; return null; }")
# Streamlit >= 1.50 draws its slider with react-aria (a hidden <input type=range> takes the keys);
# older ones with baseweb ([role=slider]).
STREAMLIT_SLIDER = ('[data-testid="stSlider"] input[type="range"], [data-testid="stSlider"] [role="slider"]')
VOILA_TEXT = "() => { const e = document.querySelector('.bench-output'); return e ? e.textContent : null; }"


def streamlit(url: str, server) -> Target:
    ready = f"() => {{ const t = ({STREAMLIT_TEXT})(); return t !== null && t.includes('output ='); }}"
    return Target("streamlit", "Streamlit", url, ready, ("text", STREAMLIT_TEXT),
                  {"tag": None, "selector": STREAMLIT_SLIDER}, None, server,
                  note="no draggable plot")


def voila(url: str, server) -> Target:
    ready = f"() => {{ const t = ({VOILA_TEXT})(); return t !== null && t.includes('output ='); }}"
    return Target("voila", "Voila + ipywidgets", url, ready, ("text", VOILA_TEXT),
                  {"tag": None, "selector": ".bench-angle .noUi-handle"}, None, server, note="no draggable plot")


def time_core(driver: Driver, repeat: int = 5) -> dict:
    """Best-of-`repeat` mean µs per call of each of the driver's attention_core calls (timeit,
    each repeat about 0.2 s long)."""
    import timeit

    out = {}
    for name, fn in driver.core().items():
        timer = timeit.Timer(fn)
        number, _ = timer.autorange()
        best = min(timer.repeat(repeat=repeat, number=number)) / number
        out[name] = {"us_per_call": round(best * 1e6, 2), "number": number, "repeat": repeat}
    return out
