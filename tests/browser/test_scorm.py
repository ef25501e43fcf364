"""The SCORM 1.2 package in a real SCORM runtime: scorm-again (from the npm registry, pinned in
tests/browser/package.json) in a launcher page, as an LMS's player would host it.

The package is written once per run by `export OUTDIR --scorm` (fixtures.scorm_package, shared
with tests/app/test_scorm_package.py) and unzipped. A local HTTP
server holds it beside the launcher (the LMS and its content share an origin, as in Moodle;
file:// pages cannot reach each other's window). Every other request is aborted and recorded,
and none may be attempted. For each page of the package (the index and every plate of the
registry) the launcher makes a fresh `window.API = new Scorm12API(...)` and opens the page in
an iframe: it must load with no console error and report "incomplete" (the index: "completed"
once opened); after one real mouse gesture on the plate (the SCORM_GESTURE its contract.py
declares: a click on a control, or a drag of a point) the runtime must hold "completed", having
seen an LMSCommit; leaving the page calls LMSFinish. The unzipped lookup plate opened
with no API still works: a drag moves its numbers, with no error.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import threading
import time
import zipfile
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from app.plates import registry
from app.plates.registry import Click
from fixtures import LOCAL_SCHEMES, npm_installed
from helpers import REPO, changed, drag, moved, query_xy, read_weights, to_page_xy, wait_ready
from test_site_deck import InFrame

pytestmark = pytest.mark.browser
HERE = REPO / "tests" / "browser"
SCORM_AGAIN = HERE / "node_modules" / "scorm-again" / "dist" / "scorm12.min.js"
WAIT = 60_000  # ms: the machine may be shared

# The player: a fresh SCORM 1.2 runtime per launch (an LMS makes one per attempt of an item),
# recording the calls the page makes, and the page named by ?sco= in an iframe.
LAUNCHER = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>SCORM 1.2 player (test)</title>
<script src="scorm12.min.js"></script>
<script>
  window.API = new Scorm12API({autocommit: false, logLevel: 5});
  window.seen = {LMSInitialize: 0, LMSCommit: 0, LMSFinish: 0, values: {}};
  ["LMSInitialize", "LMSCommit", "LMSFinish"].forEach(function (name) {
    API.on(name, function () { seen[name] += 1; });
  });
  API.on("LMSSetValue.cmi.*", function (element, value) { seen.values[element] = value; });  // some are write-only
</script>
<style>body { margin: 0; } iframe { border: 0; width: 1280px; height: 860px; display: block; }</style>
</head><body>
<iframe id="sco" title="the course page"></iframe>
<script>document.getElementById("sco").src = "pkg/" + new URLSearchParams(location.search).get("sco");</script>
</body></html>
"""

PLATE_READY = r"""() => {
  if (!window.Bokeh || !Bokeh.documents || !Bokeh.documents.length || !Bokeh.documents[0].is_idle) return false;
  if (document.readyState !== "complete" || !window.AEScorm) return false;
  return Bokeh.documents[0].roots().every((r) => Bokeh.index.find_one(r) != null);
}"""

# A control's element (the first match of `selector` in its view) as a box in the frame's pixels.
BOX = r"""([name, selector]) => {
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(name));
  const el = (v.shadow_el || v.el).querySelector(selector);
  el.scrollIntoView({block: "center"});
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}"""

# A plot that has not moved on the page for a few frames (style sheets and fonts land late on a
# loaded machine, and move it): a drag then starts where the point is drawn.
PLOT_STILL = r"""(name) => {
  const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(name));
  if (v == null || v.canvas_view == null || !(v.frame.bbox.width > 0)) return false;
  if (document.fonts && document.fonts.status !== "loaded") return false;
  const r = v.canvas_view.events_el.getBoundingClientRect(), key = [r.left, r.top, r.width, r.height].join(",");
  const s = window.__ae_still || (window.__ae_still = {key: null, n: 0});
  if (s.key === key) s.n += 1; else { s.key = key; s.n = 0; }
  return s.n >= 3;
}"""

STATUS = "() => API.cmi.core.lesson_status"
TIMESPAN = re.compile(r"^\d{2,4}:\d{2}:\d{2}\.\d{2}$")  # CMITimespan


def install_scorm_again() -> None:
    """`npm ci` in tests/browser, once, when scorm-again is not there yet."""
    npm_installed(SCORM_AGAIN, "scorm-again")


@pytest.fixture(scope="module")
def player(tmp_path_factory, scorm_package):
    """(base URL, folder): the unzipped package under pkg/, beside the launcher and scorm-again,
    served on a free loopback port for this module."""
    install_scorm_again()
    pinned = json.loads((HERE / "package.json").read_text())["dependencies"]["scorm-again"]
    version = json.loads((SCORM_AGAIN.parents[1] / "package.json").read_text())["version"]
    assert version == pinned, f"node_modules holds scorm-again {version}, package.json pins {pinned}: run npm ci"
    root = tmp_path_factory.mktemp("lms")
    zipped, _ = scorm_package
    with zipfile.ZipFile(zipped) as z:
        z.extractall(root / "pkg")
    shutil.copyfile(SCORM_AGAIN, root / "scorm12.min.js")
    (root / "launcher.html").write_text(LAUNCHER, encoding="utf-8")

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):  # the test reads requests in the browser, not here
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root
    finally:
        server.shutdown()
        server.server_close()


