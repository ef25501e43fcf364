"""Plate 2, one query's turn, step by step (after the worked examples of seeds 000, 003 and 004).

What it teaches: attention for one query is four small steps, and every number can be checked
by hand. The query is scored against each key (a dot product), the scores are scaled by 1/√d_k
(or not), exponentiated, normalised so they add to 1, and the values are averaged with those
weights. The table reveals one stage at a time (Step / Back), so the reader can first guess
which key wins and what the output will be; the page then says how close the guess was. The
presets carry the seeds' numbers (scores 2, 1, 0 giving 0.665 / 0.245 / 0.090 and 1.425; the
query [1, 2] giving [0.14, 0.284, 0.576] and [4.28, 5.72]; the four one-hot values giving
[0.059, 0.059, 0.895]). With 2-number keys and values two pictures appear: the keys with a
draggable query, and the values with their convex hull, which the output never leaves. The
query-length slider and curve show that a longer query picks more sharply.

Open it: `attention-explorable serve` then http://localhost:5006/worked, or
`attention-explorable export OUTDIR --plate worked` for one offline HTML file, or in Jupyter
`from app.plates.worked import WorkedPlate; WorkedPlate(preset="four-keys", step=5)`.

Named models (read them with Bokeh.documents[0].get_model_by_name(NAME)):
  sources  worked_table (one row per key: key, k, score, scaled, exp, weight, value, weighted,
           value_i, weighted_i), worked_output (value or value_0.., exp_total, weight_total),
           query, keys, values (x, y, vec, name), hull (x, y), output_point (x, y),
           pulls (x0, y0, x1, y1, w), sweep (length, top, uniform), sweep_now (length, top)
  views    worked_table_view, output_view, stage_note, feedback, query_error, keys_error,
           values_error, guess_error, panel_note, sweep_note, keys_plot, values_plot, sweep_plot
  widgets  preset, restore, scaled, query_text, keys_text, values_text, length, stage,
           step_back, step_next, guess_key, guess_output

The live path (app/static/worked.js with mirror.js) recomputes everything in the browser at
every keystroke, click and pointer move; this module recomputes the same numbers with
attention_core (the authority) when a gesture ends or a widget changes, and pushes them.
"""

from __future__ import annotations

import html
import math
import re
from decimal import ROUND_HALF_UP, Decimal, localcontext
from functools import partial

import numpy as np
import panel as pn
import param
from bokeh.events import ButtonClick, Pan, PanEnd, PanStart
from bokeh.layouts import column as bk_column
from bokeh.layouts import row as bk_row
from bokeh.models import (
    Button,
    CheckboxGroup,
    ColumnDataSource,
    CustomJS,
    Div,
    InlineStyleSheet,
    LabelSet,
    Range1d,
    RadioButtonGroup,
    Select,
    Slider,
    Span,
    TextAreaInput,
    TextInput,
)
from bokeh.plotting import figure

import attention_core as ac

from app.shared import a11y
from app.shared.panes import bokeh_pane
from app.runtime.scripts import custom_js_code
from app.shared.state import MAX_URL_VALUE, PlateState, _short
from app.shared.theme import PALETTE, style_figure
from app.shared.vectors import draw_query_and_keys
from app.shared.viewer import PlateViewer, as_the_browser_left_it, push, set_if_changed

MAX_ENTRY = 10.0  # every typed number lies in [-10, 10]; scores stay below 400, exp below e^400
MAX_KEYS = 6
MAX_DK = 4
MAX_DV = 4
STAGES = ("score", "scale", "exponentiate", "normalise", "weighted sum")
SWEEP_POINTS = 61
MIN_SLIDER, BASE_SLIDER_END = 0.1, 8.0

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


# --------------------------------------------------------------------------- formatting
# app/static/worked.js writes every number and message the same way (tests compare them).
def fixed(x: float, digits: int) -> str:
    """`x` with `digits` decimals, never '-0'; worked.js's fixed writes the same string.

    `x` is first read to 12 significant digits, which removes the last-bit noise of the float
    arithmetic (NumPy and the browser may differ in that bit), then rounded half away from zero
    as by hand: 17.5335 shows as 17.534 whichever side of the tie its float landed on.
    """
    with localcontext() as ctx:
        ctx.prec = 800
        d = Decimal(f"{float(x):.11e}").quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
        s = format(d, "f")
    return s[1:] if s.startswith("-") and d == 0 else s


def trim(s: str) -> str:
    """'1.500' -> '1.5', '2.000' -> '2'."""
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def short(x: float) -> str:
    """Three decimals at most, trailing zeros dropped: 2 -> '2', 1.4142 -> '1.414', 0.09 -> '0.09'."""
    return trim(fixed(x, 3))


def expo(x: float) -> str:
    """Three significant digits in exponent form, as JavaScript's toExponential(2): '3.77e+260'."""
    d = Decimal(float(x))
    if d == 0:
        return "0.00e+0"
    with localcontext() as ctx:
        ctx.prec = 800
        e = d.adjusted()
        m = d.scaleb(-e).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        if abs(m) >= 10:
            e += 1
            m = d.scaleb(-e).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{format(m, 'f')}e{'+' if e >= 0 else '-'}{abs(e)}"


def exp_text(x: float) -> str:
    """An exponential: plain up to a million, exponent form beyond and for tiny positive numbers."""
    return expo(x) if x >= 1e6 or 0 < x < 0.0005 else short(x)


def entry(x: float) -> str:
    """A vector entry as typed back into a text box: six decimals at most, trailing zeros dropped."""
    return trim(fixed(x, 6))


def vec_text(v, f=short) -> str:
    """A vector in brackets: [0.059, 0.059, 0.895]; a one-number vector stays a plain number."""
    v = [float(x) for x in np.atleast_1d(v)]
    return f(v[0]) if len(v) == 1 else "[" + ", ".join(f(x) for x in v) + "]"


def esc(s: str) -> str:
    return html.escape(s, quote=True)


