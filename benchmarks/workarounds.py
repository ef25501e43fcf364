"""Each workaround on and off, in turn, in one run, on the figures it targets.

For every row of TARGETS (workaround, plate, served or exported page, figure) it measures A, every
workaround on, and B, that one off, alternating A, B, A, B ... for --rounds rounds, a fresh page
each round. A Python-side workaround's B is its own server (`AE_WORKAROUNDS=NAME python -m app
serve`) or export; a browser-side one's B is the A page with `?workarounds=NAME`. Figures, with
run.py's measuring functions: drag, hand, slider, click (latencies of every round pooled: median,
p95), cold (run.py's cold_loads, --loads per round, pooled), server_cpu_per_load (median over
rounds), bytes (each round's first load, median over rounds), embed_fit (`?embed=1` in a 960×540
viewport: AEPage.fit_state.ms, pooled).

    .venv/bin/python benchmarks/workarounds.py                       # the whole table
    .venv/bin/python benchmarks/workarounds.py --only quick_text --plate masking --rounds 1

The rule: a row says delete when off − on < 10 % of off (a gain of zero or less is under it), or,
for drag, hand, slider and click, when both medians and both p95s are inside one 16.7 ms frame;
keep otherwise.
A workaround is kept when any of its rows says keep. Prints the tables and writes
benchmarks/results/workarounds.json (every figure of every round) and workarounds.md.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO))

import _drivers as D  # noqa: E402
import _harness as H  # noqa: E402
import run as R  # noqa: E402

from app import workarounds  # noqa: E402

# name -> [(plate, where, figure)]; where in {"served", "exported"}; figure in
# {"drag", "hand", "slider", "click", "cold", "server_cpu_per_load", "bytes", "embed_fit"}
_SERVER_LOAD = [("masking", "served", "cold"), ("masking", "served", "server_cpu_per_load")]
TARGETS: dict[str, list[tuple[str, str, str]]] = {
    # Python side (served unless noted)
    "spare_pages": [("masking", "served", "cold"), ("lookup", "served", "cold")],
    "quick_defaults": list(_SERVER_LOAD),
    "quick_properties": list(_SERVER_LOAD),
    "quick_references": list(_SERVER_LOAD),
    "cached_bundles": list(_SERVER_LOAD),
    "compressed_static": [("lookup", "served", "bytes"), ("lookup", "served", "cold")],
    "served_bokeh_only": [("lookup", "served", "cold"), ("masking", "served", "cold"), ("lookup", "served", "bytes")],
    "exported_bokeh_only": [("lookup", "exported", "cold"), ("masking", "exported", "cold")],
    # browser side (exported pages unless noted: same JS, no server noise)
    "div_text": [("lookup", "exported", "drag"), ("lookup", "exported", "slider"), ("masking", "exported", "slider")],
    "quiet_styles": [("lookup", "exported", "drag"), ("masking", "exported", "slider")],
    "local_layout": [("masking", "exported", "slider"), ("multi-head", "exported", "slider")],
    "coalesce_updates": [("masking", "exported", "slider"), ("self-attention", "exported", "slider")],
    "quick_text": [("masking", "exported", "slider"), ("self-attention", "exported", "slider")],
    "lazy_copies": [("masking", "exported", "slider"), ("masking", "exported", "cold")],
    "raw_moves": [("lookup", "exported", "hand"), ("scaling", "exported", "hand")],
    "paints_next_frame": [("lookup", "exported", "hand"), ("worked", "exported", "hand")],
    "quiet_tooltips": [("masking", "exported", "click")],
    "later_positions": [("lookup", "exported", "drag"), ("self-attention", "exported", "slider"),
                        ("masking", "exported", "slider")],
    "hidden_figures_wait": [("masking", "exported", "slider")],
    "axes_on_change": [("lookup", "exported", "drag"), ("worked", "exported", "drag"), ("scaling", "exported", "drag")],
    "axes_once": [("self-attention", "exported", "slider"), ("masking", "exported", "slider"),
                  ("lookup", "exported", "drag")],
    "unset_css_values": [("lookup", "exported", "drag"), ("masking", "exported", "slider"),
                         ("self-attention", "exported", "slider")],
    "one_layout": [("multi-head", "exported", "slider"), ("multi-head", "exported", "embed_fit")],
}
# Turned off in the server or the export (AE_WORKAROUNDS=NAME); every other name in the page (?workarounds=NAME).
PYTHON_SIDE = {w.name for w in workarounds.PYTHON if not w.fix}
assert set(TARGETS) == PYTHON_SIDE | set(workarounds.JS), "every accelerator has a figure it targets"

INTERACTIONS = ("drag", "hand", "slider", "click")  # in the order run.py's interactions() drives them
FROM_COLD = ("cold", "server_cpu_per_load", "bytes")
FIGURES = (*INTERACTIONS, *FROM_COLD, "embed_fit")
UNIT = {"bytes": "B"}  # every other figure is in ms
FRAME_MS = 16.7
KEEP_GAIN = 0.10
EMBED_VIEWPORT = {"width": 960, "height": 540}
FIT_DONE = ("() => window.AEPage && AEPage.fit_state && AEPage.fit_state.fitted !== undefined"
            " && AEPage.fit_state.ms !== undefined")
# What the page's AEWorkarounds registry says of a browser-side name (a check that B turned it off).
JS_STATUS = """(n) => {
  if (typeof AEWorkarounds === "undefined") return "no AEWorkarounds in the page";
  const s = AEWorkarounds.status()[n];
  if (s) return s;
  if (!AEWorkarounds.names().includes(n)) return "not defined in the page";
  return AEWorkarounds.active(n) ? "active" : "off";
}"""


def log(msg: str) -> None:
    print(f"[workarounds {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def err(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {str(exc)[:300]}"


# --- addresses ------------------------------------------------------------------------------------
def with_query(url: str, *parts) -> str:
    """url with each part's parameters merged into its query (a later part replaces an earlier
    value of the same name): a part is "?a=1&b=2", a dict or None."""
    s = urllib.parse.urlsplit(url)
    pairs = urllib.parse.parse_qsl(s.query, keep_blank_values=True)
    for p in parts:
        if not p:
            continue
        new = urllib.parse.parse_qsl(p.lstrip("?"), keep_blank_values=True) if isinstance(p, str) else list(p.items())
        names = {k for k, _ in new}
        pairs = [(k, v) for k, v in pairs if k not in names] + new
    return urllib.parse.urlunsplit(s._replace(query=urllib.parse.urlencode(pairs, safe=",")))


@dataclasses.dataclass
class Variant:
    """A (everything on) or B (one off): where its page is, and what its address adds."""

    key: str  # "on" | "off"
    base: str  # the plate's page without a query: http://localhost:N/slug or file:///.../slug.html
    server: H.Server | None = None
    query: dict = dataclasses.field(default_factory=dict)
    idle: float = 0.0  # the server's idle CPU, ms per s (for server_cpu_per_load)

    def target(self, slug: str, extra: dict | None = None) -> D.Target:
        """run.py's Target for this page; the driver's own parameters (worked's preset) merged in
        here, so D.ours() adds none."""
        d = D.DRIVERS[slug]
        url = with_query(self.base, d.params, self.query, extra)
        t = D.ours(slug, url, dataclasses.replace(d, params=""), self.server is not None, self.server)
        t.idle = self.idle
        return t


# --- one round of a variant -------------------------------------------------------------------------
@contextlib.contextmanager
def raw_latencies():
    """The latency lists run.py's drag_live, drag_hand, slider_presses and clicks compute (they
    return only their summary): H.latencies and H.shown_latencies recorded while inside."""
    got: list[list[float]] = []
    plain, shown = H.latencies, H.shown_latencies

    def latencies(rs):
        out = plain(rs)
        got.append(out[0])
        return out

    def shown_latencies(rs, paints, figures):
        out = shown(rs, paints, figures)
        got.append(out[0])
        return out

    H.latencies, H.shown_latencies = latencies, shown_latencies
    try:
        yield got
    finally:
        H.latencies, H.shown_latencies = plain, shown


def drive(page, t: D.Target, figure: str, a: argparse.Namespace) -> dict:
    have = {"drag": t.drag, "hand": t.drag, "slider": t.slider, "click": t.clicks}[figure]
    if have is None:
        raise RuntimeError(f"the plate has nothing to {figure}")
    with raw_latencies() as got:
        if figure == "drag":
            out = R.drag_live(page, t, a.moves)
        elif figure == "hand":
            out = R.drag_hand(page, t, a.moves)
        elif figure == "slider":
            out = R.slider_presses(page, t, a.presses)
        else:
            out = R.clicks(page, t, a.clicks)
    out["latencies"] = [round(x, 2) for x in (got[-1] if got else [])]
    return out


def interaction_round(browser, t: D.Target, figures: list[str], a: argparse.Namespace) -> dict:
    """A fresh page, hooked as run.py's interactions() hooks it, driven for each figure in turn."""
    out: dict = {}
    ctx, page, _, errors = H.open_page(browser, t.url, t.ready)
    try:
        R.install_hooks(page, t)
        for fig in figures:
            try:
                out[fig] = drive(page, t, fig, a)
            except Exception as exc:  # noqa: BLE001 - recorded; the other figures are still measured
                out[fig] = {"error": err(exc)}
                with contextlib.suppress(Exception):
                    page.mouse.up()
        out["page_errors"] = errors[:5]
    finally:
        ctx.close()
    return out


