"""A served page opens its websocket and pulls its document before BokehJS has loaded.

BokehJS connects to the server only after it has loaded and the page's scripts have run, then
asks for the document; the page builds nothing until the answer is back (60-90 ms of a served
cold load here). `early_socket()` makes this process write, at the top of each served page's
head, app/static/early_socket.js and a call with the page's session token: the page asks at once,
while the browser loads BokehJS, and BokehJS is handed that socket and that answer when it asks
(the file's comment says how). A page whose BokehJS asks for another socket, or whose early socket
failed, connects as before.
"""

from __future__ import annotations

import json
import re
from functools import cache

from .jsassets import read_js

HEAD = re.compile(r"<head(\s[^>]*)?>", re.IGNORECASE)


@cache
def _library() -> str:
    code = read_js("early_socket.js")
    if "</script" in code.lower():
        raise ValueError("early_socket.js cannot be inlined: it holds a closing script tag")
    return code


def early_script(token: str) -> str:
    """The inline script that starts the page's websocket with `token`."""
    call = json.dumps(token).replace("<", "\\u003c")  # a token is base64url and dots; never "</script"
    return f"<script>\n{_library()}AEEarlySocket.start({call});\n</script>\n"


def with_early_socket(html: str, token: str | None) -> str:
    """`html` with early_script(token) first in its head; unchanged without a token or a head."""
    if not token:
        return html
    m = HEAD.search(html)
    if m is None:
        return html
    return html[: m.end()] + "\n" + early_script(token) + html[m.end():]


def early_socket() -> bool:
    """Write early_script first in every page this process serves. False (and nothing changed)
    when Panel no longer writes the page where it is read."""
    from panel.io import server as ps

    own = getattr(ps, "server_html_page_for_session", None)
    if own is None:
        return False
    if getattr(own, "_ae_early_socket", False):
        return True

    def server_html_page_for_session(session, resources, title, token=None, *args, **kw):
        html = own(session, resources, title, token, *args, **kw)
        # The token the page's render item carries (Panel's: the one given, else the session's).
        return with_early_socket(html, token or session.token)

    server_html_page_for_session._ae_early_socket = True
    server_html_page_for_session._ae_original = own
    ps.server_html_page_for_session = server_html_page_for_session
    return True
