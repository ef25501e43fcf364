"""The numbers on every plate's page are Python's, served and exported.

For every plate in app.plates.registry (none is named here), in one tab per (plate, served or
exported): the page is opened with one sample link made from the plate's own state class (every
URL field that is a boolean, a selector or a bounded number gets a seeded non-default value; see
`sample_link`). Not with its default state: every field the link sets differs from the default,
so the page takes the same paths and more, and each plate's own browser tests
(tests/browser/plates/) open its default page, served and exported, and hold what it shows to
attention_core. Once the page is ready, every named
ColumnDataSource that the plate's `data.sources(state)` returns is read from
`Bokeh.documents[0]` and compared with Python's `data.sources(state)` for the state the link
means: the same columns, the same lengths, numbers equal to 1e-9 (absolute and relative), texts
equal. The exported page computes its numbers itself (the plate's glue with mirror.js), so there
it is the browser's arithmetic that is checked; the served page holds the numbers Python sent.
No page may report a JS error, and the exported one may ask nothing of the network. The few
columns that record Python's answer rather than a number shown are left out on exported pages
only (PYTHON_ONLY).
"""

from __future__ import annotations

import math
import random
import zlib
from importlib import import_module
from pathlib import Path
from urllib.parse import urlencode

import numpy as np
import param
import pytest

from app.plates import registry

from helpers import wait_synced

pytestmark = pytest.mark.browser

WAIT = 60_000  # ms: the machine may be shared (a benchmark runs on it)
TOL = 1e-9  # absolute and relative
SHOWN = 12  # differences listed in a failure, at most

# The page is ready: its document exists and is idle, every named source the plate's data
# module returns is in it, the document_ready callback has run (page.js applied the link in an
# exported page, then the plate's on_ready gave the page its main landmark, a11y.js's mark_main)
# and no gesture is pending (the "sync" source is not marked busy).
READY = r"""(names) => {
  if (!window.Bokeh || !Bokeh.documents || !Bokeh.documents.length) return false;
  if (document.readyState !== "complete") return false;
  const d = Bokeh.documents[0];
  if (d.is_idle === false) return false;
  for (const n of names) if (d.get_model_by_name(n) == null) return false;
  if (!document.querySelector("[role=main]")) return false;
  const s = d.get_model_by_name("sync");
  return !(s && Array.isArray(s.tags) && s.tags.includes("busy"));
}"""

# Every named source's data as plain JSON: typed arrays and nested arrays become lists, and the
# numbers JSON cannot carry (±Infinity, NaN) become strings that `page_value` turns back.
READ = r"""(names) => {
  const d = Bokeh.documents[0];
  const conv = (v) => {
    if (typeof v === "number") return Number.isFinite(v) ? v : (Number.isNaN(v) ? "__NaN" : (v > 0 ? "__inf" : "__-inf"));
    if (v == null || typeof v !== "object") return v;
    if (ArrayBuffer.isView(v) || Array.isArray(v)) return Array.from(v, conv);
    return {__object: String(v)};
  };
  const out = {};
  for (const n of names) {
    const m = d.get_model_by_name(n);
    if (m == null || m.data == null) { out[n] = null; continue; }
    const data = m.data instanceof Map ? Object.fromEntries(m.data) : m.data, cols = {};
    for (const k of Object.keys(data)) cols[k] = conv(data[k]);
    out[n] = {type: m.type, data: cols};
  }
  return out;
}"""

# What a page holds only once Python has answered it: the sync protocol's record of who computed
# the numbers, or of the state Python last rendered, not numbers the page shows. An exported page
# has no Python: after a link, scaling's "rendered" still names the state the export rendered
# (the default), and self-attention's perm_check.by says "mirror.js" where Python says
# "attention_core". No plate declares such columns (data.sources returns them with the numbers),
# so they are named here, by plate and source (None: every column). They are left out on the
# exported page only; the served page must hold Python's.
PYTHON_ONLY: dict[str, dict[str, tuple[str, ...] | None]] = {
    "scaling": {"rendered": None},
    "self-attention": {"perm_check": ("by",)},
    "learn": {"rendered": None},
}

