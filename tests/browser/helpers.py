"""Helpers for the real-browser tests of the lookup plate (used by conftest.py and the tests).

Everything here talks to the page through BokehJS: models are found by name with
`Bokeh.documents[0].get_model_by_name(NAME)`, and data coordinates become page pixels through
the plot view's frame scales. Numbers are compared with attention_core, the authority.
"""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
RESULTS_DIR = REPO / "benchmarks" / "results"


def chromium_for_tests() -> str | None:
    """The browser the tests drive, chosen as the figure command chooses: $CHROMIUM if set, else
    Debian's chromium-headless-shell, else its chromium. The shell is the same Blink, V8 and Skia
    without the browser around them (no tabs, omnibox or profile services): a page load costs it
    under half the CPU (11 CPU-s against 24-25 for the same nine loads and screenshots, side by
    side), and the browser is two thirds of the suite's CPU. It is what Playwright itself runs
    for headless Chromium."""
    from app.delivery.figure import chromium_path

    return chromium_path()


# A phone's layout is fitted by a11y.js in a few passes after ready (and again on a resize): done.
PHONE_FITTED = "() => { const s = AEA11y.fit_state(Bokeh.documents[0]); return s.done === s.gen; }"


CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 900}
NAMES = ("query", "keys", "weights", "output", "hard_lookup", "angle", "length", "d_k", "scaled", "reset",
         "readout", "vectors")
WEIGHT_COLUMNS = ("weight", "score", "scaled", "weighted")

# Added to every page before its own scripts run: it follows the Bokeh websocket (served pages)
# so a test can wait until every PATCH-DOC the browser sent has been answered by the server.
# The server sends the patches its Python callbacks made before its OK reply, so "every patch
# answered" means Python's authoritative update has landed in the page.
INIT_SCRIPT = r"""
(() => {
  const ws = {sent: [], answered: new Set(), errors: [], patches_in: 0, sockets: 0, changes_in: []};
  window.__ae_ws = ws;
  const W = window.WebSocket;
  if (!W) return;
  const send = W.prototype.send;
  function header(data) {
    if (typeof data !== "string" || data.length > 1000 || data.indexOf('"msgtype"') < 0) return null;
    try { const h = JSON.parse(data); return (h && h.msgid && h.msgtype) ? h : null; } catch (e) { return null; }
  }
  W.prototype.send = function (data) {
    if (!this.__ae_hooked) {
      this.__ae_hooked = true;
      ws.sockets += 1;
      ws.socket = this;  // for HOLD_ANSWERS
      this.addEventListener("message", (ev) => {
        // A patch's content frame: note which model attributes the server changed ("id.attr").
        if (typeof ev.data === "string" && ev.data.startsWith('{"events"')) {
          try { for (const e of JSON.parse(ev.data).events) if (e.model) ws.changes_in.push(e.model.id + "." + e.attr); }
          catch (e) { /* not a patch after all */ }
          return;
        }
        const h = header(ev.data);
        if (!h) return;
        if (h.reqid) ws.answered.add(h.reqid);
        if (h.msgtype === "ERROR") ws.errors.push(ev.data);
        if (h.msgtype === "PATCH-DOC") ws.patches_in += 1;
      });
    }
    const h = header(data);
    if (h && h.msgtype === "PATCH-DOC") ws.sent.push(h.msgid);
    return send.call(this, data);
  };
})();
"""

# Keep what the server sends from reaching the page until RELEASE_ANSWERS (a slow network or a
# busy server: Python's answer lands late); returns nothing. RELEASE_ANSWERS hands the held
# frames to BokehJS in order and returns how many there were.
HOLD_ANSWERS = r"""() => {
  const s = window.__ae_ws.socket, own = s.onmessage, held = [];
  window.__ae_held = {own: own, held: held};
  s.onmessage = (ev) => { held.push(ev); };
}"""
RELEASE_ANSWERS = r"""() => {
  const s = window.__ae_ws.socket, h = window.__ae_held;
  s.onmessage = h.own;
  for (const ev of h.held) h.own.call(s, ev);
  return h.held.length;
}"""

