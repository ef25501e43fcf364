"""No endpoint writes files or evaluates text a user sent.

Every route of a served instance (the index, each plate with its /ws, /metadata and
/autoload.js, /liveness, /assets, Bokeh's /static, Panel's /components) is requested with hostile
query strings and paths: traversal, encoded NULs, template and Python expressions that would
create a canary file if evaluated, `<script>`. Each answer must be a clean 2xx/3xx/4xx (never a
500), the server's log must hold no exception, no canary may appear, no new file may appear in
the repository or in the server's own temporary directory, and no answer may carry a file from
outside the served folders.
"""

from __future__ import annotations

import http.client
import os
import urllib.parse
from pathlib import Path

import pytest
from serving import load_tools

from app.plates import registry

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", "results", "node_modules", ".peers-venv"}


def _tree() -> set[str]:
    out = set()
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        out.update(os.path.join(dirpath, f) for f in filenames)
    return out


@pytest.fixture(scope="module")
def served(tmp_path_factory, monkeypatch_module):
    """The real `serve` command (benchmarks/load.py's Server) with a temporary directory of its own."""
    load = load_tools()
    tmp = tmp_path_factory.mktemp("server-tmp")
    monkeypatch_module.setenv("TMPDIR", str(tmp))
    before = _tree()
    srv = load.Server(tmp_path_factory.mktemp("log") / "serve.log")
    try:
        yield srv, tmp, before
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def canary(tmp: Path) -> str:
    return str(tmp / "pwned")


def hostile_values(tmp: Path) -> list[str]:
    c = canary(tmp)
    return [
        f"__import__('os').system('touch {c}')", f"open('{c}','w').write('x')", f"{{{{ open('{c}','w') }}}}",
        f"${{__import__('os').system('touch {c}')}}", f"`touch {c}`", f"$(touch {c})", f";touch {c};",
        "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "../../../../etc/passwd", "%00", "\x00",
        "nan", "1e999", "9" * 5000, "🙂" * 100,
    ]


def routes() -> list[str]:
    out = ["/", "/liveness", "/assets/screenshots/lookup.png", "/static/js/bokeh.min.js"]
    for slug in registry.slugs():
        out += [f"/{slug}", f"/{slug}/metadata", f"/{slug}/autoload.js", f"/{slug}/ws"]
    return out


TRAVERSAL = [
    "/assets/../pyproject.toml", "/assets/..%2f..%2fpyproject.toml", "/assets/%2e%2e/%2e%2e/etc/passwd",
    "/static/../../../../etc/passwd", "/static/..%2f..%2f..%2fetc%2fpasswd", "/static/extensions/..%2f..%2fetc%2fpasswd",
    "/components/..%2f..%2fetc%2fpasswd", "/components/os/../../etc/passwd", "/components/app.server/server.py",
    "//etc/passwd", "/lookup/..%2f..%2fpyproject.toml", "/%00", "/lookup%00.html", "/nonexistent",
    "/lookup/ws?bokeh-session-id=../../x", "/lookup/autoload.js?bokeh-autoload-element=%3Cscript%3E",
    "/panel-preview/render?module=os&name=system", "/" + "a" * 3000,
]


def request(port: int, method: str, path: str, body: bytes | None = None) -> tuple[int | None, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, body=body, headers={"Host": f"localhost:{port}"})
        r = conn.getresponse()
        return r.status, r.read()
    except (ConnectionError, http.client.HTTPException):
        return None, b""  # closed on us: refused, not crashed (the liveness check below says so)
    finally:
        conn.close()


def test_no_route_writes_evaluates_or_leaks_what_a_user_sends(served):
    srv, tmp, before = served
    port = srv.port
    statuses: dict[str, int | None] = {}
    values = hostile_values(tmp)
    # One request per route carries every hostile value at once (a plate's page costs a second of
    # server CPU to build): under the plates' own setting names, under unknown names, and as a
    # POST body.
    names = ["angle", "keys", "n", "query", "cells", "d_k"]
    query = "&".join(f"{names[i % len(names)] if i % 2 else urllib.parse.quote(v, safe='')}="
                     f"{urllib.parse.quote(v, safe='')}" for i, v in enumerate(values))
    for route in routes():
        statuses[f"{route}?{query}"] = status = request(port, "GET", f"{route}?{query}")[0]
        if route.lstrip("/") in registry.slugs():
            assert status == 200, (route, status)  # a plate's page, its bad settings ignored with notices
        statuses["POST " + route] = request(port, "POST", route, body="&".join(values).encode("utf-8", "surrogatepass"))[0]
    leaked = []
    for path in TRAVERSAL:
        status, body = request(port, "GET", path)
        statuses[path] = status
        if b"root:x:0:0" in body or b"[project]" in body or b"def routes()" in body:
            leaked.append(path)
    assert not leaked, leaked
    fivexx = {p[:120]: s for p, s in statuses.items() if s is not None and s >= 500}
    assert not fivexx, fivexx
    assert all(s is None or 200 <= s < 500 for s in statuses.values())
    status, _ = request(port, "GET", "/liveness")
    assert status == 200, "the server stopped answering"
    assert not os.path.exists(canary(tmp)), "a hostile value was evaluated"
    assert list(tmp.iterdir()) == [], sorted(p.name for p in tmp.iterdir())
    assert _tree() - before == set(), sorted(_tree() - before)
    errors = srv.errors_in_log()
    assert not errors, "\n".join(errors[:20])
    print(f"{len(statuses)} requests: " + ", ".join(f"{s}: {sum(1 for x in statuses.values() if x == s)}"
                                                      for s in sorted(set(statuses.values()), key=str)))
