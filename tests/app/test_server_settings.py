"""Settings the server chooses for every page it serves."""

from __future__ import annotations

from app.delivery import server


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