# Hold what the page sends after its first frame that contains `match` (a model's id and the
# attribute it changed), for `ms`, then send it all in order: a busy server reads the page's
# next message (the "busy" mark of the gesture that change began) that much later.
STALL_AFTER = r"""([match, ms]) => {
  const s = window.__ae_ws.socket, send = s.send;
  let armed = true, held = null;
  window.__ae_stalled = 0;
  s.send = function (data) {
    if (held) { held.push(data); return; }
    send.call(s, data);
    if (armed && typeof data === "string" && match.every((m) => data.includes(m))) {
      armed = false;
      held = [];
      setTimeout(() => { const h = held; held = null; window.__ae_stalled = h.length; h.forEach((d) => send.call(s, d)); }, ms);
    }
  };
}"""

READ_STATE = r"""() => {
  const d = Bokeh.documents[0];
  const m = (n) => d.get_model_by_name(n);
  const arr = (v) => Array.from(v);
  const data = (n) => { const s = m(n).data, out = {}; for (const k of Object.keys(s)) out[k] = arr(s[k]); return out; };
  const rv = Bokeh.index.find_one(m("readout"));
  return {
    query: data("query"), keys: data("keys"), weights: data("weights"), output: data("output"),
    hard_lookup: data("hard_lookup"),
    angle: m("angle").value, length: m("length").value, d_k: m("d_k").value, scaled: arr(m("scaled").active),
    readout: m("readout").text,
    readout_dom: rv ? (rv.shadow_el || rv.el).textContent : null,
    url: window.location.href, tags: arr(m("vectors").tags),
  };
}"""

READ_WEIGHTS = "() => Array.from(Bokeh.documents[0].get_model_by_name('weights').data.weight)"

TO_PAGE = r"""([name, x, y]) => {
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(name));
  const r = v.canvas_view.events_el.getBoundingClientRect();
  return [r.left + v.frame.x_scale.compute(x), r.top + v.frame.y_scale.compute(y)];
}"""

READY = r"""(names) => {
  if (!window.Bokeh || !Bokeh.documents || !Bokeh.documents.length) return false;
  const d = Bokeh.documents[0];
  for (const n of names) if (d.get_model_by_name(n) == null) return false;
  const v = Bokeh.index.find_one(d.get_model_by_name("vectors"));
  if (v == null || v.canvas_view == null || v.frame == null || !(v.frame.bbox.width > 0)) return false;
  if (d.get_model_by_name("weights").data.pct[0] === "" || d.is_idle === false) return false;
  if (document.readyState !== "complete") return false;
  // Style sheets linked inside the views' shadow roots load after readyState says "complete";
  // one that lands late moves the plot (under load, after the layout looked settled).
  const pending = (root) => {
    let n = 0;
    for (const el of root.querySelectorAll("*")) {
      if (el.tagName === "LINK" && el.rel === "stylesheet" && el.sheet == null) n += 1;
      if (el.shadowRoot) n += pending(el.shadowRoot);
    }
    return n;
  };
  if (pending(document) > 0 || (document.fonts && document.fonts.status !== "loaded")) return false;
  // The layout has settled: the plot has not moved for a few animation frames.
  const r = v.canvas_view.events_el.getBoundingClientRect();
  const key = [r.left, r.top, r.width, r.height].join(",");
  const s = window.__ae_layout || (window.__ae_layout = {key: null, n: 0});
  if (s.key === key) s.n += 1; else { s.key = key; s.n = 0; }
  return s.n >= 3;
}"""


# --- reading the page -----------------------------------------------------------------------
def wait_ready(page, timeout: float = 30_000) -> None:
    """Wait until the Bokeh document, every named model and the 'vectors' plot view exist, the
    document is idle and the plot has stopped moving on the page."""
    page.wait_for_function(READY, arg=list(NAMES), timeout=timeout, polling="raf")


def read_state(page) -> dict:
    """Every named model's numbers, the readout, the widgets and the URL, as plain Python."""
    return page.evaluate(READ_STATE)


def read_weights(page) -> list[float]:
    return page.evaluate(READ_WEIGHTS)


def to_page_xy(page, plot_name: str, x: float, y: float) -> tuple[float, float]:
    """Data coordinates (x, y) of plot `plot_name` as page (CSS pixel) coordinates."""
    px, py = page.evaluate(TO_PAGE, [plot_name, x, y])
    return float(px), float(py)


def to_page_xys(page, plot_name: str, points) -> list[tuple[float, float]]:
    """Many data points of `plot_name` as page coordinates, in one round trip."""
    out = page.evaluate(r"""([name, pts]) => {
      const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(name));
      const r = v.canvas_view.events_el.getBoundingClientRect();
      return pts.map(([x, y]) => [r.left + v.frame.x_scale.compute(x), r.top + v.frame.y_scale.compute(y)]);
    }""", [plot_name, [list(map(float, p)) for p in points]])
    return [(float(a), float(b)) for a, b in out]


