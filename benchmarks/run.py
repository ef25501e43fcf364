"""The performance suite: `make bench` (ours + the plain-Panel baseline) and `make bench-peers` (+ Streamlit, Voila).

For every registered plate (app.plates.registry.slugs()), served (`python -m app serve`) and exported
(`python -m app export`, opened from disk), in headless Chromium:

- drag: pointer move -> bars and numbers updated (median, p95 over >= 100 moves, one at a time);
- slider: ArrowRight on the slider's .noUi-handle -> bars and numbers updated (150 presses);
- cold load: new browser context (empty cache) -> first complete render (median over >= 10 loads);
- bytes per page (CDP Network: HTTP bodies and headers + websocket frames);
- server CPU per interaction (/proc/<pid>/stat utime+stime), server memory per open page (RSS);
- attention_core time per call (timeit, at the plate's sizes).

Side by side, the same figures for benchmarks/baseline_app.py (`panel serve`), printed as ratios,
and with --peers VENV the Streamlit and Voila apps of benchmarks/peers/ served from that venv.
Plates without a driver (benchmarks/_drivers.py) get cold load and bytes only, and the table
says so. Prints a Markdown table and writes benchmarks/results/bench.json (+ bench.md).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(REPO))

import _drivers as D  # noqa: E402
import _harness as H  # noqa: E402

SEED = 7  # the only randomness: the order of the two directions of the baseline's drag gestures,
# and with --key-phase random, the waits before key presses, clicks and drag moves
FRAME_S = 1 / 60  # a frame at 60 Hz


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


# --- measurements on one target ---------------------------------------------------------------
def memory(browser, t: D.Target, pages: int) -> dict:
    """RSS of the server (and its children) with one page open, then per extra open page."""
    opened = []
    try:
        ctx, _, _, _ = H.open_page(browser, t.url, t.ready)
        opened.append(ctx)
        time.sleep(1.0)
        rss1 = H.rss_bytes(t.server.pid)
        for _ in range(pages):
            ctx, _, _, _ = H.open_page(browser, t.url, t.ready)
            opened.append(ctx)
        time.sleep(1.5)
        rssk = H.rss_bytes(t.server.pid)
        return {"rss_one_page_mb": round(rss1 / 2**20, 1), "rss_after_pages_mb": round(rssk / 2**20, 1),
                "extra_pages": pages, "rss_per_page_mb": round((rssk - rss1) / pages / 2**20, 2),
                "processes": len(H.process_tree(t.server.pid))}
    finally:
        for c in opened:
            c.close()


def cold_loads(browser, t: D.Target, n: int, gap_s: float = 0.0) -> dict:
    """n loads, each in a new browser context (empty cache): ms from navigation start to the first
    frame where the page is ready; the bytes the first load moved; server CPU per load."""
    ready, errs, first, phases = [], [], {}, []
    meter = H.CpuMeter(t.server and t.server.pid, t.idle)
    for i in range(n):
        if i and gap_s:
            time.sleep(gap_s)
        ctx, page, net, errors = H.open_page(browser, t.url, t.ready, network=(i == 0))
        try:
            ready.append(page.evaluate("() => __bench.ready_at"))
            phases.append(page.evaluate(H.PHASES))
            if i == 0:
                page.wait_for_timeout(500)  # let late requests (favicon, fonts) finish
                first = net.snapshot()
            errs += errors
        finally:
            if net is not None:
                net.close()
            ctx.close()
    keys = phases[0].keys() if phases else []
    med = {k: H.summary([ph[k] for ph in phases if ph[k] is not None]).get("median") for k in keys}
    out = {"ready_ms": H.summary(ready), "ready_all_ms": [round(x, 1) for x in ready], "bytes": first,
           "phases_median_ms": med,
           "page_errors": errs[:5]}
    if t.server:
        out["server_cpu_per_load"] = meter.per(n)
    return out


def install_hooks(page, t: D.Target) -> None:
    kind, arg = t.hook
    if kind == "bokeh":
        page.evaluate(H.HOOK_BOKEH, arg)
    else:
        page.evaluate(H.HOOK_TEXT, arg)


def scroll_to_plot(page, plot: str) -> None:
    page.evaluate("(n) => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(n)).canvas_view.events_el"
                  ".scrollIntoView({block: 'center', inline: 'center'})", plot)
    page.wait_for_timeout(100)


def query_xy(page, name: str) -> tuple[float, float]:
    return tuple(page.evaluate("(n) => { const d = Bokeh.documents[0].get_model_by_name(n).data;"
                               " return [d.x[0], d.y[0]]; }", name))


def grab(page, plot: str, query: str, sx: float, sy: float, to: tuple[float, float], tries: int = 4) -> bool:
    """Press on the query at (sx, sy) and move towards `to` in steps of 6 px until the query
    follows. BokehJS turns a press held 300 ms without moving 5 px into a "press" gesture, not a
    pan, so on a busy machine a grab can miss: then release and try again."""
    x0, y0 = query_xy(page, query)
    tx, ty = to
    k = max(3, math.ceil(math.hypot(tx - sx, ty - sy) / 6))
    for _ in range(tries):
        page.mouse.move(sx, sy)
        page.mouse.down()
        for i in range(1, k + 1):
            page.mouse.move(sx + (tx - sx) * i / k, sy + (ty - sy) * i / k)
        page.wait_for_timeout(100)
        if query_xy(page, query) != (x0, y0):
            return True
        page.mouse.up()
        page.wait_for_timeout(300)
    return False


def frame_point(page, plot: str, x: float, fy: float) -> tuple[float, float]:
    """Page position of data x in `plot`, at fraction fy of the frame's height (from the top)."""
    return tuple(page.evaluate("""([n, x, fy]) => {
      const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(n));
      const r = v.canvas_view.events_el.getBoundingClientRect(), f = v.frame.bbox;
      return [r.left + v.frame.x_scale.compute(x), r.top + f.top + fy * f.height]; }""", [plot, x, fy]))


