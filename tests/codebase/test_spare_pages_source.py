"""app.spare_pages builds a session's document ahead (build_document) and makes its ServerSession
later (adopt): Bokeh 3.10's ApplicationContext._create_session, cut in two. Held here to that
method's source, so that a Bokeh that builds sessions differently is read again before the copy
is trusted; and to the server, which installs it unless AE_SPARE_PAGES=0.
"""

from __future__ import annotations

import hashlib
import inspect
import textwrap

from bokeh.server.contexts import ApplicationContext

from app import server

# sha256 of Bokeh 3.10.2's ApplicationContext._create_session, dedented.
BOKEH_CREATE_SESSION_SHA256 = "e83501e43a8061cb2ca7e3905b64dda083dee29d1c74a532739e5f35b0267e9c"


def _bokehs_own():
    f = ApplicationContext._create_session
    return getattr(f, "_ae_original", f)


def test_bokehs_session_builder_is_the_one_copied():
    source = textwrap.dedent(inspect.getsource(_bokehs_own()))
    assert hashlib.sha256(source.encode()).hexdigest() == BOKEH_CREATE_SESSION_SHA256, source


def test_the_server_installs_the_spares_unless_told_not_to(monkeypatch):
    calls = []
    monkeypatch.setattr(server, "install_spare_pages", lambda: calls.append(1))
    monkeypatch.setattr(server.pn, "serve", lambda *a, **k: None)
    monkeypatch.delenv("AE_SPARE_PAGES", raising=False)
    server.serve(port=5998)
    assert calls == [1]
    monkeypatch.setenv("AE_SPARE_PAGES", "0")
    server.serve(port=5998)
    assert calls == [1]
