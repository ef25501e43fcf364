"""The masking plate: its state and URL round trip, clamping, the plate following the state both
ways, building without a server.

The browser is simulated by setting the Bokeh models' properties from Python (Bokeh runs the
Python on_change callbacks for those sets, as a served session does when a browser's change
arrives). masking.js itself runs in node for the parity checks (tests/core/test_mirror_masking.py).
"""

from __future__ import annotations

import numpy as np
import panel as pn
import pytest
from bokeh.document import Document

import attention_core as ac
from app.delivery.page import plate_page
from app.plates.masking.data import SOURCES, checks_table_html, sources, texts
from app.plates.masking.demo import demo_data, demo_numbers
from app.plates.masking.state import KINDS, RECIPES, MaskingState, cells_text, fit_cells
from app.plates.masking.view import MaskingPlate
from hostile_links import python_notices, silent_changes  # tests/hostile_links.py


def data(plate: MaskingPlate, name: str) -> dict:
    src = {"mask": plate.mask_src, "scores": plate.scores_src, "weights": plate.weights_src,
           "row_sums": plate.sums_src, "output": plate.output_src, "contrast_weights": plate.cw_src,
           "contrast_row_sums": plate.csums_src, "contrast_output": plate.co_src, "norms": plate.norms_src,
           "checks": plate.checks_src}[name]
    return src.data


def grid(plate: MaskingPlate, name: str) -> np.ndarray:
    n = plate.state.n
    return np.array(data(plate, name)["value"], dtype=float).reshape(n, -1)


# --------------------------------------------------------------------------- the state


def test_defaults_are_seed_003s_five_tokens_with_a_causal_mask():
    s = MaskingState()
    assert (s.n, s.kind, s.p, s.w, s.causal_window, s.contrast, s.cells) == (5, "causal", 2, 2, True, False, None)
    assert np.array_equal(s.mask(), ac.causal_mask(5))
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 4))
    Wq, Wk, Wv = rng.normal(size=(3, 4, 4))
    for got, want in zip(s.qkv(), (X @ Wq, X @ Wk, X @ Wv)):
        assert np.array_equal(got, want)
    assert s.to_url() == {}


@pytest.mark.parametrize(("params", "want"), [
    ({"kind": "none"}, np.ones((5, 5), dtype=bool)),
    ({"kind": "padding", "p": 3}, ac.padding_mask(5, 5, 3)),
    ({"kind": "window", "w": 3}, ac.window_mask(5, 3, causal=True)),
    ({"kind": "window", "w": 3, "causal_window": False}, ac.window_mask(5, 3, causal=False)),
    ({"kind": "custom", "cells": np.eye(5, dtype=bool)}, np.eye(5, dtype=bool)),
    ({"kind": "custom"}, ac.causal_mask(5)),  # no cells yet: the causal mask
])
def test_each_kind_gives_its_mask(params, want):
    assert np.array_equal(MaskingState(**params).mask(), want)


def test_p_and_w_never_exceed_n_and_custom_cells_follow_n():
    s = MaskingState(kind="custom", cells=np.eye(5, dtype=bool), p=5, w=5)
    s.n = 3
    assert (s.p, s.w) == (3, 3)
    assert np.array_equal(s.mask(), np.eye(3, dtype=bool))
    s.n = 6
    want = ac.causal_mask(6)
    want[:3, :3] = np.eye(3, dtype=bool)
    assert np.array_equal(s.mask(), want)  # the overlap kept, new cells causal
    assert np.array_equal(fit_cells(np.ones((8, 8), dtype=bool), 4), np.ones((4, 4), dtype=bool))


def test_flip_makes_a_custom_mask_from_the_one_on_screen():
    s = MaskingState(kind="padding", p=1)
    s.flip(0, 0)
    want = ac.padding_mask(5, 5, 1)
    want[0, 0] = False
    assert s.kind == "custom" and np.array_equal(s.mask(), want)
    with pytest.raises(ValueError, match=r"cell \(5, 0\) is outside the 5 x 5 mask"):
        s.flip(5, 0)


URL_STATES = [
    {"n": 7},
    {"kind": "none", "contrast": True},
    {"kind": "padding", "p": 4, "n": 6},
    {"kind": "window", "w": 3, "causal_window": False, "n": 8},
    {"kind": "custom", "cells": np.eye(5, dtype=bool)},
    {"kind": "custom", "n": 4, "cells": ~ac.causal_mask(4)},
]


