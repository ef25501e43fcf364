"""Server configuration: only this server's own localhost origin may open a session by default,
and Bokeh's floor includes the origin-matching fix (CVE-2026-21883, fixed in 3.8.2)."""

from __future__ import annotations

import base64
import http.client
import os
import re
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _v(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", text)[:3])


def test_bokeh_floor_has_the_origin_fix():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    bokeh = next(d for d in deps if d.startswith("bokeh"))
    floor = re.search(r">=\s*([\d.]+)", bokeh).group(1)
    assert _v(floor) >= (3, 8, 2)
    assert _v(version("bokeh")) >= (3, 8, 2)


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    """A server of its own on a free port (its port): this module checks the server's own settings."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tmp_path_factory.mktemp("srv") / "log.txt"
    with log.open("w") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--port", str(port)], stdout=fh,
                                stderr=subprocess.STDOUT, cwd=ROOT, env={**os.environ})
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://localhost:{port}/liveness", timeout=2).close()
                break
            except OSError:
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _session_token(port: int) -> str:
    """A fresh session token, as the page the server sends embeds it."""
    with urllib.request.urlopen(f"http://localhost:{port}/lookup", timeout=30) as r:
        html = r.read().decode()
    m = re.search(r'"token"\s*:\s*"([^"]+)"|token\s*=\s*"([^"]+)"|data-token="([^"]+)"', html)
    assert m, "no session token in the page"
    return next(g for g in m.groups() if g)


def _ws_status(port: int, origin: str) -> int:
    """Status of a websocket upgrade to the lookup plate's session endpoint from `origin`."""
    token = _session_token(port)
    conn = http.client.HTTPConnection("localhost", port, timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    conn.request("GET", "/lookup/ws", headers={
        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": key,
        "Sec-WebSocket-Version": "13", "Origin": origin, "Host": f"localhost:{port}",
        "Sec-WebSocket-Protocol": f"bokeh, {token}",
    })
    status = conn.getresponse().status
    conn.close()
    return status


@pytest.mark.server
def test_a_page_from_another_origin_is_refused(port):
    assert _ws_status(port, "http://evil.example") == 403
    assert _ws_status(port, f"http://evil.example:{port}") == 403
    assert _ws_status(port, "http://localhost:1") == 403  # same host, other port


@pytest.mark.server
def test_the_servers_own_page_may_open_a_session(port):
    # The same handshake, token and all, from the server's own origin switches protocols: so
    # the 403s above come from the origin check and nothing else.
    assert _ws_status(port, f"http://localhost:{port}") == 101
    assert _ws_status(port, f"http://127.0.0.1:{port}") == 101
