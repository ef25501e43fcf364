"""The browser half of the live path: app/runtime/*.js and each plate's glue file.

A page's callbacks all need the same few files. Inlining them into every CustomJS made each
document carry a dozen copies (hundreds of kB per session); instead each CustomJS made with
`custom_js_code` starts with a small loader, and `share_library()` (run by PlateViewer after
building a plate) hands every such CustomJS one shared model holding the files' text. The
loader evaluates that text once per page; the files define their objects on globalThis
(`AEBokehView`, `AttentionMirror`, `AELink`, `AESync`, `AEPage`, `AEA11y`, each plate's glue), which later
callbacks reuse.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

from bokeh.models import CustomJS, Div


MARK = re.compile(r"^/\*ae-glue:([\w.-]+)\*/")
LOADER = (
    "if (typeof ae_lib !== 'undefined' && ae_lib !== null) {"
    " var __ae = globalThis.__ae_loaded || (globalThis.__ae_loaded = {});"
    " if (!__ae[ae_lib.name]) { (0, eval)(ae_lib.text); __ae[ae_lib.name] = true; } }\n"
)


RUNTIME = ("bokeh_view.js", "mirror.js", "link.js", "sync.js", "page.js", "a11y.js", "scenes.js")  # app/runtime/: what every page loads


def js_file(name: str):
    """Where a runtime file (app/runtime/NAME) or a plate's glue (app/plates/<package>/<package>.js) is."""
    if name in RUNTIME:
        return files("app").joinpath("runtime", name)
    return files("app").joinpath("plates", name.removesuffix(".js"), name)


@cache
def read_js(name: str) -> str:
    """The text of a runtime file or a plate's glue (js_file)."""
    return js_file(name).read_text(encoding="utf-8")


@cache
def workarounds_js() -> str:
    """app/workarounds/js/: the registry and every browser-side workaround, as one script."""
    from app import workarounds

    folder = files("app").joinpath("workarounds", "js")
    return "\n".join(folder.joinpath(f"{n}.js").read_text(encoding="utf-8") for n in ("registry", *workarounds.JS))


def library(glue: str) -> str:
    """The runtime (RUNTIME), the browser-side workarounds (unless AE_WORKAROUNDS=off) and one
    plate's glue, as one script."""
    from app import workarounds

    return _library(glue, workarounds.js_switched_off() is not None)


@cache
def _library(glue: str, with_workarounds: bool) -> str:
    parts = [read_js(name) for name in RUNTIME]
    return "\n".join([*parts, *([workarounds_js()] if with_workarounds else []), read_js(glue)])


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
    for ref in _all_models(models):
        m = MARK.match(ref.code or "") if isinstance(ref, CustomJS) else None
        if m is None:
            continue
        lib = libs.get(m.group(1)) or libs.setdefault(m.group(1), library_model(m.group(1)))
        if ref.args.get("ae_lib") is not lib:
            ref.args = {**ref.args, "ae_lib": lib}
    return libs


def _all_models(models) -> list:
    """Every model reachable from `models`, in one walk (per-root walks repeat it). Bokeh's
    collect_models, or the quick_references workaround's walk when it is active."""
    from app import workarounds

    if workarounds.active("quick_references"):
        from app.workarounds.quick_references import existing_models

        return existing_models(models)
    from bokeh.model.util import collect_models

    return collect_models(*models)