def query_xy(page) -> tuple[float, float]:
    q = read_state(page)["query"]
    return q["x"][0], q["y"][0]


def scroll_plot_into_view(page, plot_name: str = "vectors") -> None:
    page.evaluate(
        "(n) => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(n)).canvas_view.events_el"
        ".scrollIntoView({block: 'center', inline: 'center'})", plot_name)


# --- gestures -------------------------------------------------------------------------------
# Chromium hands a pointer move to the page at the next animation frame (rAF-aligned input),
# where BokehJS's pan handler runs before any rAF callback; app/workarounds/js/raw_moves.js hands
# it over on arrival instead. A reading taken when the frame after a move has begun is the one a
# user sees with or without the workaround, however long a busy machine makes that frame wait.
NEXT_FRAME = "() => new Promise((r) => requestAnimationFrame(() => r(true)))"


def moved(page, x: float, y: float) -> None:
    """Move the mouse to (x, y) and wait for the frame that hands the move to the page."""
    page.mouse.move(x, y)
    page.evaluate(NEXT_FRAME)


def drag(page, from_xy, to_xy, steps: int = 20) -> list[list[float]]:
    """Press at from_xy, move to to_xy in `steps` real mouse moves, release.

    Returns the 'weights' source's weight column read after each move (before the release), in
    the frame that follows it (see moved).
    """
    (x0, y0), (x1, y1) = from_xy, to_xy
    page.mouse.move(x0, y0)
    page.mouse.down()
    readings = []
    for i in range(1, steps + 1):
        t = i / steps
        moved(page, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
        readings.append(read_weights(page))
    page.mouse.up()
    return readings


def touch_drag(page, from_xy, to_xy, steps: int = 10, read=None) -> list:
    """The same gesture with one finger, through CDP's Input.dispatchTouchEvent; `read(page)` after
    each move (default: the lookup plate's weights; `False`: read nothing)."""
    read = read_weights if read is None else read
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = from_xy, to_xy
    readings = []
    try:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0, "id": 1}]})
        for i in range(1, steps + 1):
            t = i / steps
            cdp.send("Input.dispatchTouchEvent", {
                "type": "touchMove", "touchPoints": [{"x": x0 + (x1 - x0) * t, "y": y0 + (y1 - y0) * t, "id": 1}]})
            if read:
                page.evaluate(NEXT_FRAME)  # a touch move is handed on at the next frame too
                readings.append(read(page))
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()
    return readings


def angle_slider_handle(page):
    """A locator for the noUiSlider handle of the 'angle' slider (tagged through its Bokeh view)."""
    page.evaluate("() => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('angle'))"
                  ".el.setAttribute('data-ae-name', 'angle')")
    return page.locator("[data-ae-name=angle] .noUi-handle")


# --- the server's authority -----------------------------------------------------------------
def ws_count(page) -> int:
    """How many PATCH-DOC messages this page has sent to the server so far."""
    return page.evaluate("() => window.__ae_ws ? window.__ae_ws.sent.length : 0")


SYNCED = r"""(before) => {
  const w = window.__ae_ws;
  if (!w || !window.Bokeh || !Bokeh.documents.length) return false;
  if (before !== null && w.sent.length <= before) return false;
  // A plot marked "busy" means the browser still leads (a gesture or a burst of widget
  // changes) and will send Python its commit later: not settled yet.
  for (const m of Bokeh.documents[0].all_models) if (Array.isArray(m.tags) && m.tags.includes("busy")) return false;
  return w.sent.every((id) => w.answered.has(id));
}"""

WS_TALLIES = r"""() => {
  const w = window.__ae_ws || {sent: [], answered: new Set(), errors: [], patches_in: 0, sockets: 0};
  const busy = [];
  if (window.Bokeh && Bokeh.documents.length)
    for (const m of Bokeh.documents[0].all_models)
      if (Array.isArray(m.tags) && m.tags.includes("busy")) busy.push(m.name || m.type);
  return {sent: w.sent.length, unanswered: w.sent.filter((id) => !w.answered.has(id)).length,
          errors: w.errors, patches_in: w.patches_in, sockets: w.sockets, busy: busy};
}"""


