"""What the suite knows about each page it measures: how to tell it is ready, what to watch, what to drive.

A plate's *driver* names its Bokeh models (the draggable plot, the query source, the sources and
texts that must change for "bars and numbers updated", the slider) and the attention_core calls
it makes. Plates without a driver are still measured for cold load and bytes; the table says so.
Add a plate's driver to DRIVERS when it lands (the names are the ones the README's table of
named models lists).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Driver:
    slug: str
    plot: str  # the Bokeh figure holding the draggable query
    query: str  # its ColumnDataSource (x, y, one row)
    slider: str  # a Bokeh Slider model, stepped with ArrowRight on its .noUi-handle
    watch: tuple[str, ...]  # ColumnDataSources / models that all change on an update ("bars and numbers")
    text: str  # model whose DOM shows the output text, checked for first render
    text_contains: str  # ... and what it shows once rendered
    core: Callable[[], dict[str, Callable[[], object]]] = field(default=lambda: {})


def _lookup_core() -> dict[str, Callable[[], object]]:
    """attention_core calls at the soft-lookup plate's sizes: q (2,), K (5, 2), V (5,)."""
    import attention_core as ac
    from app.plates.lookup import DEFAULT_KEYS, VALUES, LookupState

    q = ac.cartesian(40.0, 1.5)  # (2,)
    K = DEFAULT_KEYS.copy()  # (5, 2)
    V = VALUES.copy()  # (5,)
    state = LookupState()
    return {
        "lookup_steps": lambda: ac.lookup_steps(q, K, V, scale=1.0),
        "attention": lambda: ac.attention(q[None, :], K, V[:, None], scale=1.0),
        "LookupState.steps": state.steps,  # what the plate's Python does per change, core included
    }


DRIVERS: dict[str, Driver] = {
    "lookup": Driver(slug="lookup", plot="vectors", query="query", slider="angle", watch=("weights", "output"),
                     text="readout", text_contains="output =", core=_lookup_core),
}

# --- readiness tests (run at every frame from navigation start) ------------------------------
BOKEH_IDLE = ("window.Bokeh && Bokeh.documents && Bokeh.documents.length > 0 && Bokeh.documents[0].is_idle && "
              "Bokeh.documents[0].roots().every((r) => Bokeh.index.find_one(r) != null)")


def ready_for_driver(d: Driver | None) -> str:
    """A page of ours is ready when the Bokeh document is idle (every root view has rendered)
    and, with a driver, the plot has a frame and the output text is on screen."""
    if d is None:
        return f"() => !!({BOKEH_IDLE})"
    return (f"() => {{ if (!({BOKEH_IDLE})) return false; const d = Bokeh.documents[0];"
            f" const v = Bokeh.index.find_one(d.get_model_by_name({d.plot!r}));"
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
    drag: dict | None  # {"plot", "query", "live": bool}
    server: object | None = None  # _harness.Server, for CPU and memory
    note: str = ""
    idle: float = 0.0  # the server's idle CPU, ms per s (measured before the interactions)


def ours(slug: str, url: str, driver: Driver | None, served: bool, server=None) -> Target:
    where = "served" if served else "exported"
    if driver is None:
        return Target(f"{slug}.{where}", f"{slug} · {where}", url, ready_for_driver(None), (), None, None, server,
                      note="no driver for this plate yet: cold load and bytes only")
    specs = [{"label": n, "name": n} for n in driver.watch]
    return Target(f"{slug}.{where}", f"{slug} · {where}", url, ready_for_driver(driver), ("bokeh", specs),
                  {"tag": (TAG_BOKEH_SLIDER, {"name": driver.slider}), "selector": "[data-bench-slider] .noUi-handle"},
                  {"plot": driver.plot, "query": driver.query, "live": True}, server)


def baseline(url: str, server) -> Target:
    specs = [{"label": "weights", "name": "weights"}, {"label": "text", "css_class": "bench-output"}]
    return Target("baseline", "baseline (plain Panel)", url, BASELINE_READY, ("bokeh", specs),
                  {"tag": (TAG_BOKEH_SLIDER, {"title": "Query angle (°)"}),
                   "selector": "[data-bench-slider] .noUi-handle"},
                  {"plot": "vectors", "query": "query", "live": False}, server)


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
