"""app.compressed_static answers with a gzipped copy by hooking three steps of Bokeh 3.10's
AsyncStaticFileHandler.get (set_headers → set_extra_headers, get_content_size, _stream_content),
and relies on tornado 6's StaticFileHandler.set_headers calling set_extra_headers. Held here to
those two functions' sources, so that a Bokeh or tornado that serves files another way is read
again before the hooks are trusted (tests/codebase/test_server_switches.py: the server installs
them unless AE_GZIP=0).
"""

from __future__ import annotations

from bokeh.server.views.static_handler import AsyncStaticFileHandler
from tornado.web import StaticFileHandler

from source_digest import source_sha256

# sha256 of Bokeh 3.10.2's AsyncStaticFileHandler.get and tornado 6.6.1's StaticFileHandler.set_headers.
BOKEH_STATIC_GET_SHA256 = "d6dea4db1858b1cf10aa635d25bf70e4c5b3d4226d3025996bbccf57acc04e89"
TORNADO_SET_HEADERS_SHA256 = "f59fb78e8eea00e2028f37a5397b46e5c4395180819ec53e5bd5f888dac7d487"


def test_bokehs_static_get_is_the_one_hooked():
    digest, source = source_sha256(AsyncStaticFileHandler.get)
    assert digest == BOKEH_STATIC_GET_SHA256, source
    digest, source = source_sha256(StaticFileHandler.set_headers)
    assert digest == TORNADO_SET_HEADERS_SHA256, source