def drag_path(page, t: D.Target, n: int) -> tuple[tuple[float, float], list[tuple[float, float]], callable]:
    """Where to press, then n page positions to move through, and a test that the drag has hold.

    Round a point: a circle about the origin through the point, 2.5° (about 5 px) a move.
    A sweep: the plot's x values in turn, there and back (the scaling plate's widths)."""
    plot = t.drag["plot"]
    if "query" in t.drag:
        query = t.drag["query"]
        x, y = query_xy(page, query)
        a0 = math.degrees(math.atan2(y, x))
        radius, step = t.drag.get("radius") or math.hypot(x, y), 2.5
        start = tuple(page.evaluate(H.TO_PAGE, [plot, x, y]))
        path = [tuple(page.evaluate(H.TO_PAGE, [plot, radius * math.cos(math.radians(a0 + step * (i + 1))),
                                                radius * math.sin(math.radians(a0 + step * (i + 1)))]))
                for i in range(n)]
        return start, path, (lambda p0=(x, y): query_xy(page, query) != p0)
    xs, fy = t.drag["sweep"], t.drag["sweep_y"]
    there_and_back = xs + xs[-2:0:-1]
    order = [there_and_back[(i + 1) % len(there_and_back)] for i in range(n)]
    pts = {x: frame_point(page, plot, x, fy) for x in xs}
    return pts[xs[0]], [pts[x] for x in order], (lambda: True)


def press_on_path(page, t: D.Target, moves: int, warmup: int) -> list[tuple[float, float]]:
    """Not measured: press in the driver's plot (on the query, or at the sweep's start) and bring
    the pointer onto the path (drag_path; every position computed first). Returns the `moves`
    positions left to move through, the pointer held down."""
    plot = t.drag["plot"]
    scroll_to_plot(page, plot)
    page.evaluate("() => __bench.reset(null)")
    (sx, sy), path, _ = drag_path(page, t, warmup + moves)
    if "query" in t.drag:
        if not grab(page, plot, t.drag["query"], sx, sy, path[warmup - 1]):
            raise RuntimeError("the drag could not grab the query")
    else:
        page.mouse.move(sx, sy)
        page.mouse.down()
        for px, py in path[:warmup]:
            page.mouse.move(px, py, steps=2)
        page.wait_for_timeout(100)
    if t.need.get("drag"):
        page.evaluate("(n) => { __bench.need = n; }", t.need["drag"])
    return path[warmup:]


def drag_live(page, t: D.Target, moves: int, warmup: int = 5, phase: str = "after-frame") -> dict:
    """Press in the plot and move one move at a time, each waited for (see drag_path); with
    phase "random", each move goes after a seeded random part of a frame (phase_wait)."""
    path = press_on_path(page, t, moves, warmup)
    meter = H.CpuMeter(t.server and t.server.pid, t.idle)
    ws0 = page.evaluate("() => __bench.ws_sent")
    page.evaluate("() => __bench.reset('move')")
    wait = phase_wait(phase)
    stopped = H.each_waited(page, path, lambda xy: (wait(), page.mouse.move(*xy)), 3000)
    rs = H.rows(page)
    cpu_moves = meter.per(len(rs))
    ws_moves = page.evaluate("() => __bench.ws_sent") - ws0
    meter = H.CpuMeter(t.server and t.server.pid, t.idle)
    page.evaluate("() => __bench.reset(null)")
    page.mouse.up()
    page.wait_for_timeout(800)  # the release goes to Python once; let it finish
    cpu_release = meter.per(1)
    after = H.settle(page, t.server and t.server.pid, t.idle)
    lat, missed = H.latencies(rs)
    out = {"move_ms": H.summary(lat), "moves": len(rs), "moves_without_update": missed, **H.breakdown(rs),
           "ws_frames_sent_per_move": round(ws_moves / max(1, len(rs)), 2), "after_release": after, "phase": phase}
    if stopped:
        out["error"] = f"{H.MAX_MISSES} moves in a row got no update; stopped"
    if t.server:
        out["server_cpu_per_move"] = cpu_moves
        out["server_cpu_per_release"] = cpu_release
    return out


def drag_hand(page, t: D.Target, moves: int, warmup: int = 5) -> dict:
    """The same drag at a hand's pace: a move every 1/60 s, sent without waiting for the page (the
    sleeps are that pace), as a hand moves the pointer at 60 Hz whatever the page does. Per move:
    until the end of the frame by which every figure drawing the watched sources has painted it
    (H.shown_latencies), so a figure whose paint a page puts off to a later frame counts then."""
    figures = page.evaluate(H.HOOK_PAINTS, [s["name"] for s in t.hook[1] if s.get("name")]) if t.hook[0] == "bokeh" else []
    path = press_on_path(page, t, moves, warmup)
    page.evaluate("() => { __bench_paints.paints.length = 0; __bench.reset('move'); }")
    start = time.monotonic()
    for i, xy in enumerate(path):
        time.sleep(max(0.0, start + i * FRAME_S - time.monotonic()))
        page.mouse.move(*xy)
    page.wait_for_timeout(300)  # the last moves' frames
    rs = H.rows(page)
    paints = page.evaluate("() => __bench_paints.paints")
    page.evaluate("() => __bench.reset(null)")
    page.mouse.up()
    page.wait_for_timeout(800)  # the release goes to Python once; let it finish
    lat, missed = H.shown_latencies(rs, paints, figures)
    return {"move_ms": H.summary(lat), "moves": len(rs), "moves_without_update": missed, "figures": figures,
            "paints_per_figure": {f: sum(1 for p in paints if p["figure"] == f) for f in figures},
            "pace_ms": round(FRAME_S * 1000, 2)}


def phase_wait(phase: str):
    """What to do before each key press, click or drag move. "after-frame": nothing (the event goes
    as soon as the last update has been painted and read back, so it lands at about the same point
    of the frame clock each time). "random": wait a seeded random part of a frame first, as a
    hand's presses and moves fall anywhere in a frame (Chromium dispatches key presses and clicks
    when they come, and a move as pointerrawupdate, which our pages act on, before its frame)."""
    if phase == "after-frame":
        return lambda: None
    rng = random.Random(SEED)
    return lambda: time.sleep(rng.uniform(0.0, FRAME_S))


def clicks(page, t: D.Target, n: int, phase: str = "after-frame") -> dict:
    """n clicks (a tap on a cell, a press of a button), each waited for: pointerup -> painted update."""
    if t.need.get("click"):
        page.evaluate("(n) => { __bench.need = n; }", t.need["click"])
    first = page.evaluate(t.clicks["at"], 0)
    page.mouse.move(*first)
    page.evaluate("() => window.scrollBy(0, 0)")
    meter = H.CpuMeter(t.server and t.server.pid, t.idle)
    page.evaluate("() => __bench.reset('release')")
    wait = phase_wait(phase)

    def click(i: int) -> None:
        if i:
            page.wait_for_timeout(20)  # two clicks in a row on one spot would be a double click
        at = page.evaluate(t.clicks["at"], i)
        wait()
        page.mouse.click(*at)

    stopped = H.each_waited(page, range(n), click, 5000)
    rs = H.rows(page)
    cpu = meter.per(len(rs))
    page.evaluate("() => __bench.reset(null)")
    page.wait_for_timeout(500)
    after = H.settle(page, t.server and t.server.pid, t.idle)
    lat, missed = H.latencies(rs)
    out = {"click_ms": H.summary(lat), "clicks": len(rs), "clicks_without_update": missed, **H.breakdown(rs),
           "after_last_click": after, "what": t.clicks["label"], "phase": phase}
    if stopped:
        out["error"] = f"{H.MAX_MISSES} clicks in a row got no update; stopped"
    if t.server:
        out["server_cpu_per_click"] = cpu
    return out


