"""The browser half of the live path: mirror.js, page.js, live.js and each plate's glue file.

A page's callbacks all need the same few files. Inlining them into every CustomJS made each
document carry a dozen copies (hundreds of kB per session); instead each CustomJS made with
`custom_js_code` starts with a small loader, and `share_library()` (run by PlateViewer after
building a plate) hands every such CustomJS one shared model holding the files' text. The
loader evaluates that text once per page; the files define their objects on globalThis
(`AttentionMirror`, `AEPage`, `LookupLive`, ...), which later callbacks reuse.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

from bokeh.models import CustomJS, Div

from .quick_references import existing_models

MARK = re.compile(r"^/\*ae-glue:([\w.-]+)\*/")
LOADER = (
    "if (typeof ae_lib !== 'undefined' && ae_lib !== null) {"
    " var __ae = globalThis.__ae_loaded || (globalThis.__ae_loaded = {});"
    " if (!__ae[ae_lib.name]) { (0, eval)(ae_lib.text); __ae[ae_lib.name] = true; } }\n"
)


@cache
def read_js(name: str) -> str:
    """The text of app/static/NAME."""
    return files("app").joinpath("static", name).read_text(encoding="utf-8")


@cache
def library(glue: str) -> str:
    """mirror.js, page.js, live.js (the live path's shared helpers), a11y.js and one plate's glue, as one script."""
    return "\n".join([read_js("mirror.js"), read_js("page.js"), read_js("live.js"), read_js("a11y.js"), read_js(glue)])


def custom_js_code(glue: str, call: str, names: list[str]) -> str:
    """Code for a CustomJS: load the shared library (see module doc), then `call` with `a` = the args."""
    args = ", ".join(f"{n}: {n}" for n in names)
    return f"/*ae-glue:{glue}*/\n{LOADER}var a = {{{args}}};\n{call}\n"


def library_model(glue: str) -> Div:
    """A model that only carries the library's text (never shown; CustomJS args reference it)."""
    return Div(name=f"ae-lib-{glue}", text=library(glue), visible=False)


def share_library(models) -> dict[str, Div]:
    """Give every CustomJS reachable from `models` that was made by custom_js_code its library.

    Returns the library models by glue file: one per file, shared by all the callbacks.
    """
    libs: dict[str, Div] = {}
    # One walk over the whole graph (per-root walks repeat it), through the values the models hold
    # (app/quick_references.py: 3 ms on masking's plate, Bokeh's collect_models 35 ms).
    for ref in existing_models(models):
        m = MARK.match(ref.code or "") if isinstance(ref, CustomJS) else None
        if m is None:
            continue
        lib = libs.get(m.group(1)) or libs.setdefault(m.group(1), library_model(m.group(1)))
        if ref.args.get("ae_lib") is not lib:
            ref.args = {**ref.args, "ae_lib": lib}
    return libs


# BokehJS bundles no page of ours uses: no plot draws with WebGL (output_backend stays "canvas"),
# yet Panel ships bokeh-gl (270 kB of JavaScript to parse) with every page it serves or saves.
UNUSED_BUNDLES = ("bokeh-gl",)


def trim_bundles(resources):
    """A copy of Bokeh `resources` without the bundles in UNUSED_BUNDLES (for saved pages)."""
    return resources.clone(components=[c for c in resources.components if c not in UNUSED_BUNDLES])


def drop_unused_bundles() -> None:
    """Leave UNUSED_BUNDLES out of every page this process serves (the server makes a Resources
    from the class default for each page)."""
    from bokeh.resources import Resources

    Resources._default_components = [c for c in Resources._default_components if c not in UNUSED_BUNDLES]


EARLY_CALL = "AELive.early();"


@cache
def early_js() -> str:
    """live.js and the call that puts its first-build patches on BokehJS's classes (AELive.early):
    run after BokehJS has loaded and before a document is built."""
    code = read_js("live.js")
    if "</script" in code.lower():
        raise ValueError("live.js cannot be inlined: it holds a closing script tag")
    return f"{code}\n{EARLY_CALL}\n"


def run_live_js_early() -> None:
    """Every page this process serves runs early_js() among BokehJS's own inline scripts, which
    come after BokehJS and before the embed of the document (exported pages: app/bokeh_only.py).
    Bokeh builds each page's scripts from a Resources object's js_raw."""
    from bokeh.resources import Resources

    if getattr(Resources, "_ae_early", False):
        return
    own = Resources.js_raw

    def js_raw(self) -> list[str]:
        return [*own.fget(self), early_js()]

    Resources.js_raw = property(js_raw)
    Resources._ae_early = True
