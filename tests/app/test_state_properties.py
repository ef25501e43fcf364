"""≥ 10,000 generated cases through each plate's state layer, without a server.

A case is what a user controls: a link's query string (hostile values, unknown and repeated
keys, page settings), or what a served page can send (a widget's value, a dragged point, a
tapped cell, typed text), or a direct call of the state's own setters. After every case the
state must be valid (in bounds, finite, the shapes the plate needs) and the plate must have
rendered: every number in every ColumnDataSource finite and every text free of NaN/Infinity.
What is valid and what a served page can send are each plate's to say, in its contract.py
(docs/adding-a-plate.md); the links and the hostile values are this module's.

One plate instance per plate serves all its cases; setting a Bokeh property from Python runs
the plate's on_change callbacks exactly as a browser's change does in a served session, and
the state's watchers re-render, so each case goes through the plate's full update path.
The randomness is a seeded numpy Generator (10,000 hypothesis examples would take minutes).

`make test` runs the full 10,000 cases per plate, 200 of them what a served page sends;
`make check` (--tier=check, tests/conftest.py) runs 1,000 per plate, 50 of them a page's
(AE_STATE_CASES, AE_STATE_BROWSER_CASES): the same generator and checks, on fewer cases.
"""

from __future__ import annotations

import math
import re

import numpy as np
import param
import pytest
from bokeh.model.util import collect_models
from bokeh.models import ColumnDataSource, Div

from app.plates import registry
from app.shared.state import MAX_URL_VALUE, PAGE_PARAMS

CASES = int(__import__("os").environ.get("AE_STATE_CASES", "10000"))
LONG = "9" * 10**6  # made once; apply_url must refuse it unread
HOSTILE_TEXT = [
    "", " ", "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400", "1e308",
    "-1e308", "0x10", "1_000", "1,5", "١٢", "１２", "1\u00a0", "\u2212" + "1", "None", "null", "undefined", "true",
    "[]", "{}", "[1,2]", "<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "';alert(1);//",
    "javascript:alert(1)", "%00", "\x00", "\n", "é", "🙂", "x" * (MAX_URL_VALUE + 1), LONG, "1;2;3", ";;", ",",
    "1,1;1,1;1,1;1,1;1,nan", "1e999,0;0,0;0,0;0,0;0,0", "0.0.0", "1.", ".5", "+3", "-0", "00007", "3e2",
]
NUMBERS = [math.nan, math.inf, -math.inf, 1e300, -1e300, 0.0, -0.0, 1e-300, 2**53 + 1.0, -1.0, 0.5, 1e9]
NOT_A_NUMBER_TEXT = re.compile(r"(?<!No )(?<!not )\bNaN\b|\bnan\b|Infinity|undefined|\binf\b")  # "No NaN anywhere", "not NaN": the plates' own words


# --------------------------------------------------------------------------- the plates


@pytest.fixture(scope="module", params=registry.slugs())
def plate(request):
    return registry.plate_class(request.param)()


def _models(plate):
    """Every ColumnDataSource and Div the plate's view holds (found once).

    One walk over all the roots: each root's own references() walked the sources and layouts the
    roots share again, 29 walks for learn's plate (0.44 s against 0.03 s for the one walk)."""
    sources, divs = [], []
    for m in collect_models(*plate.bokeh_models()):
        if isinstance(m, ColumnDataSource):
            sources.append(m)
        elif isinstance(m, Div) and not (m.name or "").startswith("ae-lib-"):
            divs.append(m)  # the shared JS library travels as a Div's text; it is code, not page
    return sources, divs


def _finite(value) -> bool:
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, (int, np.integer)):
        return True
    if isinstance(value, (float, np.floating)):
        return math.isfinite(value)
    if isinstance(value, str):
        return NOT_A_NUMBER_TEXT.search(value) is None
    if isinstance(value, np.ndarray):
        return value.dtype.kind not in "fc" or bool(np.all(np.isfinite(value)))
    if isinstance(value, (list, tuple)):
        return all(_finite(v) for v in value)
    return True


