"""The worked plate's state: the chosen preset, its (edited) query, keys and values, the scaling
and how many stages are revealed; the reader's guesses, which stay out of links."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import param

import attention_core as ac
from app.plates.worked.inputs import MAX_DK, MAX_DV, MAX_ENTRY, MAX_KEYS, parse_rows, parse_vector
from app.plates.worked.presets import DEFAULT_PRESET, PRESETS, key_names
from app.shared.state import PlateState

STAGES = ("score", "scale", "exponentiate", "normalise", "weighted sum")
MIN_SLIDER, BASE_SLIDER_END = 0.1, 8.0
ARRAYS = ("query", "keys", "values")


def check_arrays(query, keys, values):
    """The three arrays as (d_k,), (M, d_k), (M, d_v) floats; ValueError naming shapes otherwise."""
    q = np.asarray(query, dtype=float).reshape(-1)  # (d_k,)
    K = np.asarray(keys, dtype=float)  # (M, d_k)
    V = np.asarray(values, dtype=float)  # (M,) or (M, d_v)
    if V.ndim == 1:
        V = V[:, None]  # (M, 1)
    if K.ndim != 2 or V.ndim != 2 or K.shape[1] != q.shape[0] or K.shape[0] != V.shape[0]:
        raise ValueError(f"need query (d_k,), keys (M, d_k), values (M, d_v); got {q.shape}, {K.shape}, {V.shape}")
    if not (1 <= K.shape[0] <= MAX_KEYS and 1 <= q.shape[0] <= MAX_DK and 1 <= V.shape[1] <= MAX_DV):
        raise ValueError(f"need 1..{MAX_KEYS} keys, d_k 1..{MAX_DK}, d_v 1..{MAX_DV}; got {K.shape}, {V.shape}")
    for a, n in ((q, "query"), (K, "keys"), (V, "values")):
        if not np.all(np.isfinite(a)) or np.any(np.abs(a) > MAX_ENTRY):
            raise ValueError(f"the {n} must be finite and within ±{MAX_ENTRY:g}")
    return q, K, V


def slider_end(q) -> float:
    """The longest the query may be stretched with every entry still within ±10 (and at least 8)."""
    q = np.abs(np.asarray(q, dtype=float))  # (d_k,)
    norm = float(np.sqrt(np.sum(q * q)))
    if norm == 0:
        return BASE_SLIDER_END
    return min(max(BASE_SLIDER_END, norm), MAX_ENTRY * norm / float(q.max()))


def stretched(q, length: float) -> np.ndarray:
    """`q` stretched along its own direction to `length` (within the slider's range); a zero query,
    or a length that is not a finite number, leaves it as it is."""
    q = np.asarray(q, dtype=float)  # (d_k,)
    norm = float(np.sqrt(np.sum(q * q)))
    if norm == 0 or not math.isfinite(length):
        return q
    L = min(max(float(length), MIN_SLIDER), slider_end(q))
    return np.clip(q / norm * L, -MAX_ENTRY, MAX_ENTRY)  # (d_k,)


class WorkedState(PlateState):
    """What the worked-example plate shows; the URL carries the preset, its edits, scaling and the stage."""

    preset = param.Selector(default=DEFAULT_PRESET, objects=list(PRESETS), doc="Which seed example to start from.")
    scaled = param.Boolean(False, doc="Divide the scores by √d_k before the softmax.")
    step = param.Integer(0, bounds=(0, len(STAGES)), doc="How many stages are revealed: 0 none … 5 the output.")
    query = param.Array(np.array(PRESETS[DEFAULT_PRESET]["query"][0]), doc="The query, shape (d_k,).")
    keys = param.Array(np.array(PRESETS[DEFAULT_PRESET]["keys"]), doc="The keys, shape (M, d_k).")
    values = param.Array(np.array(PRESETS[DEFAULT_PRESET]["values"]), doc="The values, shape (M, d_v); d_v = 1 is a scalar.")
    guess_key = param.String("", doc="The reader's guess of the winning key (a key's name, or '').")
    guess_output = param.String("", doc="The reader's guess of the output, as typed.")

    url_fields = ("preset", "scaled", "step", "query", "keys", "values")

    def __init__(self, **params):
        explicit = {k: params.pop(k) for k in ("query", "keys", "values", "scaled", "step") if k in params}
        super().__init__(**params)
        self.load_preset()
        q, K, V = (explicit.pop(k, getattr(self, k)) for k in ARRAYS)
        q, K, V = check_arrays(q, K, V)  # ValueError naming the shapes if they do not fit
        self.param.update(query=q, keys=K, values=V, **explicit)

    def preset_values(self, name: str | None = None) -> dict:
        """What choosing preset `name` (default: the current one) sets: its numbers and scaling,
        with nothing revealed and no guesses."""
        p = PRESETS[self.preset if name is None else name]
        return dict(query=np.array(p["query"][0], dtype=float), keys=np.array(p["keys"], dtype=float),
                    values=np.array(p["values"], dtype=float), scaled=p["scaled"], step=0,
                    guess_key="", guess_output="")

    @param.depends("preset", watch=True)
    def load_preset(self) -> None:
        """The preset's numbers and scaling, with nothing revealed and no guesses."""
        self.param.update(self.preset_values())

    def reset(self) -> None:
        if self.preset == DEFAULT_PRESET:
            self.load_preset()
        else:
            self.preset = DEFAULT_PRESET

    # --- derived numbers -----------------------------------------------------------------
    @property
    def arrays(self):
        return check_arrays(self.query, self.keys, self.values)

    @property
    def d_k(self) -> int:
        return int(np.asarray(self.query).size)

    @property
    def d_v(self) -> int:
        return int(np.atleast_2d(self.values).shape[1]) if np.asarray(self.values).ndim == 2 else 1

    @property
    def scale(self) -> float:
        return ac.default_scale(self.d_k) if self.scaled else 1.0

    @property
    def names(self) -> list[str]:
        return key_names(self.preset, np.asarray(self.keys).shape[0])

    def steps(self) -> ac.LookupSteps:
        """attention_core's record of this query's turn, with the textbook (unshifted) exponentials."""
        q, K, V = self.arrays
        return ac.lookup_steps(q, K, V[:, 0] if V.shape[1] == 1 else V, scale=self.scale, shift=False)

    def hull(self) -> np.ndarray:
        """The values' convex hull (H, 2), or (0, 2) when the values are not 2D."""
        _, _, V = self.arrays
        return ac.convex_hull(V) if V.shape[1] == 2 else np.zeros((0, 2))  # (H, 2)

    def is_preset(self) -> bool:
        """True while the numbers are the preset's own."""
        p = PRESETS[self.preset]
        q, K, V = self.arrays
        return (q.tolist() == p["query"][0] and K.tolist() == p["keys"] and V.tolist() == p["values"])

    def set_inputs(self, query, keys, values) -> None:
        """Replace the numbers (validated; ValueError names the shapes if they do not fit)."""
        q, K, V = check_arrays(query, keys, values)
        self.param.update(query=q, keys=K, values=V)

    def set_length(self, length: float) -> None:
        """Stretch the query along its own direction to `length` (a zero query stays put)."""
        q = np.asarray(self.query, dtype=float)  # (d_k,)
        norm = float(np.sqrt(np.sum(q * q)))
        if norm == 0 or not math.isfinite(length):
            return
        self.query = stretched(q, length)  # (d_k,)

    # --- URL -----------------------------------------------------------------------------
    def url_value(self, name: str) -> str:
        if name == "query":
            return ",".join(f"{x:.6g}" for x in np.atleast_1d(self.query))
        if name in ("keys", "values"):
            return ";".join(",".join(f"{x:.6g}" for x in r) for r in np.atleast_2d(getattr(self, name)))
        return super().url_value(name)

    def to_url(self) -> dict[str, str]:
        """The fields that differ from the preset's own numbers (and the preset if not the default)."""
        p = PRESETS[self.preset]
        out = {}
        if self.preset != DEFAULT_PRESET:
            out["preset"] = self.preset
        if bool(self.scaled) != p["scaled"]:
            out["scaled"] = "1" if self.scaled else "0"
        if self.step:
            out["step"] = str(self.step)
        for name, ref in (("query", p["query"][0]), ("keys", p["keys"]), ("values", p["values"])):
            if np.asarray(getattr(self, name), dtype=float).tolist() != ref:
                out[name] = self.url_value(name)
        return out

    def url_spec(self) -> dict:
        """As PlateState's, but the scaling is a custom field too: like the numbers, a link carries
        it when it differs from the chosen preset's, not from one fixed default (worked.js's
        url_values leaves out what the preset already says; these fields have no default)."""
        spec = super().url_spec()
        spec["fields"]["scaled"] = {"type": "custom", "default": None}
        return spec

    def url_default(self, name: str):
        if name in ARRAYS or name == "scaled":
            return None  # the preset's own, which a link leaves out (worked.js's url_values)
        return super().url_default(name)

    def parse_url_value(self, name: str, text: str):
        """The numbers come clipped to ±10 (clamp_notice says so); the other fields as PlateState reads them."""
        if name == "query":
            return np.clip(np.array(parse_vector(text, "the query", limit=None)), -MAX_ENTRY, MAX_ENTRY)  # (d_k,)
        if name in ("keys", "values"):
            return np.clip(np.array(parse_rows(text, name, limit=None)), -MAX_ENTRY, MAX_ENTRY)  # (M, d)
        return super().parse_url_value(name, text)

    def _was_clamped(self, name: str, text: str, value) -> bool:
        if name in ARRAYS:
            raw = parse_vector(text, "", limit=None) if name == "query" else parse_rows(text, name, limit=None)
            return bool(np.any(np.asarray(raw, dtype=float) != value))
        return super()._was_clamped(name, text, value)

    def clamp_notice(self, name: str, value) -> str:
        if name in ARRAYS:
            return f"'{name}' entries set to within ±{MAX_ENTRY:g}, the nearest allowed values"
        return super().clamp_notice(name, value)

    def apply_url(self, args: Mapping[str, str]) -> list[str]:
        """Read every setting in the link's order, as PlateState does and as an exported page does
        (app/runtime/link.js with worked.js): a notice for each one ignored or clamped. Then set
        them in this order: the preset (it loads its numbers), the scaling, the numbers (ignored
        together, with a notice, when they do not fit one another), the stage."""
        found, notices = self.read_url(args)
        if "preset" in found:
            self.preset = found["preset"]
        if "scaled" in found:
            self.scaled = found["scaled"]
        arrays = {k: found[k] for k in ARRAYS if k in found}
        if arrays:
            q = arrays.get("query", np.asarray(self.query))
            K = arrays.get("keys", np.asarray(self.keys))
            V = arrays.get("values", np.asarray(self.values))
            try:
                self.set_inputs(q, K, V)
            except ValueError:
                notices.append(f"ignored {', '.join(repr(n) for n in arrays)}: the query, keys and values do not fit "
                               f"together (query {np.shape(q)}, keys {np.shape(K)}, values {np.shape(V)})")
        if "step" in found:
            self.step = found["step"]
        return notices
