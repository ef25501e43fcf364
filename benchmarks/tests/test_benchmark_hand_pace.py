"""The suite's drag at a hand's pace (benchmarks/run.py: drag_hand) counts a move as shown once the
frame by which every figure drawing the watched sources has painted it is done
(benchmarks/_harness.py: shown_latencies), not the first frame after the change, and the table
puts those rows beside the baseline's release, as it does the waited drag's."""

from __future__ import annotations

from bench_modules import bench_module

H = bench_module("_harness")
R = bench_module("run")


def row(ts, update, frame):
    return {"ts": ts, "update": update, "frame_start": None if frame is None else frame - 1, "frame": frame}


def test_a_move_is_shown_when_its_last_figure_has_painted_it():
    rs = [row(0.0, 2.0, 12.0), row(16.7, 18.0, 29.0), row(33.4, None, None)]
    paints = [  # bars paints the first move in its frame; scale only in the frame after
        {"figure": "bars", "at": 8.0, "frame": 12.0},
        {"figure": "scale", "at": 24.0, "frame": 29.0},
        {"figure": "bars", "at": 24.5, "frame": 29.0},
    ]
    got, missed = H.shown_latencies(rs, paints, ["bars", "scale"])
    assert missed == 1
    assert got == [29.0 - 0.0, 29.0 - 16.7]  # the first move waited for scale's later paint
    # What is not a figure (a Div, a table) is shown by the bench's own frame after the change.
    assert H.shown_latencies(rs, [], [])[0] == [12.0, 29.0 - 16.7]


def test_a_move_no_figure_has_painted_since_is_left_out():
    rs = [row(0.0, 2.0, 12.0)]
    paints = [{"figure": "bars", "at": 1.0, "frame": 12.0}]  # before the change: not its paint
    assert H.shown_latencies(rs, paints, ["bars"]) == ([], 0)


def test_the_hand_rows_sit_beside_the_baselines_release():
    res = {"plates": {"lookup": {"driver": "lookup",
                                 "served": {"hand": {"move_ms": {"median": 11.0, "p95": 15.0}}},
                                 "exported": {"hand": {"move_ms": {"median": 12.0, "p95": 16.0}}}}},
           "baseline": {"drag": {"release_ms": {"median": 44.0, "p95": 60.0}}},
           "floor": {"hand": {"move_ms": {"median": 27.5, "p95": 31.0}}}, "versions": {}}
    line = next(x for x in R.table(res).splitlines() if x.startswith("| drag at a hand's pace (a move every 1/60 s) → shown, median"))
    assert "| 11.0 ms | 4.0× | 12.0 ms | 3.7× | no update until release (release → update 44.0 ms) | 27.5 ms |" in line
    summary = next(x for x in R.summary_table(res).splitlines() if "drag at a hand's pace" in x)
    assert "| 11.0 ms | 4.0× | 12.0 ms | 3.7× |" in summary
