"""The soft-lookup plate reproduces the seed's four printed numbers, and its width and scale behave.

The numbers are computed with the plate's own state (LookupState) and attention_core, never with
app/plates/lookup_layout.py's arithmetic, so the search script cannot vouch for itself. Each
printed number is held to within one unit of its last printed digit (55.1 % -> ±0.1 point,
16.84 -> ±0.01).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import attention_core as ac
from app.plates.lookup.state import DEFAULT_KEYS, DK_CHOICES, KEY_ANGLES, KEY_LENGTH, VALUES, LookupState
from app.plates.lookup.layout_search import search


def test_default_query_key2_wins_551_percent_output_1684():
    st = LookupState().steps()
    assert st.winner == 1, f"key 2 should win, got key {st.winner + 1} (weights {st.weight})"
    assert abs(100 * st.weight[1] - 55.1) <= 0.1, 100 * st.weight[1]
    assert abs(float(st.output) - 16.84) <= 0.01, st.output
    assert math.isclose(st.weight.sum(), 1.0, abs_tol=1e-12)


@pytest.mark.parametrize("length, printed", [(4.0, 69.0), (0.1, 23.4)])
def test_largest_weight_at_length(length, printed):
    st = LookupState(length=length).steps()
    assert abs(100 * st.weight.max() - printed) <= 0.1, (length, 100 * st.weight.max())


def test_default_layout_geometry():
    s = LookupState()
    q_angle, q_len = ac.polar(s.query)
    k_angles, k_lens = ac.polar(s.keys)
    assert math.isclose(float(q_angle), 40.0, abs_tol=1e-9) and math.isclose(float(q_len), 1.5, abs_tol=1e-12)
    # the query lies between key 1 and key 2, and no other key is inside that wedge
    assert k_angles[0] < q_angle < k_angles[1]
    assert not np.any((k_angles[2:] > k_angles[0]) & (k_angles[2:] < k_angles[1]))
    np.testing.assert_allclose(k_lens, 2.0, rtol=0, atol=1e-12)
    assert KEY_LENGTH == 2.0
    np.testing.assert_allclose(np.sort(k_angles), np.array(KEY_ANGLES), atol=1e-9)
    np.testing.assert_array_equal(VALUES, [10.0, 20.0, 30.0, 40.0, 50.0])
    np.testing.assert_array_equal(s.keys, DEFAULT_KEYS)


@pytest.fixture(scope="module")
def layouts():
    return sorted(search(key_lengths=(2.0,), query_lengths=(1.5,)))


def test_plate_layout_is_found_by_search_and_is_the_most_even(layouts):
    assert layouts, "search() found no layout with key length 2 and query length 1.5"
    plate = (tuple(KEY_ANGLES), KEY_LENGTH, 1.5)
    found = [(angles, k, q) for _, angles, k, q in layouts]
    assert plate in found, f"the plate's layout {plate} is not among search()'s results {found}"
    best_uneven = layouts[0][0]
    assert found[0] == plate, f"the most even layout is {layouts[0]}, not the plate's"
    # and strictly more even than any other: the choice is not a tie broken by sort order
    assert all(u > best_uneven for u, *_ in layouts[1:]), layouts[:3]


@pytest.mark.parametrize("angle, length", [(40.0, 1.5), (40.0, 4.0), (0.0, 0.1), (200.0, 5.0), (123.4, 2.7)])
def test_scaled_weights_do_not_depend_on_width(angle, length):
    ref = LookupState(angle=angle, length=length, d_k=DK_CHOICES[0], scaled=True).steps().weight
    for d_k in DK_CHOICES:
        w = LookupState(angle=angle, length=length, d_k=d_k, scaled=True).steps().weight
        np.testing.assert_allclose(w, ref, rtol=0, atol=1e-12, err_msg=f"d_k={d_k}")


def test_scaled_weights_also_match_with_moved_keys():
    rng = np.random.default_rng(7)
    keys = rng.uniform(-5, 5, size=(5, 2))
    ref = LookupState(keys=keys, angle=300.0, length=3.3, scaled=True).steps().weight
    for d_k in DK_CHOICES:
        w = LookupState(keys=keys, angle=300.0, length=3.3, d_k=d_k, scaled=True).steps().weight
        np.testing.assert_allclose(w, ref, rtol=0, atol=1e-12, err_msg=f"d_k={d_k}")


@pytest.mark.parametrize("angle, length", [(40.0, 1.5), (40.0, 0.1), (200.0, 1.0)])
def test_unscaled_lookup_hardens_with_width(angle, length):
    top = [LookupState(angle=angle, length=length, d_k=d_k, scaled=False).steps().weight.max() for d_k in DK_CHOICES]
    assert all(b > a for a, b in zip(top, top[1:])), dict(zip(DK_CHOICES, top))


def test_toggling_scale_at_dk2_divides_scores_by_sqrt2():
    off = LookupState(d_k=2, scaled=False).steps()
    on = LookupState(d_k=2, scaled=True).steps()
    assert off.scale == 1.0
    assert on.scale == 1.0 / math.sqrt(2) == ac.default_scale(2)
    np.testing.assert_array_equal(on.score, off.score)  # the raw dot products do not change
    np.testing.assert_array_equal(off.scaled, off.score)  # unscaled: the raw scores go in
    np.testing.assert_array_equal(on.scaled, off.score * ac.default_scale(2))  # bit for bit
    np.testing.assert_allclose(on.scaled * math.sqrt(2), off.scaled, rtol=1e-15, atol=0)
    np.testing.assert_allclose(on.weight, ac.softmax(off.scaled / math.sqrt(2)), rtol=0, atol=1e-15)