@pytest.mark.parametrize("params", URL_STATES)
def test_url_round_trip(params):
    s = MaskingState(**params)
    link = s.to_url()
    t = MaskingState()
    assert t.apply_url(link) == []
    assert t.to_url() == link
    assert np.array_equal(t.mask(), s.mask())
    assert (t.n, t.kind, t.contrast) == (s.n, s.kind, s.contrast)


def test_url_writes_cells_as_rows_of_digits():
    s = MaskingState(kind="custom", n=3, cells=np.array([[1, 0, 0], [0, 0, 0], [1, 1, 1]], dtype=bool))
    assert s.to_url() == {"n": "3", "kind": "custom", "cells": "100.000.111"}
    assert cells_text(s.mask()) == "100.000.111"
    assert MaskingState(kind="causal", cells=np.eye(5, dtype=bool)).to_url() == {}  # cells only when custom


@pytest.mark.parametrize(("args", "notice", "check"), [
    ({"n": "99"}, "'n' set to 8, the nearest allowed value", lambda s: s.n == 8),
    ({"n": "2"}, "'n' set to 3, the nearest allowed value", lambda s: s.n == 3),
    ({"n": "abc"}, "ignored 'n=abc'", lambda s: s.n == 5),
    ({"n": "inf"}, "ignored 'n=inf'", lambda s: s.n == 5),
    ({"kind": "diagonal"}, "ignored 'kind=diagonal': expected one of none, causal, padding, window, custom",
     lambda s: s.kind == "causal"),
    ({"p": "7", "kind": "padding"}, "'p' set to 5, the nearest allowed value (0..n, n = 5)", lambda s: s.p == 5),
    ({"w": "0", "kind": "window"}, "'w' set to 1, the nearest allowed value", lambda s: s.w == 1),
    ({"n": "3", "w": "6"}, "'w' set to 3, the nearest allowed value (1..n, n = 3)", lambda s: s.w == 3),
    ({"cells": "10x.010.001", "kind": "custom"}, "ignored 'cells=10x.010.001': expected up to 8 rows",
     lambda s: np.array_equal(s.mask(), ac.causal_mask(5))),
    ({"cells": "10.0"}, "ignored 'cells=10.0'", lambda s: s.cells is None),
    ({"cells": ".".join(["1" * 9] * 9)}, "ignored 'cells=", lambda s: s.cells is None),
    ({"contrast": "maybe"}, "ignored 'contrast=maybe': expected 0 or 1", lambda s: s.contrast is False),
    ({"bogus": "1"}, "ignored unknown setting 'bogus'", lambda s: s.to_url() == {}),
])
def test_bad_links_give_a_notice_and_change_nothing_else(args, notice, check):
    s = MaskingState()
    notices = s.apply_url(args)
    assert any(notice in x for x in notices), notices
    assert check(s)
    assert np.all(np.isfinite(s.steps().weights))


def test_a_small_custom_link_is_fitted_to_n_and_says_so():
    """Issue 54, 5: every value a link gives that the page changes or drops gets its notice; a
    2 × 2 mask shown in a 4 × 4 grid was changed without one."""
    s = MaskingState()
    assert s.apply_url({"kind": "custom", "cells": "01.10", "n": "4"}) == [
        "'cells' fitted to n = 4: the 2 × 2 given fill the top left, the rest follow the causal rule"]
    want = ac.causal_mask(4)
    want[:2, :2] = [[False, True], [True, False]]
    assert np.array_equal(s.mask(), want)


@pytest.mark.parametrize(("pairs", "notices"), [
    ([("n", "3"), ("kind", "custom"), ("cells", "1000.1100.1110.1111")],
     ["'cells' cut to n = 3: the top left 3 × 3 of the 4 × 4 given"]),
    ([("cells", "10.11")], ["'cells' not shown: only kind=custom draws them (kind is causal)"]),
    ([("kind", "window"), ("cells", "100.110.111"), ("n", "3")],
     ["'cells' not shown: only kind=custom draws them (kind is window)"]),
    ([("kind", "custom"), ("cells", "100.110.111"), ("n", "3")], []),  # as given: nothing to say
])
def test_cells_a_link_gives_are_never_changed_or_dropped_unsaid(pairs, notices):
    assert python_notices("masking", pairs) == tuple(notices)
    assert silent_changes("masking", pairs) == []


# --------------------------------------------------------------------------- the plate