def embed_fit(browser, url: str, n: int) -> dict:
    """n loads of url (?embed=1) in a 960×540 viewport, each in a new context: AEPage.fit_state."""
    states, errors = [], []
    for _ in range(n):
        ctx = browser.new_context(viewport=EMBED_VIEWPORT)
        try:
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)[:300]))
            page.goto(url, wait_until="commit", timeout=60_000)
            page.wait_for_function(FIT_DONE, timeout=60_000, polling=50)
            states.append(page.evaluate("() => Object.assign({}, AEPage.fit_state)"))
        finally:
            ctx.close()
    return {"ms_all": [s["ms"] for s in states], "fit_ms": H.summary([s["ms"] for s in states]),
            "fitted": [s.get("fitted") for s in states], "k": [s.get("k") for s in states],
            "rounds": [s.get("rounds") for s in states], "page_errors": errors[:5]}


def one_round(browser, v: Variant, slug: str, figures: list[str], a: argparse.Namespace) -> dict:
    rec: dict = {"variant": v.key, "loadavg": os.getloadavg()[0]}
    st0 = H.cpu_stat()
    t = v.target(slug)
    inter = [f for f in INTERACTIONS if f in figures]
    if inter:
        try:
            rec.update(interaction_round(browser, t, inter, a))
        except Exception as exc:  # noqa: BLE001 - the page did not open: every figure of it
            rec.update({f: {"error": err(exc)} for f in inter})
    if any(f in figures for f in FROM_COLD):
        try:
            rec["cold"] = R.cold_loads(browser, t, a.loads if "cold" in figures or "server_cpu_per_load" in figures else 1)
        except Exception as exc:  # noqa: BLE001
            rec["cold"] = {"error": err(exc)}
    if "embed_fit" in figures:
        try:
            rec["embed_fit"] = embed_fit(browser, with_query(t.url, {"embed": "1"}), a.loads)
        except Exception as exc:  # noqa: BLE001
            rec["embed_fit"] = {"error": err(exc)}
    rec["machine_busy"] = H.busy_fraction(st0, H.cpu_stat())
    return rec


