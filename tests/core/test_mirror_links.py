"""An exported page reads a link as a served page does.

A served page reads its link with the plate state's apply_url (Python); an exported page has no
Python and reads it with AELink.read (app/runtime/link.js) driven by the state's url_spec,
plus the plate's own rules in its glue. Here seeded hostile links (numbers in and out of range,
non-numbers, NaN and Infinity, unicode digits, markup, overlong values, repeated and unknown
keys, custom masks of every size) go through both, in node, for the plates whose glue reads
links that way: the same values and the same notices, word for word.
"""

from __future__ import annotations

import numpy as np
import pytest

from app.plates.self_attention.state import SelfAttentionState
from app.shared.state import link_args
from node_mirror import js_file, run_driver

pytestmark = pytest.mark.node

N_LINKS = 1500

DRIVER = r"""
const AELink = require(process.argv[1]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
// self-attention has no custom fields: link.js's rules alone (its glue applying the values, with
// AELink.apply_plate: tests/core/test_mirror_self_attention.py)
const out = input.links.map((pairs) => AELink.read(new URLSearchParams(pairs), input.spec, {}));
process.stdout.write(JSON.stringify(out));
"""

VALUES = [
    "0", "1", "2", "3", "5", "8", "9", "-1", "2.5", "3.5", "7.49", "1e1", "1e309", "-0", " 4 ", "04", "+6",
    "", "nan", "NaN", "inf", "-Infinity", "Infinity", "0x10", "1_000", "٣", "５", "abc", "true", "no", "ON",
    "none", "causal", "padding", "window", "custom", " causal ", "Causal",
    "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "'; drop", "é😀", "a\u200bb", "x" * 201, "9" * 40,
]
CELLS = ["1", "10.11", "100.110.111", "0000.0000.0000.0000", "10000.11000.11100.11110.11111", "111.11", "102.110.111",
         "11111111." * 7 + "11111111", "1." * 8 + "1", ".", "10.1x", " 10.11 "]
EXTRA_KEYS = ["zzz", "embed", "theme", "hide", "present", "plate", "N", "k\u200bind", "<b>"]


def links(state_cls, seed: int) -> list[list[list[str]]]:
    rng = np.random.default_rng(seed)
    names = list(state_cls.url_fields) + EXTRA_KEYS
    out = []
    for _ in range(N_LINKS):
        pairs = []
        for _ in range(int(rng.integers(1, 7))):
            name = names[int(rng.integers(len(names)))]
            pool = CELLS if name == "cells" and rng.random() < 0.8 else VALUES
            pairs.append([name, pool[int(rng.integers(len(pool)))]])
        out.append(pairs)
    return out


def served_reading(state_cls, pairs):
    state = state_cls()
    notices = state.apply_url(link_args(pairs))  # as app.delivery.page.session_args gives a link
    return state, notices


# The masking plate reads these links through AELink.apply_plate (tests/core/test_mirror_masking.py).
@pytest.mark.parametrize("state_cls,plate,seed", [(SelfAttentionState, "self-attention", 12)])
def test_exported_link_reading_matches_served(state_cls, plate, seed):
    fresh = state_cls()
    current = {name: getattr(fresh, name) for name in state_cls.url_fields}
    cases = links(state_cls, seed)
    got = run_driver(DRIVER, {"plate": plate, "spec": fresh.url_spec(), "current": current, "links": cases},
                     scripts=(js_file("link.js"),), expect=len(cases))
    noticed = 0
    for pairs, js in zip(cases, got):
        state, notices = served_reading(state_cls, pairs)
        assert js["notices"] == notices, pairs
        noticed += bool(notices)
        values = js["values"]
        for name in state_cls.url_fields:
            if name in values:
                assert values[name] == getattr(state, name), (name, pairs)
    assert noticed > N_LINKS // 2  # the links were hostile enough to need notices


