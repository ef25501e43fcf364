"""The example the benchmark's comparison pages show (benchmarks/lookup_example.py) is the seed's
soft lookup: the query at 40° with length 1.5 gives k2 55.1 % and the output 16.84. The floor page
(benchmarks/floor_page.py) starts from attention_core's numbers for it, its drag version drags the
query, the table's floor column takes the drag rows from it, and Bokeh's server serves it.
The heavy plates' floors (benchmarks/plate_floors.py) hand over attention_core's numbers for every
n, their patched builds install the browser-side workarounds, every floor file loads BokehJS alone, and the
bench table shows a plate's own floors in its floor columns."""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.request

import numpy as np
import pytest

import attention_core as ac

from bench_modules import BENCHMARKS, bench_module

floor_page = bench_module("floor_page")
_example = bench_module("lookup_example")
KEYS, QUERY_ANGLE, QUERY_LENGTH, VALUES = _example.KEYS, _example.QUERY_ANGLE, _example.QUERY_LENGTH, _example.VALUES


def test_the_example_is_the_seeds_lookup():
    w = ac.softmax(KEYS @ ac.cartesian(QUERY_ANGLE, QUERY_LENGTH))  # (5,)
    assert abs(float(w[1]) * 100 - 55.1) <= 0.1
    assert int(np.argmax(w)) == 1
    assert abs(float(w @ VALUES) - 16.84) <= 0.01


def test_the_floor_page_starts_from_attention_cores_numbers():
    root = floor_page.build()
    models = {m.name: m for m in root.select({"type": object}) if getattr(m, "name", None)}
    w = ac.softmax(KEYS @ ac.cartesian(QUERY_ANGLE, QUERY_LENGTH))  # (5,)
    np.testing.assert_allclose(models["weights"].data["weight"], w, rtol=0, atol=1e-12)
    assert models["output"].text == "output = 16.84"
    assert models["angle"].value == QUERY_ANGLE and models["length"].value == QUERY_LENGTH


def test_the_drag_floor_starts_from_the_same_numbers_and_drags_its_query():
    """`floor_page.py --drag`: the same app with the baseline's plot of the keys beside it; the
    query sits at the example's query, and a pan on the plot runs the CustomJS that moves it."""
    root = floor_page.build(drag=True)
    models = {m.name: m for m in root.select({"type": object}) if getattr(m, "name", None)}
    q = ac.cartesian(QUERY_ANGLE, QUERY_LENGTH)  # (2,)
    np.testing.assert_allclose([models["query"].data["x"][0], models["query"].data["y"][0]], q, rtol=0, atol=1e-12)
    np.testing.assert_allclose(models["weights"].data["weight"], ac.softmax(KEYS @ q), rtol=0, atol=1e-12)
    (pan,) = models["vectors"].js_event_callbacks["pan"]
    assert "query.data" in pan.code and "angle.value" in pan.code and floor_page.CODE in pan.code
    assert all(cb.code == floor_page.FOLLOW for cb in models["angle"].js_property_callbacks["change:value"])


def test_the_tables_floor_drag_rows_come_from_the_drag_floor():
    run = bench_module("run")
    floor = {"slider": {"press_ms": {"median": 14.9}}, "drag": {"move_ms": {"median": 24.4, "p95": 31.1}}}
    assert run.cell(floor, ("drag", "move_ms", "median"), "ms", "floor") == 24.4
    assert run.cell({"slider": floor["slider"]}, ("drag", "move_ms", "median"), "ms", "floor") == "no draggable plot"
    assert run.cell(floor, ("drag", "server_cpu_per_move", "ms_per"), "ms", "floor") == "no server"
    res = {"plates": {"lookup": {"driver": "lookup", "exported": {"drag": {"move_ms": {"median": 19.0, "p95": 27.0}}}}},
           "floor": floor, "baseline": {}, "versions": {}}
    drag = next(line for line in run.table(res).splitlines() if line.startswith("| drag: move → bars & numbers, median"))
    assert "| 24.4 ms |" in drag


