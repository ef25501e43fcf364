"""app.server installs each of its shortcuts on Panel and Bokeh (app/page_html.py, quick_*.py,
early_socket.py) when it starts: each is held to Panel's or Bokeh's results by its own test file."""

from __future__ import annotations

import pytest

from app import server

SHORTCUTS = ("quick_page_html", "quick_defaults", "quick_properties", "quick_references", "early_socket")


@pytest.mark.parametrize("name", SHORTCUTS)
def test_the_server_installs_it(name, monkeypatch):
    calls = []
    monkeypatch.setattr(server, name, lambda: calls.append(1))
    monkeypatch.setattr(server.pn, "serve", lambda *a, **k: None)
    server.serve(port=5998)
    assert calls == [1]


def test_ae_early_socket_0_leaves_bokeh_to_connect_by_itself(monkeypatch):
    calls = []
    monkeypatch.setenv("AE_EARLY_SOCKET", "0")
    monkeypatch.setattr(server, "early_socket", lambda: calls.append(1))
    monkeypatch.setattr(server.pn, "serve", lambda *a, **k: None)
    server.serve(port=5998)
    assert calls == []
