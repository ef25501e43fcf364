"""≥ 10,000 generated cases through each plate's state layer, without a server.

A case is what a user controls: a link's query string (hostile values, unknown and repeated
keys, page settings), or what a served page can send (a widget's value, a dragged point, a
tapped cell, typed text), or a direct call of the state's own setters. After every case the
state must be valid (in bounds, finite, the shapes the plate needs) and the plate must have
rendered: every number in every ColumnDataSource finite and every text free of NaN/Infinity.

One plate instance per plate serves all its cases; setting a Bokeh property from Python runs
the plate's on_change callbacks exactly as a browser's change does in a served session, and
the state's watchers re-render, so each case goes through the plate's full update path.
The randomness is a seeded numpy Generator (10,000 hypothesis examples would take minutes).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
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
    """Every ColumnDataSource and Div the plate's view holds (found once)."""
    seen, sources, divs = set(), [], []
    for root in plate.bokeh_models():
        for m in root.references():
            if id(m) in seen:
                continue
            seen.add(id(m))
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
    """Every number in every source finite, every Div's text free of NaN. A plate replaces a
    source's data with a new dict when it changes (push), so an unchanged dict is not re-read."""
    for src in sources:
        if _checked.get(id(src)) == id(src.data):
            continue
        for col, values in src.data.items():
            if (plate.slug, src.name, col) == ("masking", "scores", "value"):
                values = [v for v in values if v != -math.inf]  # a blocked score is -inf by design (shown as −∞)
            assert _finite(values), (case, src.name, col, values)
        _checked[id(src)] = id(src.data)
    for d in divs:
        text = d.text
        if "role='alert'" in text or (d.name or "").endswith(("message", "error")):
            text = QUOTED.sub("", text)  # a refusal may quote what was typed ('nan' is not a number)
            text = re.sub(r"^[^:]*: \S+ is not", "", text)
        assert _finite(text), (case, d.name, d.text[:300])


# --------------------------------------------------------------------------- each plate's validity and inputs


def valid_lookup(s):
    from app.plates.lookup.state import DK_CHOICES, MAX_COORD, MAX_LENGTH, MIN_LENGTH

    assert isinstance(s.angle, float) and 0.0 <= s.angle <= 360.0
    assert isinstance(s.length, float) and MIN_LENGTH <= s.length <= MAX_LENGTH
    assert s.d_k in DK_CHOICES and isinstance(s.scaled, bool)
    k = np.asarray(s.keys)
    assert k.shape == (5, 2) and np.all(np.isfinite(k)) and np.all(np.abs(k) <= MAX_COORD)
    w = s.steps().weight
    assert abs(w.sum() - 1.0) < 1e-12 and np.all(w >= 0)


def valid_worked(s):
    from app.plates.worked.inputs import MAX_DK, MAX_DV, MAX_ENTRY, MAX_KEYS
    from app.plates.worked.presets import PRESETS
    from app.plates.worked.state import STAGES

    assert s.preset in PRESETS and isinstance(s.scaled, bool) and 0 <= s.step <= len(STAGES)
    q, K, V = s.arrays
    assert 1 <= q.size <= MAX_DK and 1 <= K.shape[0] <= MAX_KEYS and 1 <= V.shape[1] <= MAX_DV
    for a in (q, K, V):
        assert np.all(np.isfinite(a)) and np.all(np.abs(a) <= MAX_ENTRY)
    w = s.steps().weight
    assert abs(w.sum() - 1.0) < 1e-12


def valid_scaling(s):
    from app.plates.scaling.state import WIDTHS

    assert s.d_k in WIDTHS and isinstance(s.scaled, bool)
    assert abs(s.weights().sum() - 1.0) < 1e-12


