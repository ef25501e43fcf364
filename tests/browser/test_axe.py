"""The accessibility audit: axe-core (from the npm registry, pinned in tests/browser/package.json)
injected by Playwright into every plate in every mode and the index page; no serious or critical
violation is allowed, nor any of the landmark rules (one main landmark, all content in landmarks).

The served pages are audited in the default mode with the table view open (so its tables are
audited too), with every rule axe runs by default; the exported files, which read the same URL
parameters in the browser, in the dark and embedded modes, with the rules each mode can change
(MODES), and in presentation mode (PRESENT) in the load tests/browser/test_scenes.py makes of each
exported plate in its 16:9 presentation room (1280×720, its first scene). axe-core is installed by `npm ci` in tests/browser (.ci/run does it;
this module does it too when node_modules lacks it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.plates import registry
from fixtures import npm_installed
from helpers import REPO

pytestmark = pytest.mark.browser
HERE = REPO / "tests" / "browser"
AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"
WAIT = 120_000  # ms: generous, the machine may be shared by several browsers
BAD = ("serious", "critical")
# Moderate in axe, but a screen reader's way around a page: one main landmark holding the content.
LANDMARKS = ("landmark-one-main", "region")
# The rules a mode can change, run on it (None: all). Dark mode changes colours alone; presentation
# mode the type, the figures' and text boxes' sizes and the order of a row (a text box that its
# larger type overflows scrolls); embedding hides the header, the navigation and the text, and
# fits what is left to the frame, which may touch any rule.
COLOURS = ("color-contrast", "link-in-text-block")
MODES = {"theme=dark": COLOURS, "embed=1": None}
PRESENT = (*COLOURS, "scrollable-region-focusable", "avoid-inline-spacing")  # ?present=1: test_scenes.py

READY = r"""() => {
  if (!window.Bokeh || !Bokeh.documents || !Bokeh.documents.length || !Bokeh.documents[0].is_idle) return false;
  if (document.readyState !== "complete") return false;
  const figs = Array.from(Bokeh.documents[0].all_models).filter((m) => m.type === "Figure" && m.visible);
  return figs.every((m) => { const v = Bokeh.index.find_one(m); return v && v.canvas_view && v.canvas_view.el.getAttribute("role") === "img"; });
}"""

RUN = r"""async (rules) => {
  const options = {resultTypes: ["violations"]};
  if (rules) options.runOnly = {type: "rule", values: rules};
  const r = await axe.run(document, options);
  return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target) + ": " + (n.failureSummary || "").slice(0, 160))}));
}"""


def install_axe() -> None:
    """`npm ci` in tests/browser, once, when axe-core is not there yet."""
    npm_installed(AXE, "axe-core")


@pytest.fixture(scope="module")
def axe_source() -> str:
    install_axe()
    version = json.loads((AXE.parent / "package.json").read_text())["version"]
    pinned = json.loads((HERE / "package.json").read_text())["dependencies"]["axe-core"]
    assert version == pinned, f"node_modules holds axe-core {version}, package.json pins {pinned}: run npm ci"
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def audit_tab(new_tab_module):
    return new_tab_module()


@pytest.fixture(scope="module")
def new_tab_module(browser):
    """One browser context for the whole module (the audit reloads pages, it keeps no state)."""
    from helpers import INIT_SCRIPT, VIEWPORT

    contexts = []

    def make():
        ctx = browser.new_context(viewport=VIEWPORT)
        ctx.add_init_script(INIT_SCRIPT)
        contexts.append(ctx)
        page = ctx.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def audit(page, axe_source: str, url: str, open_tables: bool = False, rules=None) -> list[str]:
    """Open `url`, wait until it has rendered, run axe-core (`rules`, or all it runs by default);
    the serious and critical violations and those of the landmark rules."""
    page.goto(url)
    page.wait_for_function(READY, timeout=WAIT, polling=200)
    if open_tables:
        page.get_by_role("button", name="Show the numbers as tables").click()
        page.wait_for_function("() => Bokeh.documents[0].get_model_by_name('ae-tables').text.includes('<table>')")
    return violations(page, axe_source, rules)


def violations(page, axe_source: str, rules=None) -> list[str]:
    """axe-core's serious and critical violations, and those of the landmark rules, on the page
    as it is (`rules`, or all it runs by default)."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(content=axe_source)
    found = page.evaluate(RUN, list(rules) if rules else None)
    return [f"{v['impact']} {v['id']} ({v['help']}): {v['nodes']}" for v in found
            if v["impact"] in BAD or v["id"] in LANDMARKS]


def test_index_page(audit_tab, axe_source, served_url):
    bad = audit(audit_tab, axe_source, f"{served_url}/")  # the index has no figures: READY holds at once
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("slug", registry.slugs())
def test_plate_every_mode(audit_tab, axe_source, served_url, export_plate, slug):
    problems = {}
    bad = audit(audit_tab, axe_source, f"{served_url}/{slug}", open_tables=True)
    if bad:
        problems["served, default, tables open"] = bad
    path: Path = export_plate(slug)
    for mode, rules in MODES.items():
        bad = audit(audit_tab, axe_source, f"{path.as_uri()}?{mode}", rules=rules)
        if bad:
            problems[f"exported, ?{mode}"] = bad
    assert not audit_tab.errors, audit_tab.errors
    assert not problems, "\n".join(f"{k}:\n  " + "\n  ".join(v) for k, v in problems.items())
