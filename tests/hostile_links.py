"""Hostile links for every plate: garbage, out-of-range numbers, NaN, Infinity, a 10⁶-character
value, unicode, `<script>` and attribute-breaking strings, repeated and unknown keys.

tests/app/test_hostile_links.py opens every one in Python (a served page is built from it),
tests/core/test_hostile_links_node.py in node (an exported page reads it with link.js and the
plate's glue); tests/browser/test_hostile_links_browser.py opens a few per plate in Chromium,
served and exported. The plates are app.plates.registry's; nothing here names one.
"""

from __future__ import annotations

import functools
import re
import urllib.parse

import numpy as np

from app.delivery.page import hideable_names
from app.plates import registry
from app.shared.state import link_args, page_param_notices

# Markup and script that would run if a page put a link's text into its HTML unescaped: each sets
# window.__ae_pwned (PWNED), which the browser test reads, or opens a dialog, which it watches.
PWNED = "__ae_pwned"
INJECT = [
    f"<script>window.{PWNED}=1</script>", f'"><img src=x onerror=window.{PWNED}=1>', f"'><svg onload=window.{PWNED}=1>",
    f"javascript:window.{PWNED}=1", f"</div><script>window.{PWNED}=1</script>", "{{7*7}}", "${alert(1)}",
    "\"onmouseover=\"alert(1)", "<img src=x onerror=alert(1)>",
]
GARBAGE = ["banana", "nan", "NaN", "Infinity", "-Infinity", "inf", "1e400", "-1e400", "0x10", "1_000", "", "١٢",
           "１２", "😀", "\u202e1", "null", "[]", "%00", "1;2", "1,,2"]
OUT_OF_RANGE = ["-1e9", "1e9", "-5", "99999", "1e-9"]
LONG = "9" * 10**6
PAGE_SETTINGS = ("theme", "hide", "present", "embed")  # read by page.js on every page
PER_PLATE = 14  # single-value links per plate; over the plates each meets the whole pool
SEEDS = (0, 6)  # two passes over the pool, at different offsets: different values per plate
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")

# The special links' places in links(): the browser test opens these.
LONG_LINK, UNKNOWN_KEYS, REPEATED, MIX, INJECTION, FAR_BELOW, FAR_ABOVE, TWICE = range(8)
SPECIAL = 8


def python_notices(slug: str, pairs: list[tuple[str, str]]) -> tuple[str, ...]:
    """The notices Python gives for a link (the served page shows exactly these; the exported
    page must word the same). The first of repeated keys counts, as in both, with a notice."""
    args = link_args(pairs)
    return tuple(registry.plate_class(slug).state_class().apply_url(args) + page_param_notices(args, page_names(slug)))


def python_state(slug: str, pairs: list[tuple[str, str]]):
    """The plate's state after a served page read the link (apply_url on a fresh state)."""
    state = registry.plate_class(slug).state_class()
    state.apply_url(link_args(pairs))
    return state


