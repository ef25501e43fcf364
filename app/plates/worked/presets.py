"""The worked plate's presets: the seeds' worked examples (their numbers, key names and notes)."""

from __future__ import annotations

PRESETS: dict[str, dict] = {
    "three-items": {
        "label": "Three items, scores 2, 1, 0 (course text)",
        "query": [[1.0]], "keys": [[2.0], [1.0], [0.0]], "values": [[1.0], [2.0], [3.0]], "scaled": False,
        "names": ["k1", "k2", "k3"],
        "note": "The course text's example: scores 2, 1 and 0 become the weights 0.665, 0.245 and 0.090, "
                "and the output is 1.425. The top score leads by only 1, yet takes two thirds of the weight.",
    },
    "stop-and-try": {
        "label": "Stop and try: q = (1, 0)",
        "query": [[1.0, 0.0]], "keys": [[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]], "values": [[1.0], [2.0], [3.0]],
        "scaled": False, "names": ["k1", "k2", "k3"],
        "note": "The answer: k1 = (1, 0) points the same way as the query, so its dot product, 1, is the largest; "
                "k2 = (0, 1) is at right angles (score 0) and k3 = (−1, 0) points the other way (score −1).",
    },
    "one-token": {
        "label": "One token's turn: q = [1, 2]",
        "query": [[1.0, 2.0]], "keys": [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
        "values": [[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]], "scaled": True, "names": ["k1", "k2", "k3"],
        "note": "The seed prints the weights [0.14, 0.284, 0.576] and the output [4.28, 5.72]. k3 = [1, 1] "
                "matches the query best (score 3), so the output leans toward its value [5, 5], then toward "
                "[0, 10]. The three values lie on one line, so their hull is a segment.",
    },
    "four-keys": {
        "label": "Four keys, one-hot values: q = [2, 1]",
        "query": [[2.0, 1.0]], "keys": [[1.0, 0.0], [0.0, 2.0], [2.0, 2.0], [-1.0, 1.0]],
        "values": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]], "scaled": True,
        "names": ["k1", "k2", "k3", "k4"],
        "note": "The seed prints α = [0.053, 0.053, 0.888, 0.006] and the output [0.059, 0.059, 0.894]; it cuts "
                "0.8887 and 0.8950 off after three decimals instead of rounding them. Untick ÷√d_k and the "
                "weights sharpen to [0.018, 0.018, 0.964, 0.001].",
    },
    "four-tokens": {
        "label": "Four tokens A–D (2D keys and values)",
        "query": [[1.5, 1.0]], "keys": [[2.0, 0.5], [-0.5, 2.0], [-1.5, -1.0], [1.0, -1.5]],
        "values": [[3.0, 1.0], [1.0, 3.0], [-2.0, 1.0], [0.0, -2.0]], "scaled": True,
        "names": ["A", "B", "C", "D"],
        "note": "Drag the query outward, or raise its length: the scores spread, A's weight climbs and the "
                "output slides toward A's value. Shrink the query and the output falls back toward the "
                "middle of the values. It never leaves their hull.",
    },
}
DEFAULT_PRESET = "three-items"


def key_names(preset: str, m: int) -> list[str]:
    """The preset's names for its keys, or k1 … km once the number of keys differs from its own."""
    names = PRESETS[preset]["names"]
    return list(names) if len(names) == m else [f"k{j + 1}" for j in range(m)]


def presets_js() -> dict[str, dict]:
    """What worked.js needs of each preset (its numbers, scaling, names and note), by key."""
    return {k: {kk: p[kk] for kk in ("query", "keys", "values", "scaled", "names", "note")} for k, p in PRESETS.items()}