def test_plate_builds_without_a_server_and_names_its_models():
    page = plate_page("masking", {"kind": "padding", "p": "3"}, static=True)
    doc = Document()
    root = pn.panel(page).get_root(doc)
    doc.add_root(root)
    names = {m.name for m in root.references() if getattr(m, "name", None)}
    for name in (*SOURCES, "mask_plot", "scores_plot", "weights_plot", "contrast_weights_plot", "output_plot",
                 "contrast_output_plot", "norms_plot", "n", "kind", "p", "w", "causal_window", "contrast", "reset",
                 "notes", "checks_table", "demo_table"):
        assert name in names, name
    plate = page.plate
    assert plate.state.kind == "padding" and plate.state.p == 3
    assert data(plate, "mask")["allowed"] == ac.padding_mask(5, 5, 3).ravel().tolist()


def test_the_sources_hold_attention_cores_numbers():
    plate = MaskingPlate()
    Q, K, V = RECIPES[5]
    mask = ac.causal_mask(5)
    out, A = ac.attention(Q, K, V, mask=mask)
    assert np.array_equal(grid(plate, "weights"), A)
    assert np.array_equal(grid(plate, "output"), out)
    scores = grid(plate, "scores")
    assert np.array_equal(scores == -np.inf, ~mask)
    assert np.allclose(scores[mask], (Q @ K.T / 2)[mask], rtol=0, atol=1e-14)
    assert data(plate, "scores")["text"][1] == "−∞" and data(plate, "weights")["text"][1] == "0"
    assert data(plate, "row_sums")["text"] == ["1.000"] * 5
    assert all(abs(x - 1) <= 1e-12 for x in data(plate, "row_sums")["sum"])
    cs = data(plate, "contrast_row_sums")["sum"]
    assert all(x < 1 for x in cs[:4]) and abs(cs[4] - 1) <= 1e-12
    assert all(data(plate, "checks")["ok"]) and data(plate, "checks")["mark"] == ["✓"] * 6
    for name in SOURCES:
        d = data(plate, name)
        for col in d.values():
            assert not any(isinstance(v, float) and np.isnan(v) for v in col), name


@pytest.mark.parametrize("params", [{}, {"kind": "padding", "p": 5, "n": 7}, {"contrast": True, "n": 3},
                                    {"kind": "custom", "n": 4, "cells": np.eye(4, dtype=bool)}])
def test_the_page_holds_what_data_py_computes(params):
    """Every named source and Div holds data.py's sources() and texts() for the state."""
    plate = MaskingPlate()
    plate.state.param.update(params)
    want = sources(plate.state)
    assert set(want) == set(SOURCES)
    for name in SOURCES:
        assert data(plate, name) == want[name], name
    for name, text in texts(plate.state).items():
        assert getattr(plate, name).text == text, name


def test_the_plate_follows_the_state():
    plate = MaskingPlate()
    plate.kind = "padding"
    plate.p = 5  # everything padded: every row may attend to nothing
    assert np.all(grid(plate, "weights") == 0.0) and np.all(grid(plate, "output") == 0.0)
    assert data(plate, "row_sums")["text"] == ["0"] * 5
    assert "Rows 1, 2, 3, 4 and 5 may attend to nothing" in plate.notes.text
    plate.n = 7
    assert len(data(plate, "weights")["value"]) == 49 and plate.y_range.factors[0] == "q7"
    assert plate.x_sum.factors[-1] == "Σ" and plate.p_w.end == 7
    plate.contrast = True
    assert plate.cw_plot.visible and not plate.weights_plot.visible
    assert "sums to less than 1" in plate.notes.text


def test_a_row_made_empty_in_the_editor_shows_zeros_and_says_so():
    plate = MaskingPlate()
    plate.state.flip(2, 0)
    plate.state.flip(2, 1)
    plate.state.flip(2, 2)  # causal row 3 had k1..k3: now nothing
    w, out = grid(plate, "weights"), grid(plate, "output")
    assert np.all(w[2] == 0.0) and np.all(out[2] == 0.0)
    assert data(plate, "row_sums")["sum"][2] == 0.0
    assert "Row 3 may attend to nothing: its weights are all 0 and its output is 0, not NaN." in plate.notes.text
    assert data(plate, "checks")["detail"][0] == "4 of 5 rows sum to 1, 1 to 0"
    assert all(data(plate, "checks")["ok"])
    # The table on the page is the checks' own (masking.js writes the same: tests/core/test_mirror_masking.py).
    assert plate.checks_table.text == checks_table_html(data(plate, "checks"))
    assert "<td class='ae-tx'>4 of 5 rows sum to 1, 1 to 0</td>" in plate.checks_table.text