QUOTED = re.compile(r"&#x27;.*?&#x27;|'[^']*'|&quot;.*?&quot;")
_checked: dict[int, int] = {}  # id(source or div) -> id of the data/text last checked


def assert_rendered(plate, sources, divs, case) -> None:
    """Every number in every source finite, every Div's text free of NaN (but the -inf a plate's
    contract says is meant: masking's blocked scores, shown as −∞). A plate replaces a source's
    data with a new dict when it changes (push), so an unchanged dict is not re-read."""
    meant = getattr(registry.contract(plate.slug), "INFINITE_BY_DESIGN", set())
    for src in sources:
        if _checked.get(id(src)) == id(src.data):
            continue
        for col, values in src.data.items():
            if (src.name, col) in meant:
                values = [v for v in values if v != -math.inf]
            assert _finite(values), (case, src.name, col, values)
        _checked[id(src)] = id(src.data)
    for d in divs:
        text = d.text
        if "role='alert'" in text or (d.name or "").endswith(("message", "error")):
            text = QUOTED.sub("", text)  # a refusal may quote what was typed ('nan' is not a number)
            text = re.sub(r"^[^:]*: \S+ is not", "", text)
        assert _finite(text), (case, d.name, d.text[:300])


# --------------------------------------------------------------------------- each plate's validity and inputs
# Each plate's contract.py (app.plates.registry.contract) says what a valid state of it satisfies
# (state_checks), what its served page can send (browser_case) and, for fields of its own, what a
# link may carry (url_text); they draw from a Fuzz, the hostile values below.


def pick(rng, seq):
    """One element of a list (numpy's choice would first copy the list into an array)."""
    return seq[int(rng.integers(len(seq)))]


def _num_text(rng) -> str:
    """A number as a link might carry it: in range, far out of range, odd formats, or hostile text."""
    r = rng.random()
    if r < 0.35:
        return f"{rng.uniform(-20, 400):.{rng.integers(0, 8)}g}"
    if r < 0.55:
        return str(int(rng.integers(-10, 2000)))
    if r < 0.65:
        return f"{pick(rng, ['-', '', '+'])}{rng.uniform(1, 10):.3g}e{int(rng.integers(-330, 330))}"
    return str(pick(rng, HOSTILE_TEXT))


class Fuzz:
    """What a plate's contract draws its cases from: `rng` (a seeded numpy Generator) and the
    hostile values, numbers and texts of this module."""

    HOSTILE_TEXT = HOSTILE_TEXT

    def __init__(self, rng, state_class, contract):
        self.rng, self.state_class, self.contract = rng, state_class, contract

    def pick(self, seq):
        return pick(self.rng, seq)

    def number(self) -> float:
        """A number a page can send: NaN, ±inf, huge, tiny, or an ordinary one."""
        return float(self.pick(NUMBERS)) if self.rng.random() < 0.4 else float(self.rng.uniform(-1e3, 1e3))

    def widget_number(self, lo: int, hi: int, hostile: float = 0.5) -> float:
        """What a slider or a number box may send: with probability `hostile` a number(), else a
        whole number in [lo, hi), as a float."""
        return self.number() if self.rng.random() < hostile else float(self.rng.integers(lo, hi))

    def hostile_text(self) -> str:
        return str(self.pick(HOSTILE_TEXT))

    def number_text(self) -> str:
        return _num_text(self.rng)

    def vector_text(self, rows: int, cols: int, sep_row=";", sep=",") -> str:
        """Rows of numbers as a link or a text box carries them, a few of them hostile."""
        out = []
        for _ in range(rows):
            out.append(sep.join(self.number_text() if self.rng.random() < 0.15 else f"{self.rng.uniform(-15, 15):.4g}"
                                for _ in range(cols)))
        return sep_row.join(out)

    def field(self, name: str) -> str:
        """A value for the URL field `name`: plausible, out of range, or hostile. The plate's
        url_text says what its own fields carry; otherwise the parameter's type does."""
        if self.rng.random() < 0.2:
            return self.hostile_text()
        own = getattr(self.contract, "url_text", None)
        text = own(self, name) if own else None
        if text is not None:
            return text
        p = self.state_class.param[name]
        if isinstance(p, param.Boolean):
            return str(self.pick(["0", "1", "true", "false", "yes", "2", "-1", "on", "off", "TRUE"]))
        if isinstance(p, param.Selector) and p.objects and all(isinstance(o, str) for o in p.objects):
            return str(self.pick(list(p.objects) + ["CAUSAL", "custom ", "seed_999", "<b>x</b>"]))
        return self.number_text()

    @staticmethod
    def set(model, attr, value) -> bool:
        """Set a Bokeh property as an incoming message would; False when Bokeh's own validation
        refuses the value (the server refuses such a message before any plate code runs)."""
        try:
            setattr(model, attr, value)
        except (ValueError, TypeError):
            return False
        return True

    def active(self, n_options: int, many: bool):
        """What a button group's or checkbox group's `active` may be sent as, in range or not."""
        choices = [[], [0], [n_options - 1], [n_options], [-1], [0, 0], list(range(n_options)), [10**9]]
        if many:
            return choices[int(self.rng.integers(len(choices)))]
        return int(self.pick([0, n_options - 1, n_options, -1, 10**9, int(self.rng.integers(0, n_options))]))


