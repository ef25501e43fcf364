"""Where a drag move's or a slider press's time goes on a plate's page, from a Chromium trace.

    .venv/bin/python benchmarks/profile_live.py [--plate lookup] [--served] [--moves 50] [--presses 50]

Drives the page as benchmarks/run.py does (one move or press at a time, each waited for) under
a Chromium performance trace (devtools.timeline) and the JS sampling profiler, then reports per
interaction:
- the latency the suite measures (event -> watched models changed -> next frame);
- main-thread time by kind (script, style, layout, paint, other) from the trace's top-level
  events, and how many layouts, style recalculations and paints each interaction caused;
- BokehJS's own counts, from wrapping its view methods in the page: document layouts
  (LayoutDOMView.compute_layout reaching a root), Div re-renders, canvas repaints (PlotView.paint),
  and model change signals emitted;
- JS self and inclusive time by function (CDP Profiler).
Writes results/profile_live.json and prints a summary.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(REPO))

import _drivers as D  # noqa: E402
import _harness as H  # noqa: E402
import profile_load as P  # noqa: E402

# Counters in the page: wrap the methods of every BokehJS view once (instances, not prototypes:
# the classes are not reachable from outside the bundle).
COUNTERS = r"""() => {
  const C = window.__live_counts = {layouts: 0, layout_ms: 0, rerenders: 0, paints: 0, paint_ms: 0, changes: 0,
                                     by_paint: {}, by_paint_ms: {}, by_rerender: {}, by_change: {}};
  const d = Bokeh.documents[0];
  const seen = new Set();
  const wrap = (obj, name, fn) => {
    const orig = obj[name];
    if (typeof orig !== "function") return;
    obj[name] = function () { return fn.call(this, orig, arguments); };
  };
  const visit = (v) => {
    if (!v || seen.has(v)) return;
    seen.add(v);
    const label = (v.model.name || v.model.type);
    if (v.is_layout_root === true) wrap(v, "compute_layout", function (orig, args) {
      const t = performance.now(); try { return orig.apply(this, args); } finally { C.layouts += 1; C.layout_ms += performance.now() - t; }
    });
    if (typeof v.rerender === "function" && /Div|Markup|Paragraph|DataTable/.test(v.model.type)) wrap(v, "rerender", function (orig, args) {
      C.rerenders += 1; C.by_rerender[label] = (C.by_rerender[label] || 0) + 1; return orig.apply(this, args);
    });
    if (typeof v.repaint === "function" && v.model.type === "Figure") wrap(v, "paint", function (orig, args) {
      const t = performance.now(); try { return orig.apply(this, args); } finally {
        const ms = performance.now() - t;
        C.paints += 1; C.paint_ms += ms; C.by_paint[label] = (C.by_paint[label] || 0) + 1;
        C.by_paint_ms[label] = (C.by_paint_ms[label] || 0) + ms; }
    });
    for (const c of (v.children_views ? v.children_views() : [])) visit(c);
  };
  for (const r of d.roots()) visit(Bokeh.index.find_one(r));
  for (const m of d.all_models) m.change.connect(() => { C.changes += 1; const k = m.name || m.type; C.by_change[k] = (C.by_change[k] || 0) + 1; });
  return seen.size;
}"""

RESET = "() => { const C = window.__live_counts; for (const k of Object.keys(C)) C[k] = typeof C[k] === 'number' ? 0 : {}; }"

KINDS = {  # trace event name -> kind of main-thread work
    "FunctionCall": "script", "EvaluateScript": "script", "EventDispatch": "script", "TimerFire": "script",
    "FireAnimationFrame": "script", "RunMicrotasks": "script", "V8.Execute": "script",
    "UpdateLayoutTree": "style", "RecalculateStyles": "style", "ParseAuthorStyleSheet": "style",
    "Layout": "layout", "Paint": "paint", "PaintImage": "paint", "CompositeLayers": "paint",
    "Layerize": "paint", "PrePaint": "paint", "UpdateLayer": "paint", "Commit": "paint",
    "GPUTask": "paint", "RasterTask": "raster", "ScrollLayer": "paint",
}


def trace_summary(raw: bytes, n: int) -> dict:
    events = json.loads(raw)
    events = events.get("traceEvents", events) if isinstance(events, dict) else events
    # The renderer's main thread: the thread named CrRendererMain with the most events.
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    counts = collections.Counter((e.get("pid"), e.get("tid")) for e in events)
    mains = [k for k, v in names.items() if v == "CrRendererMain"]
    main = max(mains, key=lambda k: counts[k]) if mains else None
    ms, cnt = collections.Counter(), collections.Counter()
    nested_ms, nested_cnt = collections.Counter(), collections.Counter()
    depth_end = []  # end times of the enclosing complete events
    for e in sorted((e for e in events if (e.get("pid"), e.get("tid")) == main and e.get("ph") == "X"),
                    key=lambda e: (e["ts"], -e.get("dur", 0))):
        name, ts, dur = e["name"], e["ts"], e.get("dur", 0)
        while depth_end and depth_end[-1] <= ts:
            depth_end.pop()
        if name in ("Layout", "UpdateLayoutTree", "Paint", "PrePaint", "Layerize", "Commit"):
            nested_ms[name] += dur / 1000
            nested_cnt[name] += 1
        if not depth_end and name in KINDS or (not depth_end and name == "RunTask"):
            if name == "RunTask":
                cnt["task"] += 1
                ms["task (all top-level work)"] += dur / 1000
                ms["cpu"] += e.get("tdur", dur) / 1000
            else:
                ms[KINDS[name]] += dur / 1000
        if name == "RunTask" or not depth_end:
            depth_end.append(ts + dur)
    k = max(1, n)
    # tdur is the thread's CPU time: on a shared machine the wall-clock `dur` also counts the
    # time other processes held the CPU, the thread time does not.
    return {"main_thread_tasks_ms_per": round(ms.pop("task (all top-level work)", 0) / k, 2),
            "main_thread_cpu_ms_per": round(ms.pop("cpu", 0) / k, 2),
            "tasks_per": round(cnt["task"] / k, 2),
            "by_event_ms_per": {name: round(v / k, 2) for name, v in nested_ms.most_common()},
            "by_event_count_per": {name: round(v / k, 2) for name, v in nested_cnt.most_common()}}


def timeline(raw: bytes, what: str, last: int) -> list[str]:
    """The main thread's work, one line per top-level slice, from each of the `last` input events
    (pointermove or keydown) to the next: when it starts (ms after the event) and what it is."""
    events = json.loads(raw)
    events = events.get("traceEvents", events) if isinstance(events, dict) else events
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    counts = collections.Counter((e.get("pid"), e.get("tid")) for e in events)
    mains = [k for k, v in names.items() if v == "CrRendererMain"]
    main = max(mains, key=lambda k: counts[k])
    evs = sorted((e for e in events if (e.get("pid"), e.get("tid")) == main and e.get("ph") == "X"),
                 key=lambda e: (e["ts"], -e.get("dur", 0)))
    kind = {"drag": "pointermove", "slider": "keydown", "click": "pointerup"}[what]
    starts = [e["ts"] for e in evs if e["name"] == "EventDispatch" and e.get("args", {}).get("data", {}).get("type") == kind]
    out = []
    for a, b in zip(starts[-last - 1:-1], starts[-last:]):
        out.append(f"-- {kind}")
        tasks = [e for e in evs if e["name"] == "RunTask" and e["ts"] + e["dur"] > a and e["ts"] < b
                 and e["dur"] >= 200]
        for task in tasks:
            kids = [e for e in evs if task["ts"] <= e["ts"] < task["ts"] + task["dur"] and e is not task
                    and e["name"] in ("EventDispatch", "FunctionCall", "TimerFire", "FireAnimationFrame", "Layout",
                                      "UpdateLayoutTree", "Paint", "Commit", "PrePaint", "RunMicrotasks",
                                      "BeginMainThreadFrame", "Layerize", "HitTest")
                    and e["dur"] >= 300]
            if not kids:  # no script or rendering step: say what the task did instead (a GC, a message, ...)
                kids = sorted((e for e in evs if task["ts"] <= e["ts"] < task["ts"] + task["dur"] and e is not task
                               and e.get("dur", 0) >= 100), key=lambda e: -e["dur"])[:3]
            desc = ", ".join(f"{k['name']}{'(' + k['args']['data'].get('type', '') + ')' if k['name'] == 'EventDispatch' else ''}"
                             f" {k['dur'] / 1000:.1f}" for k in kids[:30])
            out.append(f"  +{(task['ts'] - a) / 1000:6.1f} ms  task {task['dur'] / 1000:5.1f} ms: {desc}")
    return out


def one(browser, t: D.Target, what: str, n: int, setup: str = "", show: int = 0, js: bool = True) -> dict:
    import run as R

    ctx, page, _, _ = H.open_page(browser, t.url, t.ready)
    try:
        R.install_hooks(page, t)
        if setup:
            page.evaluate(setup)
            page.wait_for_timeout(300)
        page.evaluate(COUNTERS)
        cdp = ctx.new_cdp_session(page)
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 100})
        browser.start_tracing(page=page, categories=["devtools.timeline", "disabled-by-default-devtools.timeline",
                                                "disabled-by-default-devtools.timeline.frame"])
        if js:
            cdp.send("Profiler.start")
        page.evaluate(RESET)
        res = (R.drag_live(page, t, n) if what == "drag" else R.slider_presses(page, t, n) if what == "slider"
               else R.clicks(page, t, n))
        counts = page.evaluate("() => window.__live_counts")
        prof = cdp.send("Profiler.stop")["profile"] if js else {"nodes": []}
        raw = browser.stop_tracing()
        if os.environ.get("PROFILE_LIVE_TRACE"):
            Path(os.environ["PROFILE_LIVE_TRACE"] + f".{what}.json").write_bytes(raw)
        done = res.get("moves") or res.get("presses") or res.get("clicks") or n
        k = max(1, done)
        return {"latency": {x: res.get(x) for x in ("move_ms", "press_ms", "click_ms", "event_to_change_ms", "change_to_frame_ms")
                            if x in res},
                "n": done,
                "bokeh_per": {"document_layouts": round(counts["layouts"] / k, 2),
                              "layout_ms": round(counts["layout_ms"] / k, 2),
                              "div_or_table_rerenders": round(counts["rerenders"] / k, 2),
                              "rerendered": {a: round(b / k, 2) for a, b in counts["by_rerender"].items()},
                              "canvas_paints": round(counts["paints"] / k, 2),
                              "paint_ms": round(counts["paint_ms"] / k, 2),
                              "painted": {a: round(b / k, 2) for a, b in counts["by_paint"].items()},
                              "paint_ms_by_figure": {a: round(b / k, 2) for a, b in counts["by_paint_ms"].items()},
                              "model_changes": round(counts["changes"] / k, 2),
                              "changed": {a: round(b / k, 2) for a, b in sorted(counts["by_change"].items(),
                                                                                key=lambda x: -x[1])[:15]}},
                "trace": trace_summary(raw, k),
                "timeline": timeline(raw, what, show) if show else [],
                "js": P.summarise_profile(prof, k)}
    finally:
        ctx.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plate", default="lookup")
    ap.add_argument("--served", action="store_true", help="profile the served page (default: the exported file)")
    ap.add_argument("--moves", type=int, default=50)
    ap.add_argument("--presses", type=int, default=50)
    ap.add_argument("--clicks", type=int, default=50)
    ap.add_argument("--only", choices=["drag", "slider", "click"], help="one interaction only")
    ap.add_argument("--setup", default="", help="JS run in the page before profiling (an A/B experiment)")
    ap.add_argument("--no-js", action="store_true", help="no JS sampling profiler (it slows the page down)")
    ap.add_argument("--timeline", type=int, default=0, help="print the main thread's tasks for the last N interactions")
    ap.add_argument("--url", help="profile this page (an exported file's file:// URL) instead of exporting one")
    ap.add_argument("--out", default=str(HERE / "results" / "profile_live.json"))
    a = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    d = D.DRIVERS[a.plate]
    tmp = Path(tempfile.mkdtemp(prefix="bench-live-"))
    srv = None
    out: dict = {"plate": a.plate, "page": "served" if a.served else "exported"}
    try:
        if a.url:
            t = D.ours(a.plate, a.url, d, False)
        elif a.served:
            port = H.free_port()
            srv = H.Server("served", [sys.executable, "-m", "app", "serve", "--port", str(port)],
                           f"http://localhost:{port}/{a.plate}", f"http://localhost:{port}/liveness",
                           tmp / "served.log", REPO).start()
            t = D.ours(a.plate, srv.url, d, True, srv)
        else:
            subprocess.run([sys.executable, "-m", "app", "export", str(tmp), "--plate", a.plate], cwd=REPO,
                           check=True, capture_output=True, timeout=600)
            t = D.ours(a.plate, (tmp / f"{a.plate}.html").as_uri(), d, False)
        with sync_playwright() as pw:
            b = pw.chromium.launch(executable_path=H.CHROMIUM, args=H.CHROMIUM_ARGS)
            try:
                kinds = [k for k, on in (("drag", t.drag and "query" in t.drag or t.drag), ("slider", t.slider),
                                         ("click", t.clicks)) if on]
                for what in kinds:
                    if a.only and what != a.only:
                        continue
                    n = {"drag": a.moves, "slider": a.presses, "click": a.clicks}[what]
                    out[what] = one(b, t, what, n, a.setup, a.timeline, not a.no_js)
            finally:
                b.close()
    finally:
        if srv is not None:
            srv.stop()
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    for what in ("drag", "slider", "click"):
        r = out.get(what)
        if not r:
            continue
        lat = r["latency"]
        print(f"== {a.plate} {out['page']} {what} (n={r['n']})")
        for k, v in lat.items():
            print(f"  {k}: median {v.get('median')} p95 {v.get('p95')}")
        print("  bokeh per interaction:", json.dumps(r["bokeh_per"]))
        print("  trace per interaction:", json.dumps(r["trace"]))
        print("\n".join(r["timeline"]))
        print("  js busy ms per interaction:", r["js"]["busy_ms_per_interaction"])
        for k, v in list(r["js"]["inclusive_ms"].items())[:22]:
            print(f"    {v:7.2f} ms  {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
