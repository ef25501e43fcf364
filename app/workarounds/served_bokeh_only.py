"""A served page that loads BokehJS alone, without Panel's JavaScript.

Replaces: panel.viewable.add_to_doc (how a page joins its session's document) and
panel.io.server.server_html_page_for_session (the page's HTML).

Panel's server writes panel.min.js (0.74 MB) and es-module-shims into every page it serves, and
a cold load evaluates them before it can draw. A served page of ours does not need them: its
document holds two kinds of Panel model only, layouts (Column) and HTML panes, which BokehJS has
its own models for; the plates talk to Python over Bokeh's own protocol; and the server runs
without Panel's Location, notification and browser-info models.
- `bokeh_layouts()`, around Panel's `server_doc` in each session's build (and each spare page's),
  puts a Bokeh Column in place of each Panel Column and a Div holding the same HTML in place of
  each HTML pane's model, before the page joins the document. Panel's Python objects keep the
  models they made, which never reach the browser: our pages never change a Panel layout or HTML
  pane once built.
- The page's HTML is written without Panel's scripts when its document holds no Panel model; any
  other page keeps them, and the log says so.

Read against: panel >=1.10,<1.11.
Buys: served cold load, lookup 856 -> 694 ms (-19 %), masking 992 -> 867 ms (-13 %); bytes per
lookup page 1.08 -> 0.88 MB; off and on in turn (benchmarks/workarounds.py).
Upstream report: "Panel: do not ship panel.min.js when a page holds no Panel model. A served
app whose document holds only layouts and HTML panes could be written with Bokeh's Column and
Div and without panel.min.js and es-module-shims (0.8 MB, ~160 ms of a cold load)."
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from contextvars import ContextVar

from app.workarounds.exported_bokeh_only import SWAPS, bokeh_twin, without_panel_scripts

log = logging.getLogger(__name__)


def _is_panel(model) -> bool:
    return model.__qualified_model__.startswith("panel.")


def _bokeh_twin(model):
    """The Bokeh model to put in place of Panel `model`, with the same values (bokeh_only.bokeh_twin)."""
    from bokeh import models as bk

    kind, attrs = bokeh_twin(model.__qualified_model__, model.properties_with_values(include_defaults=False))
    return getattr(bk, kind)(**attrs)


def _twin_of(item):
    """A layout's child (a model, or GridBox's (model, row, col)) with its Panel models swapped."""
    if isinstance(item, tuple):
        new = _twin_of(item[0])
        return item if new is item[0] else (new, *item[1:])
    return bokeh_layout_tree(item) if hasattr(item, "__qualified_model__") else item


def bokeh_layout_tree(root):
    """`root` with a Bokeh Column in place of each Panel Column and a Div in place of each Panel
    HTML pane's model, through the layouts' children (where our pages hold them; any Panel model
    met elsewhere, or without a twin, stays, and its page keeps Panel's JavaScript). Returns the
    root to use: its twin when it is a Panel Column."""
    if "children" in root.properties():
        kids = list(root.children or [])
        new = [_twin_of(k) for k in kids]
        if any(a is not b for a, b in zip(new, kids)):
            root.children = new
    return _bokeh_twin(root) if root.__qualified_model__ in SWAPS else root


# Whether the page being built here is to hold Bokeh's models: per build, not per process. Bokeh
# builds sessions' documents in worker threads (ApplicationContext._initialize_document_async),
# so two builds overlap (a spare page and a visitor's); when each patched and restored Panel's
# add_to_doc itself, one build's restore could land inside the other's, which then kept Panel's
# models and its page Panel's JavaScript (seen once in CI, on /multi-head). asyncio.to_thread
# runs each build in a copy of the caller's context, so a ContextVar set inside it is its own.
_SWAPPING: ContextVar[bool] = ContextVar("ae_bokeh_layouts", default=False)
_lock = threading.Lock()


def _install_add_to_doc() -> bool:
    """Put our add_to_doc in place of Panel's, once per process; it does Panel's own work unless
    the current build is inside `bokeh_layouts()`. False when Panel has no add_to_doc."""
    from panel import viewable

    with _lock:
        own = getattr(viewable, "add_to_doc", None)
        if own is None:
            return False
        if getattr(own, "_ae_original", None) is not None:
            return True

        def add_to_doc(obj, doc, hold=False, skip=None):
            if not _SWAPPING.get():
                return own(obj, doc, hold=hold, skip=skip)
            root = bokeh_layout_tree(obj)
            if root.document is not None or skip:
                return own(root, doc, hold=hold, skip=skip)
            # Panel's add_to_doc first takes every model of the page out of any earlier document:
            # a walk of the whole page (35 ms of masking's build). A page built for this session is
            # in none, and had one of its models been, Bokeh's add_root raises ("Models must be
            # owned by only a single document"). server_doc, the caller, ignores what Panel returns.
            doc.add_root(root)
            if doc.callbacks.hold_value is None and hold:
                doc.hold()

        add_to_doc._ae_original = own
        viewable.add_to_doc = add_to_doc
        return True


@contextmanager
def bokeh_layouts():
    """Within this block, Panel's `server_doc` puts a page into its document as
    `bokeh_layout_tree` makes it. The page's Bokeh models are swapped before they join the
    document, so the document's set of models is computed once, as without the swap (after it,
    a swap costs 35-75 ms of a session's build: a walk of every model and a second recompute).
    Panel's Python objects keep the models they made, their session clean-up included. The page
    joins the document without Panel's walk that takes its models out of earlier documents.
    Builds in other threads, inside or outside their own block, are not affected."""
    if not _install_add_to_doc():  # Panel puts pages into documents some other way: they keep Panel's models
        yield
        return
    token = _SWAPPING.set(True)
    try:
        yield
    finally:
        _SWAPPING.reset(token)


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


def install() -> bool:
    """Both halves: the swap of Panel's layouts (used by app.delivery.server inside `bokeh_layouts()`) and
    the page written without Panel's scripts."""
    return _install_add_to_doc() and serve_without_panel_js()
