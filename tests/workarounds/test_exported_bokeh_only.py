"""app.workarounds.exported_bokeh_only: an exported page rewritten to load BokehJS alone, without Panel's JavaScript.

On a small page written here: Panel's layouts and HTML panes become Bokeh's own models with the
same HTML, Panel's scripts go and every other script stays, and a Panel model BokehJS has no
counterpart for is refused by name. On real exports: no page keeps a Panel model or script.
(The browser tests run every exported page this way: their numbers, drags and links.)
"""

from __future__ import annotations

import json
import re
from html import escape

import pytest

from app.workarounds.exported_bokeh_only import bokeh_only
from app.delivery.export import export_plate
from app.plates import registry
from test_export import docs_json

PANEL_SCRIPT_MARKERS = ("panel.min.js", "es-module-shims", "esms-options", "panel.js resource registry")


def page(doc: dict, scripts: list[str]) -> str:
    """A page as Bokeh's template writes it: the document escaped as escape(json, quote=False)."""
    body = "\n".join(scripts)
    return ("<!DOCTYPE html><html><head>" + body + "</head><body>"
            '<script type="application/json" id="d1">' + escape(json.dumps(doc), quote=False) + "</script>"
            "<script>Bokeh.embed.embed_items(x);</script></body></html>")


def read_doc(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="d1">(.*?)</script>', html, re.S)
    # BokehJS's unescape: &amp; &lt; &gt; &quot; &#x27; &#x60;
    raw = m.group(1)
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#x27;", "'"), ("&#x60;", "`"), ("&amp;", "&")):
        raw = raw.replace(entity, char)
    return json.loads(raw)


def obj(name: str, id_: str, **attrs) -> dict:
    return {"type": "object", "name": name, "id": id_, "attributes": attrs}


HTML_TEXT = "<div class='ae-notes'><p>5 &lt; 6 &amp; \"q\"</p></div>"


def small_doc(extra=None) -> dict:
    html_pane = obj("panel.models.markup.HTML", "p2", text=escape(HTML_TEXT), disable_math=True, margin=[0, 10],
                    events={}, run_scripts=False)
    column = obj("panel.models.layout.Column", "p1", children=[html_pane, obj("Div", "p3", text="<b>x</b>")]
                 + ([extra] if extra else []), scroll_position=0, auto_scroll_limit=0, view_latest=False,
                 margin=[5, 5], css_classes=["ae"])
    return {"doc": {"version": "3.10", "title": "t", "config": obj("DocumentConfig", "p9",
                                                                    notifications=obj("Notifications", "p8")),
                    "roots": [column], "defs": [], "callbacks": {}}}


SCRIPTS = [
    '<script type="esms-options">{"shimMode": true}</script>',
    "<script>\n  // Tells the panel.js resource registry which component libraries ... '<script>' in a string\n</script>",
    '<script src="_static/bokeh/bokeh.min.js"></script>',
    '<script src="_static/panel/bundled/reactiveesm/es-module-shims@^1.10.0/dist/es-module-shims.min.js"></script>',
    '<script src="_static/panel/panel.min.js"></script>',
    "<script>\n/* BEGIN panel.min.js */ var x = 1;</script>",
    "<script>  /** Original file: /npm/es-module-shims@1.10.1 */ var s = \"<script type='esms-options'>\";</script>",
    '<script type="text/javascript">Bokeh.set_log_level("info");</script>',
]


def test_panel_models_become_bokehs_own_with_the_same_html():
    out = bokeh_only(page(small_doc(), SCRIPTS))
    doc = read_doc(out)["doc"]
    assert "config" not in doc
    column = doc["roots"][0]
    assert column["name"] == "Column" and column["id"] == "p1"
    # Panel's scrolling options are not Bokeh's; the layout's own settings stay
    assert column["attributes"] == {"children": column["attributes"]["children"], "margin": [5, 5], "css_classes": ["ae"]}
    div, plain = column["attributes"]["children"]
    assert div["name"] == "Div" and div["id"] == "p2"
    assert div["attributes"] == {"text": HTML_TEXT, "disable_math": True, "margin": [0, 10]}
    assert plain == obj("Div", "p3", text="<b>x</b>")


def test_only_panels_scripts_go():
    out = bokeh_only(page(small_doc(), SCRIPTS))
    scripts = re.findall(r"<script[^>]*>.*?</script>", out, re.S)
    assert [s for s in scripts if any(m in s for m in PANEL_SCRIPT_MARKERS)] == []
    assert '<script src="_static/bokeh/bokeh.min.js"></script>' in out
    assert 'Bokeh.set_log_level("info");' in out and "Bokeh.embed.embed_items(x);" in out
    assert len(scripts) == 4  # bokeh.min.js, set_log_level, the document, the embed call


def test_a_panel_model_without_a_bokeh_counterpart_is_refused():
    with pytest.raises(ValueError, match=r"panel\.models\.tabulator\.DataTabulator"):
        bokeh_only(page(small_doc(obj("panel.models.tabulator.DataTabulator", "p7")), SCRIPTS))
    with pytest.raises(ValueError, match="no Bokeh document"):
        bokeh_only("<html><script>Bokeh</script></html>")


def names(obj, out: set) -> set:
    if isinstance(obj, dict):
        if obj.get("type") == "object" and isinstance(obj.get("name"), str):
            out.add(obj["name"])
        for v in obj.values():
            names(v, out)
    elif isinstance(obj, list):
        for v in obj:
            names(v, out)
    return out


def assert_bokeh_only(text: str) -> None:
    tags = re.findall(r"<script[^>]*>", text)
    assert not [t for t in tags if "panel" in t or "esms" in t or "es-module-shims" in t], tags
    assert "/* BEGIN panel.min.js */" not in text and "panel.js resource registry" not in text
    found = set()
    for d in docs_json(text).values():
        assert "config" not in d
        names(d, found)
    assert "Column" in found  # the page's layout, now Bokeh's
    assert not [n for n in found if n.startswith("panel.") or n in ("DocumentConfig", "Notifications")], found


@pytest.mark.parametrize("slug", ["masking", "multi-head"])  # the two with Panel HTML panes
def test_an_exported_plate_holds_no_panel_model_or_script(slug, tmp_path):
    path = export_plate(slug, tmp_path)
    text = path.read_text(encoding="utf-8")
    assert_bokeh_only(text)
    # BokehJS and its widgets (1.8 MB) with the plate make 2.0-2.2 MB; Panel's JavaScript would
    # add 0.74 MB more (the pages were 2.9-3.0 MB with it).
    assert len(text) < 2.5e6


def test_a_site_of_the_index_and_one_plate_ships_no_panel_javascript(tmp_path):
    """The static site's own path (pages saved against CDN resources, then pointed at copies
    under _static/), on the index and the plate with Panel HTML panes, written in this process:
    make check's test of what the whole site's test below holds for every page."""
    from app.delivery.export import export_site

    written = export_site(tmp_path, plates=["masking"])
    assert {p.stem for p in written} >= {"index", "masking"}, written
    for path in written:
        if path.name != "slides.html":
            assert_bokeh_only(path.read_text(encoding="utf-8"))
    js = sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "_static").rglob("*.js"))
    assert js == ["_static/bokeh/bokeh-widgets.min.js", "_static/bokeh/bokeh.min.js"], js


@pytest.mark.whole_export
def test_the_static_site_ships_no_panel_javascript(exported_site):
    """The site the browser tests open (`export OUTDIR --site`, written once a run: fixtures.py),
    every page of it; make test only (its export is most of this module's time)."""
    written = sorted(exported_site.glob("*.html"))
    assert {p.stem for p in written} == {"index", "slides", *registry.slugs()}, written
    for path in written:
        if path.name != "slides.html":
            assert_bokeh_only(path.read_text(encoding="utf-8"))
    js = sorted(p.relative_to(exported_site).as_posix() for p in (exported_site / "_static").rglob("*.js"))
    assert js == ["_static/bokeh/bokeh-widgets.min.js", "_static/bokeh/bokeh.min.js"], js
