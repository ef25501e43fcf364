"""An exported page that loads BokehJS alone, without Panel's JavaScript.

Replaces: the page panel.io.save writes (its Panel models and Panel's scripts), after the fact.

Panel's save() writes panel.min.js (0.74 MB) and three copies of es-module-shims (~120 kB) into
every page, and a cold load must parse them before it draws. An exported page does not need
them: with no server there is nothing for Panel's JavaScript to talk to, and the only Panel
models our pages hold are layouts and HTML panes that BokehJS has its own models for. So after
Panel has saved a page, `bokeh_only` rewrites it: in the document, `panel.models.layout.Column`
becomes Bokeh's `Column` and `panel.models.markup.HTML` a `Div` holding the same HTML; the
document's Panel `config` goes; and the scripts only Panel needs go (panel.min.js,
es-module-shims and its options, Panel's resource registry). A page that still holds any other
Panel model is refused with a ValueError naming it, so a new kind of pane cannot ship a page
that no longer works.

Read against: panel >=1.10,<1.11.
Buys: exported cold load, masking 806 -> 724 ms (-10 %), lookup 913 -> 833 ms (-9 %); file 3.1 ->
2.3 MB; off and on in turn (benchmarks/workarounds.py).
Upstream report: "panel.io.save: an option to save with Bokeh's models and BokehJS alone when
the document holds only Panel layouts and HTML panes (no panel.min.js, no es-module-shims)."
"""

from __future__ import annotations

import json
import re
from html import escape

from bokeh.models import Column, Div


# Panel model -> (Bokeh model, the Bokeh model's property names).
SWAPS = {
    "panel.models.layout.Column": ("Column", frozenset(Column.properties())),
    "panel.models.markup.HTML": ("Div", frozenset(Div.properties())),
}
DOC_JSON = re.compile(r'<script type="application/json" id="[^"]+">')
SCRIPT = re.compile(r"<script([^>]*)>")


def _unescape_exact(text: str) -> str:
    """The exact inverse of html.escape (quote=True): what Panel's JavaScript undoes."""
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#x27;", "'"), ("&amp;", "&")):
        text = text.replace(entity, char)
    return text


def bokeh_twin(name: str, attrs: dict) -> tuple[str, dict]:
    """The Bokeh model (its name) and attributes to put in place of the Panel model `name` with
    `attrs`: the attributes Bokeh's model has (Panel's scrolling options, unused here, are left
    out), a Div's HTML unescaped."""
    new, props = SWAPS[name]
    out = {k: v for k, v in attrs.items() if k in props}
    if new == "Div" and isinstance(out.get("text"), str):
        out["text"] = _unescape_exact(out["text"])
    return new, out


def _swap(obj, left: list[str]) -> None:
    if isinstance(obj, list):
        for x in obj:
            _swap(x, left)
        return
    if not isinstance(obj, dict):
        return
    name = obj.get("name")
    if obj.get("type") == "object" and isinstance(name, str):
        if name in SWAPS:
            obj["name"], obj["attributes"] = bokeh_twin(name, obj.get("attributes") or {})
        elif name.startswith("panel."):
            left.append(name)
    for v in obj.values():
        _swap(v, left)


def _panel_only_script(attrs: str, body: str) -> bool:
    src = re.search(r'src="([^"]*)"', attrs)
    if 'type="esms-options"' in attrs:
        return True
    if src:
        path = src.group(1).split("?", 1)[0]  # a served page's URLs carry ?v=<hash>
        return path.endswith(("/panel.min.js", "/panel.js", "es-module-shims.min.js", "es-module-shims.js"))
    head = body.lstrip()[:400]
    return (head.startswith("/* BEGIN panel.min.js */") or head.startswith("/* BEGIN panel.js */")
            or "es-module-shims" in head or "panel.js resource registry" in head)


def bokeh_only(html: str) -> str:
    """A page saved by Panel, rewritten to need BokehJS alone (see the module's docstring)."""
    m = DOC_JSON.search(html)
    if m is None:
        raise ValueError("no Bokeh document in the page")
    end = html.index("</script>", m.end())
    # Bokeh writes the document as escape(json, quote=False) and BokehJS unescapes it.
    raw = html[m.end():end].replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    docs = json.loads(raw)
    left: list[str] = []
    for doc in docs.values():
        doc.pop("config", None)
        _swap(doc, left)
    if left:
        raise ValueError(f"the page holds Panel models BokehJS cannot draw alone: {sorted(set(left))}")
    html = html[:m.end()] + escape(json.dumps(docs, separators=(",", ":")), quote=False) + html[end:]

    return without_panel_scripts(html)


def without_panel_scripts(html: str) -> str:
    """`html` without the scripts only Panel's JavaScript needs (panel.min.js, es-module-shims and
    its options, Panel's resource registry)."""
    # Top-level scripts only: es-module-shims' own code holds "<script" and "</script>" in strings.
    out, pos = [], 0
    while (s := SCRIPT.search(html, pos)) is not None:
        close = html.index("</script>", s.end()) + len("</script>")
        out.append(html[pos:s.start()])
        body = html[s.end():close - len("</script>")]
        if not _panel_only_script(s.group(1), body):
            out.append(html[s.start():close])
        pos = close
    out.append(html[pos:])
    return "".join(out)