def only_local(tab, base: str) -> list[str]:
    """Abort every request but file:, data:, blob:, about: and the local server's; the list of
    those aborted."""
    blocked: list[str] = []

    def handle(route):
        url = route.request.url
        if url.startswith(LOCAL_SCHEMES) or url.startswith(base + "/"):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    tab.page.route("**/*", handle)
    return blocked


def click(view: InFrame, name: str, selector: str) -> None:
    """A real mouse click on the named control's element (`selector` inside its view)."""
    x, y = view.to_top(view.evaluate(BOX, [name, selector]))
    view.mouse.click(x, y)


def first_point(view: InFrame, source: str) -> tuple[float, float]:
    return tuple(view.evaluate("(n) => { const d = Bokeh.documents[0].get_model_by_name(n).data; return [d.x[0], d.y[0]]; }",
                               source))


def perform(view: InFrame, gesture) -> None:
    """The plate's SCORM gesture (its contract.py's SCORM_GESTURE), with the real mouse."""
    if isinstance(gesture, Click):
        click(view, gesture.name, gesture.selector)
        return
    view.evaluate("(n) => Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name(n))"
                  ".canvas_view.events_el.scrollIntoView({block: 'center'})", gesture.plot)
    view.wait_for_function(PLOT_STILL, arg=gesture.plot, timeout=WAIT, polling="raf")
    before = first_point(view, gesture.source)
    start = view.to_top(to_page_xy(view, gesture.plot, *before))
    end = view.to_top(to_page_xy(view, gesture.plot, *gesture.to))
    view.mouse.move(*start)
    view.mouse.down()
    for i in range(1, 9):
        moved(view, start[0] + (end[0] - start[0]) * i / 8, start[1] + (end[1] - start[1]) * i / 8)
    view.mouse.up()
    assert first_point(view, gesture.source) != before, f"the drag did not move {gesture.source}"


def test_each_page_reports_to_a_scorm_12_runtime(new_tab, player):
    base, _ = player
    tab = new_tab(viewport={"width": 1300, "height": 900})
    blocked = only_local(tab, base)
    page = tab.page
    timings = {}
    for name in ["index", *registry.slugs()]:
        t0 = time.monotonic()
        page.goto(f"{base}/launcher.html?sco={name}.html")
        frame = page.locator("#sco").element_handle(timeout=WAIT).content_frame()
        frame.wait_for_function(PLATE_READY, timeout=WAIT, polling=100)
        view = InFrame(page, frame, "#sco")
        assert frame.evaluate("() => AEScorm.found && AEScorm.initialized"), name
        assert page.evaluate("() => seen.LMSInitialize") == 1, name
        if name == "index":
            assert page.evaluate(STATUS) == "completed", "the index is done once opened"
        else:
            assert page.evaluate(STATUS) == "incomplete", f"{name} reported {page.evaluate(STATUS)} before any gesture"
            commits = page.evaluate("() => seen.LMSCommit")
            gesture = registry.contract(name).SCORM_GESTURE
            perform(view, gesture)
            page.wait_for_function("() => API.cmi.core.lesson_status === 'completed'", timeout=WAIT, polling=50)
            if getattr(gesture, "holds", None):
                model, prop, value = gesture.holds
                got = frame.evaluate("([n, p]) => Bokeh.documents[0].get_model_by_name(n)[p]", [model, prop])
                assert got == value, f"{name}: completed only once {model}.{prop} was {got!r}, not {value!r}"
            assert page.evaluate("() => seen.LMSCommit") > commits, f"{name}: completed but never committed"
        # Leaving the page (the LMS closes the item): LMSFinish, once.
        page.evaluate("() => { document.getElementById('sco').src = 'about:blank'; }")
        page.wait_for_function("() => seen.LMSFinish === 1", timeout=WAIT, polling=50)
        values = page.evaluate("() => seen.values")
        assert values.get("cmi.core.exit") == "" and TIMESPAN.match(values.get("cmi.core.session_time", "")), (name, values)
        assert tab.console_errors == [] and tab.page_errors == [], (name, tab.console_errors, tab.page_errors)
        timings[name] = round(time.monotonic() - t0, 1)
    print(f"seconds per page: {timings}")
    assert blocked == [], f"the package tried to reach the network: {blocked}"
    assert [u for u in tab.requests if not (u.startswith(LOCAL_SCHEMES) or u.startswith(base + "/"))] == []
    assert tab.websockets == []


def test_the_unzipped_plate_works_without_an_lms(new_tab, player):
    _, root = player
    tab = new_tab()
    tab.block_network()
    page = tab.page
    page.goto((root / "pkg" / "lookup.html").as_uri())
    page.wait_for_function(PLATE_READY, timeout=WAIT, polling=100)
    assert page.evaluate("() => AEScorm.found") is False, "no API here: the bridge must stay out of the way"
    wait_ready(page, timeout=WAIT)
    before = read_weights(page)
    start = to_page_xy(page, "vectors", *query_xy(page))
    drag(page, start, to_page_xy(page, "vectors", -1.0, 2.5), steps=8)
    assert changed(read_weights(page), before)
    tab.assert_offline()
    tab.assert_no_errors()
