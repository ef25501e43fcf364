"""Serve the index at / and every plate at /<slug> with one Panel server."""

from __future__ import annotations

import os
from pathlib import Path

import panel as pn

from . import registry
from .jsassets import drop_unused_bundles
from .page import attach_ready, index_page, plate_page, session_args

def _assets_dir() -> Path:
    """assets/ beside the package (a checkout) or in the working directory (an installed copy)."""
    for d in (Path(__file__).resolve().parent.parent / "assets", Path.cwd() / "assets"):
        if d.is_dir():
            return d
    return Path(__file__).resolve().parent.parent / "assets"


ASSETS = _assets_dir()


def routes() -> dict:
    """Route -> callable; a callable per route gives every session its own plate and state."""
    out = {"/": _index_session}
    for slug in registry.slugs():
        out[f"/{slug}"] = (lambda s=slug: _plate_session(s))
    return out


def _index_session() -> None:
    doc = pn.state.curdoc
    index_page().server_doc(doc, title="Attention explorable")
    if pn.config.reuse_sessions:
        _local_stylesheets(doc)


def _plate_session(slug: str) -> None:
    """Fill this session's document with the plate's page and its document_ready script."""
    doc = pn.state.curdoc
    page = plate_page(slug, session_args())
    page.server_doc(doc, title=f"{page.plate.title} · attention explorable")
    attach_ready(page, doc, served=True)
    if pn.config.reuse_sessions:
        _local_stylesheets(doc)


def _local_stylesheets(doc) -> None:
    """Point Panel's stylesheets at this server, as Panel does when it renders a session's own
    HTML page. A reused session's page is rendered once, so sessions made later (when their
    websocket connects) would otherwise keep CDN addresses, which fail offline."""
    from panel.io.resources import LOCAL_DIST, patch_model_css

    rel = pn.state.rel_path
    for root in doc.roots:
        patch_model_css(root, dist_url=f"{rel}/{LOCAL_DIST}" if rel else LOCAL_DIST)


def serve(port: int = 5006, address: str = "localhost", allow_websocket_origin: list[str] | None = None,
          show: bool = False, **kw):
    """Start the server (blocking). Origins default to this server's own address and port only."""
    origins = allow_websocket_origin or [f"localhost:{port}", f"127.0.0.1:{port}"]
    static = {"assets": str(ASSETS)} if ASSETS.is_dir() else {}
    # Sessions a closed tab left behind are destroyed after 15 s (checked every 5 s); the load
    # benchmarks shorten both through the environment.
    lifetime = int(os.environ.get("AE_UNUSED_SESSION_MS", "15000"))
    check = int(os.environ.get("AE_CHECK_UNUSED_MS", "5000"))
    # The page around a plate is the same HTML for every visitor of a route (the plate itself
    # arrives over the websocket), so Panel can answer from the route's first session at once
    # and, "warm", start building this visitor's session while the browser loads BokehJS,
    # instead of building it before the first byte. A visitor's own link arguments travel in
    # the session token, so each session still starts from its own URL. AE_REUSE_SESSIONS=0
    # turns it off (benchmarks/run.py --before compares).
    reuse = os.environ.get("AE_REUSE_SESSIONS", "warm")
    pn.config.reuse_sessions = {"0": False, "1": True}.get(reuse, reuse)
    drop_unused_bundles()
    return pn.serve(
        routes(), port=port, address=address, websocket_origin=origins, show=show, title="Attention explorable",
        static_dirs=static, liveness=True, unused_session_lifetime=lifetime, check_unused_sessions=check, **kw,
    )
