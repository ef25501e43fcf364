"""The measuring machinery of benchmarks/run.py: servers, /proc readings, and the page-side clock.

Every latency is taken inside the page with performance.now(): a capture-phase listener on
window records the input event's timeStamp (the same clock), the watched models or texts call
__bench.signal(label) when they change, and once every watched label has changed a
requestAnimationFrame callback marks the frame that paints the change. "Updated" is the end of
that frame's work on the main thread: the callback posts a message to itself, which runs once
the frame's other callbacks, style, layout, paint and commit are done. (Until 2 Dec the time was
read in the callback itself; that counted the paint of a page whose figures had asked for the
frame before the bench did, ours, and not of one whose figures asked after it, Bokeh alone or
the baseline: see benchmarks/README.md. The callback's time is still kept, as `frame_start`.)
Events are sent one at a time and the next waits until the page has recorded the update of the
previous one, so each latency stands alone.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import socket
import statistics
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

CHROMIUM = (os.environ.get("CHROMIUM") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
            or shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 900}
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


# --- numbers --------------------------------------------------------------------------------
def summary(values: list[float]) -> dict:
    """median, p95 (nearest rank), min, max and n of a list of milliseconds."""
    v = sorted(float(x) for x in values)
    if not v:
        return {"n": 0}
    return {"n": len(v), "median": round(statistics.median(v), 2),
            "p95": round(v[min(len(v) - 1, math.ceil(0.95 * len(v)) - 1)], 2),
            "min": round(v[0], 2), "max": round(v[-1], 2)}


# --- processes ------------------------------------------------------------------------------
def free_port() -> int:
    """A free TCP port, from binding to port 0."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", "rb") as f:
                stat = f.read().decode("ascii", "replace")
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        kids.setdefault(ppid, []).append(int(d))
    return kids


def process_tree(pid: int) -> list[int]:
    """pid and all its descendants (a Voila server's kernels, for instance)."""
    kids, out, todo = _children(), [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def cpu_seconds(pid: int) -> float:
    """utime + stime of pid and its live descendants, in seconds (/proc/<pid>/stat)."""
    total = 0
    for p in process_tree(pid):
        try:
            with open(f"/proc/{p}/stat", "rb") as f:
                stat = f.read().decode("ascii", "replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / CLK_TCK


def rss_bytes(pid: int) -> int:
    """Resident memory of pid and its descendants (/proc/<pid>/statm), in bytes."""
    total = 0
    for p in process_tree(pid):
        try:
            with open(f"/proc/{p}/statm") as f:
                total += int(f.read().split()[1]) * PAGE_SIZE
        except OSError:
            continue
    return total


def cpu_stat() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)  # idle + iowait
    return sum(v) - idle, sum(v)


def busy_fraction(a: tuple[int, int], b: tuple[int, int]) -> float:
    return round((b[0] - a[0]) / max(1, b[1] - a[1]), 3)


class CpuMeter:
    """Server CPU over a stretch of work, less what the server spends idle over the same time."""

    def __init__(self, pid: int | None, idle_ms_per_s: float = 0.0):
        self.pid, self.idle = pid, idle_ms_per_s
        self.cpu0 = cpu_seconds(pid) if pid else 0.0
        self.t0 = time.monotonic()

    def per(self, n: int) -> dict | None:
        if not self.pid:
            return None
        raw = (cpu_seconds(self.pid) - self.cpu0) * 1000
        net = max(0.0, raw - self.idle * (time.monotonic() - self.t0))
        return {"ms_per": round(net / max(1, n), 2), "raw_ms_per": round(raw / max(1, n), 2), "n": n}


def settle(page, pid: int | None, idle_ms_per_s: float, seconds: float = 3.0) -> dict:
    """After an interaction has ended: websocket frames the page still sends per second and the
    server's CPU per second above idle (both should be about 0 once a gesture is over)."""
    n0 = page.evaluate("() => __bench.ws_sent")
    meter = CpuMeter(pid, idle_ms_per_s)
    t0 = time.monotonic()
    page.wait_for_timeout(seconds * 1000)
    dt = time.monotonic() - t0
    out = {"seconds": round(dt, 2), "ws_frames_sent_per_s": round((page.evaluate("() => __bench.ws_sent") - n0) / dt, 1)}
    cpu = meter.per(1)
    if cpu is not None:
        out["server_cpu_ms_per_s"] = round(cpu["ms_per"] / dt, 1)
    return out


def idle_cpu_rate(pid: int | None, seconds: float = 1.5, settle_s: float = 6.0) -> float:
    """ms of CPU per second the server spends with nothing asked of it. Taken once the server has
    been quiet for 0.5 s (at most `settle_s` of waiting), as the least of the rates over the
    half-second windows of `seconds`: a server of ours builds the next visitor's page after a page
    has rendered (app/workarounds/spare_pages.py), and a window that caught that build (0.1-0.6 s of CPU) took
    it for idle and subtracted it from every press (masking's server CPU per key and per load read
    0.0 ms in two runs, with an idle of 200 ms/s)."""
    if not pid:
        return 0.0
    deadline = time.monotonic() + settle_s
    while time.monotonic() < deadline:
        c0 = cpu_seconds(pid)
        time.sleep(IDLE_WINDOW_S)
        if (cpu_seconds(pid) - c0) * 1000 / IDLE_WINDOW_S < QUIET_MS_PER_S:
            break
    rates = []
    for _ in range(max(1, round(seconds / IDLE_WINDOW_S))):
        c0, t0 = cpu_seconds(pid), time.monotonic()
        time.sleep(IDLE_WINDOW_S)
        rates.append((cpu_seconds(pid) - c0) * 1000 / (time.monotonic() - t0))
    return round(min(rates), 2)


IDLE_WINDOW_S = 0.5  # idle_cpu_rate's window: the wait for quiet and each rate are taken over one
QUIET_MS_PER_S = 20.0  # a server this busy or less is taken as waiting


@dataclass
class Server:
    """A server process started in its own process group; stop() ends the group (and only it)."""

    name: str
    cmd: list[str]
    url: str
    health: str
    log_path: Path
    cwd: Path
    env: dict = field(default_factory=dict)
    proc: subprocess.Popen | None = None

    def start(self, timeout: float = 90.0) -> "Server":
        log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(self.cmd, cwd=self.cwd, stdout=log, stderr=subprocess.STDOUT,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1", **self.env},
                                     start_new_session=True)
        deadline = time.monotonic() + timeout
        last = None
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}; log:\n{self.log()[-3000:]}")
            try:
                with urllib.request.urlopen(self.health, timeout=10) as r:
                    if r.status == 200:
                        return self
                    last = f"HTTP {r.status}"
            except (urllib.error.URLError, ConnectionError, OSError) as exc:
                last = repr(exc)
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} did not answer {self.health} in {timeout:.0f} s ({last}); "
                                   f"log:\n{self.log()[-3000:]}")
            time.sleep(0.1)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        pgid = self.proc.pid  # start_new_session: the group is the one this process leads
        for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
            try:
                os.killpg(pgid, sig)
            except ProcessLookupError:
                return
            try:
                self.proc.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        try:  # kernels or helpers left in the group
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass


# --- the page-side clock ----------------------------------------------------------------------
# Added to every page before its own scripts. READY is replaced by the target's readiness test.
PAGE_CLOCK = r"""
(() => {
  const B = {kind: null, rows: [], pending: null, done: 0, need: [], ready_at: null, stray: 0, errors: []};
  window.__bench = B;
  B.ready = (__READY__);
  function start(e) {
    // A pointer move comes twice: as pointerrawupdate when it arrives and as pointermove at the
    // next frame, with one timeStamp (the input's). A page may act on either; the row is one.
    const type = e.type === "pointerrawupdate" ? "pointermove" : e.type;
    if (B.pending && B.pending.ts === e.timeStamp && B.pending.type === type) return;
    B.pending = {ts: e.timeStamp, type: type, seen: {}, update: null, frame_start: null, frame: null};
    B.rows.push(B.pending);
  }
  for (const [type, kind] of [["pointerrawupdate", "move"], ["pointermove", "move"], ["keydown", "key"], ["pointerup", "release"]]) {
    window.addEventListener(type, (e) => { if (B.kind === kind) start(e); }, {capture: true});
  }
  // A watched model or text changed: when all of them have, the next frame paints the update.
  B.signal = (label) => {
    const p = B.pending;
    if (B.kind === null) return;
    if (!p || p.update !== null) { B.stray += 1; return; }
    if (p.seen[label] !== undefined) return;
    p.seen[label] = performance.now();
    if (B.need.every((n) => p.seen[n] !== undefined)) {
      p.update = performance.now();
      // The frame's other callbacks (a figure's paint may come before or after this one), its
      // style, layout, paint and commit all run in the task of this callback; a message posted
      // here is handled in the next task, once they are done.
      requestAnimationFrame(() => {
        p.frame_start = performance.now();
        const ch = new MessageChannel();
        ch.port1.onmessage = () => { p.frame = performance.now(); B.done += 1; ch.port1.close(); };
        ch.port2.postMessage(null);
      });
    }
  };
  // Count what the page sends to a server (Bokeh: 3 frames per PATCH-DOC message).
  B.ws_sent = 0;
  if (window.WebSocket) {
    const send = window.WebSocket.prototype.send;
    window.WebSocket.prototype.send = function (d) { B.ws_sent += 1; return send.call(this, d); };
  }
  B.reset = (kind) => { B.kind = kind; B.rows = []; B.pending = null; B.done = 0; B.stray = 0; };
  // Readiness, tested at every frame from the start of the navigation (performance.now() = 0).
  // Also the frames at which BokehJS was loaded and the first document existed (where time goes).
  B.phases = {};
  const poll = () => {
    const now = performance.now();
    try {
      if (B.phases.bokeh_js === undefined && window.Bokeh) B.phases.bokeh_js = now;
      if (B.phases.document === undefined && window.Bokeh && Bokeh.documents && Bokeh.documents.length) B.phases.document = now;
    } catch (e) { /* not yet */ }
    try { if (B.ready()) { B.ready_at = now; return; } } catch (e) { /* not yet */ }
    requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
})();
"""