def values(rec: dict, figure: str) -> tuple[list[float], str | None]:
    """A round's numbers for a figure (a list: pooled over rounds later), and its error if any."""
    get = R.get
    if figure in INTERACTIONS:
        r = rec.get(figure) or {}
        return r.get("latencies") or [], r.get("error")
    if figure == "embed_fit":
        r = rec.get("embed_fit") or {}
        return r.get("ms_all") or [], r.get("error")
    r = rec.get("cold") or {}
    if r.get("error"):
        return [], r["error"]
    v = {"cold": get(r, "ready_all_ms"), "server_cpu_per_load": get(r, "server_cpu_per_load", "ms_per"),
         "bytes": get(r, "bytes", "total_bytes")}[figure]
    if v is None:
        return [], f"no {figure} figure" + (" (not a served page)" if figure == "server_cpu_per_load" else "")
    return (v if isinstance(v, list) else [v]), None


# --- a job: one workaround on one page, its figures, every round ------------------------------------
def run_job(browser, job: dict, a: argparse.Namespace, tmp: Path, exports: dict) -> dict:
    name, slug, where, figures = job["name"], job["plate"], job["where"], job["figures"]
    python = name in PYTHON_SIDE
    servers: list[H.Server] = []
    job.update({"side": "python" if python else "browser", "rounds": [], "status": {}, "errors": []})
    t0 = time.monotonic()

    def start(key: str, env_value: str) -> H.Server:
        port = H.free_port()
        srv = H.Server(f"{name}-{slug}-{key}", [sys.executable, "-m", "app", "serve", "--port", str(port)],
                       f"http://localhost:{port}/{slug}", f"http://localhost:{port}/liveness",
                       tmp / f"{name}-{slug}-{key}.log", REPO, {"AE_WORKAROUNDS": env_value})
        servers.append(srv)
        s0 = time.monotonic()
        srv.start()
        log(f"  server {key} (AE_WORKAROUNDS={env_value}) up on port {port} in {time.monotonic() - s0:.1f} s")
        return srv

    try:
        if where == "served":
            on_srv = start("on", "on")
            off_srv = start("off", name) if python else on_srv
            variants = [Variant("on", on_srv.url, on_srv),
                        Variant("off", off_srv.url, off_srv, {} if python else {"workarounds": name})]
        else:
            files = {"on": exports.get(("on", slug)), "off": exports.get((name, slug) if python else ("on", slug))}
            for k, f in files.items():
                if f is None or not f.is_file():
                    why = exports["errors"].get((name if k == "off" and python else "on", slug), "not exported")
                    raise RuntimeError(f"no exported page for {k}: {why}")
            job["file_bytes"] = {k: f.stat().st_size for k, f in files.items()}
            variants = [Variant("on", files["on"].resolve().as_uri()),
                        Variant("off", files["off"].resolve().as_uri(), None, {} if python else {"workarounds": name})]
        # Not measured: a first page of each variant (a server's first session imports; the
        # browser's first page of a file), and what the page's registry says of the name.
        for v in variants:
            t = v.target(slug)
            ctx, page, _, _ = H.open_page(browser, t.url, t.ready)
            try:
                job["status"][v.key] = page.evaluate(JS_STATUS, name)
            finally:
                ctx.close()
        if "server_cpu_per_load" in figures:
            idle: dict[int, float] = {}
            for v in variants:
                if v.server is not None:
                    if v.server.pid not in idle:
                        time.sleep(1.0)
                        idle[v.server.pid] = H.idle_cpu_rate(v.server.pid)
                    v.idle = idle[v.server.pid]
            job["server_idle_cpu_ms_per_s"] = {v.key: v.idle for v in variants}
        if not python and not str(job["status"].get("off", "")).startswith("off"):
            job["errors"].append(f"B's page says {name} is {job['status'].get('off')!r}, not off")
            log(f"  WARNING {job['errors'][-1]}")
        for r in range(1, a.rounds + 1):
            for v in variants:
                s0 = time.monotonic()
                rec = one_round(browser, v, slug, figures, a)
                rec["round"] = r
                job["rounds"].append(rec)
                errs = [f"{f}: {values(rec, f)[1]}" for f in figures if values(rec, f)[1]]
                log(f"  round {r}/{a.rounds} {v.key}: {time.monotonic() - s0:.0f} s"
                    + (f"; {'; '.join(e[:160] for e in errs)}" if errs else ""))
    except Exception as exc:  # noqa: BLE001 - a job that cannot run is a result too; the run goes on
        job["errors"].append(err(exc))
        log(f"  ERROR {job['errors'][-1][:300]}")
    finally:
        for srv in servers:
            if srv.proc is not None and (job["errors"] or srv.proc.poll() is not None):
                job.setdefault("server_log_tails", {})[srv.name] = srv.log()[-1500:]
            srv.stop()
    job["seconds"] = round(time.monotonic() - t0, 1)
    return job


