"""cartesian() and polar(): degrees counter-clockwise from +x, and back."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import cartesian, polar


def angular_gap(a, b):
    """Smallest difference between two angles in degrees (so 359.9999 and 0 are close)."""
    d = np.abs(np.asarray(a) - np.asarray(b)) % 360.0
    return np.minimum(d, 360.0 - d)


@pytest.mark.parametrize(
    ("angle", "length", "xy"),
    [
        (90.0, 2.0, [0.0, 2.0]),
        (0.0, 1.0, [1.0, 0.0]),
        (180.0, 3.0, [-3.0, 0.0]),
        (270.0, 1.0, [0.0, -1.0]),
        (-90.0, 1.0, [0.0, -1.0]),
        (45.0, np.sqrt(2.0), [1.0, 1.0]),
        (60.0, 2.0, [1.0, np.sqrt(3.0)]),
        (450.0, 1.0, [0.0, 1.0]),
        (30.0, 0.0, [0.0, 0.0]),
    ],
)
def test_cartesian_known_values(angle, length, xy):
    np.testing.assert_allclose(cartesian(angle, length), xy, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    ("xy", "angle", "length"),
    [
        ([0.0, 2.0], 90.0, 2.0),
        ([1.0, 0.0], 0.0, 1.0),
        ([-3.0, 0.0], 180.0, 3.0),
        ([0.0, -1.0], 270.0, 1.0),
        ([1.0, 1.0], 45.0, np.sqrt(2.0)),
        ([3.0, -4.0], 360.0 - np.degrees(np.arctan2(4.0, 3.0)), 5.0),
    ],
)
def test_polar_known_values(xy, angle, length):
    a, r = polar(xy)
    assert a == pytest.approx(angle, abs=1e-12)
    assert r == pytest.approx(length, abs=1e-12)


def test_polar_of_the_origin_has_length_zero():
    a, r = polar([0.0, 0.0])
    assert r == 0.0
    assert np.isfinite(a) and 0.0 <= a < 360.0


def test_cartesian_broadcasts_and_stacks_on_the_last_axis():
    pts = cartesian([0.0, 90.0, 180.0], 2.0)
    assert pts.shape == (3, 2)
    np.testing.assert_allclose(pts, [[2, 0], [0, 2], [-2, 0]], atol=1e-12)
    pts = cartesian(np.zeros((4, 1)), np.arange(3.0))
    assert pts.shape == (4, 3, 2)
    np.testing.assert_allclose(pts[..., 0], np.broadcast_to(np.arange(3.0), (4, 3)))
    assert cartesian(0.0, 1.0).shape == (2,)


def test_polar_keeps_leading_shape():
    a, r = polar(np.ones((4, 3, 2)))
    assert a.shape == (4, 3) and r.shape == (4, 3)
    np.testing.assert_allclose(a, 45.0)
    np.testing.assert_allclose(r, np.sqrt(2.0))


def test_round_trip_on_a_grid():
    angles = np.arange(0.0, 360.0, 7.5)
    lengths = np.array([1e-6, 0.5, 1.0, 3.0, 1e6])
    A, R = np.meshgrid(angles, lengths)
    a, r = polar(cartesian(A, R))
    assert np.all(angular_gap(a, A) < 1e-9)
    np.testing.assert_allclose(r, R, rtol=1e-12)
    pts = np.stack([np.linspace(-5, 5, 11), np.linspace(3, -7, 11)], axis=-1)
    np.testing.assert_allclose(cartesian(*polar(pts)), pts, rtol=0, atol=1e-12)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    angle=st.floats(-720.0, 720.0),
    length=st.floats(1e-3, 1e3),
)
def test_round_trip_from_polar(angle, length):
    a, r = polar(cartesian(angle, length))
    assert 0.0 <= a < 360.0
    assert angular_gap(a, angle) < 1e-9
    assert r == pytest.approx(length, rel=1e-12)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(x=st.floats(-1e3, 1e3), y=st.floats(-1e3, 1e3))
def test_round_trip_from_cartesian(x, y):
    a, r = polar([x, y])
    assert r >= 0.0
    np.testing.assert_allclose(cartesian(a, r), [x, y], rtol=0, atol=1e-9)


def test_polar_angle_stays_below_360():
    # (-tiny) % 360.0 rounds to 360.0 in floating point; polar() must fold it back to 0.
    a, _ = polar([1.0, -1e-16])
    assert 0.0 <= a < 360.0


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("xy", "shape_text"),
    [
        ([1.0, 2.0, 3.0], r"\(3,\)"),
        ([[1.0, 2.0, 3.0]], r"\(1, 3\)"),
        ([1.0], r"\(1,\)"),
        (np.ones((2, 2, 4)), r"\(2, 2, 4\)"),
        (5.0, r"\(\)"),
    ],
)
def test_polar_refuses_points_that_are_not_2d(xy, shape_text):
    with pytest.raises(ValueError, match=shape_text):
        polar(xy)


def test_cartesian_refuses_shapes_that_do_not_broadcast():
    with pytest.raises(ValueError):
        cartesian([0.0, 90.0], [1.0, 2.0, 3.0])


@pytest.mark.parametrize(("angle", "length"), [(np.nan, 1.0), (0.0, np.inf), ("north", 1.0)])
def test_cartesian_refuses_non_finite_or_non_numeric(angle, length):
    with pytest.raises(ValueError, match=r"angle|length"):
        cartesian(angle, length)


@pytest.mark.parametrize("xy", [[np.nan, 0.0], [0.0, -np.inf], ["a", "b"]])
def test_polar_refuses_non_finite_or_non_numeric(xy):
    with pytest.raises(ValueError, match=r"xy"):
        polar(xy)
