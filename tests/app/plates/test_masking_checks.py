"""The masking plate's checks say what its cells show, in every mode (issue 43, item 4.1).

Zeroing the weights after the softmax showed "✓ Each row of weights sums to 1 … 4 of 5 rows"
beside Σ cells of 0.232, 0.012, …, and with padding "✓ Causal mask: q1's weight on k1 is exactly
1" beside a grid that showed 0. Here every line of the checks is read against the cells the page
draws (the sources of data.view_data, which masking.js writes word for word: test_mirror_masking),
for every kind of mask, both orders and a range of n, p and w, and custom masks.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from app.plates.masking.data import SCORES_TITLES, TOL, qname, view_data
from app.plates.masking.state import KINDS, N_MAX, N_MIN, MaskingState

NEG_INF = "−∞"
MARKS = {True: "✓", False: "✗", None: "–"}  # passed, failed, nothing to check


def modes():
    rng = np.random.default_rng(43)
    for kind, contrast, n in itertools.product(KINDS, (False, True), range(N_MIN, N_MAX + 1)):
        for p, w, causal in ((0, 1, True), (n, n, False), (n // 2, 2, True), (1, n - 1 or 1, False)):
            kw = dict(n=n, kind=kind, p=p, w=max(1, w), causal_window=causal, contrast=contrast)
            if kind == "custom":
                kw["cells"] = rng.random((n, n)) < 0.4
            yield kw


def grid(source: dict, column: str, n: int) -> np.ndarray:
    out = np.full((n, n), np.nan)
    for i, j, v in zip(source["i"], source["j"], source[column]):
        out[i, j] = v
    return out


@pytest.mark.parametrize("kw", list(modes()), ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items() if k != "cells"))
def test_each_check_says_what_the_cells_show(kw):
    s = MaskingState(**kw)
    n, d = s.n, view_data(s)
    allowed = grid(d["mask"], "allowed", n).astype(bool)  # (n, n): the mask the page draws
    shown = grid(d["contrast_weights" if s.contrast else "weights"], "value", n)  # (n, n)
    sums = np.asarray(d["contrast_row_sums" if s.contrast else "row_sums"]["sum"])  # (n,)
    checks = dict(zip(d["checks"]["check"], zip(d["checks"]["ok"], d["checks"]["mark"], d["checks"]["detail"])))
    for ok, mark, detail in checks.values():
        assert mark == MARKS[ok] and (ok is None) == detail.startswith("nothing to check: "), (ok, mark, detail)

    # Row sums: every Σ cell is 1 (0 for a row with nothing allowed, renormalised), and the count.
    ok, _, detail = checks["Each row of weights sums to 1 (0 if nothing allowed)"]
    empty = ~allowed.any(axis=1) & (not s.contrast)  # (n,)
    assert ok == bool(np.all(np.abs(sums - np.where(empty, 0.0, 1.0)) <= TOL)), (sums, detail)
    ones = int(np.sum(np.abs(sums - 1.0) <= TOL))
    assert detail.startswith(f"{ones} of {n} rows sum to 1"), (detail, sums)

    # Blocked cells show weight 0; with none blocked there is nothing to check (issue 54, 5).
    ok, _, detail = checks["Blocked pairs get weight exactly 0"]
    if (~allowed).any():
        assert ok == bool(np.all(shown[~allowed] == 0.0)) and f"{int((~allowed).sum())} blocked" in detail
    else:
        assert ok is None and detail == "nothing to check: nothing is blocked"

    # A row with one allowed key: its weight cell there reads exactly 1; with no such row, there
    # is nothing to check (issue 54, 5: a ✓ stood beside it).
    ok, _, detail = checks["A row with one allowed key gives it weight exactly 1"]
    single = [i for i in range(n) if allowed[i].sum() == 1]
    if not single:
        assert ok is None and detail == "nothing to check: no row has exactly one allowed key"
    else:
        assert ok == all(shown[i][allowed[i]][0] == 1.0 for i in single), (shown, detail)
        assert re.findall(r"q\d+", detail) == [qname(i) for i in single] if ok else "not 1" in detail

    # Zeroed after the softmax, a row that blocks a key sums below 1; with no such row, nothing to check.
    ok, _, detail = checks["Zeroed after softmax: a row that blocks sums below 1"]
    assert (ok is None) == (not (~allowed).any()), (ok, detail)

    # The scores panel: the mask before the softmax (−∞ where blocked), or not at all.
    texts = grid({**d["scores"], "t": list(range(len(d["scores"]["i"])))}, "t", n)
    blocked_texts = [d["scores"]["text"][int(k)] for k in texts[~allowed]]
    assert d["_scores_title"] == SCORES_TITLES[bool(s.contrast)]
    assert all(t == NEG_INF for t in blocked_texts) if not s.contrast else NEG_INF not in d["scores"]["text"]


def test_zeroing_after_the_softmax_fails_the_row_sums_it_breaks():
    """The issue's case: zeroing after the softmax with a causal mask; the rows that block fall
    short of 1 and the check says ✗ with the count, and q1's one key gets less than 1."""
    d = view_data(MaskingState(n=5, kind="causal", contrast=True))
    checks = dict(zip(d["checks"]["check"], zip(d["checks"]["mark"], d["checks"]["detail"])))
    assert checks["Each row of weights sums to 1 (0 if nothing allowed)"] == (
        "✗", "1 of 5 rows sum to 1: zeroed after the softmax, the rest fall short")
    mark, detail = checks["A row with one allowed key gives it weight exactly 1"]
    assert mark == "✗" and detail.startswith("q1's one key gets 0.") and detail.endswith(", not 1")
    normal = view_data(MaskingState(n=5, kind="causal", contrast=False))
    assert dict(zip(normal["checks"]["check"], normal["checks"]["mark"]))[
        "A row with one allowed key gives it weight exactly 1"] == "✓"


def test_a_check_with_nothing_to_check_says_so_instead_of_passing():
    """Issue 54, 5: with no mask at all, ✓ stood beside "A row with one allowed key gets weight
    exactly 1" (and beside the blocked pairs' check) with nothing to check."""
    d = view_data(MaskingState(n=5, kind="none"))
    rows = {c: (m, t) for c, m, t in zip(d["checks"]["check"], d["checks"]["mark"], d["checks"]["detail"])}
    assert rows["A row with one allowed key gives it weight exactly 1"] == (
        "–", "nothing to check: no row has exactly one allowed key")
    assert rows["Blocked pairs get weight exactly 0"] == ("–", "nothing to check: nothing is blocked")
    assert rows["Zeroed after softmax: a row that blocks sums below 1"][0] == "–"
    assert rows["Each row of weights sums to 1 (0 if nothing allowed)"][0] == "✓"  # these still have rows to check
    assert rows["No NaN anywhere"][0] == "✓"
