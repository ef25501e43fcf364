"""app.page_html answers two of Panel 1.10's questions about a served page (which stylesheets to
point at this server, whether the page needs BokehJS's tables bundle) from `doc.models` instead
of walking the document, and keeps a third's answer (which scripts and stylesheets the page loads)
per kind of page. It relies on what those functions do and read: held here to their sources, so
that a Panel that asks differently is read again before the shortcut is trusted (the server
installs it: tests/app/test_server_shortcuts.py).
"""

from __future__ import annotations

import pytest
from panel.io import resources as pr

from app import server
from source_digest import source_sha256

# sha256 of Panel 1.10.0's functions that app.page_html answers for, dedented.
PANEL_SOURCES = {
    "patch_model_css": "d2cdf392b550b503c474f5fc3d982213e59353c00646cfe0520629da1d20f61b",
    "_panel_use_tables": "a8d661d2a854cfcf4716a77c21cc2634068abfdd102306b9057bb67d93cd85ac",
    # kept per kind of page (app.page_html.cached_bundles): what it reads is in its key
    "bundle_resources": "aa284ba9f2cd1e57887fbd662c20a79da671a93f9203dc150088701b685730c7",
}


@pytest.mark.parametrize("name", sorted(PANEL_SOURCES))
def test_panels_function_is_the_one_read(name):
    digest, source = source_sha256(getattr(pr, name))
    assert digest == PANEL_SOURCES[name], source


def test_the_server_leaves_document_checks_to_the_tests_unless_asked(monkeypatch):
    """Bokeh's check of every session's document is off when served (tests/app/test_plates_build.py
    checks every page instead), unless BOKEH_VALIDATE_DOC is set."""
    from bokeh.settings import settings

    monkeypatch.setattr(server.pn, "serve", lambda *a, **k: None)
    try:
        settings.perform_document_validation.unset_value()
        monkeypatch.delenv("BOKEH_VALIDATE_DOC", raising=False)
        assert settings.perform_document_validation() is True  # Bokeh's default
        server.serve(port=5998)
        assert settings.perform_document_validation() is False
        settings.perform_document_validation.unset_value()
        monkeypatch.setenv("BOKEH_VALIDATE_DOC", "true")
        server.serve(port=5998)
        assert settings.perform_document_validation() is True
    finally:
        settings.perform_document_validation.unset_value()
