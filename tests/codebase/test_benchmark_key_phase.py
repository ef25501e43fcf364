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
