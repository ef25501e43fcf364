"""Bokeh's JavaScript sent gzipped, compressed once per server.

Replaces: bokeh.server.views.static_handler.AsyncStaticFileHandler's set_extra_headers,
get_content_size and _stream_content (tornado's StaticFileHandler hooks and Bokeh's streaming).

A served page loads bokeh.min.js (1.40 MB) and bokeh-widgets.min.js (0.39 MB) from Bokeh's
/static route, which sends files as they are on disk. A browser that accepts gzip now gets a
copy compressed once per file and kept in memory (0.49 MB for the two; the two every page loads
are compressed in a background thread at start), so a visitor costs the server no compression.
Range requests, and browsers that do not accept gzip, get the file as before. Tornado's own
`compress_response` would compress every response on the fly, ~45 ms of CPU per file per
visitor, and also for a browser that said `gzip;q=0`.

Read against: bokeh >=3.10,<3.11.
Buys: bytes per served lookup page 2.17 -> 0.88 MB (-60 %); cold load on loopback unchanged
(731 -> 733 ms), it pays on a real network; off and on in turn (benchmarks/workarounds.py).
Upstream report: "Bokeh server: serve static JS pre-compressed. /static sends bokeh.min.js
uncompressed unless compress_response is set, which gzips it again for every request; a
compressed copy cached per file (or precompressed .gz files in the wheel) would cut a page's
transfer by 1.3 MB at no CPU cost."
"""

from __future__ import annotations

import gzip
import os
import re
import threading

from bokeh.server.views.static_handler import AsyncStaticFileHandler
from tornado.iostream import StreamClosedError

COMPRESSIBLE = (".js", ".css", ".json", ".map", ".svg", ".html", ".txt")
MIN_BYTES = 1024  # below this, gzip's header costs more than it saves
WARM = ("js/bokeh.min.js", "js/bokeh-widgets.min.js")  # what every page loads
_cache: dict[str, tuple[int, int, bytes]] = {}  # absolute path -> (mtime_ns, size, gzipped bytes)
_lock = threading.Lock()


def gzipped(path: str) -> bytes:
    """The file at `path`, gzipped (level 9, no timestamp: the same bytes every time); kept per
    path, and made again when the file's modification time or size changes."""
    st = os.stat(path)
    with _lock:
        hit = _cache.get(path)
    if hit is not None and hit[:2] == (st.st_mtime_ns, st.st_size):
        return hit[2]
    with open(path, "rb") as f:
        data = gzip.compress(f.read(), 9, mtime=0)
    with _lock:
        _cache[path] = (st.st_mtime_ns, st.st_size, data)
    return data


_GZIP = re.compile(r"(?:^|,)\s*gzip\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*(?:,|$)", re.IGNORECASE)


def accepts_gzip(header: str | None) -> bool:
    """Whether an Accept-Encoding header allows gzip (listed, and not with q=0)."""
    m = _GZIP.search(header or "")
    if m is None:
        return False
    try:
        return m.group(1) is None or float(m.group(1)) > 0
    except ValueError:
        return False


def _wants_gzip(handler: AsyncStaticFileHandler) -> bool:
    req = handler.request
    path = getattr(handler, "absolute_path", None) or ""
    return (req.method in ("GET", "HEAD") and "Range" not in req.headers and path.endswith(COMPRESSIBLE)
            and accepts_gzip(req.headers.get("Accept-Encoding")) and os.path.getsize(path) >= MIN_BYTES)


def install() -> bool:
    """Patch Bokeh's static file handler (once per process) and compress the files every page
    loads in a background thread, so the first visitor does not wait for them."""
    cls = AsyncStaticFileHandler
    if getattr(cls, "_ae_gzip", False):
        return True
    set_extra_headers, content_size, stream = cls.set_extra_headers, cls.get_content_size, cls._stream_content

    def set_extra_headers_gz(self, path):
        set_extra_headers(self, path)
        self._ae_gz = gzipped(self.absolute_path) if _wants_gzip(self) else None
        if self._ae_gz is not None:
            self.set_header("Content-Encoding", "gzip")
        self.add_header("Vary", "Accept-Encoding")

    def get_content_size_gz(self):
        gz = getattr(self, "_ae_gz", None)
        return len(gz) if gz is not None else content_size(self)

    async def stream_gz(self, start, end):
        gz = getattr(self, "_ae_gz", None)
        if gz is None:
            return await stream(self, start, end)
        try:
            self.write(gz)
            await self.flush()
        except StreamClosedError:  # the browser went away, as Bokeh's own _stream_content allows
            return

    cls.set_extra_headers = set_extra_headers_gz
    cls.get_content_size = get_content_size_gz
    cls._stream_content = stream_gz
    cls._ae_gzip = True

    from bokeh.settings import settings

    root = settings.bokehjs_path()
    threading.Thread(target=lambda: [gzipped(os.path.join(root, f)) for f in WARM if os.path.exists(os.path.join(root, f))],
                     name="ae-gzip-warm", daemon=True).start()
    return True