def valid_self_attention(s):
    from app.plates.self_attention.state import MAX_SHUFFLE, N_MAX, N_MIN

    assert type(s.n) is int and N_MIN <= s.n <= N_MAX
    assert type(s.shuffle) is int and 0 <= s.shuffle <= MAX_SHUFFLE
    assert isinstance(s.positions, bool) and isinstance(s.cross, bool)
    assert sorted(s.perm) == list(range(s.n))


def valid_masking(s):
    from app.plates.masking.state import KINDS, N_MAX, N_MIN

    assert type(s.n) is int and N_MIN <= s.n <= N_MAX and s.kind in KINDS
    assert 0 <= s.p <= s.n and 1 <= s.w <= s.n
    m = s.mask()
    assert m.dtype == bool and m.shape == (s.n, s.n)
    if s.cells is not None:
        assert np.asarray(s.cells).shape == (s.n, s.n)


def valid_multi_head(s):
    from app.plates.multi_head.state import D_CHOICES, H_CHOICES, N_MAX, N_MIN

    assert s.d_model in D_CHOICES and s.h in H_CHOICES and s.d_model % s.h == 0
    assert type(s.n) is int and N_MIN <= s.n <= N_MAX


def valid_learn(s):
    from app.plates.learn.state import D_K_CHOICES, INIT_BOUNDS, LR_BOUNDS, MAX_STEP, OPTIMIZERS, SEEDS, TIES

    assert type(s.step) is int and 0 <= s.step <= MAX_STEP and type(s.seed) is int and 0 <= s.seed < SEEDS
    assert LR_BOUNDS[0] <= s.lr <= LR_BOUNDS[1] and INIT_BOUNDS[0] <= s.init_scale <= INIT_BOUNDS[1]
    assert s.d_k in D_K_CHOICES and s.tie in TIES and s.optimizer in OPTIMIZERS and isinstance(s.scaled, bool)
    s.settings()  # attention_core takes it


VALID = {"lookup": valid_lookup, "worked": valid_worked, "scaling": valid_scaling,
         "self-attention": valid_self_attention, "masking": valid_masking, "multi-head": valid_multi_head,
         "learn": valid_learn}


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


def _vector_text(rng, rows: int, cols: int, sep_row=";", sep=",") -> str:
    out = []
    for _ in range(rows):
        out.append(sep.join(_num_text(rng) if rng.random() < 0.15 else f"{rng.uniform(-15, 15):.4g}"
                            for _ in range(cols)))
    return sep_row.join(out)


def _field_text(rng, slug: str, name: str) -> str:
    """A value for URL field `name`: plausible, out of range, or hostile."""
    if rng.random() < 0.2:
        return str(pick(rng, HOSTILE_TEXT))
    if name == "keys" and slug == "lookup":
        return _vector_text(rng, int(pick(rng, [5, 5, 5, 4, 6])), int(pick(rng, [2, 2, 2, 3])))
    if name in ("query", "keys", "values"):  # worked
        rows = 1 if name == "query" else int(rng.integers(1, 8))
        return _vector_text(rng, rows, int(rng.integers(1, 6)), sep_row=pick(rng, [";", "\n"]),
                            sep=pick(rng, [",", " ", ", "]))
    if name == "cells":
        n = int(rng.integers(1, 10))
        bits = rng.random((n, n)) < 0.5
        text = ".".join("".join("1" if b else "0" for b in row) for row in bits)
        return text if rng.random() < 0.8 else text.replace("0", pick(rng, ["2", "x", "."]), 1)
    if name in ("kind", "preset"):
        from app.plates.masking.state import KINDS
        from app.plates.worked.presets import PRESETS

        pool = list(KINDS) if name == "kind" else list(PRESETS)
        return str(pick(rng, pool + ["CAUSAL", "custom ", "seed_999", "<b>x</b>"]))
    if name in ("scaled", "positions", "cross", "causal_window", "contrast"):
        return str(pick(rng, ["0", "1", "true", "false", "yes", "2", "-1", "on", "off", "TRUE"]))
    return _num_text(rng)


