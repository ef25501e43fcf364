"""WCAG AA contrast of the theme's colours, light and dark (presentation mode uses the same colours).

Text needs 4.5:1 against its background, large text and graphics (the Okabe–Ito marks) 3:1.
Dark mode is applied in the browser by page.js's `to_dark`; app.shared.theme.dark_partner states the
same rule in Python, and node checks here that the two agree colour for colour.
"""

from __future__ import annotations

from app.runtime.scripts import js_file

import json
import re
import subprocess
from pathlib import Path

import pytest

from app.shared.theme import DARK_MARKS, OKABE_ITO_MORE, PALETTE, TEXT_PAIRS, THEMES, dark_colour_map, dark_partner
from node_mirror import node_path  # tests/core (on the path: tests/conftest.py)

REPO = Path(__file__).resolve().parents[2]
ROLES = ("query", "keys", "values", "weights", "output")


def luminance(hex_colour: str) -> float:
    """WCAG 2 relative luminance of #rrggbb."""
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_formula_on_known_pairs():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the classic near-miss
    assert contrast("#ffffff", "#ffffff") == pytest.approx(1.0)


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("fg,bg", TEXT_PAIRS)
def test_text_pairs_meet_aa(theme, fg, bg):
    t = THEMES[theme]
    ratio = contrast(t[fg], t[bg])
    assert ratio >= 4.5, f"{theme}: {fg} {t[fg]} on {bg} {t[bg]} is {ratio:.2f}:1 (< 4.5)"


def test_the_themes_name_the_same_colours():
    assert THEMES["light"].keys() == THEMES["dark"].keys()
    for theme in THEMES.values():
        for value in theme.values():
            assert re.fullmatch(r"#[0-9a-f]{6}", value), value


@pytest.mark.parametrize("role", ROLES)
def test_dark_marks_stand_out_from_the_dark_paper(role):
    ratio = contrast(DARK_MARKS[role], THEMES["dark"]["paper"])
    assert ratio >= 3.0, f"{role} {DARK_MARKS[role]} on the dark paper is {ratio:.2f}:1 (< 3)"
    # The dark page's roles are what page.js paints in place of the light ones.
    assert dark_partner(PALETTE[role]) == DARK_MARKS[role]


@pytest.mark.parametrize("role", ROLES)
def test_light_marks_stand_out_from_white_or_carry_an_ink_outline(role):
    """Okabe–Ito's orange is 2.25:1 on white: a graphic in it needs an outline that stands out.
    The roles that reach 3:1 alone are listed; orange is held to its outline (the lookup bars'
    ink line)."""
    ratio = contrast(PALETTE[role], PALETTE["paper"])
    if role == "weights":
        assert ratio < 3.0  # if this starts passing, the outline rule below is no longer needed
        assert contrast(PALETTE["ink"], PALETTE["paper"]) >= 3.0
    else:
        assert ratio >= 3.0, f"{role} {PALETTE[role]} on white is {ratio:.2f}:1 (< 3)"


def test_dark_marks_keep_their_hue():
    """Lighter, not different: each dark-mode role colour is within 25° of hue of the light one."""
    import colorsys

    def hue(c):
        return colorsys.rgb_to_hls(*(int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)))[0] * 360

    for role in ROLES:
        d = abs(hue(PALETTE[role]) - hue(DARK_MARKS[role])) % 360
        assert min(d, 360 - d) <= 25, (role, PALETTE[role], DARK_MARKS[role])


def plate_text_colours() -> list[str]:
    """The `color:` values the plates' own stylesheets and glue write (text on the page's paper)."""
    found = set()
    for path in [*REPO.glob("app/plates/*.py"), *REPO.glob("app/plates/*/*.py"), *REPO.glob("app/plates/*/*.js"),
                 *REPO.glob("app/runtime/*.js")]:
        for m in re.finditer(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b)", path.read_text("utf-8")):
            c = m.group(1).lower()
            found.add(c if len(c) == 7 else "#" + "".join(ch * 2 for ch in c[1:]))
    return sorted(found)


def test_plate_text_that_reads_on_white_reads_on_the_dark_paper_too():
    colours = plate_text_colours()
    assert len(colours) >= 5, colours  # the scan finds the plates' stylesheets
    failures = []
    for c in colours:
        if contrast(c, "#ffffff") < 4.5:
            continue  # not body text in light mode either (a line colour, a large heading)
        d = dark_partner(c)
        if contrast(d, THEMES["dark"]["paper"]) < 4.5:
            failures.append(f"{c} -> {d}: {contrast(d, THEMES['dark']['paper']):.2f}:1")
    assert not failures, failures


@pytest.mark.node
def test_page_js_maps_colours_as_the_theme_says():
    colours = sorted({*plate_text_colours(), *PALETTE.values(), *OKABE_ITO_MORE.values(), "#6e7781", "#eaeef2",
                      "#eef5fb", "#8c9bab", "#fff3d6", "#f3f4f6", "#d0d7de", "#000000", "#ffffff"})
    code = ("const P = require(process.argv[1]);"
            "const [map, colours] = JSON.parse(process.argv[2]);"
            "console.log(JSON.stringify(colours.map((c) => P.to_dark(c, map))));")
    res = subprocess.run([node_path(), "-e", code, str(js_file("page.js")),
                          json.dumps([dark_colour_map(), colours])], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    want = [dark_partner(c) for c in colours]
    assert [g.lower() for g in got] == [w.lower() for w in want], list(zip(colours, got, want))