# --- figures and verdicts ---------------------------------------------------------------------------
def row_of(job: dict, figure: str) -> dict:
    row = {"name": job["name"], "side": job.get("side"), "plate": job["plate"], "where": job["where"], "figure": figure,
           "unit": UNIT.get(figure, "ms"), "errors": list(job.get("errors", []))}
    pooled = {"on": [], "off": []}
    for rec in job.get("rounds", []):
        vals, e = values(rec, figure)
        pooled[rec["variant"]] += vals
        if e:
            row["errors"].append(f"round {rec['round']} {rec['variant']}: {e}")
    for k in ("on", "off"):
        row[k] = H.summary(pooled[k])
    on, off = row["on"].get("median"), row["off"].get("median")
    if on is None or off is None:
        row["verdict"], row["why"] = "no figure", "a variant has no figure"
        return row
    row["gain"] = round(off - on, 2)
    row["gain_pct"] = round(100 * (off - on) / off, 1) if off > 0 else None
    # Inside the frame means at the median and at p95 (the frame budget is judged at both): a
    # workaround whose medians fit a frame either way can still be what holds a p95 inside it.
    worst = [row[k].get(q) for k in ("on", "off") for q in ("median", "p95")]
    if figure in INTERACTIONS and all(v is not None and v <= FRAME_MS for v in worst):
        row["verdict"], row["why"] = "delete", "inside one frame with and without it, median and p95"
    elif off - on <= 0 or off - on < KEEP_GAIN * off:
        row["verdict"], row["why"] = "delete", f"gain under {KEEP_GAIN:.0%} of off"
    else:
        row["verdict"], row["why"] = "keep", f"gain {KEEP_GAIN:.0%} of off or more"
    return row