def url_case(rng, slug, state) -> dict:
    fields = list(state.url_fields)
    k = int(rng.integers(1, len(fields) + 1))
    args = {name: _field_text(rng, slug, name) for name in rng.choice(fields, size=k, replace=False)}
    if rng.random() < 0.2:
        args[str(pick(rng, ["zzz", "<script>", "angle ", "ANGLE", "__proto__", "constructor", "n[]", ""]))] = "1"
    if rng.random() < 0.2:
        args[str(pick(rng, PAGE_PARAMS))] = str(pick(rng, HOSTILE_TEXT[:30]))
    return args


# --- what a served page can send -------------------------------------------------------------


def _hostile_number(rng):
    return float(pick(rng, NUMBERS)) if rng.random() < 0.4 else float(rng.uniform(-1e3, 1e3))


def _set(model, attr, value) -> bool:
    """Set a Bokeh property as an incoming message would; False when Bokeh's own validation
    refuses the value (the server refuses such a message before any plate code runs)."""
    try:
        setattr(model, attr, value)
    except (ValueError, TypeError):
        return False
    return True


def _active(rng, n_options: int, many: bool):
    choices = [[], [0], [n_options - 1], [n_options], [-1], [0, 0], list(range(n_options)), [10**9]]
    if many:
        return choices[int(rng.integers(len(choices)))]
    return int(pick(rng, [0, n_options - 1, n_options, -1, 10**9, int(rng.integers(0, n_options))]))


def browser_lookup(rng, p):
    r = rng.random()
    if r < 0.25:
        _set(p.angle_w if rng.random() < 0.5 else p.length_w, "value", _hostile_number(rng))
    elif r < 0.35:
        _set(p.dk_w, "value", str(pick(rng, ["2", "64", "3", "nan", "", "1e9", "<b>"])))
    elif r < 0.45:
        _set(p.scaled_w, "active", _active(rng, 1, True))
    elif r < 0.7:  # a dragged key: the browser sends the keys source back
        keys = {k: list(v) for k, v in p.keys_src.data.items()}
        j = int(rng.integers(0, 5))
        keys["x"][j], keys["y"][j] = _hostile_number(rng), _hostile_number(rng)
        if rng.random() < 0.1:
            keys["x"] = keys["x"][:3]  # a short column
        _set(p.keys_src, "data", keys)
    elif r < 0.85:  # the dragged query
        _set(p.query_src, "data", {"x": [_hostile_number(rng)], "y": [_hostile_number(rng)]})
        _set(p.plot, "tags", [str(rng.integers(1e9))])  # the end of a gesture
    else:
        try:
            p.state.set_query_xy(_hostile_number(rng), _hostile_number(rng))
        except ValueError:
            pass  # the core refuses a non-finite point by name; the state is unchanged