def test_the_floor_page_is_served_by_bokehs_server_a_session_per_visit():
    """`floor_page.py --serve PORT`, the floor of the suite's server figures: Bokeh's server
    answers each visit with a page of its own session."""
    harness = bench_module("_harness")
    port = harness.free_port()
    proc = subprocess.Popen([sys.executable, str(BENCHMARKS / "floor_page.py"), "--serve", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        pages, deadline = [], time.monotonic() + 60
        while len(pages) < 2:
            if proc.poll() is not None:
                raise AssertionError(f"the floor's server exited: {proc.stderr.read().decode()[-2000:]}")
            try:
                with urllib.request.urlopen(f"http://localhost:{port}/", timeout=10) as r:
                    pages.append(r.read().decode())
            except OSError:
                assert time.monotonic() < deadline, "the floor's server did not answer in 60 s"
                time.sleep(0.1)  # not up yet: the next try comes at once when it is
    finally:
        proc.terminate()
        proc.wait(10)
    ids = [re.search(r'"sessionid"|token', p) for p in pages]
    assert all(ids) and "Bokeh-only lookup (the floor)" in pages[0] and "bokeh" in pages[0]
    assert pages[0] != pages[1]  # each visit its own session


def test_the_tables_floor_column_takes_its_server_rows_from_the_floors_served_page():
    run = bench_module("run")
    rss, load = ("memory", "rss_one_page_mb"), ("cold", "server_cpu_per_load", "ms_per")
    floor = {"cold": {"ready_ms": {"median": 910.0}},
             "served": {"memory": {"rss_one_page_mb": 66.4}, "cold": {"server_cpu_per_load": {"ms_per": 171.0}}}}
    assert run.cell(floor, rss, "MB", "floor") == 66.4
    assert run.cell(floor, load, "ms", "floor") == 171.0
    assert run.cell(floor, ("cold", "ready_ms", "median"), "ms", "floor") == 910.0  # the static file's own
    assert run.cell({"cold": floor["cold"]}, rss, "MB", "floor") == "no server"  # a run without it
    assert run.cell(floor, rss, "MB", "exported") == "no server"  # an exported page has none


plate_floors = bench_module("plate_floors")


def models_of(doc) -> dict:
    return {m.name: m for m in doc.roots[0].select({"type": object}) if getattr(m, "name", None)}


def test_the_masking_floor_holds_attention_cores_weights_and_outputs_for_every_n():
    """benchmarks/plate_floors.py: the masking plate's five figures in Bokeh alone. The first n's
    sources and the table its slider hands over for every other n hold attention_core's causal
    weights and outputs, the factor ranges name n queries and keys."""
    from app.plates.masking.state import N_MAX, N_MIN, RECIPES, MaskingState

    models = models_of(plate_floors.masking())
    table = models["n"].js_property_callbacks["change:value"][0].args["table"]
    assert sorted(table, key=int) == [str(n) for n in range(N_MIN, N_MAX + 1)]
    for n in range(N_MIN, N_MAX + 1):
        Q, K, V = RECIPES[n]
        out, w = ac.attention(Q, K, V, mask=ac.causal_mask(n))  # (n, d_v), (n, n)
        d = table[str(n)]
        np.testing.assert_allclose(np.reshape(d["sources"]["weights"]["value"], (n, n)), w, rtol=0, atol=1e-12)
        np.testing.assert_allclose(np.reshape(d["sources"]["output"]["value"], out.shape), out, rtol=0, atol=1e-12)
        assert d["factors"]["keys"] == [f"k{j + 1}" for j in range(n)] and len(d["factors"]["rows"]) == n
    n0 = MaskingState().n
    assert models["n"].value == n0 and models["weights"].data["value"] == table[str(n0)]["sources"]["weights"]["value"]
    assert list(models["keys_range"].factors) == table[str(n0)]["factors"]["keys"]


def test_the_self_attention_floor_holds_attention_cores_weights_and_outputs_for_every_n():
    """The self-attention floor: for every n the weights and outputs its slider hands over are
    attention_core's self-attention of the plate's tokens, in the plate's default order."""
    from app.plates.self_attention import state as S

    models = models_of(plate_floors.self_attention())
    table = models["n"].js_property_callbacks["change:value"][0].args["table"]
    assert sorted(table, key=int) == [str(n) for n in range(S.N_MIN, S.N_MAX + 1)]
    for n in range(S.N_MIN, S.N_MAX + 1):
        perm = list(S.PERMS[n][S.SelfAttentionState().shuffle])
        X = S.X_ALL[:n][perm]  # (n, d)
        out, w = ac.attention(X @ S.WQ, X @ S.WK, X @ S.WV)  # (n, d), (n, n)
        d = table[str(n)]["sources"]
        np.testing.assert_allclose(np.reshape(d["weights"]["value"], (n, n)), w, rtol=0, atol=1e-12)
        np.testing.assert_allclose(np.reshape(d["output"]["value"], (n, out.shape[1])), out, rtol=0, atol=1e-12)
    assert {"tokens_map", "scores_map", "weights_map", "output_map", "original_map", "diff_map", "worked_map",
            "check_readout"} <= set(models)


@pytest.mark.parametrize("slug", sorted(plate_floors.FLOORS))
def test_a_patched_floor_installs_the_workarounds_once_ready(slug):
    from app.workarounds import JS

    plain, patched = plate_floors.FLOORS[slug](), plate_floors.FLOORS[slug](patched=True)
    assert not plain.callbacks._js_event_callbacks
    (cb,) = patched.callbacks._js_event_callbacks["document_ready"]
    assert "AEWorkarounds.install(Bokeh.documents[0])" in cb.code
    assert all(f'W.define("{name}"' in cb.code for name in JS), JS


def test_the_masking_rows_floor_column_is_the_plates_own_floor():
    run = bench_module("run")
    lookup_floor = {"slider": {"press_ms": {"median": 8.7}}}
    own = {"slider": {"press_ms": {"median": 61.0}}}
    patched = {"slider": {"press_ms": {"median": 29.0}}}
    assert run.floors_of({"floor": own, "floor_patched": patched}, lookup_floor) == (own, patched)
    assert run.floors_of({}, lookup_floor) == (lookup_floor, None)
    res = {"plates": {"masking": {"driver": "masking", "exported": {"slider": {"press_ms": {"median": 30.0}}},
                                  "floor": own, "floor_patched": patched},
                      "lookup": {"driver": "lookup", "exported": {"slider": {"press_ms": {"median": 9.0}}}}},
           "floor": lookup_floor, "baseline": {}, "versions": {}}
    text = run.table(res)
    masking, lookup = text.split("### lookup")
    assert "floor with the workarounds" in masking and "floor with the workarounds" not in lookup
    slider = next(line for line in masking.splitlines() if line.startswith("| slider: arrow key → bars & numbers, median"))
    assert "| 61.0 ms | 29.0 ms |" in slider
    assert "8.7 ms" in next(line for line in lookup.splitlines() if line.startswith("| slider: arrow key → bars & numbers, median"))


def test_the_floor_pages_load_bokehjs_alone(tmp_path):
    """Panel, imported here as in the suite, adds its scripts to every Bokeh page; the floors'
    files leave them out (an inlined page would ask for es-module-shims next to the file)."""
    import panel  # noqa: F401

    pages = [floor_page.write(tmp_path / "floor.html"), floor_page.write(tmp_path / "floor-drag.html", drag=True)]
    pages += [plate_floors.write(s, tmp_path / f"{s}.html", patched) for s in plate_floors.FLOORS for patched in (0, 1)]
    for p in pages:
        html = p.read_text(encoding="utf-8")
        assert "Bokeh.embed.embed_items" in html and "es-module-shims" not in html and "panel.min.js" not in html, p
