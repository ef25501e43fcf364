"""Typed numbers: the query, keys and values as the reader types them (and the output guess),
parsed with the messages shown next to each box. worked.js parses with the same rules and words."""

from __future__ import annotations

import re

import numpy as np

from app.plates.worked.formatting import entry
from app.shared.state import NUMBER, _short

MAX_ENTRY = 10.0  # every typed number lies in [-10, 10]; scores stay below 400, exp below e^400
MAX_KEYS = 6
MAX_DK = 16  # a query and its keys; the panels draw the first two entries
MAX_DV = 16
# What a text box holds (the browser cuts a paste there): far more than 6 keys of 16 numbers take,
# so that a long paste arrives whole and is counted (300 keys: "300 keys; at most 6 here"), and a
# paste that reaches it is said to be too long, never counted as if it were all there.
MAX_TEXT = 20000

# A part SPLIT leaves holds no space, so a link's number pattern (app.shared.state.NUMBER) reads it.
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
        raise InputError(f"{what} has {count(len(out))}; at most {max_len} here")
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
            raise InputError(f"line {i + 1} has {count(len(r))} but line 1 has {len(rows[0])}: "
                             f"every {one} needs the same count")
    return rows


def count(k: int) -> str:
    """'1 number', '3 numbers' (worked.js's count says the same)."""
    return f"{k} number" + ("" if k == 1 else "s")


def vector_text(v) -> str:
    return ", ".join(entry(x) for x in np.atleast_1d(v))


def rows_text(a) -> str:
    return "\n".join(vector_text(r) for r in np.atleast_2d(a))


def js_length(text: str) -> int:
    """The length the browser counts (UTF-16 code units), which its text box's limit is in."""
    return len(text.encode("utf-16-le")) // 2


def too_long(field: str) -> str:
    """The message for a box filled to MAX_TEXT (worked.js's too_long says the same)."""
    fits = f"a query has at most {MAX_DK} numbers" if field == "query" else f"at most {MAX_KEYS} {field} fit here"
    return f"too long: this box holds at most {MAX_TEXT} characters and cut off the rest; {fits}"


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
        if js_length(text) >= MAX_TEXT:  # the box may have cut it: what it holds is not what was pasted
            errors[f] = too_long(f)
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