def url_case(fuzz: Fuzz, state) -> dict:
    rng = fuzz.rng
    fields = list(state.url_fields)
    k = int(rng.integers(1, len(fields) + 1))
    args = {name: fuzz.field(name) for name in rng.choice(fields, size=k, replace=False)}
    if rng.random() < 0.2:
        args[str(pick(rng, ["zzz", "<script>", "angle ", "ANGLE", "__proto__", "constructor", "n[]", ""]))] = "1"
    if rng.random() < 0.2:
        args[str(pick(rng, PAGE_PARAMS))] = str(pick(rng, HOSTILE_TEXT[:30]))
    return args


def assert_valid(contract, state, case) -> None:
    failed = [what for what, ok in contract.state_checks(state).items() if not ok]
    assert not failed, (case, failed, state.to_url())


# --------------------------------------------------------------------------- the run


# The plates whose state is continuous (lookup's angles, worked's numbers, masking's cells) reach
# a new state at almost every link, and a render costs 10-50 ms on the shared machine: the plate
# renders the first RENDER_ALL_FIRST distinct states a plate's links reach, then every
# RENDER_THEN_EVERY-th; every state is validated, and every browser case renders. A plate whose
# render costs more says how often in its contract (RENDER_CADENCE: learn's replays its run).
RENDER_ALL_FIRST, RENDER_THEN_EVERY = 100, 50
# Of the cases: widget values, drags and taps through the plate's own callbacks (each renders).
BROWSER_CASES = int(__import__("os").environ.get("AE_STATE_BROWSER_CASES", "200"))


def _state_key(state) -> tuple:
    """The state's URL fields, arrays as numpy's repr shows them (rounded to 8 decimals), without
    the repr: printing arrays was a sixth of this test's time."""
    key = []
    for k in sorted(state.url_fields):
        v = getattr(state, k)
        if isinstance(v, np.ndarray) and v.dtype.kind in "fiub":
            key.append((k, v.shape, (np.round(v.astype(float), 8) + 0.0).tobytes()))  # + 0.0: -0.0 is 0.0
        else:
            key.append((k, repr(v)))
    return tuple(key)


