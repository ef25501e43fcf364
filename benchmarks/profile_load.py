"""Where a cold page load's time goes, in the browser and on the server (for the README's notes).

    .venv/bin/python benchmarks/profile_load.py [--plate lookup] [--loads 3] [--baseline] [--py-spy]

Browser: a cold load (new context) under Chrome's sampling profiler (CDP Profiler, 200 µs), with
self time grouped by script (bokeh*.js, panel.min.js, CustomJS code compiled from the document,
the browser's own work as "(program)", "(garbage collector)") and the top functions; plus the
phases the suite records (HTML received, DOMContentLoaded, BokehJS loaded, first document, ready).
Server: CPU time of the server process per load, and with --py-spy a py-spy profile of the
server during the loads (pip install py-spy into the venv first), summarised by function.
In-process (no server): the CPU cost of building the plate's page, its Bokeh models and its JSON,
and how much of that JSON is CustomJS code.
"""

from __future__ import annotations

import argparse
import collections
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(REPO))

import _drivers as D  # noqa: E402
import _harness as H  # noqa: E402


def script_group(url: str) -> str:
    if not url:
        return "(no script: CustomJS code, eval, the browser's own work)"
    name = url.split("?")[0].rsplit("/", 1)[-1]
    return name or url[:60]


def js_profile(page_url: str, ready: str, loads: int) -> dict:
    from playwright.sync_api import sync_playwright

    by_group: collections.Counter = collections.Counter()
    by_fn: collections.Counter = collections.Counter()
    phases = []
    total = 0.0
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=H.CHROMIUM, args=H.CHROMIUM_ARGS)
        try:
            for _ in range(loads):
                ctx = b.new_context(viewport=H.VIEWPORT)
                ctx.add_init_script(H.page_clock(ready))
                page = ctx.new_page()
                cdp = ctx.new_cdp_session(page)
                cdp.send("Profiler.enable")
                cdp.send("Profiler.setSamplingInterval", {"interval": 200})
                cdp.send("Profiler.start")
                page.goto(page_url, wait_until="commit")
                page.wait_for_function("() => window.__bench && __bench.ready_at !== null", timeout=120_000,
                                       polling=50)
                prof = cdp.send("Profiler.stop")["profile"]
                phases.append(page.evaluate(H.PHASES))
                ctx.close()
                nodes = {n["id"]: n for n in prof["nodes"]}
                deltas = prof.get("timeDeltas", [])
                for sid, dt in zip(prof.get("samples", []), deltas):
                    n = nodes[sid]
                    cf = n["callFrame"]
                    fn = cf.get("functionName") or "(anonymous)"
                    if fn == "(idle)":
                        continue
                    ms = dt / 1000.0
                    total += ms
                    by_group[script_group(cf.get("url", "")) if not fn.startswith("(") else fn] += ms
                    by_fn[f"{fn} [{script_group(cf.get('url', ''))}:{cf.get('lineNumber', 0) + 1}]"] += ms
        finally:
            b.close()
    n = max(1, loads)
    return {"busy_ms_per_load": round(total / n, 1),
            "by_script_ms": {k: round(v / n, 1) for k, v in by_group.most_common(12)},
            "top_functions_ms": {k: round(v / n, 1) for k, v in by_fn.most_common(20)},
            "phases": phases}


def interaction_profile(page_url: str, t: D.Target, moves: int = 40, presses: int = 40) -> dict:
    """JS self time during drag moves, slider presses and clicks (sampling profiler), per interaction."""
    from playwright.sync_api import sync_playwright

    import run as R

    out = {}
    kinds = [k for k, on in (("drag", t.drag), ("slider", t.slider), ("click", t.clicks)) if on]
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=H.CHROMIUM, args=H.CHROMIUM_ARGS)
        try:
            for what in kinds:
                ctx, page, _, _ = H.open_page(b, page_url, t.ready)
                R.install_hooks(page, t)
                cdp = ctx.new_cdp_session(page)
                cdp.send("Profiler.enable")
                cdp.send("Profiler.setSamplingInterval", {"interval": 100})
                cdp.send("Profiler.start")
                res = (R.drag_live(page, t, moves) if what == "drag" else R.slider_presses(page, t, presses)
                       if what == "slider" else R.clicks(page, t, presses))
                prof = cdp.send("Profiler.stop")["profile"]
                ctx.close()
                n = moves if what == "drag" else presses
                out[what] = {"latency": {k: res.get(k) for k in ("move_ms", "press_ms", "click_ms", "event_to_change_ms",
                                                                 "change_to_frame_ms") if k in res},
                             **summarise_profile(prof, n)}
        finally:
            b.close()
    return out