def wait_synced(page, sent_before: int | None = None, timeout: float = 15_000) -> dict:
    """Wait until the page and Python agree: no plot is marked "busy" (the browser is not leading
    a gesture or a burst of widget changes), and the server has answered every PATCH-DOC the page
    sent; with `sent_before`, also until more than that many were sent. The server sends the
    patches its callbacks made before its answer, so Python's authoritative update has landed.
    On an exported page (no websocket) only the "busy" check applies.

    Returns the websocket tallies: sent, unanswered, errors (ERROR replies), patches_in,
    sockets, busy."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(SYNCED, arg=sent_before, timeout=timeout)
    except PlaywrightTimeout as exc:
        raise AssertionError(f"page and server did not settle within {timeout / 1000:g} s "
                             f"(sent_before={sent_before}): {page.evaluate(WS_TALLIES)}") from exc
    return page.evaluate(WS_TALLIES)


# --- the authority: attention_core --------------------------------------------------------
def core_state(**params):
    from app.plates.lookup.state import LookupState

    return LookupState(**params)


def core_from_query(x: float, y: float, **params):
    """LookupState pointed at the page's query (x, y), as Python does when a drag ends."""
    s = core_state(**params)
    s.set_query_xy(x, y)
    return s


def assert_matches_core(st: dict, state, tol: float = 1e-9, check_query: bool = True) -> None:
    """Every number the page holds equals attention_core's for `state` (LookupState) to `tol`,
    and every text on screen is what app.shared.formatting writes for those numbers."""
    from app.shared.formatting import fix, pct
    from app.plates.lookup.data import readout_html
    from app.plates.lookup.state import VALUES

    steps = state.steps()
    w = st["weights"]
    assert len(w["weight"]) == 5, w
    for col in WEIGHT_COLUMNS:
        got, want = np.asarray(w[col], dtype=float), np.asarray(getattr(steps, col), dtype=float)
        assert np.allclose(got, want, rtol=0, atol=tol), f"{col}: page {got.tolist()} vs attention_core {want.tolist()}"
    assert abs(sum(w["weight"]) - 1.0) < 1e-12
    assert w["pct"] == [pct(x) for x in steps.weight], (w["pct"], steps.weight)
    out = float(steps.output)
    assert abs(st["output"]["value"][0] - out) <= tol, (st["output"], out)
    assert st["output"]["label"][0] == f"output {fix(out, 2)}"
    hard = float(VALUES[steps.winner])
    assert st["hard_lookup"]["x"] == [hard]
    assert st["readout"] == readout_html(out, hard, steps.winner)
    if check_query:
        q = state.query
        assert abs(st["query"]["x"][0] - q[0]) <= tol and abs(st["query"]["y"][0] - q[1]) <= tol, (st["query"], q)
        assert abs(st["angle"] - state.angle) <= 1e-6 and abs(st["length"] - state.length) <= 1e-6, (
            st["angle"], st["length"], state.angle, state.length)
    assert int(st["d_k"]) == state.d_k
    assert (st["scaled"] == [0]) == bool(state.scaled)


def changed(a, b, tol: float = 1e-12) -> bool:
    return any(abs(x - y) > tol for x, y in zip(a, b))


# --- latency --------------------------------------------------------------------------------
LATENCY_SETUP = r"""() => {
  const L = {moves: [], on: true, pending: null};
  window.__ae_lat = L;
  window.addEventListener("pointermove", (e) => {
    if (!L.on) return;
    L.pending = {ts: e.timeStamp, handler: performance.now(), change: null, frame: null};
    L.moves.push(L.pending);
  }, {capture: true});
  Bokeh.documents[0].get_model_by_name("weights").change.connect(() => {
    const p = L.pending;
    if (!L.on || !p || p.change !== null) return;
    p.change = performance.now();
    requestAnimationFrame(() => { p.frame = performance.now(); });
  });
  return true;
}"""


