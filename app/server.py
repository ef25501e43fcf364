"""Serve the index at / and every plate at /<slug> with one Panel server."""

from __future__ import annotations

import os
from contextlib import nullcontext
from pathlib import Path

import panel as pn
from bokeh.settings import settings as bokeh_settings

from . import registry
from .jsassets import drop_unused_bundles, run_live_js_early
from .compressed_static import compress_static_files
from .patch_batching import batch_patches
from .page_html import cached_bundles, quick_page_html
from .quick_defaults import quick_defaults
from .quick_properties import quick_properties
from .quick_references import quick_references
from .served_bokeh_only import bokeh_layouts, serve_without_panel_js
from .spare_pages import install_spare_pages, local_stylesheets
from .page import attach_ready, index_page, plate_page, session_args

def _assets_dir() -> Path:
    """assets/ beside the package (a checkout) or in the working directory (an installed copy)."""
    for d in (Path(__file__).resolve().parent.parent / "assets", Path.cwd() / "assets"):
        if d.is_dir():
            return d
    return Path(__file__).resolve().parent.parent / "assets"


ASSETS = _assets_dir()


def _components_404() -> None:
    """Panel's /components/<module>/<file> route imports the module named in the path; a name
    starting with '.' (/components/..%2f..%2fetc) makes importlib raise TypeError, a 500 with a
    traceback in the log. Answer 404 instead, as Panel does for any other unknown module."""
    from panel.io.server import ComponentResourceHandler
    from tornado.web import HTTPError

    parse = ComponentResourceHandler.parse_url_path
    if getattr(parse, "_ae_guarded", False):
        return

    def guarded(self, path):
        try:
            return parse(self, path)
        except (TypeError, ValueError):
            raise HTTPError(404, "Component not found") from None

    guarded._ae_guarded = True
    ComponentResourceHandler.parse_url_path = guarded


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


def fill_document(doc, slug: str | None, args: dict[str, str]) -> None:
    """Fill a session's document (Panel's current document) with the index's page (slug None) or
    a plate's, built from the link's arguments, and its document_ready script."""
    if slug is None:
        page = index_page(args=args)
        title = "Attention explorable"
    else:
        page = plate_page(slug, args)
        title = f"{page.plate.title} · attention explorable"
    # Bokeh's own models in place of Panel's, so that the page loads BokehJS alone
    # (app/served_bokeh_only.py); AE_PANEL_JS=1 keeps Panel's models and JavaScript.
    # location=False: Panel's Location would parse the query string itself (int() of a 5,000-digit
    # value raises and the session fails with a 500); the plate reads it through apply_url and
    # page.js writes the address bar.
    with (bokeh_layouts() if os.environ.get("AE_PANEL_JS", "0") != "1" else nullcontext()):
        page.server_doc(doc, title=title, location=False)
    attach_ready(page, doc, served=True)  # on the index: ?theme=dark and ?present=1, as on the plates
    if pn.config.reuse_sessions:
        local_stylesheets(doc)  # a reused session's HTML is rendered once, from another session


def serve(port: int = 5006, address: str = "localhost", allow_websocket_origin: list[str] | None = None,
          show: bool = False, **kw):
    """Start the server (blocking). Origins default to this server's own address and port only."""
    origins = allow_websocket_origin or [f"localhost:{port}", f"127.0.0.1:{port}"]
    static = {"assets": str(ASSETS)} if ASSETS.is_dir() else {}
    _components_404()
    # Sessions a closed tab left behind are destroyed after 15 s (checked every 5 s); the load
    # benchmarks shorten both through the environment.
    lifetime = int(os.environ.get("AE_UNUSED_SESSION_MS", "15000"))
    check = int(os.environ.get("AE_CHECK_UNUSED_MS", "5000"))
    # The page around a plate is the same HTML for every visitor of a route (the plate itself
    # arrives over the websocket), so Panel can answer from the route's first session at once
    # and, "warm", start building this visitor's session while the browser loads BokehJS,
    # instead of building it before the first byte. A visitor's own link arguments travel in
    # the session token, so each session still starts from its own URL. It is opt-in
    # (AE_REUSE_SESSIONS=warm): with it on, the short soak test saw RSS grow 23 % over 200
    # sessions, against flat without it, and that is not explained yet.
    reuse = os.environ.get("AE_REUSE_SESSIONS", "0")
    pn.config.reuse_sessions = {"0": False, "1": True}.get(reuse, reuse)
    # Bokeh checks each new session's document before its page can have it (Document.validate:
    # a walk of the models and every model's validators, 34-74 ms per plate here). The plates'
    # documents are checked once in the tests instead (tests/app/test_plates_build.py), so the
    # server skips it unless BOKEH_VALIDATE_DOC asks for it.
    if "BOKEH_VALIDATE_DOC" not in os.environ:
        bokeh_settings.perform_document_validation.set_value(False)
    drop_unused_bundles()
    quick_page_html()  # the page's HTML from doc.models, not two walks of the document (app/page_html.py)
    cached_bundles()  # and its scripts and stylesheets worked out once per kind of page (app/page_html.py)
    quick_defaults()  # whether a property's default may change, worked out once per class (app/quick_defaults.py)
    quick_properties()  # serialising a model reads the properties set on it, not every default (app/quick_properties.py)
    quick_references()  # a document's models found from the values they hold, not every default (app/quick_references.py)
    run_live_js_early()
    batch_patches()
    # Pages that load BokehJS alone, without Panel's JavaScript (app/served_bokeh_only.py): no
    # page reads Panel's browser information, whose model would need it.
    if os.environ.get("AE_PANEL_JS", "0") != "1":
        pn.config.browser_info = False
        serve_without_panel_js()
    # A document built ahead for each route's next plain visitor (app/spare_pages.py).
    if os.environ.get("AE_SPARE_PAGES", "1") != "0":
        install_spare_pages()
    # BokehJS gzipped once per server (app/compressed_static.py).
    if os.environ.get("AE_GZIP", "1") != "0":
        compress_static_files()
    return pn.serve(
        routes(), port=port, address=address, websocket_origin=origins, show=show, title="Attention explorable",
        static_dirs=static, liveness=True, unused_session_lifetime=lifetime, check_unused_sessions=check,
        location=False, **kw,
    )
