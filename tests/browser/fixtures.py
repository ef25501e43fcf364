"""Fixtures for the real-browser tests: Debian's Chromium, a served app, an exported page, pages.

Playwright's own browser download is not used: Debian's Chromium is launched, its headless shell
when installed (helpers.chromium_for_tests says why and in what order). Without one the browser tests
skip, except in CI (CI=true), where a missing browser is a failure.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from helpers import CHROMIUM_ARGS, INIT_SCRIPT, REPO, VIEWPORT, chromium_for_tests

SERVER_START_TIMEOUT = 60.0  # seconds
# One renderer process for all of a worker's pages: a page opened in a new tab then starts in a
# process that is already running, whose V8 has compiled BokehJS and the plates' scripts before
# (an exported page carries 2 MB of them inline, which no cache outside the process keeps). A
# page load costs two thirds of the CPU it costs in a process of its own (0.78 s against 1.17 s
# for the same eight exported loads, side by side). Pages still share nothing a page keeps.
ONE_RENDERER = ["--renderer-process-limit=1"]


# --- the browser ----------------------------------------------------------------------------
@pytest.fixture(scope="session")
def chromium_path() -> str:
    found = chromium_for_tests()
    if found:
        return found
    reason = "no Chromium found ($CHROMIUM, chromium-headless-shell or chromium on PATH); browser tests need one"
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser(chromium_path):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # the test extra is not installed
        if os.environ.get("CI") == "true":
            pytest.fail(f"playwright is not importable: {exc}")
        pytest.skip(f"playwright is not importable: {exc}")

    with sync_playwright() as pw:
        # launch() gives the browser a fresh temporary profile (--user-data-dir) of its own.
        b = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS + ONE_RENDERER)
        try:
            yield b
        finally:
            b.close()


LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:")


@dataclass
class Tab:
    """A page, with the errors it reported. Its context is the worker's shared one (see new_tab)
    unless `own_context`: route and add_init_script on the page, not on the context."""

    context: object
    page: object
    own_context: bool = False
    page_errors: list = field(default_factory=list)
    console_errors: list = field(default_factory=list)
    requests: list = field(default_factory=list)
    websockets: list = field(default_factory=list)
    blocked: list = field(default_factory=list)  # requests aborted by block_network()

    def block_network(self) -> None:
        """Abort every request that leaves the machine (anything but file:, data:, blob:, about:),
        and remember it."""

        def handle(route):
            url = route.request.url
            if url.startswith(LOCAL_SCHEMES):
                route.continue_()
            else:
                self.blocked.append(url)
                route.abort()

        self.page.route("**/*", handle)

    def assert_offline(self) -> None:
        """Nothing was asked of the network: no request was blocked, none went out, no websocket opened."""
        remote = [u for u in self.requests if not u.startswith(LOCAL_SCHEMES)]
        assert self.blocked == [] and remote == [], f"the page tried to reach the network: {self.blocked or remote}"
        assert self.websockets == [], f"the page opened websockets: {self.websockets}"

    def assert_no_errors(self) -> None:
        assert not self.page_errors, f"page errors: {self.page_errors}"
        assert not self.console_errors, f"console errors: {self.console_errors}"


@pytest.fixture(scope="session")
def shared_context(browser):
    """One browser context per worker for the tabs that ask for nothing but a viewport. Its HTTP
    cache keeps BokehJS and the plates' scripts, compiled, from one served page to the next: a
    served plate opens in about 0.45 s instead of 0.8 s (a fresh context fetches and compiles
    some 2 MB of JavaScript each time). Pages share nothing else the product keeps: it stores
    nothing in the browser (no cookies, no storage)."""
    ctx = browser.new_context(viewport=VIEWPORT)
    ctx.add_init_script(INIT_SCRIPT)
    yield ctx
    ctx.close()


@pytest.fixture
def new_tab(browser, shared_context):
    """Factory: new_tab(**context_options) -> Tab. With only a viewport (or nothing), a new page in
    the worker's shared context; with any other option (touch, permissions, a phone), a context
    of its own. Every page, and every context of its own, is closed after the test."""
    made: list[Tab] = []

    def make(**options) -> Tab:
        if set(options) <= {"viewport"}:
            ctx = shared_context
            page = ctx.new_page()
            page.set_viewport_size(options.get("viewport", VIEWPORT))
            tab = Tab(ctx, page)
        else:
            ctx = browser.new_context(**{"viewport": VIEWPORT, **options})
            ctx.add_init_script(INIT_SCRIPT)
            tab = Tab(ctx, ctx.new_page(), own_context=True)
        page = tab.page
        page.on("pageerror", lambda e: tab.page_errors.append(str(e)))
        page.on("console", lambda m: tab.console_errors.append(m.text) if m.type == "error" else None)
        page.on("request", lambda r: tab.requests.append(r.url))
        page.on("websocket", lambda ws: tab.websockets.append(ws.url))
        made.append(tab)
        return tab

    yield make
    for tab in made:
        if tab.own_context:
            tab.context.close()
        else:
            tab.page.close()


@pytest.fixture
def tab(new_tab) -> Tab:
    """One desktop-sized page for this test."""
    return new_tab()


@pytest.fixture
def page(tab):
    return tab.page


# --- the served app -------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    url: str
    log_path: Path
    process: subprocess.Popen
    log_file: object = None

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        if self.log_file is not None:
            self.log_file.close()


def _start_server(log_dir: Path, env: dict) -> Server:
    """`python -m app serve --port <free port>`, up until /liveness answers 200."""
    port = _free_port()
    log_path = log_dir / "serve.log"
    log = open(log_path, "wb")
    proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--port", str(port)],
                            cwd=REPO, stdout=log, stderr=subprocess.STDOUT, env=env)
    srv = Server(f"http://localhost:{port}", log_path, proc, log)
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    last = None
    while True:
        if proc.poll() is not None:
            srv.stop()
            pytest.fail(f"the server exited with {proc.returncode} before answering; log:\n{srv.log()}")
        try:
            with urllib.request.urlopen(f"{srv.url}/liveness", timeout=2) as r:
                if r.status == 200:
                    return srv
                last = f"HTTP {r.status}"
        except (urllib.error.URLError, ConnectionError, OSError) as exc:
            last = repr(exc)
        if time.monotonic() > deadline:
            srv.stop()
            pytest.fail(f"the server did not answer /liveness within {SERVER_START_TIMEOUT:.0f} s "
                        f"(last: {last}); log:\n{srv.log()}")
        time.sleep(0.1)  # poll interval


# --- workarounds on and off -----------------------------------------------------------------
# The plates' functional tests run twice, with the workarounds on and with AE_WORKAROUNDS=off
# (tests/conftest.py parametrizes `workarounds` for them): in one run of the suite, so that
# their second round fills the workers' idle time instead of following the rest. A server and
# each export are made once per worker and mode, when a test first asks for them.
def mode_env(mode: str) -> dict:
    """The environment of a server or an export run with the workarounds `mode` ("on": as this
    process has it; "off": AE_WORKAROUNDS=off, app/workarounds/)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if mode == "off":
        env["AE_WORKAROUNDS"] = "off"
    return env