def name_verdicts(rows: list[dict]) -> list[dict]:
    """Kept when any row says keep; deleted when every row says delete; else undecided."""
    out = []
    for name in dict.fromkeys(r["name"] for r in rows):
        mine = [r for r in rows if r["name"] == name]
        keep = [r for r in mine if r["verdict"] == "keep"]
        known = [r for r in mine if r["verdict"] in ("keep", "delete")]
        by_gain = lambda r: r["gain_pct"] if r.get("gain_pct") is not None else float("-inf")  # noqa: E731
        if keep:
            verdict, deciding = "kept", max(keep, key=by_gain)
        elif len(known) == len(mine):
            verdict, deciding = "deleted", max(mine, key=by_gain)  # the row nearest to keeping it
        else:
            verdict = f"undecided ({len(mine) - len(known)} of {len(mine)} rows without a figure)"
            deciding = max(known, key=by_gain) if known else mine[0]
        out.append({"name": name, "side": mine[0].get("side"), "verdict": verdict,
                    "deciding": {k: deciding.get(k) for k in ("plate", "where", "figure", "gain", "gain_pct", "verdict", "why")}})
    return out


def fmt(v, unit: str, signed: bool = False) -> str:
    if not isinstance(v, (int, float)):
        return "—"
    text = R.fmt(abs(v) if signed else v, unit)
    return (("−" if v < 0 else "+") + text) if signed else text


def signed_pct(v) -> str:
    return "—" if v is None else f"{'−' if v < 0 else '+'}{abs(v):.1f} %"


def cell(s: dict, unit: str, spread: bool) -> str:
    if not s.get("n"):
        return "—"
    return fmt(s["median"], unit) + (f" ({fmt(s['p95'], unit)})" if spread else "") + f" n={s['n']}"


