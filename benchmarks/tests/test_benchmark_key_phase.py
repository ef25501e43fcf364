"""The suite's key presses and clicks (benchmarks/run.py: phase_wait). Each goes as soon as the last
update has been painted and read back ("after-frame", the default), so it lands at about the same
point of the frame clock each time; with --key-phase random it waits a seeded random part of a
frame first, as a hand's presses fall anywhere in a frame."""

from __future__ import annotations

from bench_modules import bench_module

R = bench_module("run")


def waits(phase: str, n: int, monkeypatch) -> list[float]:
    slept: list[float] = []
    monkeypatch.setattr(R.time, "sleep", slept.append)
    wait = R.phase_wait(phase)
    for _ in range(n):
        wait()
    return slept


def test_after_frame_does_not_wait(monkeypatch):
    assert waits("after-frame", 50, monkeypatch) == []


def test_random_waits_spread_over_a_frame_the_same_each_run(monkeypatch):
    first = waits("random", 400, monkeypatch)
    assert len(first) == 400 and all(0.0 <= s <= R.FRAME_S for s in first)
    quarters = [sum(1 for s in first if k * R.FRAME_S / 4 <= s < (k + 1) * R.FRAME_S / 4) for k in range(4)]
    assert min(quarters) >= 70, quarters  # ~100 each: the whole frame, not one phase
    assert waits("random", 400, monkeypatch) == first  # seeded: a rerun presses at the same waits


class _Mouse:
    def __init__(self, log: list):
        self.log = log

    def move(self, x, y, steps=1):
        self.log.append(("move", x, y))

    def down(self):
        self.log.append(("down",))

    def up(self):
        self.log.append(("up",))


class _Page:
    """Just what drag_live asks of a page, with every move and every wait logged in order."""

    def __init__(self, log: list):
        self.mouse = _Mouse(log)

    def evaluate(self, *_):
        return 0

    def wait_for_timeout(self, _):
        pass


def drag_log(phase: str, monkeypatch) -> list:
    log: list = []
    monkeypatch.setattr(R.time, "sleep", lambda s: log.append(("wait", s)))
    path = [(float(i), 0.0) for i in range(15)]
    monkeypatch.setattr(R, "scroll_to_plot", lambda *_: None)
    monkeypatch.setattr(R, "drag_path", lambda page, t, n: ((0.0, 0.0), path[:n], lambda: True))
    monkeypatch.setattr(R.H, "each_waited", lambda page, items, act, timeout: [act(xy) for xy in items] and False)
    monkeypatch.setattr(R.H, "rows", lambda page: [])
    monkeypatch.setattr(R.H, "settle", lambda *a, **k: {})
    target = R.D.Target(key="t", label="t", url="u", ready="", hook=(), slider=None,
                      drag={"plot": "p", "sweep": [1], "sweep_y": 0.0, "live": True})
    out = R.drag_live(_Page(log), target, moves=10, warmup=5, phase=phase)
    assert out["phase"] == phase
    return log[log.index(("move", 4.0, 0.0)) + 1:]  # the measured moves, after the warm-up


def test_drag_moves_wait_a_random_part_of_a_frame_only_when_asked(monkeypatch):
    """drag_live: with --key-phase random each measured move goes after its own wait (within a
    frame, the same waits each run); after-frame sends them back to back."""
    assert drag_log("after-frame", monkeypatch)[:20] == [("move", float(i), 0.0) for i in range(5, 15)] + [("up",)]
    measured = drag_log("random", monkeypatch)
    waits = [e for e in measured if e[0] == "wait"]
    moves = [e for e in measured if e[0] == "move"]
    assert len(waits) == len(moves) == 10
    assert all(measured[2 * i][0] == "wait" and measured[2 * i + 1][0] == "move" for i in range(10))
    assert all(0.0 <= w[1] <= R.FRAME_S for w in waits)
    assert waits == [e for e in drag_log("random", monkeypatch) if e[0] == "wait"]
