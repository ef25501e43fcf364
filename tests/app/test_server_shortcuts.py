"""app.server installs each of its shortcuts on Panel and Bokeh (app/page_html.py, quick_*.py) when
it starts: each is held to Panel's or Bokeh's results by its own test file."""

from __future__ import annotations

import pytest

from app import server

SHORTCUTS = ("quick_page_html", "cached_bundles", "quick_defaults", "quick_properties", "quick_references")


@pytest.mark.parametrize("name", SHORTCUTS)
def test_the_server_installs_it(name, monkeypatch):
    calls = []
    monkeypatch.setattr(server, name, lambda: calls.append(1))
    monkeypatch.setattr(server.pn, "serve", lambda *a, **k: None)
    server.serve(port=5998)
    assert calls == [1]