PAGE_DRIVER = r"""
const AELink = require(process.argv[1]);
const links = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(links.map((c) => AELink.page_notices(new URLSearchParams(c.pairs), c.hideable))));
"""
PAGE_VALUES = ["dark", "light", "0", "1", "Dark", " dark", "yes", "true", "angle", "angle,length", " angle , d_k ",
               "ae-header,scaled", ",,", "a b", "angle\n", "x" * 40, "x" * 41, "9lives", "<b>,angle", "angle,<b>"]


def test_page_settings_are_read_alike_served_and_exported():
    """theme, present, embed and hide are read by page.js on every page; a value it will not act
    on earns the same notice from app.shared.state.page_param_notices (served) and AELink.page_notices
    (exported), word for word."""
    from app.shared.state import page_param_notices

    rng = np.random.default_rng(13)
    names = ["embed", "theme", "hide", "present", "plate", "angle"]
    pool = PAGE_VALUES + VALUES
    # Half the links are read knowing the page's names (what ?hide= can use), half without.
    hideable = [None, ["angle", "length", "d_k", "ae-header", "scaled"]]
    cases = [{"pairs": [[names[int(rng.integers(len(names)))], pool[int(rng.integers(len(pool)))]]
                        for _ in range(int(rng.integers(1, 5)))], "hideable": hideable[k % 2]} for k in range(600)]
    got = run_driver(PAGE_DRIVER, cases, scripts=(js_file("link.js"),), expect=len(cases))
    noticed = unknown = 0
    for case, js in zip(cases, got):
        assert js == page_param_notices(link_args(case["pairs"]), case["hideable"]), case
        noticed += bool(js)
        unknown += any("no control of that name" in n for n in js)
    assert 0 < noticed < len(cases) and unknown > 0
    assert page_param_notices({"theme": "dark", "embed": "1", "present": "0", "hide": " angle , d_k "}) == []
    assert page_param_notices({"theme": "blue", "hide": "angle,<b>"}) == [
        "ignored 'theme=blue': expected light or dark", "ignored 'hide=<b>': not a control's name"]
    known = ["angle", "d_k"]
    assert page_param_notices({"hide": "angle, d_k"}, known) == []
    assert page_param_notices({"hide": "angle,angel"}, known) == [
        "ignored 'hide=angel': no control of that name on this page"]


ANGLES = ["-30", "725", "360", "-360", "0", "-0", "720", "-1e308", "1e308", "-1e-20", "359.99999999999994",
          "-359.99999999999994", "1e17", "-4.9e-324", "90.5", "-0.5", "360.0000000001"]


def test_an_angle_outside_its_circle_is_wrapped_alike_served_and_exported():
    """The lookup's angle is a direction: a link's -30 is 330 (the same direction), not 0, in
    Python (PlateState.read_url) and in link.js, to the last bit, with the same notice (issue 54:
    there was none)."""
    from app.plates.lookup.state import LookupState

    spec = LookupState().url_spec()
    assert spec["fields"]["angle"].get("wrap") is True
    cases = [[["angle", a]] for a in ANGLES]
    got = run_driver(DRIVER, {"spec": spec, "links": cases}, scripts=(js_file("link.js"),), expect=len(cases))
    for pairs, js in zip(cases, got):
        values, notices = LookupState().read_url(dict(pairs))
        assert js["notices"] == notices, pairs
        assert js["values"]["angle"] == values["angle"], pairs
        assert 0.0 <= values["angle"] <= 360.0
        inside = 0.0 <= float(pairs[0][1]) <= 360.0
        assert (notices == []) == inside, (pairs, notices)
    by_text = {p[0][1]: v["values"]["angle"] for p, v in zip(cases, got)}
    assert by_text["-30"] == 330.0 and by_text["725"] == 5.0 and by_text["360"] == 360.0 and by_text["-360"] == 0.0
    assert LookupState().read_url({"angle": "-30"})[1] == ["'angle' set to 330°, the same direction as -30°"]