def measure_drag_latency(page, moves: int = 60) -> dict:
    """Drag the query round the origin in `moves` real mouse moves and time, in the page's clock
    (performance.now()), each pointermove's dispatch (event.timeStamp) to the 'weights' change."""
    page.evaluate(LATENCY_SETUP)
    x, y = query_xy(page)
    angle0 = math.degrees(math.atan2(y, x))
    radius = 2.5
    path = [(radius * math.cos(math.radians(angle0 + 3.0 * i)), radius * math.sin(math.radians(angle0 + 3.0 * i)))
            for i in range(1, moves + 1)]
    start, *points = to_page_xys(page, "vectors", [(x, y), *path])
    page.mouse.move(*start)
    page.mouse.down()
    for point in points:
        page.mouse.move(*point)
    page.wait_for_function("() => __ae_lat.moves.every((m) => m.change === null || m.frame !== null)")
    page.mouse.up()
    rows = page.evaluate("() => { __ae_lat.on = false; return __ae_lat.moves; }")
    done = [r for r in rows if r["change"] is not None]
    assert done, f"no 'weights' change during the drag from {start}; pointermoves seen: {len(rows)}"
    dispatch = [r["change"] - r["ts"] for r in done]
    handler = [r["change"] - r["handler"] for r in done]
    frame = [r["frame"] - r["ts"] for r in done]

    def summary(v):
        v = sorted(v)
        return {"median_ms": round(statistics.median(v), 3),
                "p95_ms": round(v[min(len(v) - 1, math.ceil(0.95 * len(v)) - 1)], 3),
                "max_ms": round(v[-1], 3)}

    return {"moves": moves, "pointermoves_seen": len(rows), "weight_updates": len(done),
            "dispatch_to_weights_change": summary(dispatch),
            "handler_to_weights_change": summary(handler),
            "dispatch_to_next_frame": summary(frame)}


def write_latency(report: dict, name: str) -> Path:
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    path = RESULTS_DIR / name
    path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return path


# --- keyboard and screen readers (a11y.js) ------------------------------------------------------
# Every element Tab can reach, through the shadow roots Bokeh renders into: numbered (data-ae-i)
# so a Tab walk can say which it reached. Hidden models have no box and are left out.
FOCUSABLES = r"""() => {
  const sel = "input:not([type=hidden]), select, textarea, button, a[href], [tabindex]";
  const out = [];
  (function walk(root) {
    for (const el of root.querySelectorAll("*")) {
      if (el.matches(sel) && !el.disabled && el.tabIndex >= 0) {
        const r = el.getBoundingClientRect();
        if ((r.width > 0 || r.height > 0) && getComputedStyle(el).visibility !== "hidden") {
          el.dataset.aeI = String(out.length);
          out.push((el.getAttribute("aria-label") || el.textContent || el.tagName).trim().slice(0, 60) || el.tagName);
        }
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  })(document);
  return out;
}"""

DEEP_FOCUS = r"""() => {
  let e = document.activeElement;
  while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;
  if (!e || e === document.body) return null;
  const cs = getComputedStyle(e);
  return {i: e.dataset ? (e.dataset.aeI ?? null) : null, label: e.getAttribute("aria-label"),
          outline: cs.outlineStyle + " " + cs.outlineWidth, cls: e.className};
}"""


# Records where focus lands. A focus move inside one shadow root never reaches the document
# (the event stops at the boundary), so every shadow root listens too; each event counts once.
RECORD_FOCUS = r"""() => {
  window.__ae_focus = [];
  const seen = new WeakSet();
  const note = (ev) => {
    if (seen.has(ev)) return;
    seen.add(ev);
    const el = ev.composedPath()[0];
    window.__ae_focus.push(el && el.dataset ? (el.dataset.aeI ?? null) : null);
  };
  (function walk(root) {
    root.addEventListener("focusin", note, true);
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) walk(el.shadowRoot);
  })(document);
}"""


def tab_walk(page, extra: int = 4) -> tuple[list[str], set[int]]:
    """Press Tab once for every focusable element and `extra` times more, from wherever the focus
    is: Tab goes round the page (after the last element, the page itself, then the first), so
    every element has its turn. Returns the focusable elements' names and the indices Tab reached."""
    names = page.evaluate(FOCUSABLES)
    page.evaluate(RECORD_FOCUS)
    for _ in range(len(names) + extra):
        page.keyboard.press("Tab")
    reached = page.evaluate("() => window.__ae_focus")
    return names, {int(i) for i in reached if i is not None}


def handle(page, plot: str, target) -> object:
    """A locator for the keyboard handle of point `target` on plot `plot` (a11y.js)."""
    page.evaluate("(n) => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(n)).el"
                  ".setAttribute('data-ae-plot', n)", plot)
    return page.locator(f"[data-ae-plot={plot}] button.ae-handle[data-target='{target}']")


def live_text(page) -> str | None:
    """What the polite live region says now."""
    return page.evaluate("() => { const e = document.querySelector('.ae-live'); return e ? e.textContent : null; }")


def focus_ring(page) -> str:
    """The focused element's outline (style and width), e.g. 'solid 3px'."""
    return page.evaluate(DEEP_FOCUS)["outline"]