# Hooks for Bokeh documents: watch models found by name, by CSS class or by title.
HOOK_BOKEH = r"""(specs) => {
  const d = Bokeh.documents[0];
  const find = (s) => {
    if (s.name) return d.get_model_by_name(s.name);
    for (const m of d.all_models) {
      if (s.css_class && m.css_classes && Array.from(m.css_classes).includes(s.css_class)) return m;
      if (s.title && m.title === s.title) return m;
    }
    return null;
  };
  const labels = [];
  for (const s of specs) {
    const m = find(s);
    if (m == null) throw new Error("no model " + JSON.stringify(s));
    m.change.connect(() => __bench.signal(s.label));
    labels.push(s.label);
  }
  __bench.need = labels;
  return labels;
}"""

# For a drag at a hand's pace (run.drag_hand): the figures of a Bokeh document that draw the
# watched sources, each paint of theirs timed, and the end of the frame it was painted in (a message
# posted from the paint is handled once that frame's work is done). A move whose page paints only
# some of its figures in the next frame has not been shown until the last of them is.
HOOK_PAINTS = r"""(names) => {
  const P = window.__bench_paints = {figures: [], paints: []};
  const figs = Array.from(Bokeh.index.query((v) => typeof v._actual_paint === "function" && v.renderer_views != null &&
    Array.from(v.renderer_views.values()).some((r) => r.model.data_source != null && names.includes(r.model.data_source.name))));
  for (const v of figs) {
    const label = v.model.name || v.model.id, paint = v._actual_paint;
    P.figures.push(label);
    v._actual_paint = function () {
      const row = {figure: label, at: performance.now(), frame: null};
      P.paints.push(row);
      const ch = new MessageChannel();
      ch.port1.onmessage = () => { row.frame = performance.now(); ch.port1.close(); };
      ch.port2.postMessage(null);
      return paint.apply(this, arguments);
    };
  }
  return P.figures;
}"""


def shown_latencies(rs: list[dict], paints: list[dict], figures: list[str]) -> tuple[list[float], int]:
    """Per event with an update: its timeStamp -> the end of the frame by which it is shown, that
    is the bench's frame after its change (for what is not a figure: texts, tables) and, for each
    figure drawing the watched sources, the frame of its first paint after the change; in ms. And
    how many events had no update. An event whose figure has not painted since is not counted."""
    got, missed = [], 0
    for r in rs:
        if r["update"] is None or r["frame"] is None:
            missed += 1
            continue
        ends = [r["frame"]]
        for f in figures:
            first = next((p for p in paints if p["figure"] == f and p["at"] >= r["update"] and p["frame"] is not None), None)
            if first is None:
                break
            ends.append(first["frame"])
        else:
            got.append(max(ends) - r["ts"])
    return got, missed


# Hooks for plain DOM texts (Streamlit, Voila): a MutationObserver compares the text each time.
HOOK_TEXT = r"""(textFn) => {
  const get = eval(textFn);
  let last = get();
  new MutationObserver(() => {
    const now = get();
    if (now !== last) { last = now; __bench.signal("text"); }
  }).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: false});
  __bench.need = ["text"];
  return [last];
}"""

# Page (CSS pixel) position of data point (x, y) in the Bokeh plot named `name`.
TO_PAGE = r"""([name, x, y]) => {
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(name));
  const r = v.canvas_view.events_el.getBoundingClientRect();
  return [r.left + v.frame.x_scale.compute(x), r.top + v.frame.y_scale.compute(y)];
}"""


def page_clock(ready_js: str) -> str:
    return PAGE_CLOCK.replace("__READY__", ready_js)