def drag_release(page, t: D.Target, gestures: int, steps: int = 4) -> dict:
    """The baseline's PointDrawTool: no update during the move; time release -> bars and text."""
    plot, query = t.drag["plot"], t.drag["query"]
    scroll_to_plot(page, plot)
    rng = random.Random(SEED)
    rel, rel_rows, missed, updates_during_moves, move_events = [], [], 0, 0, 0
    meter = H.CpuMeter(t.server and t.server.pid, t.idle)
    for g in range(gestures):
        x, y = query_xy(page, query)
        a = math.degrees(math.atan2(y, x))
        r = 2.0 if g % 2 == 0 else 3.0
        a1 = a + rng.choice((-1, 1)) * 20.0
        x0, y0 = page.evaluate(H.TO_PAGE, [plot, x, y])
        x1, y1 = page.evaluate(H.TO_PAGE, [plot, r * math.cos(math.radians(a1)), r * math.sin(math.radians(a1))])
        page.evaluate("() => __bench.reset('move')")
        if not grab(page, plot, query, x0, y0, (x0 + (x1 - x0) / steps, y0 + (y1 - y0) / steps)):
            raise RuntimeError("the drag could not grab the query")
        for i in range(2, steps + 1):
            page.mouse.move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        page.wait_for_timeout(60)
        rs = H.rows(page)
        move_events += len(rs)
        updates_during_moves += sum(1 for r_ in rs if r_["update"] is not None)
        page.evaluate("() => __bench.reset('release')")
        page.mouse.up()
        if H.wait_done(page, 1, 5000):
            rr = H.rows(page)
            rel += H.latencies(rr)[0]
            rel_rows += rr
        else:
            missed += 1
        page.evaluate("() => __bench.reset(null)")
        page.wait_for_timeout(30)
    cpu = meter.per(gestures)
    after = H.settle(page, t.server and t.server.pid, t.idle)
    out = {"move": "no update until release", "move_events": move_events, "after_release": after,
           "updates_during_moves": updates_during_moves, "release_ms": H.summary(rel), "gestures": gestures,
           "releases_without_update": missed, **H.breakdown(rel_rows)}
    if t.server:
        out["server_cpu_per_gesture"] = cpu
    return out


FOCUSED = """(h) => { let e = document.activeElement;
  while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;
  return e === h; }"""


SLIDER_POSITION = """(h) => {
  const num = (a, b) => { const v = parseFloat(h.getAttribute(a) ?? h[b]); return Number.isFinite(v) ? v : null; };
  return [num("aria-valuenow", "value"), num("aria-valuemin", "min"), num("aria-valuemax", "max")];
}"""


def slider_presses(page, t: D.Target, presses: int, phase: str = "after-frame") -> dict:
    """Focus the slider's handle and press ArrowRight (or ArrowLeft, away from the nearer end)
    `presses` times, each waited for."""
    if t.slider["tag"]:
        js, arg = t.slider["tag"]
        page.evaluate(js, arg)
    handle = page.locator(t.slider["selector"]).first
    handle.evaluate("(e) => e.scrollIntoView({block: 'center'})")  # no visibility wait: may be a hidden <input>
    handle.focus()
    page.wait_for_timeout(200)
    # Step away from the nearer end (a drag before may have left the value near it).
    now, lo, hi = handle.evaluate(SLIDER_POSITION)
    key = "ArrowLeft" if None not in (now, lo, hi) and now - lo > (hi - lo) / 2 else "ArrowRight"
    if t.need.get("slider"):
        page.evaluate("(n) => { __bench.need = n; }", t.need["slider"])
    page.evaluate("() => __bench.reset('key')")
    meter = H.CpuMeter(t.server and t.server.pid, t.idle)
    state = {"key": key, "refocus": 0}
    wait = phase_wait(phase)

    def step(_) -> None:
        # Short sliders (a few tokens, eleven widths): turn round at either end (read between presses).
        pos, lo, hi = handle.evaluate(SLIDER_POSITION)
        if None not in (pos, lo, hi):
            if pos >= hi:
                state["key"] = "ArrowLeft"
            elif pos <= lo:
                state["key"] = "ArrowRight"
        wait()
        page.keyboard.press(state["key"])

    def refocus() -> None:
        if not handle.evaluate(FOCUSED):  # the page took the focus away: give it back, note it
            state["refocus"] += 1
            handle.focus()

    stopped = H.each_waited(page, range(presses), step, 5000, on_miss=refocus)
    key = state["key"]
    rs = H.rows(page)
    cpu = meter.per(len(rs))
    page.evaluate("() => __bench.reset(null)")
    page.wait_for_timeout(500)
    after = H.settle(page, t.server and t.server.pid, t.idle)
    lat, missed = H.latencies(rs)
    out = {"press_ms": H.summary(lat), "presses": len(rs), "presses_without_update": missed, **H.breakdown(rs),
           "after_last_press": after, "focus_lost": state["refocus"], "key": key, "start_value": now, "phase": phase}
    if stopped:
        out["error"] = f"{H.MAX_MISSES} presses in a row got no update; stopped"
    if t.server:
        out["server_cpu_per_press"] = cpu
    return out


def interactions(browser, t: D.Target, a: argparse.Namespace) -> dict:
    out: dict = {}
    if t.drag is None and t.slider is None and t.clicks is None:
        return out
    t0 = time.monotonic()
    ctx, page, _, errors = H.open_page(browser, t.url, t.ready)
    out["first_load"] = {"ready_ms": round(page.evaluate("() => __bench.ready_at"), 1),
                         "wall_s": round(time.monotonic() - t0, 2),
                         "note": "the first page after the server started (not cold-load statistics)"}
    try:
        install_hooks(page, t)
        if t.server:
            page.wait_for_timeout(1000)
            t.idle = H.idle_cpu_rate(t.server.pid)
            out["server_idle_cpu_ms_per_s"] = t.idle
        if t.drag is not None:
            try:
                out["drag"] = (drag_live(page, t, a.moves, phase=a.key_phase) if t.drag["live"]
                               else drag_release(page, t, a.gestures))
            except Exception as exc:  # noqa: BLE001 - recorded; the slider is still measured
                out["drag"] = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
                page.mouse.up()
            if t.drag["live"]:
                try:
                    out["hand"] = drag_hand(page, t, a.moves)
                except Exception as exc:  # noqa: BLE001
                    out["hand"] = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
                    page.mouse.up()
        if t.slider is not None:
            try:
                compared = t.key.split(".")[0] == "lookup" or t.key in COMPARED
                out["slider"] = slider_presses(page, t, a.compare_presses if compared else a.presses, a.key_phase)
            except Exception as exc:  # noqa: BLE001
                out["slider"] = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
        if t.clicks is not None:
            try:
                out["click"] = clicks(page, t, a.clicks, a.key_phase)
            except Exception as exc:  # noqa: BLE001
                out["click"] = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
        out["page_errors"] = errors[:5]
    finally:
        ctx.close()
    return out


