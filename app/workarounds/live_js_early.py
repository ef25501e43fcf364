"""The browser-side workarounds' class patches put on BokehJS before the page's document is built.

Installed only once the document is ready (AEPage.init), the patches that lighten a document's
first build come too late for it: each glyph renderer has brought its copies up to date, each
Text copy has measured its labels. So the registry and the workarounds (app/workarounds/js/)
also run, with `AEWorkarounds.install_early()`, among BokehJS's own inline scripts of a served
page, which come after BokehJS and before the embed of the document (Bokeh builds them from a
Resources object's js_raw); an exported page gets the same script written before its embed
(app/workarounds/exported_bokeh_only.py).
"""

from __future__ import annotations

import json


def early_js() -> str:
    """The registry, the workarounds and the call that installs their early patches."""
    from app import workarounds
    from app.runtime.scripts import workarounds_js

    off = workarounds.js_switched_off()
    code = workarounds_js()
    if "</script" in code.lower():
        raise ValueError("the workarounds cannot be inlined: they hold a closing script tag")
    return f"{code}\nAEWorkarounds.configure({json.dumps(off or [])});\nAEWorkarounds.install_early();\n"


EARLY_CALL = "AEWorkarounds.install_early();"


def install() -> bool:
    """Every page this process serves runs early_js() among BokehJS's inline scripts."""
    from bokeh.resources import Resources

    if getattr(Resources, "_ae_early", False):
        return True
    own = getattr(Resources, "js_raw", None)
    if not isinstance(own, property):
        return False
    script = early_js()

    def js_raw(self) -> list[str]:
        return [*own.fget(self), script]

    Resources.js_raw = property(js_raw)
    Resources._ae_early = True
    return True


def into_saved_page(html: str) -> str:
    """A saved page with early_js() run just before the embed of its document (the last script
    that calls Bokeh.embed.embed_items; an inlined BokehJS defines that function but does not
    call it so), once: a served process's pages already carry it among BokehJS's scripts."""
    if EARLY_CALL in html:
        return html
    at = html.rfind("Bokeh.embed.embed_items(")
    start = html.rfind("<script", 0, at) if at >= 0 else -1
    if start < 0:
        return html
    return html[:start] + f"<script>\n{early_js()}</script>\n" + html[start:]