# --- a held arrow key on a served n slider (masking, self-attention) -------------------------
# An earlier state saved, then replayed into the page as one late message of Python's would be
# (every factor range and the named sources, in one task, sync false).
SAVE_STATE = r"""(names) => {
  const d = Bokeh.documents[0];
  window.__ae_saved = [];
  for (const m of d.all_models)
    if (m.type === 'FactorRange') window.__ae_saved.push([m.id, {factors: Array.from(m.factors)}]);
  for (const name of names) {  // in the order named, as Python's answer sends them
    const m = d.get_model_by_name(name);
    if (m && m.type === 'ColumnDataSource')
      window.__ae_saved.push([m.id, {data: Object.fromEntries(Object.entries(m.data).map(([k, v]) => [k, Array.from(v)]))}]);
  }
  return window.__ae_saved.length;
}"""
# Python's answer comes in several messages (one per source) and the browser may paint a frame
# between two of them: the saved state is replayed one model per animation frame.
REPLAY_STATE = r"""async () => {
  const d = Bokeh.documents[0];
  for (const [id, attrs] of window.__ae_saved) {
    d.get_model_by_id(id).setv(attrs, {sync: false, check_eq: false});
    await new Promise((r) => requestAnimationFrame(() => r()));
  }
}"""
# Every n drawn, in order, read at each animation frame by `drawn_n` (a JS expression of the
# document `d`; by default the n of the `weights` source, n × n values).
WEIGHTS_N = "Math.round(Math.sqrt(d.get_model_by_name('weights').data.value.length))"
WATCH_FRAMES = r"""(drawn_n) => {
  window.__ae_drawn = [];
  const d = Bokeh.documents[0], count = new Function("d", "return " + drawn_n);
  const tick = () => {
    const n = count(d);
    if (window.__ae_drawn[window.__ae_drawn.length - 1] !== n) window.__ae_drawn.push(n);
    window.__ae_raf = requestAnimationFrame(tick);
  };
  tick();
}"""
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"


def hold_arrow_key(page, sources, n_min: int, n_max: int, drawn_n: str = WEIGHTS_N) -> None:
    """On a served page with an n slider: step down to n_min and save that state, step to
    n_min + 1 and replay the saved state as a late answer of Python's, then press ArrowRight 15 ms
    apart up to n_max. Asserts that the replay is never drawn and that the run draws only
    increasing n (read by `drawn_n`, see WATCH_FRAMES), ending on n_max."""
    page.locator(".noUi-handle").first.focus()
    n_now = "() => Bokeh.documents[0].get_model_by_name('n').value"
    while page.evaluate(n_now) > n_min:
        sent = ws_count(page)
        page.keyboard.press("ArrowLeft")
        wait_synced(page, sent)
    assert page.evaluate(SAVE_STATE, list(sources)) >= 8
    sent = ws_count(page)
    page.keyboard.press("ArrowRight")
    wait_synced(page, sent)
    page.evaluate(WATCH_FRAMES, drawn_n)
    page.evaluate(REPLAY_STATE)
    page.evaluate(TWO_FRAMES)
    after_replay = page.evaluate("() => { cancelAnimationFrame(window.__ae_raf); return window.__ae_drawn; }")
    page.evaluate(WATCH_FRAMES, drawn_n)
    sent = ws_count(page)
    for _ in range(n_max - n_min):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(15)
    wait_synced(page, sent)
    page.evaluate(TWO_FRAMES)
    during = page.evaluate("() => { cancelAnimationFrame(window.__ae_raf); return window.__ae_drawn; }")
    assert after_replay == [n_min + 1]
    assert during == sorted(during) and during[0] == n_min + 1 and during[-1] == n_max, during


# Count, per figure, how often it draws its primary layer (glyphs, axes, grids) into
# window.__ae_draws: the figures named, or with no names every figure shown. Returns how many.
COUNT_DRAWS = r"""(names) => {
  window.__ae_draws = {};
  const doc = Bokeh.documents[0];
  const figs = names ? names.map((k) => doc.get_model_by_name(k))
                     : Array.from(doc.all_models).filter((m) => m.type === "Figure" && m.visible);
  for (const m of figs) {
    const v = Bokeh.index.find_one(m), own = v._paint_primary, name = m.name;
    window.__ae_draws[name] = 0;
    v._paint_primary = function () { window.__ae_draws[name] += 1; return own.apply(this, arguments); };
  }
  return figs.length;
}"""