def browser_worked(rng, p):
    from app.plates.worked.presets import PRESETS

    r = rng.random()
    if r < 0.3:
        w = [p.query_w, p.keys_w, p.values_w][int(rng.integers(3))]
        text = _field_text(rng, "worked", "keys") if rng.random() < 0.8 else str(pick(rng, HOSTILE_TEXT))
        _set(w, "value_input", text if len(text) < 10**5 else text[:10**5])
    elif r < 0.4:
        _set(p.length_w, "value", _hostile_number(rng))
    elif r < 0.5:
        _set(p.stage_w, "active", _active(rng, 5, False))
    elif r < 0.55:
        _set(p.preset_w, "value", str(pick(rng, list(PRESETS) + ["nope", ""])))
    elif r < 0.6:
        _set(p.scaled_w, "active", _active(rng, 1, True))
    elif r < 0.68:
        _set(p.guess_key_w, "value", str(pick(rng, ["k1", "k9", "", "<script>", "x" * 300])))
        _set(p.guess_out_w, "value_input", str(pick(rng, HOSTILE_TEXT[:40] + ["1, 2", "0.5"])))
    elif r < 0.88:  # the end of a drag: the sources' vectors, then the plot's tags
        src = [p.query_src, p.keys_src, p.values_src][int(rng.integers(3))]
        data = {k: list(v) for k, v in src.data.items()}
        if data.get("vec"):
            j = int(rng.integers(0, len(data["vec"])))
            vec = list(data["vec"][j])
            vec[int(rng.integers(0, len(vec)))] = _hostile_number(rng)
            data["vec"][j] = vec if rng.random() < 0.9 else vec + [1.0]
        _set(src, "data", data)
        _set(p.sync, "tags", [str(rng.integers(1e9))])
    else:
        s = p.state
        try:
            if rng.random() < 0.5:
                s.set_length(_hostile_number(rng))
            else:
                d_k, m = int(rng.integers(1, 6)), int(rng.integers(1, 8))
                s.set_inputs(rng.normal(size=d_k) * pick(rng, [1, 100]), rng.normal(size=(m, d_k)),
                             rng.normal(size=(m, int(rng.integers(1, 4)))))
        except ValueError:
            pass  # refused by name; the state keeps its last good numbers


def browser_scaling(rng, p):
    if rng.random() < 0.7:
        _set(p.dk_w, "value", _hostile_number(rng) if rng.random() < 0.5 else float(rng.integers(-2, 13)))
    else:
        _set(p.scaled_w, "active", _active(rng, 1, True))


def browser_self_attention(rng, p):
    r = rng.random()
    if r < 0.35:
        _set(p.n_w, "value", _hostile_number(rng) if rng.random() < 0.5 else float(rng.integers(-2, 12)))
    elif r < 0.7:
        _set(p.shuffle_w, "value", _hostile_number(rng) if rng.random() < 0.4 else int(rng.integers(-3, 30)))
    else:
        _set(p.positions_w if rng.random() < 0.5 else p.cross_w, "active", _active(rng, 1, True))


def browser_masking(rng, p):
    r = rng.random()
    if r < 0.2:
        _set(p.n_w, "value", _hostile_number(rng) if rng.random() < 0.5 else float(rng.integers(-2, 12)))
    elif r < 0.35:
        _set(p.kind_w, "active", _active(rng, 5, False))
    elif r < 0.5:
        _set(p.p_w if rng.random() < 0.5 else p.w_w, "value", _hostile_number(rng) if rng.random() < 0.4
             else float(rng.integers(-2, 12)))
    elif r < 0.6:
        _set(p.causal_w, "active", _active(rng, 1, True))
        _set(p.contrast_w, "active", _active(rng, 2, False))
    elif r < 0.85:  # a tapped cell: the browser sends the mask source back, then the plot's tags
        data = {k: list(v) for k, v in p.mask_src.data.items()}
        if data.get("allowed"):
            j = int(rng.integers(0, len(data["allowed"])))
            data["allowed"][j] = [True, False, None, 1, "1", math.nan][int(rng.integers(6))]
            if rng.random() < 0.1:
                data["allowed"] = data["allowed"][:-1]
        _set(p.kind_w, "active", 4)
        _set(p.mask_src, "data", data)
    else:
        try:
            p.state.flip(int(rng.integers(-2, 12)), int(rng.integers(-2, 12)))
        except ValueError:
            pass  # a cell outside the mask is refused by name


def browser_multi_head(rng, p):
    from app.plates.multi_head.state import D_CHOICES

    r = rng.random()
    if r < 0.35:
        _set(p.d_w, "value", str(pick(rng, [str(d) for d in D_CHOICES] + ["3", "nan", "", "1e9"])))
    elif r < 0.7:
        _set(p.h_w, "active", _active(rng, 4, False))
    else:  # a slider's release: value, then value_throttled (which Python acts on)
        v = _hostile_number(rng) if rng.random() < 0.4 else float(rng.integers(-2, 20))
        if _set(p.n_w, "value", v):
            p.n_w.trigger("value_throttled", None, v)  # read-only in Python; a served page's release runs this


