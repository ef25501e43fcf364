"""Find a key layout for the soft-lookup plate (Vol. IV, Plate 2) that reproduces its printed numbers.

The plate's text prints four numbers but no coordinates: with the query at 40°, between keys
1 and 2, key 2 takes the largest weight, 55.1 %, and the output is 16.84; lengthened to 4 the
largest weight is 69.0 %; shortened to 0.1 it is 23.4 %. Values are 10, 20, 30, 40, 50 and the
scores are plain dot products (the plate adds the √d_k scale only later).

This script searches a grid of natural-looking layouts: every key the same length, angles on a
5° grid, one key on each side of the query, the rest spread round the circle; the default
query length from a few round numbers. It keeps the layouts that print all four numbers exactly
when rounded as the plate rounds, and ranks them by how evenly the keys are spread.

    python -m app.plates.lookup_layout        # prints the best layouts

The plate uses the first one printed: keys of length 2 at 0°, 70°, 150°, 225° and 300°, and a
query of length 1.5 (tests/app/test_lookup_layout.py pins the four numbers).
"""

from __future__ import annotations

import itertools

import numpy as np

QUERY_ANGLE = 40.0
VALUES = np.array([10.0, 20.0, 30.0, 40.0, 50.0])  # (5,)
TARGETS = {"w_default": 55.1, "out_default": 16.84, "w_len4": 69.0, "w_len01": 23.4}


def _weights(angles_deg: np.ndarray, key_len: float, q_len: float) -> np.ndarray:
    """Softmax weights for a batch of layouts: angles (B, 5) -> weights (B, 5)."""
    a = np.radians(angles_deg - QUERY_ANGLE)  # (B, 5) angle between each key and the query
    s = q_len * key_len * np.cos(a)  # (B, 5) q · k
    e = np.exp(s - s.max(axis=1, keepdims=True))  # (B, 5)
    return e / e.sum(axis=1, keepdims=True)  # (B, 5)


def printed_numbers(angles_deg, key_len: float, q_len: float) -> dict[str, np.ndarray]:
    """The plate's four printed numbers (unrounded) for layouts (B, 5)."""
    angles_deg = np.atleast_2d(np.asarray(angles_deg, dtype=float))  # (B, 5)
    w0 = _weights(angles_deg, key_len, q_len)  # (B, 5)
    return {
        "w_default": 100 * w0[:, 1],  # (B,) key 2's weight, in %
        "key2_wins": w0.argmax(axis=1) == 1,  # (B,)
        "out_default": w0 @ VALUES,  # (B,)
        "w_len4": 100 * _weights(angles_deg, key_len, 4.0).max(axis=1),  # (B,)
        "w_len01": 100 * _weights(angles_deg, key_len, 0.1).max(axis=1),  # (B,)
    }


def search(key_lengths=(1.0, 1.5, 2.0, 2.5), query_lengths=(1.0, 1.5, 2.0, 2.5)):
    """Yield (unevenness, angles, key_len, q_len) for every layout that prints all four numbers."""
    k1 = np.arange(0, 40, 5)  # below the query
    k2 = np.arange(45, 105, 5)  # above it
    rest = np.arange(110, 345, 5)
    grid = np.array([
        (a, b, c, d, e)
        for a, b in itertools.product(k1, k2)
        for c, d, e in itertools.combinations(rest, 3)
        if c - b >= 30 and d - c >= 30 and e - d >= 30 and 360 + a - e >= 30
    ], dtype=float)  # (B, 5)
    gaps = np.diff(np.concatenate([grid, grid[:, :1] + 360], axis=1), axis=1)  # (B, 5)
    uneven = gaps.std(axis=1)  # (B,)
    for key_len, q_len in itertools.product(key_lengths, query_lengths):
        n = printed_numbers(grid, key_len, q_len)
        ok = (
            n["key2_wins"]
            & (np.round(n["w_default"], 1) == TARGETS["w_default"])
            & (np.round(n["out_default"], 2) == TARGETS["out_default"])
            & (np.round(n["w_len4"], 1) == TARGETS["w_len4"])
            & (np.round(n["w_len01"], 1) == TARGETS["w_len01"])
        )
        for i in np.flatnonzero(ok):
            yield float(uneven[i]), tuple(int(a) for a in grid[i]), key_len, q_len


def main() -> None:
    found = sorted(search())
    print(f"{len(found)} layouts print all four numbers; the most evenly spread first:")
    for uneven, angles, key_len, q_len in found[:10]:
        print(f"  keys at {angles} deg, key length {key_len}, query length {q_len} (gap std {uneven:.1f} deg)")


if __name__ == "__main__":
    main()
