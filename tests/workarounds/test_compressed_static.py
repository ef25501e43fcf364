"""BokehJS goes out gzipped from a served instance (app/workarounds/compressed_static.py), byte for byte the
file on disk once decompressed; browsers that do not ask for gzip, range requests and
revalidations get what Bokeh sent before."""

from __future__ import annotations

import gzip
import http.client
import re
from pathlib import Path

import pytest
from bokeh.settings import settings

from app.workarounds.compressed_static import accepts_gzip, gzipped

BOKEH_JS = Path(settings.bokehjs_path()) / "js" / "bokeh.min.js"


@pytest.fixture(scope="module")
def served(app_server):
    yield app_server
    assert app_server.errors_in_log() == []


def get(port: int, path: str, method: str = "GET", **headers) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, headers=headers)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def script_path(port: int, name: str) -> str:
    """The versioned path of a BokehJS file as the lookup plate's page links it."""
    _, _, body = get(port, "/lookup")
    html = gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body
    m = re.search(rf'src="[^"]*?(static/js/{re.escape(name)}\?v=[0-9a-f]+)"', html.decode())
    assert m, f"{name} not linked from /lookup"
    return "/" + m.group(1)


@pytest.mark.parametrize("header, ok", [
    ("gzip", True), ("gzip, deflate, br, zstd", True), ("deflate, gzip;q=0.5", True), ("GZIP", True),
    ("gzip;q=0", False), ("gzip; q=0.0", False), ("deflate, br", False), ("", False), (None, False),
    ("x-gzip", False), ("gzipped", False),
])
def test_accept_encoding(header, ok):
    assert accepts_gzip(header) is ok


def test_a_file_is_compressed_once_and_again_when_it_changes(tmp_path):
    f = tmp_path / "a.js"
    f.write_text("var x = 1;\n" * 500)
    first = gzipped(str(f))
    assert gzip.decompress(first) == f.read_bytes()
    assert gzipped(str(f)) is first  # kept
    f.write_text("var y = 2;\n" * 600)
    again = gzipped(str(f))
    assert again is not first and gzip.decompress(again) == f.read_bytes()


def test_bokehjs_goes_out_gzipped_and_decompresses_to_the_file(served):
    path = script_path(served.port, "bokeh.min.js")
    status, h, body = get(served.port, path, **{"Accept-Encoding": "gzip, deflate"})
    assert status == 200 and h["content-encoding"] == "gzip" and "accept-encoding" in h["vary"].lower()
    assert int(h["content-length"]) == len(body) < BOKEH_JS.stat().st_size / 3
    assert gzip.decompress(body) == BOKEH_JS.read_bytes()
    status, h2, head = get(served.port, path, "HEAD", **{"Accept-Encoding": "gzip"})
    assert status == 200 and head == b"" and h2["content-length"] == h["content-length"]


def test_without_gzip_or_with_a_range_the_file_goes_as_it_is(served):
    path = script_path(served.port, "bokeh.min.js")
    status, h, body = get(served.port, path)  # no Accept-Encoding
    assert status == 200 and "content-encoding" not in h and body == BOKEH_JS.read_bytes()
    status, h, body = get(served.port, path, **{"Accept-Encoding": "gzip;q=0"})
    assert status == 200 and "content-encoding" not in h and body == BOKEH_JS.read_bytes()
    status, h, body = get(served.port, path, **{"Accept-Encoding": "gzip", "Range": "bytes=0-99"})
    assert status == 206 and "content-encoding" not in h and body == BOKEH_JS.read_bytes()[:100]


def test_a_revalidation_is_still_answered_304(served):
    path = script_path(served.port, "bokeh.min.js")
    _, h, _ = get(served.port, path, **{"Accept-Encoding": "gzip"})
    status, _, body = get(served.port, path, **{"Accept-Encoding": "gzip", "If-None-Match": h["etag"]})
    assert status == 304 and body == b""