class Network:
    """Bytes a page moves, from CDP Network events (HTTP bodies+headers and websocket frames)."""

    def __init__(self, page):
        self.http = 0
        self.ws_in = 0
        self.ws_out = 0
        self.requests = 0
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.on("Network.webSocketFrameReceived", lambda e: self._frame(e, "in"))
        self.cdp.on("Network.webSocketFrameSent", lambda e: self._frame(e, "out"))
        self.cdp.send("Network.enable")

    def _finished(self, e):
        self.http += int(e.get("encodedDataLength") or 0)
        self.requests += 1

    def _frame(self, e, way):
        r = e.get("response", {})
        data = r.get("payloadData", "")
        n = len(data) * 3 // 4 if r.get("opcode") == 2 else len(data.encode("utf-8"))
        if way == "in":
            self.ws_in += n
        else:
            self.ws_out += n

    def snapshot(self) -> dict:
        return {"http_bytes": self.http, "ws_in_bytes": self.ws_in, "ws_out_bytes": self.ws_out,
                "ws_bytes": self.ws_in + self.ws_out,
                "total_bytes": self.http + self.ws_in + self.ws_out, "requests": self.requests}

    def close(self):
        try:
            self.cdp.detach()
        except Exception:  # noqa: BLE001 - the page may be gone already
            pass


PHASES = r"""() => {
  const n = performance.getEntriesByType("navigation")[0];
  const p = __bench.phases;
  const r = (x) => x === undefined || x === null ? null : Math.round(x * 10) / 10;
  return {html_received: r(n && n.responseEnd), dom_content_loaded: r(n && n.domContentLoadedEventEnd),
          load_event: r(n && n.loadEventEnd), bokeh_js: r(p.bokeh_js), first_document: r(p.document),
          ready: r(__bench.ready_at)};
}"""


def open_page(browser, url: str, ready_js: str, timeout_ms: float = 60_000, network: bool = False):
    """A new context (empty cache) and page at url, waited until ready. Returns (ctx, page, net, errors)."""
    ctx = browser.new_context(viewport=VIEWPORT)
    ctx.add_init_script(page_clock(ready_js))
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)[:300]))
    page.on("console", lambda m: errors.append("console: " + m.text[:300]) if m.type == "error" else None)
    net = Network(page) if network else None
    try:
        page.goto(url, wait_until="commit", timeout=timeout_ms)
        page.wait_for_function("() => window.__bench && __bench.ready_at !== null", timeout=timeout_ms, polling=50)
    except Exception:
        ctx.close()
        raise
    return ctx, page, net, errors


def wait_done(page, n: int, timeout_ms: float) -> bool:
    try:
        page.wait_for_function("(n) => __bench.done >= n", arg=n, timeout=timeout_ms)
        return True
    except Exception:  # noqa: BLE001 - a Playwright timeout: this event got no update
        return False


MAX_MISSES = 5  # events in a row without an update before a run gives up


def each_waited(page, items, act, timeout_ms: float, on_miss=None) -> bool:
    """`act(item)` for each item, each waited for until the page counts its update (`__bench.done`).
    Returns True when MAX_MISSES events in a row got none and the run stopped early; `on_miss`
    runs after every other miss."""
    ok = misses = 0
    for item in items:
        act(item)
        if wait_done(page, ok + 1, timeout_ms):
            ok, misses = ok + 1, 0
            continue
        misses += 1
        if misses >= MAX_MISSES:
            return True
        if on_miss is not None:
            on_miss()
    return False


def rows(page) -> list[dict]:
    return page.evaluate("() => __bench.rows.map((r) => ({ts: r.ts, update: r.update, frame_start: r.frame_start, "
                         "frame: r.frame}))")


def latencies(rs: list[dict]) -> tuple[list[float], int]:
    """event timeStamp -> the end of the frame that paints the update, in ms; and how many events had none."""
    got = [r["frame"] - r["ts"] for r in rs if r["frame"] is not None]
    return got, sum(1 for r in rs if r["frame"] is None)


def breakdown(rs: list[dict]) -> dict:
    """Where an update's time goes: event -> last watched change, that change -> the start of the
    next frame (the bench's callback), and that frame's work (-> its end, the figure used)."""
    done = [r for r in rs if r["frame"] is not None]
    return {"event_to_change_ms": summary([r["update"] - r["ts"] for r in done]),
            "change_to_frame_ms": summary([r["frame_start"] - r["update"] for r in done]),
            "frame_work_ms": summary([r["frame"] - r["frame_start"] for r in done]),
            "to_frame_start_ms": summary([r["frame_start"] - r["ts"] for r in done])}


def dumps(obj) -> str:
    return json.dumps(obj, indent=2, sort_keys=False) + "\n"