# The pages compared with the lookup plate, which get the comparison's presses and loads.
COMPARED = ("baseline", "floor", "streamlit", "voila")


def measure(browser, t: D.Target, a: argparse.Namespace) -> dict:
    """Everything for one page. Pages with something to drive also get memory and interactions;
    the others (plates without a driver) cold load and bytes only. Errors are recorded, not raised."""
    full = t.drag is not None or t.slider is not None or t.clicks is not None
    res: dict = {"label": t.label, "url": t.url, "note": t.note, "loadavg_start": os.getloadavg()}
    t0, st0 = time.monotonic(), H.cpu_stat()
    try:
        # Interactions first, on a fresh server: the sessions later loads leave behind are
        # destroyed (and garbage-collected) in the background, which would blur CPU per interaction.
        if full and not a.cold_only:
            log(f"{t.label}: interactions")
            res.update(interactions(browser, t, a))
            for k in ("drag", "hand", "slider", "click"):
                if get(res, k, "error"):
                    log(f"{t.label}: {k}: {res[k]['error'][:200]}")
            if t.server is not None and (t.key.split(".")[0] in a.memory_plates or t.key in ("baseline", "streamlit", "voila")):
                log(f"{t.label}: memory")
                res["memory"] = memory(browser, t, a.pages)
        elif t.server is not None:  # warm the server's first session for this page (imports) over plain HTTP
            with urllib.request.urlopen(t.url, timeout=120) as r:
                r.read()
        compared = t.key.split(".")[0] == "lookup" or t.key in COMPARED
        n = a.compare_loads if compared else a.loads  # the pages compared with the peers get the peers' count
        log(f"{t.label}: {n} cold loads")
        res["cold"] = cold_loads(browser, t, n, a.load_gap)
    except Exception as exc:  # noqa: BLE001 - a broken page is a result too; the run goes on
        res["error"] = f"{type(exc).__name__}: {str(exc)[:600]}"
        log(f"{t.label}: ERROR {res['error'][:200]}")
    if t.server:
        res["server_log_tail"] = t.server.log()[-1500:]
    res["loadavg_end"] = os.getloadavg()
    res["machine_busy"] = H.busy_fraction(st0, H.cpu_stat())  # all processes, ours included
    res["seconds"] = round(time.monotonic() - t0, 1)
    return res


def floor_served(browser, t: D.Target, a: argparse.Namespace) -> dict:
    """The floor's page from Bokeh's server: the server's RSS (one page, per extra page) and its
    CPU per cold load, the floor of our server's and the baseline's figures."""
    res: dict = {"label": t.label, "url": t.url, "note": t.note}
    try:
        if not a.cold_only:
            log(f"{t.label}: memory")
            res["memory"] = memory(browser, t, a.pages)
        ctx, _, _, _ = H.open_page(browser, t.url, t.ready)  # the server's first session (imports)
        ctx.close()
        time.sleep(1.0)
        t.idle = H.idle_cpu_rate(t.server.pid)
        log(f"{t.label}: {a.compare_loads} cold loads")
        res["cold"] = cold_loads(browser, t, a.compare_loads, a.load_gap)
    except Exception as exc:  # noqa: BLE001 - recorded, as measure() does
        res["error"] = f"{type(exc).__name__}: {str(exc)[:600]}"
        log(f"{t.label}: ERROR {res['error'][:200]}")
    res["server_log_tail"] = t.server.log()[-1500:]
    return res