@pytest.fixture
def workarounds(request) -> str:
    """ "on" (the default) or "off": how the served app and the exports this test uses run."""
    return getattr(request, "param", "on")


@pytest.fixture(scope="session")
def servers(tmp_path_factory):
    """servers(mode) -> the Server for that workarounds mode, started on first use; all stopped."""
    started: dict[str, Server] = {}

    def get(mode: str) -> Server:
        if mode not in started:
            started[mode] = _start_server(tmp_path_factory.mktemp(f"server-{mode}"), mode_env(mode))
        return started[mode]

    try:
        yield get
    finally:
        for srv in started.values():
            srv.stop()


@pytest.fixture
def server(servers, workarounds) -> Server:
    """The served app (`python -m app serve` on a free port) in this test's workarounds mode."""
    return servers(workarounds)


@pytest.fixture(autouse=True)
def server_log_clean(request):
    """No traceback or error reaches the server's log while a test that uses the server runs."""
    if not {"server", "served_url"} & set(request.fixturenames):
        yield
        return
    server = request.getfixturevalue("server")
    start = len(server.log())
    yield
    new = server.log()[start:]
    assert "Traceback" not in new and "ERROR" not in new, f"server log during the test:\n{new}"


@pytest.fixture
def served_url(server) -> str:
    """Base URL of the running server, e.g. http://localhost:PORT (serves / and /lookup)."""
    return server.url


