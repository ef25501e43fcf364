"""Replacements of Bokeh's, BokehJS's, Panel's and Tornado's internals, each optional.

The product is correct without any of them: they make pages faster (accelerators) or mend a
library bug a user would see (fixes). Each lives in one file of its own, here (Python) or in
js/ (BokehJS, run in the page), whose docstring says what it replaces, the library versions it
was read against, what it buys (measured side by side) and the report it would file upstream.

One switch turns them off:
- `AE_WORKAROUNDS` when serving or exporting: unset or `on`, all on; `off`, all off (the pages
  made then carry no browser-side workaround either); `a,b` turns off the ones named, of either
  side.
- `?workarounds=off` or `?workarounds=a,b` on a served or exported page turns off browser-side
  ones in that page (app/workarounds/js/registry.js).

An accelerator applies only where the installed library's version is in the range it was read
against; elsewhere it stays off and says so once. Fixes stay on whatever the switch says.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import logging
import os
from dataclasses import dataclass

from packaging.specifiers import SpecifierSet

log = logging.getLogger(__name__)

ENV = "AE_WORKAROUNDS"


@dataclass(frozen=True)
class Workaround:
    """One replacement of a library's internals: `name` is what the switch says, `library` the
    distribution whose internals it touches, `versions` the range it was read against."""

    name: str
    library: str
    versions: str
    fix: bool = False  # a fix a user would see: always on
    at: str = "serve"  # "serve": installed by the server; "build" or "export": used where pages are made

    def in_range(self) -> bool:
        return installed(self.library) in SpecifierSet(self.versions)


# The Python side, in the order the server installs them. Their modules are app.workarounds.<name>;
# each one the server installs has `install() -> bool` (False when the library no longer has what
# it replaces); exported_bokeh_only is used where pages are saved (app.delivery.export).
BOKEH, PANEL = ">=3.10,<3.11", ">=1.10,<1.11"
PYTHON: tuple[Workaround, ...] = (
    Workaround("components_404", "panel", PANEL, fix=True),
    Workaround("cached_bundles", "panel", PANEL),
    Workaround("quick_defaults", "bokeh", BOKEH),
    Workaround("quick_properties", "bokeh", BOKEH),
    Workaround("quick_references", "bokeh", BOKEH),
    Workaround("served_bokeh_only", "panel", PANEL),
    Workaround("spare_pages", "bokeh", BOKEH),
    Workaround("compressed_static", "bokeh", BOKEH),
    Workaround("exported_bokeh_only", "panel", PANEL, at="export"),
)

# The browser side: app/workarounds/js/<name>.js, each read against BokehJS (its own range is
# declared in the file, which checks Bokeh.version itself).
# Installed in this order: coalesce_updates wraps lazy_copies' GlyphRendererView.set_visuals, so
# its skip of the repeat from `masked` holds whichever of the two is on; axes_on_change wraps
# local_layout's PlotView._invalidate_layout_if_needed, and hidden_figures_wait wraps both it and
# coalesce_updates' update_data, so a hidden figure's renderers and layout wait before any is asked.
JS: tuple[str, ...] = (
    "div_text", "one_layout", "quiet_styles", "local_layout", "axes_on_change", "lazy_copies", "coalesce_updates",
    "hidden_figures_wait", "quick_text", "later_positions", "axes_once", "unset_css_values", "raw_moves",
    "paints_next_frame", "quiet_tooltips",
)


@functools.cache
def installed(library: str) -> str:
    return importlib.metadata.version(library)


def switched_off(env: str | None = None) -> set[str] | None:
    """The names `AE_WORKAROUNDS` turns off; None when it turns all off."""
    text = (os.environ.get(ENV, "") if env is None else env).strip()
    if text.lower() == "off":
        return None
    if text.lower() in ("", "on"):
        return set()
    return {n.strip() for n in text.split(",") if n.strip()}


def enabled(name: str) -> bool:
    """Whether the switch leaves `name` on (a fix always is; the version range is checked at install)."""
    w = next((w for w in PYTHON if w.name == name), None)
    if w is not None and w.fix:
        return True
    off = switched_off()
    return off is not None and name not in off


def js_switched_off() -> list[str] | None:
    """The browser-side names the pages made now must leave off (None: carry none at all)."""
    off = switched_off()
    return None if off is None else sorted(off & set(JS))


_said: set[str] = set()


def _say_once(name: str, why: str) -> None:
    if name not in _said:
        _said.add(name)
        log.warning("workaround %s is off: %s", name, why)


def active(name: str) -> bool:
    """Whether `name` applies in this process: switched on and read against the installed library."""
    w = next(w for w in PYTHON if w.name == name)
    if not enabled(name):
        return False
    if not w.in_range():
        _say_once(name, f"read against {w.library} {w.versions}, installed {installed(w.library)}")
        return False
    return True


def install(names: tuple[str, ...] | None = None) -> dict[str, bool]:
    """Install the Python-side workarounds (all, or `names`) that are active; returns name -> installed."""
    out = {}
    for w in PYTHON:
        if w.at != "serve" or (names is not None and w.name not in names):
            continue
        ok = active(w.name) and bool(importlib.import_module(f"{__name__}.{w.name}").install())
        if active(w.name) and not ok:
            _say_once(w.name, f"{w.library} {installed(w.library)} lacks what it replaces")
        out[w.name] = ok
    return out