def summarise_profile(prof: dict, n: int) -> dict:
    nodes = {x["id"]: x for x in prof["nodes"]}
    parent = {}
    for x in prof["nodes"]:
        for c in x.get("children", []):
            parent[c] = x["id"]
    by_fn: collections.Counter = collections.Counter()
    by_group: collections.Counter = collections.Counter()
    total = 0.0
    for sid, dt in zip(prof.get("samples", []), prof.get("timeDeltas", [])):
        cf = nodes[sid]["callFrame"]
        fn = cf.get("functionName") or "(anonymous)"
        if fn == "(idle)":
            continue
        ms = dt / 1000.0
        total += ms
        by_fn[f"{fn} [{script_group(cf.get('url', ''))}:{cf.get('lineNumber', 0) + 1}]"] += ms
        # inclusive: every distinct function on the stack gets the sample
        i, seen = sid, set()
        while i is not None:
            f = nodes[i]["callFrame"]
            key = f"{f.get('functionName') or '(anonymous)'} [{script_group(f.get('url', ''))}:{f.get('lineNumber', 0) + 1}]"
            if key not in seen and f.get("functionName") not in ("(root)", "(program)"):
                seen.add(key)
                by_group[key] += ms
            i = parent.get(i)
    total = total or 1e-9
    return {"busy_ms_per_interaction": round(total / max(1, n), 2),
            "inclusive_ms": {k: round(v / max(1, n), 2) for k, v in by_group.most_common(30)},
            "top_functions_ms": {k: round(v / max(1, n), 2) for k, v in by_fn.most_common(20)}}


def build_cost(slug: str, n: int = 5) -> dict:
    """CPU ms to build the page for `slug`, make its Bokeh models and serialise them (no server)."""
    from bokeh.core.json_encoder import serialize_json
    from bokeh.document import Document

    from app.delivery.page import plate_page

    plate_page(slug)
    T = time.process_time
    acc = [0.0, 0.0, 0.0]
    for _ in range(n):
        t0 = T()
        page = plate_page(slug)
        t1 = T()
        doc = Document()
        doc.add_root(page.get_root(doc))
        t2 = T()
        text = serialize_json(doc.to_json(deferred=False))
        t3 = T()
        acc[0] += t1 - t0
        acc[1] += t2 - t1
        acc[2] += t3 - t2
    kinds = collections.Counter(type(m).__name__ for m in doc.models)
    code = sum(len(m.code) for m in doc.models if type(m).__name__ == "CustomJS")
    return {"build_page_ms": round(acc[0] / n * 1000, 1), "bokeh_models_ms": round(acc[1] / n * 1000, 1),
            "to_json_ms": round(acc[2] / n * 1000, 1), "document_json_bytes": len(text),
            "customjs_code_bytes": code, "customjs_count": kinds.get("CustomJS", 0), "models": len(doc.models),
            "most_models": dict(kinds.most_common(6))}


STAGES = [  # (label, marker in a frame): the first label whose marker is in the stack wins
    ("build the plate (app: plate_page -> figures, glyphs, widgets)", "plate_page ("),
    ("Panel -> Bokeh models (server_doc / get_root)", "server_doc ("),
    ("Panel -> Bokeh models (server_doc / get_root)", "get_root ("),
    ("document JSON (to_json / serialization)", "to_json ("),
    ("send the document over the websocket (PULL-DOC reply)", "_handle_pull"),
    ("HTML page (DocHandler.get: bundle_resources, patch_model_css, template)", "DocHandler.get ("),
    ("Panel's gc.collect() when a session ends (_garbage_collect)", "_garbage_collect ("),
    ("other websocket messages (PATCH-DOC in and out)", "WSHandler"),
    ("static files", "StaticFileHandler"),
]
IDLE = ("select (", "poll (", "_wait_for_tstate_lock", "wait (threading", "sleep")


