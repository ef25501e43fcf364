"""No CSS of ours sets a `--bk-` custom property.

BokehJS lets CSS style a visual through `--bk-line-color` and the like, and asks the browser for
them at each paint. AELive.unset_css_values (app/static/live.js) answers "" without asking,
because nothing on these pages sets one: Bokeh's and Panel's sheets do not, and this test holds
ours (the app's Python, templates, scripts and style sheets, and the assets) to it. A page that
did would be declined at run time too (AELive.sets_bk_css), but only for inline sheets.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A declaration, or a key of a styles dict: not the bare prefix in a comment or a regex.
SETS_BK = re.compile(r"--bk-[\w-]+['\"]?\s*:")
LOOKED_AT = (".py", ".js", ".css", ".html", ".svg", ".json")


def sources() -> list[Path]:
    return sorted(p for d in ("app", "assets") for p in (ROOT / d).rglob("*")
                  if p.is_file() and p.suffix in LOOKED_AT)


def test_no_source_declares_a_bk_property():
    files = sources()
    assert any(p.name == "theme.py" for p in files) and any(p.name == "live.js" for p in files)
    found = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in files
             for m in SETS_BK.finditer(p.read_text(encoding="utf-8", errors="replace"))]
    assert found == []


def test_the_pattern_finds_a_declaration():
    assert SETS_BK.search(":host { --bk-line-color: red; }")
    assert SETS_BK.search("styles={'--bk-grid-line-alpha' : 0.5}")
    assert SETS_BK.search("var BK_CSS = /--bk-/;") is None