# --- the run --------------------------------------------------------------------------------------
def versions(peers: Path | None) -> dict:
    import importlib.metadata

    import bokeh
    import numpy
    import panel

    out = {"python": platform.python_version(), "panel": panel.__version__, "bokeh": bokeh.__version__,
           "numpy": numpy.__version__, "playwright": importlib.metadata.version("playwright"),
           "cpus": os.cpu_count(), "machine": platform.machine(), "kernel": platform.release()}
    try:
        out["chromium"] = subprocess.run([H.CHROMIUM, "--version"], capture_output=True, text=True,
                                         timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        out["chromium"] = "?"
    if peers:
        code = ("import importlib.metadata as m; print(' '.join(f'{p}={m.version(p)}' for p in "
                "('streamlit', 'voila', 'ipywidgets', 'jupyter_server', 'ipykernel')))")
        r = subprocess.run([str(peers / "bin" / "python"), "-c", code], capture_output=True, text=True, timeout=60)
        out["peers"] = r.stdout.strip() or r.stderr.strip()[-300:]
    return out


def run(a: argparse.Namespace) -> dict:
    from playwright.sync_api import sync_playwright

    from app.plates import registry

    started = time.monotonic()
    load0 = os.getloadavg()
    slugs = a.plates or registry.slugs()
    peers = Path(a.peers).resolve() if a.peers else None
    result: dict = {"settings": {"loads": a.loads, "compare_loads": a.compare_loads, "moves": a.moves, "presses": a.presses, "compare_presses": a.compare_presses, "clicks": a.clicks, "key_phase": a.key_phase,
                                 "memory_plates": a.memory_plates, "cold_only": a.cold_only, "gestures": a.gestures,
                                 "extra_pages": a.pages, "seed": SEED, "niceness": a.niceness, "viewport": H.VIEWPORT,
                                 "chromium_args": H.CHROMIUM_ARGS + a.chromium_args},
                    "versions": versions(peers), "plates": {}, "core": {}, "notes": []}
    result["plates"] = {s: {"driver": (D.DRIVERS[s].__dict__ | {"core": None}) if s in D.DRIVERS else None}
                        for s in slugs}
    for s in slugs:
        d = D.DRIVERS.get(s)
        if d is not None:
            log(f"{s}: attention_core timings")
            result["core"][s] = D.time_core(d)
        else:
            result["notes"].append(f"{s}: no driver yet, so only cold load and bytes are measured")

    tmp = Path(tempfile.mkdtemp(prefix="bench-"))
    servers: list[H.Server] = []
    before_tree: list[Path] = []

    def server(name: str, cmd: list[str], path: str, health: str, env: dict | None = None,
               cwd: Path = REPO, timeout: float = 90.0) -> H.Server:
        port = H.free_port()
        srv = H.Server(name, [c.replace("{port}", str(port)) for c in cmd], f"http://localhost:{port}{path}",
                       f"http://localhost:{port}{health}", tmp / f"{name}.log", cwd, env or {})
        servers.append(srv)
        log(f"starting {name} on port {port}")
        t0 = time.monotonic()
        srv.start(timeout)
        log(f"{name} up in {time.monotonic() - t0:.1f} s")
        return srv

    def start_baseline():
        srv = server("baseline", [str(Path(sys.executable).with_name("panel")), "serve",
                                  str(HERE / "baseline_app.py"), "--port", "{port}", "--address", "localhost",
                                  "--liveness"], "/baseline_app", "/liveness")
        return srv.url, srv

    def start_floor():
        srv = server("floor", [sys.executable, str(HERE / "floor_page.py"), "--serve", "{port}"], "/", "/")
        return srv.url, srv

    def start_streamlit():
        srv = server("streamlit", [str(peers / "bin" / "streamlit"), "run", str(HERE / "peers" / "streamlit_app.py"),
                                   "--server.port", "{port}", "--server.address", "localhost",
                                   "--server.headless", "true", "--browser.gatherUsageStats", "false",
                                   "--server.fileWatcherType", "none"], "/", "/_stcore/health")
        return srv.url, srv

    def start_voila():
        j = tmp / "jupyter"
        env = {"JUPYTER_PLATFORM_DIRS": "1", "JUPYTER_CONFIG_DIR": str(j / "config"),
               "JUPYTER_DATA_DIR": str(j / "data"), "JUPYTER_RUNTIME_DIR": str(j / "runtime")}
        srv = server("voila", [str(peers / "bin" / "voila"), str(HERE / "peers" / "voila_app.ipynb"),
                               "--port={port}", "--no-browser", "--Voila.ip=localhost"],
                     "/", "/voila/static/voila.js", env=env)  # GET / would start a kernel
        return srv.url, srv

    def guarded(fn) -> dict:
        """A page that cannot be served is a result too ({"error": ...}); the run goes on."""
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001
            log(f"ERROR {type(exc).__name__}: {str(exc)[:300]}")
            return {"error": f"{type(exc).__name__}: {str(exc)[:600]}"}
        finally:
            for srv in servers:
                srv.stop()

    try:
        # Ours, and with --before REF the same pages from another commit (a git worktree of REF),
        # measured in turn plate by plate so both see the same machine.
        variants = [("", REPO)]
        if a.before:
            wt = tmp / "before"
            subprocess.run(["git", "worktree", "add", "--detach", str(wt), a.before], cwd=REPO, check=True,
                           capture_output=True, text=True)
            before_tree.append(wt)
            variants.append(("before", wt))
            result["before"] = {"ref": a.before, "commit": subprocess.run(
                ["git", "rev-parse", a.before], cwd=REPO, capture_output=True, text=True).stdout.strip(), "plates": {}}
        exports = {}
        t0 = time.monotonic()
        for tag, root in variants:
            log(f"exporting every plate{' (' + tag + ')' if tag else ''}")
            exp = tmp / f"export{'-' + tag if tag else ''}"
            exports[tag] = exp
            r = subprocess.run([sys.executable, "-m", "app", "export", str(exp)], cwd=root, capture_output=True,
                               text=True, timeout=600)
            if r.returncode != 0:  # one broken plate: export the others one by one
                result["notes"].append(f"export of every plate failed ({r.stderr.strip()[-300:]}); exported one by one")
                for s in slugs:
                    r = subprocess.run([sys.executable, "-m", "app", "export", str(exp), "--plate", s], cwd=root,
                                       capture_output=True, text=True, timeout=600)
                    if r.returncode != 0:
                        result["plates"][s]["export_error"] = r.stderr.strip()[-600:]
        result["export_seconds"] = round(time.monotonic() - t0, 1)

        def store(tag: str, slug: str, where: str, r: dict) -> None:
            if tag:
                result["before"]["plates"].setdefault(slug, {})[where] = r
            else:
                result["plates"][slug][where] = r
            # What is measured so far, in case the run is stopped (bench.json comes at the end).
            Path(a.out).mkdir(parents=True, exist_ok=True)
            (Path(a.out) / "bench.partial.json").write_text(H.dumps(result), encoding="utf-8")

        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=H.CHROMIUM, args=H.CHROMIUM_ARGS + a.chromium_args)
            try:
                if "served" not in a.skip:
                    # A fresh server per plate, as the baseline and the peers each get theirs: on
                    # one server for all, the sessions an earlier plate's cold loads left behind
                    # were destroyed (and garbage-collected) while the next plate's keys were
                    # counted (masking: 6.4 ms of server CPU per key after self-attention, 3.9 on
                    # its own server).
                    for s in slugs:
                        try:
                            for tag, root in variants:
                                srv = server(f"ours{'-' + tag if tag else ''}-{s}",
                                             [sys.executable, "-m", "app", "serve", "--port", "{port}"], "/",
                                             "/liveness", cwd=root)
                                try:
                                    t = D.ours(s, f"{srv.url.rstrip('/')}/{s}", D.DRIVERS.get(s), True, srv)
                                    store(tag, s, "served", measure(browser, t, a))
                                finally:
                                    srv.stop()
                        except RuntimeError as exc:  # the server did not start
                            result["plates"][s].setdefault("served", {"error": str(exc)[:600]})
                        finally:
                            for srv in servers:
                                srv.stop()
                for s in ([] if "exported" in a.skip else slugs):
                    for tag, exp in exports.items():
                        d = D.DRIVERS.get(s)
                        f = exp / f"{s}.html"
                        if not f.is_file():
                            store(tag, s, "exported", {"error": "not exported"})
                            continue
                        t = D.ours(s, f.resolve().as_uri(), d, False)
                        r = measure(browser, t, a)
                        r["file_bytes"] = f.stat().st_size
                        store(tag, s, "exported", r)

                if "baseline" not in a.skip:
                    result["baseline"] = guarded(lambda: measure(browser, D.baseline(*start_baseline()), a))
                if "floor" not in a.skip:
                    import floor_page

                    result["floor"] = guarded(lambda: measure(
                        browser, D.floor(floor_page.write(tmp / "floor" / "floor.html").resolve().as_uri()), a))
                    if isinstance(result["floor"], dict):  # its server figures: the same page from Bokeh's server
                        result["floor"]["served"] = guarded(lambda: floor_served(browser, D.floor(*start_floor()), a))
                        # Its drag: the same app with its query dragged, driven as the lookup's query is.
                        got = guarded(lambda: interactions(browser, D.floor_drag(
                            floor_page.write(tmp / "floor" / "floor-drag.html", drag=True).resolve().as_uri()), a))
                        result["floor"]["drag"] = got.get("drag", got)  # or the page's error
                        result["floor"]["hand"] = got.get("hand", got)
                        result["floor"]["drag_page_errors"] = got.get("page_errors", [])
                    # The heavy plates' own floors: their shown figures in Bokeh alone, and with
                    # the browser-side workarounds (benchmarks/plate_floors.py), beside their exported pages.
                    import plate_floors

                    for s in ([] if "exported" in a.skip else [s for s in slugs if s in plate_floors.FLOORS]):
                        for key, patched in (("floor", False), ("floor_patched", True)):
                            f = plate_floors.write(s, tmp / key / f"{s}.html", patched)
                            result["plates"][s][key] = guarded(
                                lambda s=s, f=f, patched=patched: measure(browser, D.plate_floor(s, f.resolve().as_uri(),
                                                                                                   patched), a))
                if peers:
                    result["peers"] = {
                        "streamlit": guarded(lambda: measure(browser, D.streamlit(*start_streamlit()), a)),
                        "voila": guarded(lambda: measure(browser, D.voila(*start_voila()), a)),
                    }
                for srv in servers:
                    srv.stop()
            finally:
                browser.close()
    finally:
        for srv in servers:
            srv.stop()
        for wt in before_tree:
            subprocess.run(["git", "worktree", "remove", "--force", str(wt)], cwd=REPO, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    result["elapsed_s"] = round(time.monotonic() - started, 1)
    result["loadavg_start"], result["loadavg_end"] = load0, os.getloadavg()
    return result


# --- the table ------------------------------------------------------------------------------------
def get(d, *path):
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d


def fmt(v, unit: str) -> str:
    if v is None:
        return "—"
    if isinstance(v, str):
        return v
    if unit == "ms":
        return f"{v:.1f} ms" if v < 100 else f"{v:.0f} ms"
    if unit == "s":
        return f"{v / 1000:.2f} s"
    if unit == "MB":
        return f"{v:.1f} MB"
    if unit == "B":
        return f"{v / 1e6:.2f} MB" if v >= 1e5 else f"{v / 1e3:.1f} kB"
    if unit == "/s":
        return f"{v:.1f}/s"
    if unit == "ms/s":
        return f"{v:.1f} ms/s"
    if unit == "µs":
        return f"{v:.1f} µs"
    return f"{v}"


def ratio(base, ours) -> str:
    """How many times smaller (better) ours is than the other: other ÷ ours."""
    if not isinstance(base, (int, float)) or not isinstance(ours, (int, float)):
        return "—"
    if ours <= 0:
        return "∞" if base > 0 else "—"
    return f"{base / ours:.1f}×" if base / ours < 100 else f"{base / ours:.0f}×"


METRICS = [
    # label, path in a target's result, unit
    ("drag: move → bars & numbers, median", ("drag", "move_ms", "median"), "ms"),
    ("drag: move → bars & numbers, p95", ("drag", "move_ms", "p95"), "ms"),
    ("drag at a hand's pace (a move every 1/60 s) → shown, median", ("hand", "move_ms", "median"), "ms"),
    ("drag at a hand's pace (a move every 1/60 s) → shown, p95", ("hand", "move_ms", "p95"), "ms"),
    ("slider: arrow key → bars & numbers, median", ("slider", "press_ms", "median"), "ms"),
    ("slider: arrow key → bars & numbers, p95", ("slider", "press_ms", "p95"), "ms"),
    ("click: tap / button → update, median", ("click", "click_ms", "median"), "ms"),
    ("click: tap / button → update, p95", ("click", "click_ms", "p95"), "ms"),
    ("cold load → first complete render, median", ("cold", "ready_ms", "median"), "s"),
    ("cold load → first complete render, p95", ("cold", "ready_ms", "p95"), "s"),
    ("bytes per page (HTTP + websocket)", ("cold", "bytes", "total_bytes"), "B"),
    ("… of which websocket", ("cold", "bytes", "ws_bytes"), "B"),
    ("server CPU per slider press", ("slider", "server_cpu_per_press", "ms_per"), "ms"),
    ("server CPU per drag move", ("drag", "server_cpu_per_move", "ms_per"), "ms"),
    ("server CPU per click", ("click", "server_cpu_per_click", "ms_per"), "ms"),
    ("server CPU per drag release (baseline: per gesture)", ("drag", "server_cpu_per_release", "ms_per"), "ms"),
    ("server CPU per page load", ("cold", "server_cpu_per_load", "ms_per"), "ms"),
    ("after a drag ends: frames sent to the server per s", ("drag", "after_release", "ws_frames_sent_per_s"), "/s"),
    ("after a drag ends: server CPU per s above idle", ("drag", "after_release", "server_cpu_ms_per_s"), "ms/s"),
    ("server RSS after one page", ("memory", "rss_one_page_mb"), "MB"),
    ("server RSS per extra open page", ("memory", "rss_per_page_mb"), "MB"),
]


def cell(r: dict | None, path, unit, kind: str) -> object:
    """The raw number (or a phrase) for a metric of one target."""
    if r is None:
        return None
    v = get(r, *path)
    if v is not None:
        return v
    if path[0] in ("drag", "hand"):
        if kind == "baseline" and path[1] == "move_ms":
            return "no update until release"
        if kind == "peer" or (kind == "floor" and get(r, path[0]) is None):
            return "no draggable plot"
    if kind in ("exported", "floor") and any(x.startswith(("server", "rss")) for x in path):
        # the floor's server figures are its page's from Bokeh's server (floor_served)
        served = get(r, "served", *path) if kind == "floor" else None
        return served if served is not None else "no server"
    if kind == "baseline" and path[:2] == ("drag", "server_cpu_per_release"):
        return get(r, "drag", "server_cpu_per_gesture", "ms_per")
    if kind == "baseline" and path[:2] == ("drag", "server_cpu_per_move"):
        return "nothing sent during the move"
    if kind in ("served", "exported") and path[0] in ("drag", "hand", "slider") and not get(r, "note") == "":
        return "no driver"
    return None


def baseline_value(base: dict, path):
    """The baseline's number to compare with: for a drag move (either pace), its release → update."""
    if path[0] in ("drag", "hand") and path[1] == "move_ms":
        return get(base, "drag", "release_ms", path[2])
    if path[:2] == ("drag", "server_cpu_per_release"):
        return get(base, "drag", "server_cpu_per_gesture", "ms_per")
    return get(base, *path)


def floors_of(p: dict, floor: dict | None) -> tuple[dict | None, dict | None]:
    """The floor column of a plate's rows: its own floor page when it has one (benchmarks/plate_floors.py), else the
    minimal app's; and its floor with the workarounds, if measured."""
    own = p.get("floor")
    return (own if isinstance(own, dict) else floor), p.get("floor_patched")


def table(res: dict) -> str:
    base = res.get("baseline") or {}
    peers = res.get("peers") or {}
    floor = res.get("floor")
    lines = []
    for slug, p in res["plates"].items():
        served, exported = p.get("served"), p.get("exported")
        pfloor, patched = floors_of(p, floor)
        head = ["metric", "ours served", "× baseline", "ours exported", "× baseline", "baseline (Panel)"]
        head += ["floor (Bokeh only)"] if pfloor else []
        head += ["floor with the workarounds"] if patched else []
        head += [peers[k].get("label", k) for k in peers]
        if peers:
            head += ["× best peer (served)", "× best peer (exported)"]
        lines += [f"### {slug}" + ("" if p.get("driver") else " (no driver yet: cold load and bytes only)"), "",
                  "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for label, path, unit in METRICS:
            if not p.get("driver") and path[0] != "cold":
                continue
            s, e = cell(served, path, unit, "served"), cell(exported, path, unit, "exported")
            if path[0] in ("drag", "hand", "slider", "click") and get(served, path[0]) is None and get(exported, path[0]) is None:
                continue  # the plate has no such control
            b = cell(base, path, unit, "baseline")
            bv = baseline_value(base, path)
            row = [label, fmt(s, unit), ratio(bv, s), fmt(e, unit), ratio(bv, e)]
            bcell = fmt(b, unit)
            if path[0] in ("drag", "hand") and path[1] == "move_ms":
                rel = get(base, "drag", "release_ms", path[2])
                bcell = f"no update until release (release → update {fmt(rel, unit)})" if rel is not None else bcell
            row.append(bcell)
            row += [fmt(cell(f, path, unit, "floor"), unit) for f in (pfloor, patched) if f]
            pv = [cell(peers[k], path, unit, "peer") for k in peers]
            row += [fmt(v, unit) for v in pv]
            if peers:
                # the peers' slider figure is slider -> output text; drag has no peer counterpart
                nums = [v for v in pv if isinstance(v, (int, float))]
                best = min(nums) if nums else None
                row += [ratio(best, s), ratio(best, e)]
            lines.append("| " + " | ".join(row) + " |")
        core = res.get("core", {}).get(slug)
        if core:
            lines.append("")
            lines.append("attention_core per call (timeit, best of 5, the plate's sizes): " + "; ".join(
                f"{k} {v['us_per_call']:.1f} µs" for k, v in core.items()) + " (the baseline calls the same core).")
        lines.append("")
    lines.append("× = the other's figure ÷ ours (above 1: ours is smaller/faster). For drag, the baseline has no "
                 "update during the move, so ours is compared with its release → update. Peers' slider figure is "
                 "slider → output text; ours and the baseline's wait for bars and numbers both."
                 + (" The floor is the minimal app in Bokeh alone, one static file (benchmarks/floor_page.py): what "
                    "BokehJS itself costs for such a page, a reference, not a peer; its server rows are the same page "
                    "from Bokeh's own server, a session per page, and its drag rows the same file with the baseline's "
                    "plot of the keys beside it, the query dragged (floor_page.py --drag)." if floor else "")
                 + (" For " + " and ".join(s for s, p in res["plates"].items() if p.get("floor")) + " the floor is the "
                    "plate's own: its shown figures in Bokeh alone, every n's data worked out beforehand "
                    "(benchmarks/plate_floors.py), without and with the browser-side workarounds on BokehJS."
                    if any(p.get("floor") for p in res["plates"].values()) else ""))
    loads = []
    for slug, p in res["plates"].items():
        for k in ("served", "exported", "floor", "floor_patched"):
            if isinstance(p.get(k), dict) and "machine_busy" in p[k]:
                loads.append(f"{slug} {k.replace('_', ' ')} {p[k]['machine_busy']:.0%}")
    for k, r in [("baseline", base), ("floor", floor or {}), *peers.items()]:
        if r and "machine_busy" in r:
            loads.append(f"{k} {r['machine_busy']:.0%}")
    lines.append("")
    lines.append(f"Machine: {res['versions'].get('cpus')} CPUs, {res['versions'].get('chromium')}; load average "
                 f"{res.get('loadavg_start', ['?'])[0]} at the start. CPU busy (all processes, ours included) while "
                 "each page was measured: " + ", ".join(loads) + ".")
    if res.get("settings", {}).get("key_phase") == "random":
        lines.append("Key presses, clicks and drag moves went after a seeded random part of a frame (--key-phase random).")
    if res.get("notes"):
        lines += [""] + [f"- {n}" for n in res["notes"]]
    return "\n".join(lines) + "\n"


SUMMARY_METRICS = [
    ("drag move → update, median", ("drag", "move_ms", "median"), "ms"),
    ("drag move → update, p95", ("drag", "move_ms", "p95"), "ms"),
    ("drag at a hand's pace → shown, median", ("hand", "move_ms", "median"), "ms"),
    ("slider key → update, median", ("slider", "press_ms", "median"), "ms"),
    ("slider key → update, p95", ("slider", "press_ms", "p95"), "ms"),
    ("click → update, median", ("click", "click_ms", "median"), "ms"),
    ("cold load, median", ("cold", "ready_ms", "median"), "s"),
    ("bytes per page", ("cold", "bytes", "total_bytes"), "B"),
    ("server CPU per page load", ("cold", "server_cpu_per_load", "ms_per"), "ms"),
    ("server CPU per slider key", ("slider", "server_cpu_per_press", "ms_per"), "ms"),
    ("server CPU per drag release", ("drag", "server_cpu_per_release", "ms_per"), "ms"),
]


def summary_table(res: dict) -> str:
    """Every plate in one table: ours served and exported, the baseline, the best peer, the ratios."""
    base = res.get("baseline") or {}
    peers = res.get("peers") or {}
    floor = res.get("floor")
    head = ["plate", "figure", "served", "× baseline", "exported", "× baseline", "baseline (Panel)"]
    if floor:
        head += ["floor (Bokeh only)"]
    if peers:
        head += ["best peer", "× best peer (served / exported)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for slug, p in res["plates"].items():
        served, exported = p.get("served") or {}, p.get("exported") or {}
        for label, path, unit in SUMMARY_METRICS:
            sv, ev = get(served, *path), get(exported, *path)
            if sv is None and ev is None:
                continue
            bv = baseline_value(base, path)
            bcell = fmt(bv, unit)
            if path[0] in ("drag", "hand") and path[1] == "move_ms" and bv is not None:
                bcell = f"{fmt(bv, unit)} (release → update; nothing during the move)"
            row = [slug, label, fmt(sv, unit), ratio(bv, sv), fmt(ev, unit), ratio(bv, ev), bcell]
            if floor:
                pfloor, patched = floors_of(p, floor)
                fc = fmt(cell(pfloor, path, unit, "floor"), unit)
                if patched and isinstance(get(patched, *path), (int, float)):
                    fc += f" (its figures; {fmt(get(patched, *path), unit)} with the browser-side workarounds)"
                row.append(fc)
            if peers:
                pv = {k: get(peers[k], *path) for k in peers}
                nums = {k: v for k, v in pv.items() if isinstance(v, (int, float))}
                if nums and path[0] not in ("drag", "hand"):
                    k = min(nums, key=nums.get)
                    row += [f"{fmt(nums[k], unit)} ({peers[k].get('label', k)})",
                            f"{ratio(nums[k], sv)} / {ratio(nums[k], ev)}"]
                else:
                    row += ["—", "—"]
            lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


BEFORE_METRICS = [m for m in METRICS if m[1][0] in ("drag", "hand", "slider", "click", "cold")
                  or m[1][:2] == ("cold", "server_cpu_per_load")]


def before_table(res: dict) -> str:
    """Ours next to the same pages at --before REF, measured in turn in this run: before ÷ ours."""
    b = res.get("before")
    if not b:
        return ""
    lines = [f"### ours ÷ before ({b['ref']}, {b['commit'][:10]}), measured in turn in this run", "",
             "| plate | metric | served now | served before | × before | exported now | exported before | × before |",
             "|---|---|---|---|---|---|---|---|"]
    for slug, p in res["plates"].items():
        old = b["plates"].get(slug, {})
        for label, path, unit in BEFORE_METRICS:
            vals = [get(p.get("served"), *path), get(old.get("served"), *path),
                    get(p.get("exported"), *path), get(old.get("exported"), *path)]
            if all(v is None for v in vals):
                continue
            lines.append(f"| {slug} | {label} | {fmt(vals[0], unit)} | {fmt(vals[1], unit)} | {ratio(vals[1], vals[0])} | "
                         f"{fmt(vals[2], unit)} | {fmt(vals[3], unit)} | {ratio(vals[3], vals[2])} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--peers", metavar="VENV", help="also measure Streamlit and Voila served from this venv")
    ap.add_argument("--loads", type=int, default=None,
                    help="cold loads per page (default 10; with --peers 15 for the lookup, baseline and peers)")
    ap.add_argument("--moves", type=int, default=100, help="drag moves per page (>= 100)")
    ap.add_argument("--presses", type=int, default=100, help="arrow-key presses per slider")
    ap.add_argument("--compare-presses", type=int, default=150,
                    help="presses on the pages compared with the peers (the lookup, the baseline, the peers)")
    ap.add_argument("--memory-plates", default="lookup",
                    help="comma-separated plates whose server memory per open page is measured (the baseline's and "
                         "peers' always are)")
    ap.add_argument("--chromium-arg", dest="chromium_args", action="append", default=[],
                    help="an extra Chromium flag (repeatable), e.g. --chromium-arg=--disable-frame-rate-limit")
    ap.add_argument("--table-from", metavar="JSON", help="print the tables of an earlier run's bench.json and exit")
    ap.add_argument("--load-gap", type=float, default=0.0, help="seconds between one cold load's end and the next")
    ap.add_argument("--cold-only", action="store_true", help="cold loads and bytes only (no interactions, no memory)")
    ap.add_argument("--clicks", type=int, default=100, help="clicks on a plate's cells or buttons (>= 100)")
    ap.add_argument("--key-phase", choices=("after-frame", "random"), default="after-frame",
                    help="when each key press, click and drag move goes: as soon as the last update has "
                         "been read back, or after a seeded random part of a frame more (see phase_wait)")
    ap.add_argument("--gestures", type=int, default=30, help="baseline drag gestures (release → update)")
    ap.add_argument("--pages", type=int, default=4, help="extra open pages for the memory figure")
    ap.add_argument("--skip", action="append", default=[], choices=["served", "exported", "baseline", "floor"],
                    help="leave out a group of pages (for quick reruns while developing)")
    ap.add_argument("--before", metavar="GITREF",
                    help="also measure the same pages at another commit (a git worktree), in turn with ours, "
                         "and print ours ÷ before")
    ap.add_argument("--plate", dest="plates", action="append", help="only this plate (repeatable)")
    ap.add_argument("--no-nice", dest="nice", action="store_false",
                    help="do not raise the run's priority (by default it tries nice -10, which needs root)")
    ap.add_argument("--out", default=str(HERE / "results"), help="where bench.json and bench.md go")
    a = ap.parse_args(argv)
    a.memory_plates = [x.strip() for x in a.memory_plates.split(",") if x.strip()]
    a.compare_loads = a.loads if a.loads is not None else (15 if a.peers else 10)
    if a.loads is None:
        a.loads = 10
    a.niceness = 0
    if a.nice:  # other work on the machine disturbs the timings less (children inherit it)
        try:
            os.nice(-10)
            a.niceness = -10
        except OSError:
            pass
    if a.table_from:  # print the tables of an earlier run
        res = json.loads(Path(a.table_from).read_text(encoding="utf-8"))
        print(summary_table(res) + "\n" + table(res) + ("\n" + before_table(res) if res.get("before") else ""))
        return 0
    res = run(a)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench.json").write_text(H.dumps(res), encoding="utf-8")  # first: a table bug must not lose the run
    md = ("## Every plate\n\n" + summary_table(res) + "\n" + table(res)
          + ("\n" + before_table(res) if res.get("before") else ""))
    (out / "bench.json").write_text(H.dumps(res), encoding="utf-8")
    (out / "bench.md").write_text(md, encoding="utf-8")
    print()
    print(md)
    log(f"wrote {out / 'bench.json'} and {out / 'bench.md'} in {res['elapsed_s']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