# --------------------------------------------------------------------------- browser -> state


def test_widgets_from_the_browser_reach_the_state():
    plate = MaskingPlate()
    plate.kind_w.active = KINDS.index("window")
    plate.w_w.value = 3
    assert plate.state.kind == "window" and plate.state.w == 3
    assert np.array_equal(grid(plate, "weights") > 0, ac.window_mask(5, 3))
    plate.causal_w.active = []
    assert plate.state.causal_window is False
    plate.contrast_w.active = 1
    assert plate.state.contrast is True
    plate.n_w.value = 8
    assert plate.state.n == 8 and len(data(plate, "weights")["value"]) == 64


def test_choosing_custom_starts_from_the_mask_on_screen():
    plate = MaskingPlate(kind="padding", p=2)
    plate.kind_w.active = KINDS.index("custom")
    assert plate.state.kind == "custom" and np.array_equal(plate.state.mask(), ac.padding_mask(5, 5, 2))


def test_a_tap_from_the_browser_is_folded_in_when_the_gesture_ends():
    plate = MaskingPlate()
    plate.sync.tags = ["busy"]  # the page leads (masking.js: AESync.lead)
    allowed = list(plate.mask_src.data["allowed"])
    allowed[0] = False  # q1 -> k1 blocked: row 1 empty
    plate.kind_w.active = KINDS.index("custom")
    plate.mask_src.data = {**plate.mask_src.data, "allowed": allowed}
    assert plate.state.kind == "causal"  # still busy: nothing folded yet
    plate.sync.tags = []  # the gesture's end (AESync.commit)
    assert plate.state.kind == "custom"
    assert plate.state.mask()[0].tolist() == [False] * 5
    assert np.all(grid(plate, "weights")[0] == 0.0)
    assert plate.state.to_url()["cells"] == "00000.11000.11100.11110.11111"


@pytest.mark.filterwarnings("ignore:ColumnDataSource's columns must be of the same length")
def test_bad_values_from_the_browser_change_nothing():
    plate = MaskingPlate(kind="custom")
    before = plate.state.mask().copy()
    plate.sync.tags = ["busy"]
    plate.mask_src.data = {**plate.mask_src.data, "allowed": [True, "x"]}
    plate.sync.tags = []
    assert np.array_equal(plate.state.mask(), before)
    assert data(plate, "mask")["allowed"] == before.ravel().tolist()  # the browser is put back
    plate.n_w.value = 42
    assert plate.state.n == 5 and plate.n_w.value == 5


# --------------------------------------------------------------------------- the demo (seeds 000 and 004)


def test_the_demo_table_shows_seed_000s_numbers_and_the_two_orders():
    d = demo_numbers()
    assert [round(x, 3) for x in d["plain"]] == [0.665, 0.245, 0.090]
    assert round(d["out_plain"], 3) == 1.425
    assert d["shown"][2] == -np.inf and d["exp_masked"][2] == 0.0
    assert [round(x, 3) for x in d["before"]] == [0.731, 0.269, 0.0]
    assert [round(x, 3) for x in d["after"]] == [0.665, 0.245, 0.0]
    assert round(d["out_before"], 3) == 1.269 and round(d["out_after"], 3) == 1.155
    t = demo_data()
    assert t["plain_text"] == ["0.665", "0.245", "0.090", "1.000", "1.425"]
    assert t["before_text"] == ["0.731", "0.269", "0", "1.000", "1.269"]
    assert t["after_text"] == ["0.665", "0.245", "0", "0.910", "1.155"]
    assert t["masked_score"][2] == "−∞" and t["exp_text"][2] == "0"
    # The page's table: item 3 masked before (0.731 + 0.269 = 1) and zeroed after (0.910, 1.155).
    rows = MaskingPlate().demo_table.text.split("<tr>")[2:]
    assert rows[2] == ("<th scope='row'>item 3</th><td>0</td><td>3</td><td>0.090</td><td>−∞</td><td>0</td>"
                       "<td>0</td><td>0</td></tr>")
    assert rows[3].startswith("<th scope='row'>Σ weights</th>") and "<td>1.000</td><td>0.910</td>" in rows[3]
    assert rows[4].endswith("<td>1.425</td><td></td><td></td><td>1.269</td><td>1.155</td></tr></tbody></table></div>")