# --------------------------------------------------------------------------- parsing typed numbers
NUMBER = re.compile(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")
SPLIT = re.compile(r"\s*,\s*|\s+")
ROWS = re.compile(r"[\r\n;]")


class InputError(ValueError):
    """A typed entry that cannot be used; its message is shown next to the entry."""


def parse_vector(text: str, what: str, limit: float | None = MAX_ENTRY, max_len: int = MAX_DK) -> list[float]:
    """Numbers separated by commas or spaces, optionally in brackets: '1, 2', '(1 0)', '[-1, 0.5]'."""
    t = text.strip()
    if len(t) >= 2 and t[0] in "([" and t[-1] in ")]":
        t = t[1:-1].strip()
    if not t:
        raise InputError(f"{what} is empty: type numbers separated by commas, e.g. 1, 2")
    out = []
    for p in SPLIT.split(t):
        if p == "":
            raise InputError(f"{what}: a number is missing (two commas in a row, or one at an end)")
        if not NUMBER.match(p):
            raise InputError(f"{what}: '{_short(p, 12)}' is not a number")
        x = float(p)
        if limit is not None and not (-limit <= x <= limit):
            raise InputError(f"{what}: {_short(p, 12)} is outside the range −10 to 10")
        out.append(x)
    if len(out) > max_len:
        raise InputError(f"{what} has {len(out)} numbers; at most {max_len} here")
    return out


def parse_rows(text: str, kind: str, limit: float | None = MAX_ENTRY) -> list[list[float]]:
    """One vector per line (or separated by ';'): the keys or the values."""
    lines = [ln for ln in ROWS.split(text) if ln.strip()]
    one = "key" if kind == "keys" else "value"
    if not lines:
        raise InputError(f"no {kind}: type one {one} per line, e.g. 1, 0")
    if len(lines) > MAX_KEYS:
        raise InputError(f"{len(lines)} {kind}; at most {MAX_KEYS} here")
    rows = [parse_vector(ln, f"line {i + 1}", limit, MAX_DK if kind == "keys" else MAX_DV) for i, ln in enumerate(lines)]
    for i, r in enumerate(rows):
        if len(r) != len(rows[0]):
            raise InputError(f"line {i + 1} has {len(r)} numbers but line 1 has {len(rows[0])}: "
                             f"every {one} needs the same count")
    return rows


def vector_text(v) -> str:
    return ", ".join(entry(x) for x in np.atleast_1d(v))


def rows_text(a) -> str:
    return "\n".join(vector_text(r) for r in np.atleast_2d(a))


def read_inputs(texts: dict, good: dict, edited: str):
    """Parse the three text boxes together. Returns (arrays or None, {field: message}).

    A box whose text is exactly what the last good arrays print as keeps those arrays at full
    precision. Errors between boxes (the query and the keys of different lengths, a different
    number of keys and values) are shown at the box just edited.
    """
    errors: dict[str, str] = {}
    out = {}
    parsers = {"query": lambda t: [parse_vector(t, "the query")], "keys": lambda t: parse_rows(t, "keys"),
               "values": lambda t: parse_rows(t, "values")}
    for f in ("query", "keys", "values"):
        text = texts[f]
        if good.get(f) is not None and text == (vector_text(good[f][0]) if f == "query" else rows_text(good[f])):
            out[f] = np.asarray(good[f], dtype=float)  # (1, d_k) or (M, d)
            continue
        try:
            out[f] = np.asarray(parsers[f](text), dtype=float)  # (1, d_k) or (M, d)
        except InputError as exc:
            errors[f] = str(exc)
    if errors:
        return None, errors
    d_q, d_k = out["query"].shape[1], out["keys"].shape[1]
    if d_q != d_k:
        errors[edited if edited in ("query", "keys") else "keys"] = (
            f"the query has {d_q} number{'s' if d_q != 1 else ''} but each key has {d_k}: "
            "a query and its keys need the same length d_k")
        return None, errors
    m_k, m_v = out["keys"].shape[0], out["values"].shape[0]
    if m_k != m_v:
        errors[edited if edited in ("keys", "values") else "values"] = (
            f"{m_k} keys but {m_v} values: every key needs one value")
        return None, errors
    return out, errors


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


def key_names(preset: str, m: int) -> list[str]:
    names = PRESETS[preset]["names"]
    return list(names) if len(names) == m else [f"k{j + 1}" for j in range(m)]


# --------------------------------------------------------------------------- state
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
        q, K, V = (explicit.pop(k, getattr(self, k)) for k in ("query", "keys", "values"))
        q, K, V = check_arrays(q, K, V)  # ValueError naming the shapes if they do not fit
        self.param.update(query=q, keys=K, values=V, **explicit)

    @param.depends("preset", watch=True)
    def load_preset(self) -> None:
        """The preset's numbers and scaling, with nothing revealed and no guesses."""
        p = PRESETS[self.preset]
        self.param.update(query=np.array(p["query"][0], dtype=float), keys=np.array(p["keys"], dtype=float),
                          values=np.array(p["values"], dtype=float), scaled=p["scaled"], step=0,
                          guess_key="", guess_output="")

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
        L = min(max(float(length), MIN_SLIDER), slider_end(q))
        self.query = np.clip(q / norm * L, -MAX_ENTRY, MAX_ENTRY)  # (d_k,)

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

    def parse_url_value(self, name: str, text: str):
        if name == "query":
            return np.array(parse_vector(text, "the query", limit=None))
        if name in ("keys", "values"):
            return np.array(parse_rows(text, name, limit=None))
        return super().parse_url_value(name, text)

    def apply_url(self, args) -> list[str]:
        """The preset first (it loads its numbers), then the other fields; bad arrays are ignored."""
        args = dict(args)
        notices: list[str] = []
        if "preset" in args:
            notices += super().apply_url({"preset": args.pop("preset")})
        arrays = {k: args.pop(k) for k in ("query", "keys", "values") if k in args}
        step = {"step": args.pop("step")} if "step" in args else {}
        notices += super().apply_url(args)
        found = {}
        for name, text in arrays.items():
            if len(text) > MAX_URL_VALUE:
                notices.append(f"ignored '{name}': value too long")
                continue
            try:
                raw = self.parse_url_value(name, text)
            except (InputError, ValueError) as exc:
                notices.append(f"ignored '{name}={_short(text)}': {exc}")
                continue
            clipped = np.clip(raw, -MAX_ENTRY, MAX_ENTRY)
            if np.any(clipped != raw):
                notices.append(f"'{name}' entries set to within ±{MAX_ENTRY:g}, the nearest allowed values")
            found[name] = clipped
        if found:
            q = found.get("query", np.asarray(self.query))
            K = found.get("keys", np.asarray(self.keys))
            V = found.get("values", np.asarray(self.values))
            try:
                self.set_inputs(q, K, V)
            except ValueError:
                notices.append(f"ignored {', '.join(repr(n) for n in found)}: the query, keys and values do not fit "
                               f"together (query {np.shape(q)}, keys {np.shape(K)}, values {np.shape(V)})")
        if step:
            notices += super().apply_url(step)
        return notices


def slider_end(q) -> float:
    """The longest the query may be stretched with every entry still within ±10 (and at least 8)."""
    q = np.abs(np.asarray(q, dtype=float))  # (d_k,)
    norm = float(np.sqrt(np.sum(q * q)))
    if norm == 0:
        return BASE_SLIDER_END
    return min(max(BASE_SLIDER_END, norm), MAX_ENTRY * norm / float(q.max()))


# --------------------------------------------------------------------------- views (HTML)
CSS = """
:host { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif; color: #1f2328; }
.wk-table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 13.5px; width: 100%; }
.wk-table th, .wk-table td { border-bottom: 1px solid #d8dee4; padding: 3px 6px; text-align: right; white-space: nowrap; }
.wk-table thead th { font-weight: 600; color: #57606a; border-bottom: 2px solid #57606a; vertical-align: bottom; line-height: 1.2; }
.wk-table th.wk-key { text-align: left; color: #0072B2; }
.wk-table td.wk-vec { text-align: left; color: #0072B2; }
.wk-table td.wk-val { color: #00795a; }
.wk-table .wk-now { background: #fff3d6; }
.wk-table td.wk-hidden { color: #8c959f; }
.wk-table tr.wk-total th, .wk-table tr.wk-total td { font-weight: 700; border-bottom: none; border-top: 2px solid #57606a; }
.wk-out { font-size: 20px; font-weight: 700; padding: 2px 0; }
.wk-out .wk-hidden { color: #8c959f; }
.wk-note { font-size: 14px; line-height: 1.45; }
.wk-fb { font-size: 14px; line-height: 1.45; }
.wk-right { color: #1a7f37; font-weight: 600; }
.wk-off { color: #9a3412; font-weight: 600; }
.wk-err { color: #b3261e; font-size: 13px; }
.wk-seed { color: #57606a; font-size: 12.5px; line-height: 1.35; margin-top: 4px; }
@media (max-width: 480px) {  /* a phone: the eight columns in its width */
  .wk-table { font-size: 12.5px; }
  .wk-table th, .wk-table td { padding: 3px 3px; }
}
"""


def table_html(st, names, K, V, step: int, scaled: bool, d_k: int) -> str:
    """The step-by-step table; hidden stages show '?'. worked.js's table_html writes the same."""
    def cell(shown: bool, text: str, stage: int, cls: str = "") -> str:
        c = ([cls] if cls else []) + (["wk-now"] if step == stage else []) + ([] if shown else ["wk-hidden"])
        attr = f" class='{' '.join(c)}'" if c else ""
        return f"<td{attr}>{text if shown else '?'}</td>"

    scale_head = f"÷ √{d_k}" if scaled else "(off)"
    head = ("<thead><tr><th class='wk-key'>key</th><th class='wk-key'>k</th><th>score<br>q·k</th>"
            f"<th>scaled<br>{scale_head}</th><th>e<sup>scaled</sup></th><th>weight</th><th>value</th>"
            "<th>weight<br>× value</th></tr></thead>")
    rows = []
    d_v = 1 if np.ndim(st.output) == 0 else len(st.output)
    for j, name in enumerate(names):
        v = V[j][0] if d_v == 1 else V[j]
        w = st.weighted[j]
        rows.append(
            f"<tr><th class='wk-key'>{esc(name)}</th><td class='wk-vec'>{vec_text(K[j])}</td>"
            + cell(step >= 1, short(st.score[j]), 1) + cell(step >= 2, short(st.scaled[j]), 2)
            + cell(step >= 3, exp_text(st.exp[j]), 3) + cell(step >= 4, fixed(st.weight[j], 3), 4)
            + f"<td class='wk-val'>{vec_text(v)}</td>" + cell(step >= 5, vec_text(w), 5) + "</tr>")
    total = float(np.sum(st.weight))
    rows.append(
        "<tr class='wk-total'><th class='wk-key'>total</th><td></td><td></td><td></td>"
        + cell(step >= 3, "Σ " + exp_text(st.exp_total), 3) + cell(step >= 4, "Σ " + fixed(total, 3), 4)
        + "<td></td>" + cell(step >= 5, "output " + vec_text(st.output), 5) + "</tr>")
    return f"<table class='wk-table'>{head}<tbody>{''.join(rows)}</tbody></table>"


def output_html(st, step: int) -> str:
    shown = step >= 5
    text = vec_text(st.output) if shown else "<span class='wk-hidden'>?</span>"
    return f"<div class='wk-out'>output = {text}</div>"


def score_sum(q, k) -> str:
    """'1×1 + 2×0' for q = [1, 2], k = [1, 0] (negative numbers in brackets)."""
    def b(x: float) -> str:
        s = short(x)
        return f"({s})" if s.startswith("-") else s
    return " + ".join(f"{b(a)}×{b(c)}" for a, c in zip(q, k))


def stage_note(st, q, K, names, step: int, scaled: bool, d_k: int, d_v: int) -> str:
    """One sentence about the stage just revealed, with the first key's numbers."""
    n = esc(names[0])
    if step == 0:
        body = ("Nothing is computed yet. Guess which key will win and what the output will be, "
                "then press <b>Step</b>.")
    elif step == 1:
        body = (f"<b>1 · Score.</b> Multiply the query and each key entry by entry and add: "
                f"q·{n} = {score_sum(q, K[0])} = {short(st.score[0])}.")
    elif step == 2:
        root = short(math.sqrt(d_k))
        if scaled:
            body = (f"<b>2 · Scale.</b> Divide every score by √d_k = √{d_k} ≈ {root}: "
                    f"{short(st.score[0])} → {short(st.scaled[0])}.")
        else:
            body = ("<b>2 · Scale.</b> Scaling is off, so the scores go into the softmax unchanged "
                    f"(tick ÷√d_k to divide them by √{d_k} ≈ {root}).")
    elif step == 3:
        body = (f"<b>3 · Exponentiate.</b> Raise e to each scaled score: every entry turns positive and "
                f"the gaps grow. e<sup>{short(st.scaled[0])}</sup> = {exp_text(st.exp[0])}; "
                f"the exponentials add up to {exp_text(st.exp_total)}.")
    elif step == 4:
        body = (f"<b>4 · Normalise.</b> Divide each exponential by their sum, so the weights add to 1: "
                f"{exp_text(st.exp[0])} / {exp_text(st.exp_total)} = {fixed(st.weight[0], 3)}.")
    else:
        body = (f"<b>5 · Weighted sum.</b> Multiply each value by its weight and add the rows: "
                f"the output is {vec_text(st.output)}.")
        if d_v == 2:
            body += " It lies inside the values' convex hull (shaded): weights ≥ 0 that add to 1 cannot leave it."
    return f"<div class='wk-note'>{body}</div>"


def guess_vector(text: str, d_v: int):
    """(numbers, error): the typed output guess, '' meaning no guess."""
    if not text.strip():
        return None, ""
    try:
        g = parse_vector(text, "your output", max_len=MAX_DV)
    except InputError as exc:
        return None, str(exc)
    if len(g) != d_v:
        example = "0.5" if d_v == 1 else ", ".join(["0.5"] * d_v)
        return None, f"the output has {d_v} number{'s' if d_v != 1 else ''}; type {d_v}, e.g. {example}"
    return g, ""


def feedback_html(st, names, step: int, guess_key: str, guess_output: str, d_v: int, note: str) -> str:
    """What the page says about the reader's guesses once the weights (and the output) are shown."""
    if step < 4:
        return ("<div class='wk-fb'>Guess before the weights appear (stage 4): the page then tells you "
                "how close you were.</div>")
    w = [float(x) for x in st.weight]
    top = max(w)
    winners = [j for j, x in enumerate(w) if x >= top - 1e-12]
    win_names = " and ".join(esc(names[j]) for j in winners)
    lead = f"{win_names} {'tie' if len(winners) > 1 else 'wins'} with weight {fixed(top, 3)}"
    if guess_key in names:
        j = names.index(guess_key)
        if j in winners:
            tied = f" ({win_names} tie)" if len(winners) > 1 else ""
            key_line = f"<span class='wk-right'>You picked {esc(guess_key)}: right.</span>{tied} It takes {fixed(w[j], 3)} of the weight."
        else:
            key_line = (f"<span class='wk-off'>You picked {esc(guess_key)}: not this time.</span> "
                        f"{lead}; {esc(guess_key)} gets {fixed(w[j], 3)}.")
    else:
        key_line = f"You did not pick a key. {lead}."
    if step < 5:
        out_line = "Step once more to check your output."
    else:
        g, _ = guess_vector(guess_output, d_v)
        if g is None:
            out_line = f"No output guess to check; the output is {vec_text(st.output)}."
        else:
            dist = ac.prediction_error(g[0] if d_v == 1 else g, st.output)
            out_line = f"Your output {vec_text(g)} is {fixed(dist, 3)} from {vec_text(st.output)}."
    seed = f"<div class='wk-seed'>{esc(note)}</div>" if note and step >= 5 else ""
    return f"<div class='wk-fb'>{key_line}<br>{out_line}</div>{seed}"


def error_html(msg: str) -> str:
    return f"<div class='wk-err' role='alert'>{esc(msg)}</div>" if msg else ""


# --------------------------------------------------------------------------- 2D panels
def panel_range(points, pad: float):
    """A square view (x0, x1, y0, y1) around the points and the origin, `pad` on every side."""
    p = np.asarray(points, dtype=float).reshape(-1, 2)  # (n, 2)
    lo = np.minimum(p.min(axis=0), 0.0) - pad  # (2,)
    hi = np.maximum(p.max(axis=0), 0.0) + pad  # (2,)
    span = float(max(hi - lo))
    cx, cy = (lo + hi) / 2
    return (float(cx - span / 2), float(cx + span / 2), float(cy - span / 2), float(cy + span / 2))


def fits(points, r, margin: float = 0.5) -> bool:
    p = np.asarray(points, dtype=float).reshape(-1, 2)  # (n, 2)
    return bool(np.all((p[:, 0] >= r[0] + margin) & (p[:, 0] <= r[1] - margin)
                       & (p[:, 1] >= r[2] + margin) & (p[:, 1] <= r[3] - margin)))


def choose_range(preset_points, points, pad: float):
    """The preset's own view while everything fits inside it (so drags never rescale), else a new fit."""
    r = panel_range(preset_points, pad)
    return r if fits(points, r) else panel_range(points, pad)


def xy(v) -> tuple[float, float]:
    v = np.atleast_1d(np.asarray(v, dtype=float))
    return float(v[0]), float(v[1]) if v.size > 1 else 0.0


# --------------------------------------------------------------------------- the plate
class WorkedPlate(PlateViewer):
    """One query's turn as a table revealed stage by stage, with guesses, presets and 2D pictures."""

    state_class = WorkedState
    glue, live = "worked.js", "WorkedLive"  # the browser half (app/static/worked.js)
    slug = "worked"
    title = "One query's turn, step by step"
    summary = "Score, scale, exponentiate, normalise, sum: the seeds' worked examples, one stage at a time."

    def _build(self) -> None:
        s = self.state
        self._shown = None  # the arrays last written into the text boxes
        self._errors = {"query": "", "keys": "", "values": ""}
        self._rendering = False
        self._length_pending = None  # a served page's length step waiting to be folded in
        div = partial(Div, disable_math=True, stylesheets=[InlineStyleSheet(css=CSS)])

        # Sources (data filled in by _render).
        self.table_src = ColumnDataSource({}, name="worked_table")
        self.output_src = ColumnDataSource({}, name="worked_output")
        self.query_src = ColumnDataSource({"x": [], "y": [], "vec": []}, name="query")
        self.keys_src = ColumnDataSource({"x": [], "y": [], "vec": [], "name": []}, name="keys")
        self.values_src = ColumnDataSource({"x": [], "y": [], "vec": [], "name": []}, name="values")
        self.hull_src = ColumnDataSource({"x": [], "y": []}, name="hull")
        self.point_src = ColumnDataSource({"x": [], "y": []}, name="output_point")
        self.pulls_src = ColumnDataSource({"x0": [], "y0": [], "x1": [], "y1": [], "w": []}, name="pulls")
        self.sweep_src = ColumnDataSource({"length": [], "top": [], "uniform": []}, name="sweep")
        self.now_src = ColumnDataSource({"length": [], "top": []}, name="sweep_now")

        # Controls.
        self.preset_w = Select(name="preset", title="Example", value=s.preset, width=300,
                               options=[(k, p["label"]) for k, p in PRESETS.items()])
        self.restore_w = Button(name="restore", label="Restore its numbers", width=130)
        self.scaled_w = CheckboxGroup(name="scaled", labels=["scale the scores ÷√d_k"], active=[], width=160,
                                      margin=(12, 5, 5, 10))
        self.query_w = TextInput(name="query_text", title="Query q (numbers separated by commas)", width=300)
        self.query_err = div(name="query_error", text="", width=300, visible=False,
                             margin=(0, 5, 4, 5))
        self.keys_w = TextAreaInput(name="keys_text", title="Keys, one per line", rows=4, width=300)
        self.keys_err = div(name="keys_error", text="", width=300, visible=False,
                             margin=(0, 5, 4, 5))
        self.values_w = TextAreaInput(name="values_text", title="Values, one per line (a number or a vector)",
                                      rows=4, width=300)
        self.values_err = div(name="values_error", text="", width=300, visible=False,
                             margin=(0, 5, 4, 5))
        self.length_w = Slider(name="length", title="Query length |q|", start=MIN_SLIDER, end=BASE_SLIDER_END,
                               step=0.01, value=1.0, format="0[.]000", width=300)

        self.back_w = Button(name="step_back", label="◀ Back", width=80)
        self.stage_w = RadioButtonGroup(name="stage", labels=[f"{i + 1} {n}" for i, n in enumerate(STAGES)],
                                        active=None, width=560)
        self.next_w = Button(name="step_next", label="Step ▶", width=80, button_type="primary",
                             stylesheets=[a11y.primary_button_style()])
        # Fixed heights: nothing above the pictures may change height while a drag is under way.
        # Two lines tall, so that the layout holds still as the notes change (a phone, where a note
        # takes four lines, frees the height: a11y.js fit_narrow).
        self.note_div = div(name="stage_note", text="", width=880, height=46)
        self.table_div = Div(name="worked_table_view", text="", width=620, height=262, disable_math=True,
                             stylesheets=[InlineStyleSheet(css=CSS + ":host { overflow: auto; }")])
        self.output_div = div(name="output_view", text="", width=620, height=40)
        self.guess_key_w = Select(name="guess_key", title="Your guess: which key wins?", value="", options=[""],
                                  width=265)
        self.guess_out_w = TextInput(name="guess_output", title="Your guess: the output", value="", width=265)
        self.guess_err = div(name="guess_error", text="", width=265, height=34, margin=(0, 5, 0, 5))
        self.feedback_div = Div(name="feedback", text="", width=265, height=170, disable_math=True,
                                stylesheets=[InlineStyleSheet(css=CSS + ":host { overflow-y: auto; }")])

        # The pictures.
        def panel(name: str, title: str):
            f = figure(name=name, frame_width=240, frame_height=240, x_range=Range1d(-3, 3), y_range=Range1d(-3, 3),
                       tools="", toolbar_location=None, title=title, min_border_right=12)
            style_figure(f)
            f.title.text_font_size = "11pt"
            f.add_layout(Span(location=0, dimension="width", line_color=PALETTE["grid"], line_width=1))
            f.add_layout(Span(location=0, dimension="height", line_color=PALETTE["grid"], line_width=1))
            return f

        kp = panel("keys_plot", "Keys ● and the query ◆ (drag)")
        draw_query_and_keys(kp, self.keys_src, self.query_src, size=0.85)

        vp = panel("values_plot", "Values ●, hull, output ◆")
        vp.patch("x", "y", source=self.hull_src, fill_color=PALETTE["values"], fill_alpha=0.12,
                 line_color=PALETTE["values"], line_dash="dashed", line_width=1.5)
        vp.segment("x0", "y0", "x1", "y1", source=self.pulls_src, line_color=PALETTE["weights"], line_width="w",
                   line_alpha=0.8)
        vp.scatter("x", "y", source=self.values_src, size=13, marker="circle", fill_color=PALETTE["values"],
                   line_color="white", line_width=2)
        vp.add_layout(LabelSet(x="x", y="y", text="name", source=self.values_src, x_offset=7, y_offset=4,
                               text_font_size="11pt", text_color="#00795a", text_font_style="bold"))
        vp.scatter("x", "y", source=self.point_src, size=19, marker="diamond", fill_color=PALETTE["output"],
                   line_color=PALETTE["ink"], line_width=1.5)
        self.keys_plot, self.values_plot = kp, vp

        sp = figure(name="sweep_plot", frame_width=220, frame_height=240, x_range=Range1d(0, BASE_SLIDER_END),
                    y_range=Range1d(0, 1.05), tools="", toolbar_location=None, title="Longer query, sharper pick")
        style_figure(sp)
        sp.title.text_font_size = "11pt"
        sp.xaxis.axis_label = "query length |q|"
        sp.yaxis.axis_label = "largest weight"
        sp.line("length", "uniform", source=self.sweep_src, line_color=PALETTE["muted"], line_dash="dashed",
                line_width=1.5, legend_label="even split 1/M")
        sp.line("length", "top", source=self.sweep_src, line_color=PALETTE["weights"], line_width=3,
                legend_label="largest weight")
        sp.scatter("length", "top", source=self.now_src, size=15, marker="diamond", fill_color=PALETTE["query"],
                   line_color="white", line_width=2, legend_label="this query")
        sp.legend.location = "center_right"
        sp.legend.label_text_font_size = "9pt"
        sp.legend.background_fill_alpha = 0.85
        sp.legend.padding = 4
        sp.legend.spacing = 0
        self.sweep_plot = sp
        self.panel_note = div(name="panel_note", text="", width=290)
        self.sweep_note = div(name="sweep_note", text="", width=290)

        presets_js = {k: {kk: p[kk] for kk in ("query", "keys", "values", "scaled", "names", "note")}
                      for k, p in PRESETS.items()}
        models = {
            "presets": presets_js, "table": self.table_src, "output": self.output_src, "query": self.query_src,
            "keys": self.keys_src, "values": self.values_src, "hull": self.hull_src, "point": self.point_src,
            "pulls": self.pulls_src, "sweep": self.sweep_src, "now": self.now_src, "preset": self.preset_w,
            "scaled": self.scaled_w, "query_text": self.query_w, "keys_text": self.keys_w,
            "values_text": self.values_w, "query_error": self.query_err, "keys_error": self.keys_err,
            "values_error": self.values_err, "length": self.length_w, "stage": self.stage_w, "back": self.back_w,
            "next": self.next_w, "note": self.note_div, "table_view": self.table_div, "output_view": self.output_div,
            "guess_key": self.guess_key_w, "guess_output": self.guess_out_w, "guess_error": self.guess_err,
            "feedback": self.feedback_div, "keys_plot": kp, "values_plot": vp, "sweep_plot": sp,
            "panel_note": self.panel_note, "sweep_note": self.sweep_note,
        }

        self.a11y_toggle, self.a11y_view = a11y.add_to(models, [
            (kp, "The keys (blue circles) and the query q (vermillion diamond) as points in the plane, shown when "
                 "they have two entries.", True),
            (vp, "The values (green circles) in the plane with their convex hull; at the last step the output "
                 "(purple diamond) sits inside it, pulled toward each value by its weight."),
            (sp, "Line chart: the largest weight against the query's length, rising from an even split 1/M toward "
                 "1; a diamond marks this query."),
        ], [
            a11y.columns("Scores and weights", self.table_src, [
                ("key", "key", None), ("k", "key vector", 3), ("score", "q·k", 3), ("scaled", "into softmax", 3),
                ("exp", "exp", 3), ("weight", "weight", 4), ("value", "value", 3), ("weighted", "weight × value", 3)]),
            a11y.columns("Output", self.output_src, [("value", "output", 4), ("exp_total", "sum of exp", 3),
                                                     ("weight_total", "sum of weights", 4)]),
            a11y.columns("Query", self.query_src, [("vec", "q", 3)]),
            a11y.columns("Largest weight against the query's length", self.now_src,
                         [("length", "this query's length", 3), ("top", "its largest weight", 4)]),
        ], width=880)
        self.js_models = models

        def js(call: str, **extra) -> CustomJS:
            return CustomJS(args={**models, **extra}, code=custom_js_code("worked.js", call, [*models, *extra]))

        self.a11y_toggle.js_on_change("active", js("AEA11y.on_table_toggle(a);"))

        self.preset_w.js_on_change("value", js("WorkedLive.on_preset(a);"))
        self.restore_w.js_on_event(ButtonClick, js("WorkedLive.on_preset(a, true);"))
        self.scaled_w.js_on_change("active", js("WorkedLive.recompute(a);"))
        for f, w in (("query", self.query_w), ("keys", self.keys_w), ("values", self.values_w)):
            w.js_on_change("value_input", js(f"WorkedLive.on_text(a, '{f}');"))
        self.length_w.js_on_change("value", js("WorkedLive.on_length(a);"))
        self.stage_w.js_on_change("active", js("WorkedLive.recompute(a);"))
        self.back_w.js_on_event(ButtonClick, js("WorkedLive.on_step(a, -1);"))
        self.next_w.js_on_event(ButtonClick, js("WorkedLive.on_step(a, 1);"))
        self.guess_key_w.js_on_change("value", js("WorkedLive.recompute(a);"))
        self.guess_out_w.js_on_change("value_input", js("WorkedLive.recompute(a);"))
        for plot, which in ((kp, "keys"), (vp, "values")):
            plot.js_on_event(PanStart, js(f"WorkedLive.on_pan_start(a, cb_obj, '{which}');"))
            plot.js_on_event(Pan, js(f"WorkedLive.on_pan(a, cb_obj, '{which}');"))
            plot.js_on_event(PanEnd, js(f"WorkedLive.on_pan_end(a, cb_obj, '{which}');"))

        # Python follows what a served page sends.
        self.preset_w.on_change("value", self._guard(self._on_preset))
        self.restore_w.on_event(ButtonClick, lambda _e: None if self._busy() else (self._flush_length(), self._on_preset()))
        self.scaled_w.on_change("active", self._guard(lambda: self.state.param.update(scaled=0 in (self.scaled_w.active or []))))
        for f, w in (("query", self.query_w), ("keys", self.keys_w), ("values", self.values_w)):
            w.on_change("value_input", self._guard(partial(self._on_text, f)))
        self.length_w.on_change("value", self._guard(self._length_later))
        self.stage_w.on_change("active", self._guard(self._on_stage))
        self.guess_key_w.on_change("value", self._guard(lambda: self._on_guess()))
        self.guess_out_w.on_change("value_input", self._guard(lambda: self._on_guess()))
        for src in (self.query_src, self.keys_src, self.values_src):
            src.on_change("data", self._guard(self._on_drag_end))
        for plot in (kp, vp):
            plot.on_change("tags", self._guard(self._on_drag_end))
        self.state.param.watch(lambda *_: self._render(), ["guess_key", "guess_output"])

        controls = bk_column(
            self.preset_w, bk_row(self.restore_w, self.scaled_w), self.query_w, self.query_err, self.keys_w,
            self.keys_err, self.values_w, self.values_err, self.length_w, width=310,
        )
        guesses = bk_column(self.guess_key_w, self.guess_out_w, self.guess_err, self.feedback_div, width=280)
        main = bk_column(
            bk_row(self.back_w, self.stage_w, self.next_w), self.note_div,
            bk_row(bk_column(self.output_div, self.table_div), guesses),
            bk_row(bk_column(kp, self.panel_note), vp, bk_column(sp, self.sweep_note)),
        )
        self._layout = pn.Column(pn.Row(bokeh_pane(controls), bokeh_pane(main)),
                                 bokeh_pane(bk_column(self.a11y_toggle, self.a11y_view)))

    # --- browser -> state ----------------------------------------------------------------
    def _busy(self) -> bool:
        return any("busy" in (p.tags or []) for p in (self.keys_plot, self.values_plot))

    def _guard(self, fn):
        """A Bokeh on_change callback that ignores our own echoes and gestures in progress."""
        def cb(attr, old, new):
            if self._rendering or self._busy():
                return
            try:
                if fn != self._length_later:
                    self._flush_length()  # so that this message meets the query the page shows
                fn()
            except (KeyError, IndexError, TypeError, ValueError):
                self._render(force=True)  # put the browser back to the last good state
        return cb

    def _on_preset(self) -> None:
        """A preset chosen (or restored): its numbers replace whatever the text boxes hold."""
        if self.preset_w.value not in PRESETS:
            self._render(force=True)
            return
        self._shown = None
        self._errors = {"query": "", "keys": "", "values": ""}
        # worked.js's load_preset has reset these in the browser already; Python's copy follows
        # without sending them back, which would undo a Step pressed before this answer arrived.
        scaled = PRESETS[self.preset_w.value]["scaled"]
        self._rendering = True
        try:
            as_the_browser_left_it(self.stage_w, active=None)
            as_the_browser_left_it(self.scaled_w, active=[0] if scaled else [])
            as_the_browser_left_it(self.guess_key_w, value="")
            as_the_browser_left_it(self.guess_out_w, value="", value_input="")
        finally:
            self._rendering = False
        if self.preset_w.value == self.state.preset:
            self.state.load_preset()
        else:
            self.state.preset = self.preset_w.value
        self._render()

    def _on_text(self, field: str) -> None:
        s = self.state
        texts = {"query": self.query_w.value_input, "keys": self.keys_w.value_input,
                 "values": self.values_w.value_input}
        q, K, V = s.arrays
        arrays, errors = read_inputs(texts, {"query": q[None, :], "keys": K, "values": V}, field)
        self._errors = {f: errors.get(f, "") for f in ("query", "keys", "values")}
        if arrays is None:
            for f, d in (("query", self.query_err), ("keys", self.keys_err), ("values", self.values_err)):
                self._rendering = True
                try:
                    set_if_changed(d, "text", error_html(self._errors[f]))
                    set_if_changed(d, "visible", bool(self._errors[f]))
                finally:
                    self._rendering = False
            return  # nothing else changes
        s.set_inputs(arrays["query"][0], arrays["keys"], arrays["values"])
        self._render()

    def _on_length(self) -> None:
        self.state.set_length(float(self.length_w.value))

    # A served page stretches the query itself as the length slider moves (worked.js) and sends
    # every step of a key held down. Python folds the length in once the steps have paused for
    # LENGTH_WAIT_MS: one render per burst instead of one per step (each ~14 ms of server CPU in
    # a session). Folding in at every step also lost steps: Python's answer to one step reached
    # the page after the next, and the page took the older length back from it (five quick
    # presses went four steps). Any other message from the page first folds a waiting length in,
    # so it never meets a query older than the one on screen.
    LENGTH_WAIT_MS = 300

    def _length_later(self) -> None:
        doc = self.length_w.document
        if doc is None or doc.session_context is None:  # a notebook or a test: at once
            self._on_length()
            return
        if self._length_pending is not None:  # still stepping: wait for the pause after this step
            try:
                doc.remove_timeout_callback(self._length_pending)
            except ValueError:
                pass
        self._length_pending = doc.add_timeout_callback(self._length_wait_over, self.LENGTH_WAIT_MS)

    def _length_wait_over(self) -> None:
        self._length_pending = None
        if self._rendering or self._busy():
            return  # a drag began meanwhile: its end sends the query, stretched, with the rest
        try:
            self._on_length()
        except (TypeError, ValueError):
            self._render(force=True)

    def _flush_length(self) -> None:
        pending, self._length_pending = self._length_pending, None
        if pending is None:
            return
        doc = self.length_w.document
        try:
            if doc is not None:
                doc.remove_timeout_callback(pending)
        except ValueError:
            pass  # it has just run
        self._on_length()

    def _on_stage(self) -> None:
        a = self.stage_w.active
        self.state.step = 0 if a is None else int(a) + 1

    def _on_guess(self) -> None:
        g = self.guess_key_w.value
        self.state.param.update(guess_key=g if g in self.state.names else "",
                                guess_output=str(self.guess_out_w.value_input or "")[:200])

    def _on_drag_end(self) -> None:
        """A finished drag: the browser sent the sources' vectors; fold them in (validated)."""
        q = np.asarray(self.query_src.data["vec"][0], dtype=float)  # (d_k,)
        K = np.asarray([list(v) for v in self.keys_src.data["vec"]], dtype=float)  # (M, d_k)
        V = np.asarray([list(v) for v in self.values_src.data["vec"]], dtype=float)  # (M, d_v)
        q2, K2, V2 = check_arrays(q, K, V)
        s = self.state
        if (q2.tolist(), K2.tolist(), V2.tolist()) != tuple(a.tolist() for a in s.arrays):
            s.set_inputs(q2, K2, V2)
        else:
            self._render()

    # --- state -> view -------------------------------------------------------------------
    def _render(self, force: bool = False) -> None:
        """Recompute with attention_core and push what differs to the browser."""
        s = self.state
        q, K, V = s.arrays
        st = s.steps()
        names = s.names
        d_k, d_v, m = q.size, V.shape[1], K.shape[0]
        step = int(s.step)
        self._rendering = True
        try:
            # The text boxes follow the state when the numbers changed from elsewhere (a preset,
            # a link, a drag); a box whose text already reads as the state is left alone.
            shown = (q.tolist(), K.tolist(), V.tolist())
            if force or shown != self._shown:
                good = {"query": q[None, :], "keys": K, "values": V}
                texts = {"query": vector_text(q), "keys": rows_text(K), "values": rows_text(V)}
                for f, w in (("query", self.query_w), ("keys", self.keys_w), ("values", self.values_w)):
                    current, errors = read_inputs({**texts, f: w.value_input or ""}, good, f)
                    same = current is not None and np.array_equal(current[f], good[f])
                    if force or not same:
                        w.value = texts[f]
                        w.value_input = texts[f]
                        self._errors[f] = ""
                self._shown = shown
            for f, d in (("query", self.query_err), ("keys", self.keys_err), ("values", self.values_err)):
                set_if_changed(d, "text", error_html(self._errors[f]))
                set_if_changed(d, "visible", bool(self._errors[f]))

            table = {"key": names, "k": K.tolist(), "score": st.score.tolist(), "scaled": st.scaled.tolist(),
                     "exp": st.exp.tolist(), "weight": st.weight.tolist()}
            if d_v == 1:
                table["value"] = V[:, 0].tolist()
                table["weighted"] = np.asarray(st.weighted).tolist()
            else:
                table["value"] = V.tolist()
                table["weighted"] = np.asarray(st.weighted).tolist()
            Vw = np.asarray(st.weighted).reshape(m, d_v)  # (M, d_v)
            for i in range(d_v):
                table[f"value_{i}"] = V[:, i].tolist()
                table[f"weighted_{i}"] = Vw[:, i].tolist()
            push(self.table_src, table, force)
            out = np.atleast_1d(st.output)  # (d_v,)
            odata = {"value": [float(out[0])]} if d_v == 1 else {f"value_{i}": [float(x)] for i, x in enumerate(out)}
            odata.update(exp_total=[float(st.exp_total)], weight_total=[float(np.sum(st.weight))])
            push(self.output_src, odata, force)

            qx, qy = xy(q)
            push(self.query_src, {"x": [qx], "y": [qy], "vec": [q.tolist()]}, force)
            push(self.keys_src, {"x": [xy(k)[0] for k in K], "y": [xy(k)[1] for k in K], "vec": K.tolist(),
                                 "name": names}, force)
            push(self.values_src, {"x": [xy(v)[0] for v in V], "y": [xy(v)[1] for v in V], "vec": V.tolist(),
                                   "name": names}, force)
            hull = s.hull()
            push(self.hull_src, {"x": hull[:, 0].tolist(), "y": hull[:, 1].tolist()}, force)
            if d_v == 2 and step >= 5:
                push(self.point_src, {"x": [float(out[0])], "y": [float(out[1])]}, force)
                push(self.pulls_src, {"x0": [float(out[0])] * m, "y0": [float(out[1])] * m,
                                      "x1": V[:, 0].tolist(), "y1": V[:, 1].tolist(),
                                      "w": [float(1 + 7 * w) for w in st.weight]}, force)
            else:
                push(self.point_src, {"x": [], "y": []}, force)
                push(self.pulls_src, {"x0": [], "y0": [], "x1": [], "y1": [], "w": []}, force)

            p = PRESETS[s.preset]
            pq, pK, pV = np.array(p["query"][0]), np.array(p["keys"]), np.array(p["values"])
            if d_k == 2:
                pts = np.vstack([K, q[None, :]])  # (M + 1, 2)
                ppts = np.vstack([pK, pq[None, :]]) if pK.shape[1] == 2 else pts
                self._set_range(self.keys_plot, choose_range(ppts, pts, 1.0))
            if d_v == 2:
                self._set_range(self.values_plot, choose_range(pV if pV.shape[1] == 2 else V, V, 1.5))
            set_if_changed(self.keys_plot, "visible", d_k == 2)
            set_if_changed(self.values_plot, "visible", d_v == 2)
            set_if_changed(self.panel_note, "text", panel_note(d_k, d_v))

            # The length of the query.
            norm = float(np.sqrt(np.sum(q * q)))
            end = slider_end(q)
            set_if_changed(self.length_w, "end", end, tol=1e-12)
            set_if_changed(self.length_w, "value", max(MIN_SLIDER, norm), tol=1e-12)
            set_if_changed(self.length_w, "disabled", norm == 0)
            set_if_changed(self.sweep_plot.x_range, "end", end, tol=1e-12)
            if norm > 0:
                lengths = np.linspace(0.0, end, SWEEP_POINTS)  # (F,)
                top = ac.length_sweep(q, K, lengths, scale=s.scale).max(axis=1)  # (F,)
                push(self.sweep_src, {"length": lengths.tolist(), "top": top.tolist(),
                                      "uniform": [1.0 / m] * SWEEP_POINTS}, force)
                now = {"length": [norm], "top": [float(np.max(st.weight))]} if step >= 4 else {"length": [], "top": []}
                push(self.now_src, now, force)
            else:
                push(self.sweep_src, {"length": [], "top": [], "uniform": []}, force)
                push(self.now_src, {"length": [], "top": []}, force)
            set_if_changed(self.sweep_note, "text", sweep_note(norm, float(np.max(st.weight)), step))

            # The stages, the table and the guesses.
            set_if_changed(self.preset_w, "value", s.preset)
            set_if_changed(self.scaled_w, "active", [0] if s.scaled else [])
            set_if_changed(self.stage_w, "active", None if step == 0 else step - 1)
            set_if_changed(self.back_w, "disabled", step == 0)
            set_if_changed(self.next_w, "disabled", step == len(STAGES))
            set_if_changed(self.note_div, "text", stage_note(st, q, K, names, step, s.scaled, d_k, d_v))
            set_if_changed(self.table_div, "text", table_html(st, names, K, V, step, s.scaled, d_k))
            set_if_changed(self.output_div, "text", output_html(st, step))
            set_if_changed(self.guess_key_w, "options", [("", "(pick a key)")] + [(n, n) for n in names])
            set_if_changed(self.guess_key_w, "value", s.guess_key if s.guess_key in names else "")
            if (self.guess_out_w.value_input or "") != s.guess_output:
                self.guess_out_w.value = s.guess_output
                self.guess_out_w.value_input = s.guess_output
            set_if_changed(self.guess_key_w, "disabled", step >= 4)
            set_if_changed(self.guess_out_w, "disabled", step >= 4)
            guess_msg = guess_vector(s.guess_output, d_v)[1]
            set_if_changed(self.guess_err, "text", error_html(guess_msg))
            note = p["note"] if s.is_preset() else ""
            set_if_changed(self.feedback_div, "text",
                           feedback_html(st, names, step, s.guess_key, s.guess_output, d_v, note))
        finally:
            self._rendering = False

    def _set_range(self, plot, r) -> None:
        for rng, lo, hi in ((plot.x_range, r[0], r[1]), (plot.y_range, r[2], r[3])):
            set_if_changed(rng, "start", lo, tol=1e-12)
            set_if_changed(rng, "end", hi, tol=1e-12)

    def __panel__(self):
        return self._layout


def panel_note(d_k: int, d_v: int) -> str:
    if d_k == 2 and d_v == 2:
        return ""
    missing = []
    if d_k != 2:
        missing.append(f"keys with 2 numbers to draw the keys (these have {d_k})")
    if d_v != 2:
        missing.append(f"values with 2 numbers to draw the values and their hull (these have {d_v})")
    return "<div class='wk-seed'>The pictures need " + " and ".join(missing) + ".</div>"


def sweep_note(norm: float, top: float, step: int) -> str:
    """Under the length curve; this query's own weight waits for stage 4 like the table's."""
    if norm == 0:
        return "<div class='wk-seed'>A zero query has no direction: every key gets the same weight.</div>"
    mine = f"largest weight {fixed(top, 3)}" if step >= 4 else "its weight shows at stage 4"
    return (f"<div class='wk-seed'>This query: |q| = {short(norm)}, {mine}. "
            "Stretch it and the curve climbs toward 1.</div>")


WorkedPlate.lead = """
One query, a few keys and their values, and the four steps of attention, revealed one press of
**Step** at a time. Guess which key wins and what the output will be before the weights appear.
"""

WorkedPlate.explanation = """
**The four steps.** The *score* of a key is its dot product with the query: multiply matching
entries and add. The *scale* divides every score by √d_k (d_k is the number of entries in a key),
which keeps the scores from growing with the width; the course text's first example skips it. The
*softmax* is two steps here: raise e to each scaled score (every result is positive, and a lead of
1 becomes a factor of e ≈ 2.718), then divide by the sum so the weights add to 1. Last, the
*weighted sum* multiplies each value by its weight and adds them up.

**Check it by hand.** In the first example the scores 2, 1 and 0 give e² ≈ 7.389, e ≈ 2.718 and
1, which add to 11.107; dividing gives 0.665, 0.245 and 0.090, and 0.665·1 + 0.245·2 + 0.090·3 is
the output 1.425. The other presets carry the numbers of the other two seed texts; edit any number
(one vector per line, entries separated by commas, each between −10 and 10) and every column follows.

**The pictures.** When keys and values have two entries each, the left picture shows the keys and
the query (drag either), and the right one the values. The weights are never negative and add to
1, so the output is a *convex combination* of the values: it always lies in the shaded hull and can
only reach a corner when one weight is 1. Stretch the query (drag it outward or use the length
slider) and every score grows in proportion, so the softmax favours the best key more and more;
the curve on the right tracks the largest weight as the length grows.
"""
