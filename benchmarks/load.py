"""A whole class on one server: many concurrent sessions, and a soak of sessions opened and closed.

    python benchmarks/load.py load --sessions 200      # concurrent sessions with Bokeh's client
    python benchmarks/load.py soak --sessions 2000     # open/close, RSS every 200
    (make load / make soak; tests/app/test_load_short.py runs small versions in make test)

Loopback only: the server is started here on a free port of 127.0.0.1 and stopped at the end;
every loop is bounded. Each session is a real document built by the server (the plate's
models, its state, attention_core's numbers); the client checks that the named `weights`
source arrived with five rows.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = os.sysconf("SC_PAGE_SIZE")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * PAGE / 1e6


def cpu_s(pid: int) -> float:
    """User + system CPU seconds the process has used (/proc/<pid>/stat fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def client_cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def loadavg() -> list[float]:
    """The machine's 1, 5 and 15 minute load averages (it is shared: say how busy it was)."""
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


class Server:
    """`attention-explorable serve` on a free loopback port, with fast session cleanup."""

    def __init__(self, log: Path):
        self.port = free_port()
        self.log = log
        env = {**os.environ, "AE_UNUSED_SESSION_MS": "2000", "AE_CHECK_UNUSED_MS": "500"}
        self._fh = log.open("w")
        self.proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--port", str(self.port)],
                                     cwd=ROOT, env=env, stdout=self._fh, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/liveness", timeout=2).close()
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("server did not start:\n" + log.read_text())
                time.sleep(0.2)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self._fh.close()

    def errors_in_log(self) -> list[str]:
        return [l for l in self.log.read_text().splitlines() if "Traceback" in l or " ERROR " in l or "Exception" in l]


def open_session(url: str):
    """Pull one session; returns (seconds to the first document, session)."""
    import panel.models  # noqa: F401  (the client must know Panel's models)
    from bokeh.client import pull_session

    t0 = time.perf_counter()
    session = pull_session(url=url)
    weights = session.document.select_one({"name": "weights"})
    if weights is None or len(weights.data["weight"]) != 5:
        session.close()
        raise RuntimeError("document without the 'weights' source")
    return time.perf_counter() - t0, session


def pct(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, max(0, int(round(q * len(v) + 0.5)) - 1))] if v else float("nan")


def run_load(sessions: int, workers: int = 16, log: Path | None = None) -> dict:
    """Hold `sessions` sessions open at once; time to first document and memory per session."""
    log = log or ROOT / "benchmarks" / "results" / "load-server.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    srv = Server(log)
    held, times, errors = [], [], 0
    try:
        url = f"http://127.0.0.1:{srv.port}/lookup"
        # Warm the server once, in a thread like every other session: Bokeh's client runs an event
        # loop of its own, which cannot start in a thread that already runs one (a caller inside
        # asyncio, or pytest once Playwright's sync API is open in the same worker).
        with ThreadPoolExecutor(1) as warm:
            warm.submit(open_session, url).result(timeout=300)[1].close()
        time.sleep(3)  # let that session's cleanup pass (idle check every 0.5 s, lifetime 2 s)
        base = rss_mb(srv.proc.pid)
        cpu0, ccpu0, t0, load0 = cpu_s(srv.proc.pid), client_cpu_s(), time.monotonic(), loadavg()
        with ThreadPoolExecutor(workers) as pool:
            for fut in [pool.submit(open_session, url) for _ in range(sessions)]:
                try:
                    dt, s = fut.result(timeout=300)
                    times.append(dt)
                    held.append(s)
                except Exception:  # noqa: BLE001 - counted and reported
                    errors += 1
        after = rss_mb(srv.proc.pid)
        wall, server_cpu, client_cpu = time.monotonic() - t0, cpu_s(srv.proc.pid) - cpu0, client_cpu_s() - ccpu0
        result = {
            "sessions_requested": sessions, "sessions_served": len(held), "errors": errors,
            "first_document_s": {"median": round(statistics.median(times), 3) if times else None,
                                 "p95": round(pct(times, 0.95), 3) if times else None},
            "server_rss_mb": {"before": round(base, 1), "with_sessions": round(after, 1)},
            "mb_per_session": round((after - base) / max(1, len(held)), 3),
            "server_log_errors": len(srv.errors_in_log()),
            "wall_s": round(wall, 1),
            "server_cpu_s_per_session": round(server_cpu / max(1, sessions), 3),
            "client_cpu_s_per_session": round(client_cpu / max(1, sessions), 3),
            "loadavg_before": load0, "loadavg_after": loadavg(),
        }
    finally:
        for s in held:
            s.close()
        srv.stop()
    return result


def run_soak(sessions: int, every: int = 200, workers: int = 8, log: Path | None = None,
             progress: bool = False) -> dict:
    """Open and close `sessions` sessions; the server's RSS after each `every`."""
    log = log or ROOT / "benchmarks" / "results" / "soak-server.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    srv = Server(log)
    readings, errors, done = [], 0, 0
    try:
        url = f"http://127.0.0.1:{srv.port}/lookup"

        def one(_):
            dt, s = open_session(url)
            s.close()
            return dt

        cpu0, ccpu0, t0, loads = cpu_s(srv.proc.pid), client_cpu_s(), time.monotonic(), [loadavg()]
        with ThreadPoolExecutor(workers) as pool:
            while done < sessions:
                n = min(every, sessions - done)
                for fut in [pool.submit(one, i) for i in range(n)]:
                    try:
                        fut.result(timeout=300)
                    except Exception:  # noqa: BLE001
                        errors += 1
                done += n
                time.sleep(3)  # closed sessions are destroyed within ~2.5 s (lifetime 2 s, check 0.5 s)
                readings.append({"sessions": done, "rss_mb": round(rss_mb(srv.proc.pid), 1),
                                 "elapsed_s": round(time.monotonic() - t0, 1)})
                loads.append(loadavg())
                if progress:
                    print(json.dumps({**readings[-1], "errors": errors, "loadavg": loads[-1]}), flush=True)
        first, last = readings[0]["rss_mb"], readings[-1]["rss_mb"]
        return {"sessions": done, "errors": errors, "rss_every": readings,
                "growth_vs_first_pct": round(100 * (last - first) / first, 1),
                "server_log_errors": len(srv.errors_in_log()),
                "wall_s": round(time.monotonic() - t0, 1),
                "server_cpu_s_per_session": round((cpu_s(srv.proc.pid) - cpu0) / max(1, done), 3),
                "client_cpu_s_per_session": round((client_cpu_s() - ccpu0) / max(1, done), 3),
                "loadavg_during": {"min_1m": min(l[0] for l in loads), "max_1m": max(l[0] for l in loads),
                                   "mean_1m": round(sum(l[0] for l in loads) / len(loads), 2)}}
    finally:
        srv.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["load", "soak"])
    ap.add_argument("--sessions", type=int, default=None)
    args = ap.parse_args()
    if args.what == "load":
        res = run_load(args.sessions or 200)
    else:
        res = run_soak(args.sessions or 2000, progress=True)
    out = ROOT / "benchmarks" / "results" / f"{args.what}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=2))
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