@pytest.mark.timeout(900)  # ~1 min per plate on a busy machine; 5 when three others share it
# Some cases send a source whose columns differ in length on purpose (a hostile page): Bokeh
# warns as it takes them, and the plate must refuse them, which the test checks.
@pytest.mark.filterwarnings("ignore:ColumnDataSource's columns must be of the same length")
def test_ten_thousand_cases_keep_the_state_valid_and_the_plate_rendered(plate):
    """Links go to a bare state of the plate's class (the state layer alone, which is cheap); every
    distinct state they reach is then rendered once by the plate, whose data is a function of
    its state. What a served page sends goes through the plate's own callbacks every time."""
    slug = plate.slug
    rng = np.random.default_rng(sum(map(ord, slug)))  # seeded per plate
    sources, divs = _models(plate)
    assert sources, f"{slug}: no data sources found"
    contract = registry.contract(slug)
    fuzz = Fuzz(rng, type(plate.state), contract)
    first, every = getattr(contract, "RENDER_CADENCE", (RENDER_ALL_FIRST, RENDER_THEN_EVERY))
    bare = type(plate.state)()
    rendered: set[tuple] = set()
    new_states = 0
    kinds = {"url": 0, "browser": 0}
    notices = 0
    for i in range(CASES):
        if rng.random() >= BROWSER_CASES / CASES:
            args = url_case(fuzz, bare)
            case = ("url", {k: v[:60] for k, v in args.items()})
            got = bare.apply_url(args)
            assert all(isinstance(n, str) and len(n) < 400 for n in got), (case, got)
            notices += bool(got)
            kinds["url"] += 1
            assert_valid(contract, bare, case)
            key = _state_key(bare)
            fresh = key not in rendered
            rendered.add(key)
            new_states += fresh
            if fresh and (new_states <= first or new_states % every == 0):
                fields = {k: getattr(bare, k) for k in bare.url_fields}
                if "preset" in fields:  # a preset loads its own numbers, so it goes first
                    plate.state.param.update(preset=fields.pop("preset"))
                plate.state.param.update(fields)
                assert _state_key(plate.state) == key, case
                assert_valid(contract, plate.state, case)
                assert_rendered(plate, sources, divs, case)
            if i % 500 == 499:
                bare.reset()  # start afresh now and then, so the defaults meet hostile links too
        else:
            case = ("browser", i)
            contract.browser_case(fuzz, plate)
            kinds["browser"] += 1
            assert_valid(contract, plate.state, case)
            assert_rendered(plate, sources, divs, case)
            rendered.add(_state_key(plate.state))
    assert sum(kinds.values()) == CASES
    assert kinds["url"] > CASES - 1.2 * BROWSER_CASES and kinds["browser"] > 0.8 * BROWSER_CASES, kinds
    assert notices > 0.1 * kinds["url"], notices  # hostile links were noticed, not silently taken
    print(f"{slug}: {kinds}, {notices} links with notices, {len(rendered)} distinct states, {new_states} "
          f"of them reached by links")


def test_the_view_follows_the_state_after_the_run(plate):
    """After all that, a plain link still gives the same page as a fresh plate's."""
    fresh = registry.plate_class(plate.slug)()
    plate.state.reset()
    plate.state.apply_url(fresh.state.to_url())
    plate._render(force=True)
    mine = {src.name: src for src in _models(plate)[0] if src.name}  # named sources: the plate's data
    theirs = {src.name: src for src in _models(fresh)[0] if src.name}
    assert mine.keys() == theirs.keys()
    for name, a in mine.items():
        b = theirs[name]
        assert a.data.keys() == b.data.keys(), name
        for col in a.data:
            assert len(a.data[col]) == len(b.data[col]), (name, col)


@pytest.mark.parametrize("slug", ["masking", "multi-head"])
@pytest.mark.parametrize("value", [math.inf, -math.inf])
def test_an_infinite_slider_value_is_refused_not_raised(slug, value):
    """Found by the run above: int(±inf) raised OverflowError out of the plates' browser callback."""
    plate = registry.plate_class(slug)()
    before = plate.state.to_url()
    plate.n_w.value = value  # what a hostile client can send for the n slider
    if slug == "multi-head":
        plate.n_w.trigger("value_throttled", None, value)  # multi-head acts on the release (read-only in Python)
    assert plate.state.to_url() == before
    assert plate.n_w.value == plate.state.n  # the widget is put back to the last good value