# A plate whose exported page computes a long iteration of its own (the learn plate trains a head
# for the link's number of steps) agrees with NumPy only while that iteration is steady: the
# browser and NumPy round differently in the last bit (BLAS's sums against plain loops, two exp
# implementations), and a chaotic run magnifies that. The learn plate's sample link (gradient
# descent at rate 2.68 on a tied map, 1124 steps) parts from NumPy's run by 1e-9 at step ~390 and
# by ~2% later, as any two correct implementations would; its served page shows Python's run.
# So on the exported page the numbers that follow from the run are left out; its structure (every
# column and length) and the link's reading are still checked. test_learn_browser.py holds the
# exported default page (step 0, every number) and a run from it to NumPy's, and
# tests/app/plates/test_learn_plate.py holds the page's run to NumPy's at 1e-9 on steady runs
# and describes the chaotic ones.
OWN_RUN: dict[str, dict[str, tuple[str, ...] | None]] = {
    "learn": {"train_loss": ("loss", "y"), "grad_norm": ("value", "y"), "learned_weights": ("weight", "text"),
              "w_q": ("value",), "w_k": ("value",), "qk": ("value",),
              "readout": ("loss", "grad_norm", "asymmetry", "min_target_mass"), "train_state": ("param", "m", "v")},
}

TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"


# --- the plates, their states and their links ----------------------------------------------
def data_module(slug: str):
    """The plate's data.py: `sources(state) -> {name: {column: list}}`."""
    return import_module(registry.package(slug) + ".data")


def state_class(slug: str):
    return registry.plate_class(slug).state_class


def pick(p: param.Parameter, default, rng: random.Random) -> str | None:
    """A link's text for a valid value of parameter `p` other than `default`, or None for a field
    this test does not make up (arrays, strings: the plate's own "custom" formats)."""
    if isinstance(p, param.Boolean):
        return "0" if default else "1"
    if isinstance(p, param.Selector):
        others = [o for o in p.objects if o != default]
        return str(rng.choice(others)) if others else None
    if isinstance(p, param.Number):
        lo, hi = p.bounds if p.bounds else (None, None)
        lo = default - 10 if lo is None else lo
        hi = default + 10 if hi is None else hi
        if isinstance(p, param.Integer):
            others = [k for k in range(math.ceil(lo), math.floor(hi) + 1) if k != default]
            return str(rng.choice(others)) if others else None
        for _ in range(100):
            x = round(rng.uniform(lo, hi), 2)
            if lo <= x <= hi and x != default:
                return f"{x:g}"
    return None


def sample_link(slug: str, tries: int = 200) -> dict[str, str]:
    """One link of non-default settings for the plate, seeded by its slug: every URL field the
    state class declares as a boolean, selector or number gets a valid value other than its
    default, drawn again (with the same seed's next numbers) until the state takes the whole
    link without a notice (a refusal or a clamp: h must divide d_model, p and w at most n).
    Returned as the state writes it (`to_url()`), so the page reads what the plate itself links."""
    cls = state_class(slug)
    rng = random.Random(zlib.crc32(slug.encode()))
    fresh = cls()
    for _ in range(tries):
        args = {}
        for name in cls.url_fields:
            text = pick(fresh.param[name], fresh.param[name].default, rng)
            if text is not None:
                args[name] = text
        state = cls()
        if args and not state.apply_url(args) and state.to_url():
            return state.to_url()
    raise AssertionError(f"{slug}: no sample link of {cls.__name__}'s URL fields was taken without a notice")


def state_for(slug: str, link: dict[str, str]):
    """The state a page with `link` shows, read as the served page reads it (apply_url)."""
    state = state_class(slug)()
    notices = state.apply_url(link)
    assert not notices, f"{slug}: the sample link {link} gives notices {notices}"
    assert state.to_url() == link, (state.to_url(), link)
    return state


# --- comparing -----------------------------------------------------------------------------
def plain(value):
    """Python's data as the page's JSON shapes it: lists, floats, ints, bools, strings, None."""
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def page_value(value):
    if value == "__NaN":
        return math.nan
    if value == "__inf":
        return math.inf
    if value == "__-inf":
        return -math.inf
    if isinstance(value, list):
        return [page_value(v) for v in value]
    return value


