"""Serve the index at / and every plate at /<slug> with one Panel server."""

from __future__ import annotations

import os
from contextlib import nullcontext

import panel as pn
from bokeh.settings import settings as bokeh_settings

from app import workarounds
from app.plates import registry
from app.delivery.assets import ASSETS
from app.delivery.page import attach_ready, index_page, plate_page, session_args
from app.shared.state import LinkArgs


def routes() -> dict:
    """Route -> callable; a callable per route gives every session its own plate and state."""
    out = {"/": _index_session}
    for slug in registry.slugs():
        out[f"/{slug}"] = (lambda s=slug: _plate_session(s))
    return out


def _index_session() -> None:
    fill_document(pn.state.curdoc, None, session_args())


def _plate_session(slug: str) -> None:
    fill_document(pn.state.curdoc, slug, session_args())


def fill_document(doc, slug: str | None, args: LinkArgs) -> None:
    """Fill a session's document (Panel's current document) with the index's page (slug None) or
    a plate's, built from the link's arguments, and its document_ready script."""
    if slug is None:
        page = index_page(args=args)
        title = "Attention explorable"
    else:
        page = plate_page(slug, args)
        title = f"{page.plate.title} · attention explorable"
    # location=False: Panel's Location would parse the query string itself (int() of a 5,000-digit
    # value raises and the session fails with a 500); the plate reads it through apply_url and
    # page.js writes the address bar.
    with _page_models():
        page.server_doc(doc, title=title, location=False)
    attach_ready(page, doc, served=True)  # on the index: ?theme=dark and ?present=1, as on the plates


def _page_models():
    """Bokeh's own models in place of Panel's layouts, so that the page loads BokehJS alone,
    when the served_bokeh_only workaround is active."""
    if workarounds.active("served_bokeh_only"):
        from app.workarounds.served_bokeh_only import bokeh_layouts

        return bokeh_layouts()
    return nullcontext()


def serve(port: int = 5006, address: str = "localhost", allow_websocket_origin: list[str] | None = None,
          show: bool = False, **kw):
    """Start the server (blocking). Origins default to this server's own address and port only."""
    origins = allow_websocket_origin or [f"localhost:{port}", f"127.0.0.1:{port}"]
    static = {"assets": str(ASSETS)} if ASSETS.is_dir() else {}
    # Sessions a closed tab left behind are destroyed after 15 s (checked every 5 s); the load
    # benchmarks shorten both through the environment.
    lifetime = int(os.environ.get("AE_UNUSED_SESSION_MS", "15000"))
    check = int(os.environ.get("AE_CHECK_UNUSED_MS", "5000"))
    # Bokeh checks each new session's document before its page can have it (Document.validate:
    # a walk of the models and every model's validators, 34-74 ms per plate here). The plates'
    # documents are checked once in the tests instead (tests/app/test_plates_build.py), so the
    # server skips it unless BOKEH_VALIDATE_DOC asks for it.
    if "BOKEH_VALIDATE_DOC" not in os.environ:
        bokeh_settings.perform_document_validation.set_value(False)
    pn.config.browser_info = False  # no page reads Panel's browser information
    workarounds.install()  # app/workarounds/: each one switchable (AE_WORKAROUNDS)
    return pn.serve(
        routes(), port=port, address=address, websocket_origin=origins, show=show, title="Attention explorable",
        static_dirs=static, liveness=True, unused_session_lifetime=lifetime, check_unused_sessions=check,
        location=False, **kw,
    )
