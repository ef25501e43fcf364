"""The server installs each of its changes to Bokeh's serving (spare pages made ahead, BokehJS
gzipped) unless its environment switch is "0", and a switch turns off its own change only."""

from __future__ import annotations

import pytest

from app import server

# installer in app.server -> the environment variable that turns it off
SWITCHES = {"install_spare_pages": "AE_SPARE_PAGES", "compress_static_files": "AE_GZIP"}


@pytest.mark.parametrize("installer", sorted(SWITCHES))
def test_the_server_installs_each_change_unless_told_not_to(monkeypatch, installer):
    calls = {name: 0 for name in SWITCHES}
    for name in SWITCHES:
        monkeypatch.setattr(server, name, lambda name=name: calls.__setitem__(name, calls[name] + 1))
        monkeypatch.delenv(SWITCHES[name], raising=False)
    monkeypatch.setattr(server.pn, "serve", lambda *a, **k: None)
    server.serve(port=5998)
    assert calls == {name: 1 for name in SWITCHES}
    monkeypatch.setenv(SWITCHES[installer], "0")
    server.serve(port=5998)
    assert calls == {name: 1 if name == installer else 2 for name in SWITCHES}