def differences(got, want, where: str, out: list[str]) -> None:
    """Append to `out` every place where the page's `got` is not Python's `want`."""
    if isinstance(want, list):
        if not isinstance(got, list):
            out.append(f"{where}: page {got!r}, Python a list of {len(want)}")
        elif len(got) != len(want):
            out.append(f"{where}: page has {len(got)} values, Python {len(want)}")
        else:
            for i, (g, w) in enumerate(zip(got, want)):
                differences(g, w, f"{where}[{i}]", out)
    elif isinstance(want, str) or isinstance(got, str) or want is None or got is None:
        if got != want:
            out.append(f"{where}: page {got!r}, Python {want!r}")
    elif isinstance(want, (bool, int, float)) and isinstance(got, (bool, int, float)):
        g, w = float(got), float(want)
        same = (math.isnan(g) and math.isnan(w)) or g == w or math.isclose(g, w, rel_tol=TOL, abs_tol=TOL)
        if not same:
            out.append(f"{where}: page {got!r}, Python {want!r} (off by {g - w:.3g})")
    elif got != want:
        out.append(f"{where}: page {got!r}, Python {want!r}")


def compare(page_sources: dict, want_sources: dict, label: str, skip: dict | None = None) -> list[str]:
    """Every difference between the page's named sources and Python's; `skip`: {source: columns
    or None} not compared."""
    out: list[str] = []
    skip = skip or {}
    for name, want in want_sources.items():
        if name in skip and skip[name] is None:
            continue
        have = page_sources.get(name)
        if have is None:
            out.append(f"{label} {name}: no such named source on the page")
            continue
        if have["type"] != "ColumnDataSource":
            out.append(f"{label} {name}: the page's model of that name is a {have['type']}")
        got, want = have["data"], {k: plain(v) for k, v in want.items()}
        if sorted(got) != sorted(want):
            out.append(f"{label} {name}: page columns {sorted(got)}, Python {sorted(want)}")
        for col in want:
            if col in got and col not in (skip.get(name) or ()):
                differences(page_value(got[col]), want[col], f"{label} {name}.{col}", out)
    return out


# --- the page ------------------------------------------------------------------------------
def read_settled(page, names: list[str], served: bool) -> dict:
    """The named sources once the page is ready and they have stopped changing."""
    page.wait_for_function(READY, arg=names, timeout=WAIT, polling=100)
    if served:
        wait_synced(page, timeout=WAIT)  # every message the page sent has had Python's answer
    last = page.evaluate(READ, names)
    for _ in range(20):
        page.evaluate(TWO_FRAMES)
        page.wait_for_function(READY, arg=names, timeout=WAIT, polling=100)
        now = page.evaluate(READ, names)
        if now == last:
            return now
        last = now
    raise AssertionError("the page's sources kept changing")


def check_plate(tab, slug: str, base_url: str, served: bool) -> None:
    """Open the plate's page at its sample link in `tab` and compare every named source with
    data.sources for the same state."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    data = data_module(slug)
    link = sample_link(slug)
    skip = {} if served else PYTHON_ONLY.get(slug, {})
    where = f"{slug}, {'served' if served else 'exported'}"
    label = f"?{urlencode(link)}"
    want = data.sources(state_for(slug, link))
    # On an exported page the numbers that follow from a long run of its own are left out (OWN_RUN).
    skipped = skip if served else {**skip, **OWN_RUN.get(slug, {})}
    for name, cols in skipped.items():  # an exemption must still name what the plate returns
        assert name in want and set(cols or ()) <= set(want[name]), (slug, name, cols, list(want))
    tab.page.goto(base_url + label)
    try:
        got = read_settled(tab.page, list(want), served)
    except PlaywrightTimeout as exc:
        raise AssertionError(f"{where} {label}: the page was not ready within {WAIT / 1000:g} s; "
                             f"page errors {tab.page_errors}, console errors {tab.console_errors}") from exc
    problems = compare(got, want, label, skipped)
    assert not problems, (f"{where} ({base_url}): {len(problems)} differences between the page and "
                          f"data.sources (page errors: {tab.page_errors + tab.console_errors}):\n  "
                          + "\n  ".join(problems[:SHOWN]))
    tab.assert_no_errors()


@pytest.mark.parametrize("slug", registry.slugs())
def test_served_page_holds_pythons_numbers(new_tab, served_url, slug):
    tab = new_tab()
    check_plate(tab, slug, f"{served_url}/{slug}", served=True)


@pytest.fixture
def exported(exports, workarounds) -> Path:
    """OUTDIR with every registered plate's page (fixtures.exports), in this test's mode."""
    return exports(workarounds)


@pytest.mark.parametrize("slug", registry.slugs())
def test_exported_page_computes_pythons_numbers(new_tab, exported, slug):
    path = exported / f"{slug}.html"
    tab = new_tab()
    tab.block_network()
    check_plate(tab, slug, path.as_uri(), served=False)
    tab.assert_offline()