def browser_learn(rng, p):
    """What learn.js sends when training stops (a commit: the widgets and the step under a "busy"
    mark), or one widget's change alone (a hostile page may send anything)."""
    r = rng.random()
    if r < 0.4:  # a commit: the step and one box, as the page sends them
        p.sync.tags = ["busy"]
        step = _hostile_number(rng) if rng.random() < 0.3 else int(rng.integers(-5, 400))
        _set(p.srcs["run"], "data", {"step": [step]} if rng.random() < 0.9 else {"step": [1, 2]})
        box = [p.lr_w, p.init_w, p.seed_w][int(rng.integers(3))]
        _set(box, "value", _hostile_number(rng) if rng.random() < 0.5 else float(rng.uniform(0, 3)))
        p.sync.tags = []
    elif r < 0.6:
        _set(p.dk_w, "value", str(pick(rng, ["1", "8", "64", "3", "nan", "", "1e9"])))
    elif r < 0.8:
        w = [p.tie_w, p.optimizer_w, p.speed_w][int(rng.integers(3))]
        _set(w, "active", _active(rng, 3, False))
    else:
        _set(p.scaled_w, "active", _active(rng, 1, True))


BROWSER = {"lookup": browser_lookup, "worked": browser_worked, "scaling": browser_scaling,
           "self-attention": browser_self_attention, "masking": browser_masking, "multi-head": browser_multi_head,
           "learn": browser_learn}


# --------------------------------------------------------------------------- the run


# The plates whose state is continuous (lookup's angles, worked's numbers, masking's cells) reach
# a new state at almost every link, and a render costs 10-50 ms on the shared machine: the plate
# renders the first RENDER_ALL_FIRST distinct states a plate's links reach, then every
# RENDER_THEN_EVERY-th; every state is validated, and every browser case renders.
RENDER_ALL_FIRST, RENDER_THEN_EVERY = 100, 50
# The learn plate's render replays its run in NumPy up to the link's step (2000 at most, about a
# second each): its links are validated as every plate's, and fewer of its states rendered.
RENDER_CADENCE = {"learn": (25, 250)}
BROWSER_CASES = 200  # of the cases: widget values, drags and taps through the plate's own callbacks


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
    valid, browser = VALID[slug], BROWSER[slug]
    bare = type(plate.state)()
    rendered: set[tuple] = set()
    new_states = 0
    kinds = {"url": 0, "browser": 0}
    notices = 0
    for i in range(CASES):
        if rng.random() >= BROWSER_CASES / CASES:
            args = url_case(rng, slug, bare)
            case = ("url", {k: v[:60] for k, v in args.items()})
            got = bare.apply_url(args)
            assert all(isinstance(n, str) and len(n) < 400 for n in got), (case, got)
            notices += bool(got)
            kinds["url"] += 1
            valid(bare)
            key = _state_key(bare)
            fresh = key not in rendered
            rendered.add(key)
            new_states += fresh
            first, every = RENDER_CADENCE.get(slug, (RENDER_ALL_FIRST, RENDER_THEN_EVERY))
            if fresh and (new_states <= first or new_states % every == 0):
                fields = {k: getattr(bare, k) for k in bare.url_fields}
                if "preset" in fields:  # a preset loads its own numbers, so it goes first
                    plate.state.param.update(preset=fields.pop("preset"))
                plate.state.param.update(fields)
                assert _state_key(plate.state) == key, case
                valid(plate.state)
                assert_rendered(plate, sources, divs, case)
            if i % 500 == 499:
                bare.reset()  # start afresh now and then, so the defaults meet hostile links too
        else:
            case = ("browser", i)
            browser(rng, plate)
            kinds["browser"] += 1
            valid(plate.state)
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