def py_spy_summary(raw: Path, top: int = 15) -> dict:
    """py-spy collapsed stacks -> share of busy samples per stage of a page's life on the server,
    and self time by package (idle samples - the event loop waiting - left out)."""
    stages: collections.Counter = collections.Counter()
    packages: collections.Counter = collections.Counter()
    funcs: collections.Counter = collections.Counter()
    busy = idle = 0
    for line in raw.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        c = int(count)
        frames = stack.split(";")
        leaf = frames[-1]
        if any(m in leaf for m in IDLE):
            idle += c
            continue
        busy += c
        label = "other (event loop, tornado, session bookkeeping)"
        for lab, marker in STAGES:
            if any(marker in f for f in frames):
                label = lab
                break
        stages[label] += c
        where = leaf.split(" (", 1)[-1]
        pkg = where.split("/", 1)[0] if "/" in where else "python stdlib"
        packages[pkg] += c
        funcs[leaf.rsplit(":", 1)[0] + ")"] += c
    share = lambda k: {a: round(b / max(1, busy), 3) for a, b in k.most_common(top)}  # noqa: E731
    return {"busy_samples": busy, "idle_samples": idle, "stages": share(stages),
            "self_by_package": share(packages), "self_top_functions": share(funcs)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plate", default="lookup")
    ap.add_argument("--loads", type=int, default=3)
    ap.add_argument("--moves", type=int, default=40, help="moves, presses and clicks profiled per interaction")
    ap.add_argument("--baseline", action="store_true", help="also profile benchmarks/baseline_app.py")
    ap.add_argument("--interactions", action="store_true",
                    help="also profile the exported page's JS during drag moves and slider presses")
    ap.add_argument("--interactions-only", action="store_true",
                    help="only the exported page's interactions (no load profiles, no server)")
    ap.add_argument("--py-spy", action="store_true", help="profile the server with py-spy during the loads")
    ap.add_argument("--out", default=str(HERE / "results" / "profile.json"))
    a = ap.parse_args(argv)

    out: dict = {"plate": a.plate}
    if not a.interactions_only:
        out["build"] = build_cost(a.plate)
    d = D.DRIVERS.get(a.plate)
    tmp = Path(tempfile.mkdtemp(prefix="bench-profile-"))
    servers = []
    try:
        subprocess.run([sys.executable, "-m", "app", "export", str(tmp), "--plate", a.plate], cwd=REPO, check=True,
                       capture_output=True, timeout=600)
        # The driver's own address (worked: a preset with keys to drag), as benchmarks/run.py loads it.
        params = d.params if d is not None else ""
        exported_url = (tmp / f"{a.plate}.html").as_uri() + params
        if not a.interactions_only:
            out["exported"] = js_profile(exported_url, D.ready_for_driver(d), a.loads)
        if d is not None and (a.interactions or a.interactions_only):
            t = D.ours(a.plate, exported_url, d, False)
            out["exported_interactions"] = interaction_profile(t.url, t, a.moves, a.moves)
        targets = [("served", [sys.executable, "-m", "app", "serve", "--port", "{port}"], f"/{a.plate}{params}", "/liveness",
                    D.ready_for_driver(d))]
        if a.baseline:
            targets.append(("baseline", [str(Path(sys.executable).with_name("panel")), "serve",
                                         str(HERE / "baseline_app.py"), "--port", "{port}", "--liveness"],
                            "/baseline_app", "/liveness", D.BASELINE_READY))
        if a.interactions_only:
            targets = []
        for name, cmd, path, health, ready in targets:
            port = H.free_port()
            srv = H.Server(name, [c.replace("{port}", str(port)) for c in cmd], f"http://localhost:{port}{path}",
                           f"http://localhost:{port}{health}", tmp / f"{name}.log", REPO)
            servers.append(srv)
            srv.start()
            js_profile(srv.url, ready, 1)  # warm the server
            spy = None
            raw = tmp / f"{name}.pyspy.txt"
            if a.py_spy and shutil.which("py-spy", path=str(Path(sys.executable).parent)):
                spy = subprocess.Popen([str(Path(sys.executable).with_name("py-spy")), "record", "-p", str(srv.pid),
                                        "-r", "200", "-f", "raw", "-o", str(raw), "--nonblocking"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(1.0)
            cpu0 = H.cpu_seconds(srv.pid)
            res = js_profile(srv.url, ready, a.loads)
            res["server_cpu_ms_per_load"] = round((H.cpu_seconds(srv.pid) - cpu0) * 1000 / a.loads, 1)
            if spy is not None:
                spy.send_signal(2)  # SIGINT: py-spy writes its file and exits
                try:
                    spy.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    spy.kill()
                if raw.is_file():
                    res["server_py_spy"] = py_spy_summary(raw)
            out[name] = res
            srv.stop()
    finally:
        for s in servers:
            s.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