def tables(res: dict) -> str:
    lines = ["| workaround | plate | page | figure | on: median (p95) | off: median (p95) | gain (off − on) | "
             "gain % of off | verdict |", "|---|---|---|---|---|---|---|---|---|"]
    for r in res["rows"]:
        spread = r["figure"] not in ("server_cpu_per_load", "bytes")  # those are one figure per round
        pct = signed_pct(r.get("gain_pct"))
        verdict = f"**{r['verdict']}** ({r['why']})"
        if r["errors"]:
            verdict += " ⚠ " + "; ".join(e[:120] for e in r["errors"][:2]).replace("|", "/")
        lines.append(f"| {r['name']} | {r['plate']} | {r['where']} | {r['figure']} | {cell(r['on'], r['unit'], spread)} | "
                     f"{cell(r['off'], r['unit'], spread)} | {fmt(r.get('gain'), r['unit'], True)} | {pct} | {verdict} |")
    lines += ["", "| workaround | side | verdict | deciding row |", "|---|---|---|---|"]
    for n in res["names"]:
        d = n["deciding"]
        unit = UNIT.get(d["figure"], "ms")
        pct = f", {signed_pct(d['gain_pct'])}" if d.get("gain_pct") is not None else ""
        lines.append(f"| {n['name']} | {n['side']} | **{n['verdict']}** | {d['plate']} {d['where']} {d['figure']}: "
                     f"gain {fmt(d.get('gain'), unit, True)}{pct} ({d['verdict']}: {d['why']}) |")
    s = res["settings"]
    lines += ["", f"A = every workaround on, B = the one named off; {s['rounds']} rounds of A then B, a fresh page each; "
              f"{s['moves']} moves, {s['presses']} presses, {s['clicks']} clicks, {s['loads']} loads per round and variant. "
              f"Rule: delete when off − on < {KEEP_GAIN:.0%} of off, or when an interaction is within {FRAME_MS} ms "
              "both ways at the median and p95; a workaround is kept when any row says keep. "
              f"Load average {res['loadavg_start'][0]:.2f} at the start, {res['loadavg_end'][0]:.2f} at the end; "
              f"{res['elapsed_s']:.0f} s."]
    return "\n".join(lines) + "\n"


# --- the run ------------------------------------------------------------------------------------------
def plan(a: argparse.Namespace) -> list[dict]:
    """The jobs: one per (workaround, plate, page), with the figures measured on it."""
    jobs: dict[tuple, dict] = {}
    for name, rows in TARGETS.items():
        if a.only and name not in a.only:
            continue
        for slug, where, figure in rows:
            if a.plates and slug not in a.plates:
                continue
            assert where in ("served", "exported") and figure in FIGURES, (name, slug, where, figure)
            job = jobs.setdefault((name, slug, where), {"name": name, "plate": slug, "where": where, "figures": []})
            if figure not in job["figures"]:
                job["figures"].append(figure)
    for job in jobs.values():  # the order they are measured in: run.py's interactions, then loads
        job["figures"].sort(key=FIGURES.index)
    return list(jobs.values())


def export_all(jobs: list[dict], tmp: Path) -> dict:
    """The exported pages the jobs need: every plate with everything on, and for each Python-side
    name its plates exported with it off. Returns {(env value, slug): path, "errors": {...}}."""
    want: dict[str, set[str]] = {}
    for j in jobs:
        if j["where"] == "exported":
            want.setdefault("on", set()).add(j["plate"])
            if j["name"] in PYTHON_SIDE:
                want.setdefault(j["name"], set()).add(j["plate"])
    out: dict = {"errors": {}}
    for env_value, slugs in want.items():
        d = tmp / f"export-{env_value}"
        for s in sorted(slugs):
            log(f"exporting {s} with AE_WORKAROUNDS={env_value}")
            r = subprocess.run([sys.executable, "-m", "app", "export", str(d), "--plate", s], cwd=REPO,
                               capture_output=True, text=True, timeout=600,
                               env={**os.environ, "AE_WORKAROUNDS": env_value})
            if r.returncode == 0 and (d / f"{s}.html").is_file():
                out[(env_value, s)] = d / f"{s}.html"
            else:
                out["errors"][(env_value, s)] = (r.stderr or r.stdout).strip()[-600:]
                log(f"  export failed: {out['errors'][(env_value, s)][-200:]}")
    return out