# --- npm packages the browser tests load into pages (tests/browser/package.json) --------------
def npm_installed(path: Path, what: str) -> None:
    """`npm ci` in tests/browser, once, when `path` (a file of the package `what`) is not there
    yet; without npm or when it fails the test skips, except in CI, where that is a failure."""
    if path.is_file():
        return
    npm = shutil.which("npm")
    reason = None
    if npm is None:
        reason = f"npm is not installed; {what} comes from the npm registry"
    else:
        res = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=REPO / "tests" / "browser",
                             capture_output=True, text=True, timeout=600)
        if res.returncode != 0 or not path.is_file():
            reason = f"npm ci in tests/browser failed ({res.returncode}):\n{res.stdout}\n{res.stderr}"
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


# --- the exported page ----------------------------------------------------------------------
def made_once(tmp_path_factory, name: str, make) -> Path:
    """OUTDIR for `name`, written by make(OUTDIR) once for the whole run: pytest-xdist's workers
    share it (the first to ask writes it under a lock, the others wait and read it), as an
    export is seconds of CPU that a second worker would only repeat. Tests only read it."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, above each worker's own
    out, lock = base / f"once-{name}", base / f"once-{name}.lock"
    with open(lock, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            if not (out / ".written").exists():
                shutil.rmtree(out, ignore_errors=True)
                out.mkdir()
                make(out)
                (out / ".written").write_text("ok\n")
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
    return out


@pytest.fixture(scope="session")
def exports(tmp_path_factory):
    """exports(mode) -> OUTDIR holding every registered plate's page, written once per run and
    workarounds mode by one `python -m app export OUTDIR --plate SLUG ...` (the real command
    line; one process for all the plates, as importing Panel and Bokeh is most of an export)."""
    from app.plates import registry

    def write(mode: str, outdir: Path) -> None:
        cmd = [sys.executable, "-m", "app", "export", str(outdir)]
        for slug in registry.slugs():
            cmd += ["--plate", slug]
        res = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600, env=mode_env(mode))
        missing = [s for s in registry.slugs() if not (outdir / f"{s}.html").is_file()]
        if res.returncode != 0 or missing:
            pytest.fail(f"export failed ({res.returncode}, missing {missing}):\n{res.stdout}\n{res.stderr}")

    return lambda mode="on": made_once(tmp_path_factory, f"export-{mode}", lambda out: write(mode, out))


@pytest.fixture
def export_plate(exports, workarounds):
    """export_plate(slug) -> the plate's exported file, in this test's workarounds mode."""
    return lambda slug: exports(workarounds) / f"{slug}.html"


@pytest.fixture
def exported_file(export_plate) -> Path:
    """OUTDIR/lookup.html, the lookup plate's export."""
    return export_plate("lookup")


@pytest.fixture(scope="session")
def scorm_package(tmp_path_factory) -> tuple[Path, str]:
    """(the zip, what the command printed): `attention-explorable export OUT --scorm`, run once per
    run through the command line's own main, for tests/app/test_scorm_package.py (the package)
    and tests/browser/test_scorm.py (the package in a SCORM runtime)."""
    import io
    from contextlib import redirect_stdout

    from app.cli import main
    from app.delivery.scorm import PACKAGE_NAME

    def write(outdir: Path) -> None:
        printed = io.StringIO()
        with redirect_stdout(printed):
            code = main(["export", str(outdir / "out"), "--scorm"])
        if code != 0:
            pytest.fail(f"export --scorm exited with {code}:\n{printed.getvalue()}")
        (outdir / "printed.txt").write_text(printed.getvalue(), encoding="utf-8")

    made = made_once(tmp_path_factory, "scorm", write)
    return made / "out" / PACKAGE_NAME, (made / "printed.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def exported_site(tmp_path_factory) -> Path:
    """OUTDIR of `python -m app export OUTDIR --site` (index, every plate, slides), once per run."""
    def write(outdir: Path) -> None:
        res = subprocess.run([sys.executable, "-m", "app", "export", str(outdir), "--site"], cwd=REPO,
                             capture_output=True, text=True, timeout=600)
        if res.returncode != 0 or not (outdir / "index.html").is_file():
            pytest.fail(f"export --site failed ({res.returncode}):\n{res.stdout}\n{res.stderr}")

    return made_once(tmp_path_factory, "site", write)
