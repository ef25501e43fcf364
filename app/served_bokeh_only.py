"""A served page that loads BokehJS alone, as an exported page does (app/bokeh_only.py).

Panel's server writes panel.min.js (0.74 MB) and es-module-shims (~40 kB) into every page it
serves, and a cold load evaluates them before it can draw. A served page of ours does not need
them: its document holds two kinds of Panel model only, layouts (Column) and HTML panes, which
BokehJS has its own models for; the plates talk to Python over Bokeh's own protocol; and the
server runs without Panel's Location, notification and browser-info models.

- `swap_panel_models(doc)`, run by each session (and each spare page) once its page is in the
  document, puts a Bokeh Column in place of each Panel Column and a Div holding the same HTML in
  place of each HTML pane's model, wherever they are referenced, roots included. Panel's Python
  objects keep the models they made, which no longer reach the browser: our pages never change a
  Panel layout or HTML pane once built (the plates' live parts are Bokeh models in BokehPanes).
  A document holding any other Panel model is left as it is.
- `serve_without_panel_js()` makes this process write a page's HTML without Panel's scripts when
  its document holds no Panel model; any other page keeps them.
"""

from __future__ import annotations

import logging

from .bokeh_only import SWAPS, _unescape_exact, without_panel_scripts

log = logging.getLogger(__name__)


def _is_panel(model) -> bool:
    return model.__qualified_model__.startswith("panel.")


def _bokeh_twin(model):
    """The Bokeh model to put in place of Panel `model`: the same values of the properties
    Bokeh's model has (Panel's scroll options, unused here, are left out)."""
    from bokeh import models as bk

    kind, props = SWAPS[model.__qualified_model__]
    attrs = {k: v for k, v in model.properties_with_values(include_defaults=False).items() if k in props}
    if kind == "Div" and isinstance(attrs.get("text"), str):
        attrs["text"] = _unescape_exact(attrs["text"])  # Panel's model carries the HTML escaped
    return getattr(bk, kind)(**attrs)


def _replaced(value, twins: dict):
    """`value` (a model, or lists, tuples and dicts of them) with every Panel model in `twins`
    replaced by its twin; `value` itself when nothing in it is."""
    if isinstance(value, list):
        new = [_replaced(v, twins) for v in value]
        return new if any(a is not b for a, b in zip(new, value)) else value
    if isinstance(value, tuple):
        new = tuple(_replaced(v, twins) for v in value)
        return new if any(a is not b for a, b in zip(new, value)) else value
    if isinstance(value, dict):
        new = {k: _replaced(v, twins) for k, v in value.items()}
        return new if any(new[k] is not value[k] for k in value) else value
    return twins.get(value.id, value) if hasattr(value, "__qualified_model__") else value


def swap_panel_models(doc) -> list[str]:
    """Put Bokeh models in place of `doc`'s Panel Columns and HTML panes (see the module's
    docstring). Returns the Panel model types that have no Bokeh twin: when there are any,
    `doc` is left as it was."""
    panel_models = [m for m in doc.models if _is_panel(m)]
    left = sorted({m.__qualified_model__ for m in panel_models if m.__qualified_model__ not in SWAPS})
    if left or not panel_models:
        return left
    twins = {m.id: _bokeh_twin(m) for m in panel_models}  # Panel model id -> its Bokeh twin
    with doc.models.freeze():
        for model in [*doc.models, *twins.values()]:
            if _is_panel(model):
                continue
            for name in model.properties_with_refs():
                value = getattr(model, name)
                new = _replaced(value, twins)
                if new is not value:
                    setattr(model, name, new)
        roots = list(doc.roots)
        if any(r.id in twins for r in roots):
            for r in roots:
                doc.remove_root(r)
            for r in roots:
                doc.add_root(twins.get(r.id, r))
    return []


def holds_panel_models(doc) -> bool:
    return any(_is_panel(m) for m in doc.models)


def serve_without_panel_js() -> bool:
    """Write each served page's HTML without Panel's scripts when its document holds no Panel
    model. False (and nothing changed) when Panel no longer writes the page where it is read."""
    from panel.io import server as ps

    own = getattr(ps, "server_html_page_for_session", None)
    if own is None:
        return False
    if getattr(own, "_ae_bokeh_only", False):
        return True

    def server_html_page_for_session(session, *args, **kw):
        html = own(session, *args, **kw)
        if holds_panel_models(session.document):
            log.warning("a served page keeps Panel's JavaScript: its document holds %s",
                        sorted({m.__qualified_model__ for m in session.document.models if _is_panel(m)}))
            return html
        return without_panel_scripts(html)

    server_html_page_for_session._ae_bokeh_only = True
    server_html_page_for_session._ae_original = own
    ps.server_html_page_for_session = server_html_page_for_session
    return True