def run(a: argparse.Namespace) -> dict:
    from playwright.sync_api import sync_playwright

    started, load0 = time.monotonic(), os.getloadavg()
    jobs = plan(a)
    res: dict = {"settings": {k: getattr(a, k) for k in ("rounds", "moves", "presses", "clicks", "loads", "only", "plates",
                                                         "niceness")}
                 | {"viewport": H.VIEWPORT, "embed_viewport": EMBED_VIEWPORT, "chromium_args": H.CHROMIUM_ARGS},
                 "versions": R.versions(None), "targets": {n: TARGETS[n] for n in dict.fromkeys(j["name"] for j in jobs)},
                 "jobs": []}
    log(f"{len(jobs)} jobs, {sum(len(j['figures']) for j in jobs)} rows, {a.rounds} rounds each")
    tmp = Path(tempfile.mkdtemp(prefix="bench-workarounds-"))
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    try:
        exports = export_all(jobs, tmp)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=H.CHROMIUM, args=H.CHROMIUM_ARGS)
            try:
                for i, job in enumerate(jobs, 1):
                    log(f"[{i}/{len(jobs)}] {job['name']} · {job['plate']} {job['where']}: {', '.join(job['figures'])}")
                    res["jobs"].append(run_job(browser, job, a, tmp, exports))
                    # What is measured so far, in case the run is stopped.
                    (out / "workarounds.partial.json").write_text(H.dumps(res), encoding="utf-8")
            finally:
                browser.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    res["rows"] = [row_of(j, f) for j in res["jobs"] for f in j["figures"]]
    res["names"] = name_verdicts(res["rows"])
    res["elapsed_s"] = round(time.monotonic() - started, 1)
    res["loadavg_start"], res["loadavg_end"] = load0, os.getloadavg()
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", action="append", default=[], metavar="NAME", help="only this workaround (repeatable)")
    ap.add_argument("--plate", dest="plates", action="append", default=[], metavar="SLUG",
                    help="only rows on this plate (repeatable)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of A then B (default 3)")
    ap.add_argument("--moves", type=int, default=60, help="drag moves per round and variant (drag, hand)")
    ap.add_argument("--presses", type=int, default=60, help="slider presses per round and variant")
    ap.add_argument("--clicks", type=int, default=40, help="clicks per round and variant")
    ap.add_argument("--loads", type=int, default=8, help="cold loads (and embed fits) per round and variant")
    ap.add_argument("--no-nice", dest="nice", action="store_false",
                    help="do not raise the run's priority (by default it tries nice -10, as run.py does)")
    ap.add_argument("--out", default=str(HERE / "results"), help="where workarounds.json and workarounds.md go")
    a = ap.parse_args(argv)
    unknown = [n for n in a.only if n not in TARGETS]
    if unknown:
        ap.error(f"unknown workaround(s) {', '.join(unknown)}; known: {', '.join(TARGETS)}")
    if not plan(a):
        ap.error("no row left to measure")
    a.niceness = 0
    if a.nice:
        with contextlib.suppress(OSError):
            os.nice(-10)
            a.niceness = -10
    res = run(a)
    out = Path(a.out)
    (out / "workarounds.json").write_text(H.dumps(res), encoding="utf-8")  # first: a table bug must not lose the run
    md = tables(res)
    (out / "workarounds.md").write_text(md, encoding="utf-8")
    with contextlib.suppress(OSError):
        (out / "workarounds.partial.json").unlink()
    print()
    print(md)
    log(f"wrote {out / 'workarounds.json'} and {out / 'workarounds.md'} in {res['elapsed_s']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