def silent_changes(slug: str, pairs: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """What the link gives that the plate changed or dropped without a notice naming it, as
    (name, text given, what the plate holds): none, for every link (the README's promise).

    A setting is named by a notice that quotes it ('angle' or 'angle=...'). Unnamed, the plate
    must hold what its first text says: a switch or a choice exactly as the plate reads the
    text, a number equal to it, and a plate's own field (numbers in a text of its own, a mask's
    0/1 rows) with the same numbers, to the six digits a link is written with."""
    state = registry.plate_class(slug).state_class()
    args = link_args(pairs)
    notices = state.apply_url(args)
    kinds = {name: f["type"] for name, f in state.url_spec()["fields"].items()}
    out = []
    for name, given in args.items():
        if name not in kinds or any(f"'{name}'" in n or f"'{name}=" in n for n in notices):
            continue
        texts = [given] if isinstance(given, str) else list(given)
        text, value = texts[0], getattr(state, name)
        if len(texts) > 1:
            out.append((name, str(texts), "read once, unsaid"))
        elif kinds[name] in ("bool", "select"):
            if value != state.parse_url_value(name, text):
                out.append((name, text, str(value)))
        elif kinds[name] in ("number", "integer"):
            if float(text) != float(value):
                out.append((name, text, str(value)))
        else:
            written = state.url_value(name)
            a, b = [float(m.group()) for m in NUMBER.finditer(text)], [float(m.group()) for m in NUMBER.finditer(written)]
            if len(a) != len(b) or any(abs(x - y) > 1e-5 * max(1.0, abs(x)) for x, y in zip(a, b)):
                out.append((name, text[:60], written[:60]))
    return out


@functools.cache
def page_names(slug: str) -> tuple[str, ...]:
    """What ?hide= can name on the plate's page (the same for every page of it)."""
    return tuple(hideable_names(registry.plate_class(slug)()))


def far(slug: str, number: str) -> list[tuple[str, str]]:
    """Every field of the plate at once, far out of range: each number in the field's default link
    text becomes `number` (a field with no number in its text gets `number` itself), so sliders,
    counts, vectors and matrices are all pushed past their bounds and clamped, with a notice."""
    state = registry.plate_class(slug).state_class()
    out = []
    for name in state.url_fields:
        text = state.url_value(name)
        out.append((name, NUMBER.sub(number, text) if NUMBER.search(text) else number))
    return out


def links(slug: str, seed: int, start: int) -> list[list[tuple[str, str]]]:
    """The plate's links as (name, value) pairs: eight special ones (a 10⁶-character value,
    unknown keys, a repeated key, a mix, markup in every field and page setting, every field far
    below and far above its range, every field and page setting given twice with good values),
    then PER_PLATE single values of the pool from `start` on, every field and page setting in turn."""
    rng = np.random.default_rng(seed)
    state = registry.plate_class(slug).state_class()
    fields = list(state.url_fields)
    out = [None] * SPECIAL
    out[LONG_LINK] = [(fields[0], LONG)]
    out[UNKNOWN_KEYS] = [("zzz", "1"), (INJECT[0], "1")]
    out[REPEATED] = [(fields[0], "nan"), (fields[0], "1e9"), (fields[-1], INJECT[1])]
    out[MIX] = [(f, str(v)) for f, v in zip(fields, rng.choice(GARBAGE + INJECT, size=len(fields)))]
    out[INJECTION] = ([(f, INJECT[(i + seed) % len(INJECT)]) for i, f in enumerate(fields)]
                      + [("hide", INJECT[1]), ("theme", INJECT[2]), ("present", INJECT[4]), (INJECT[8], "1")])
    out[FAR_BELOW] = far(slug, "-1e9")
    out[FAR_ABOVE] = far(slug, "1e9")
    # Twice each, the default's text first (the one read), then another: nothing else to say.
    out[TWICE] = [pair for f in fields for pair in ((f, state.url_value(f)), (f, "1"))] + [
        ("theme", "dark"), ("theme", "light"), ("present", "0"), ("present", "1"), ("embed", "0"), ("embed", "0")]
    pool = INJECT + GARBAGE + OUT_OF_RANGE
    settable = fields + list(PAGE_SETTINGS)
    for i in range(start, start + PER_PLATE):
        out.append([(settable[i % len(settable)], pool[i % len(pool)])])
    return out


def all_links(seed: int) -> list[tuple[str, list[tuple[str, str]]]]:
    """(slug, pairs) for every registered plate."""
    return [(slug, pairs) for k, slug in enumerate(registry.slugs())
            for pairs in links(slug, seed + k, start=k * PER_PLATE + seed)]


def every_link() -> list[tuple[str, list[tuple[str, str]]]]:
    """Every hostile link the Python and node tests read: all_links for each of SEEDS."""
    return [link for seed in SEEDS for link in all_links(seed)]


def query(pairs: list[tuple[str, str]]) -> str:
    return "&".join(f"{urllib.parse.quote(k, safe='')}={urllib.parse.quote(v, safe='')}" for k, v in pairs)
