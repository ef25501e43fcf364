"""The LMS package (`attention-explorable export OUTDIR --scorm`, app/delivery/scorm.py): one zip
that Moodle, Canvas and Blackboard import as SCORM 1.2, and its bridge to the LMS (scorm.js).

The manifest is checked for what the SCORM 1.2 schemas (IMS CP 1.1.2 and ADL's adlcp 1.2)
require of the parts it uses: the namespaces, the metadata, the order of the elements, unique
identifiers, every reference resolved, and every file of the zip named by it once (the XSDs
themselves are not installed here). The pages must need no network and find every file they
name inside the zip. scorm.js runs in node against a fake LMS API: the discovery of the API, the
status it reports and when, and LMSFinish. The browser half, with a real SCORM runtime, is
tests/browser/test_scorm.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import zipfile
from pathlib import Path

import pytest
from bokeh.model.util import collect_models
from bokeh.models import ColumnDataSource, Plot, Widget

from app.cli import main
from app.delivery.export import offline_problems
from app.delivery.scorm import ADLCP, IMSCP, PACKAGE_NAME
from app.plates import registry
from app.plates.registry import Click, Drag
from node_mirror import node_path

SCORM_JS = Path(__file__).resolve().parents[2] / "app" / "runtime" / "scorm.js"
NCNAME = re.compile(r"^[A-Za-z_][\w.-]*$")  # xsd:ID, which the manifest's identifiers are
REFS = re.compile(r"""(?:src|href)\s*=\s*\\?["']([^"'\\]+)""")
STATIC = re.compile(r"""_static/[\w./-]+""")
EXTERNAL = ("http:", "https:", "data:", "blob:", "about:", "mailto:", "javascript:", "#")


def cp(tag: str) -> str:
    return f"{{{IMSCP}}}{tag}"


@pytest.fixture(scope="module")
def package(scorm_package):
    """The zip, written once per run by the command line (tests/browser/fixtures.py), and what it printed."""
    path, printed = scorm_package
    assert [p.name for p in path.parent.iterdir()] == [PACKAGE_NAME], "--scorm writes one zip and nothing else"
    return path, printed


@pytest.fixture(scope="module")
def zipped(package):
    path, _ = package
    with zipfile.ZipFile(path) as z:
        return {info.filename: z.read(info) for info in z.infolist()}


@pytest.fixture(scope="module")
def manifest(zipped):
    from xml.etree import ElementTree as ET

    return ET.fromstring(zipped["imsmanifest.xml"])


def test_the_command_line_says_where_the_zip_is(package):
    path, printed = package
    assert str(path) in printed and "SCORM 1.2" in printed
    assert 0.5e6 < path.stat().st_size < 10e6, path.stat().st_size  # BokehJS once, the pages, the thumbnails


def test_the_manifest_is_at_the_root_and_the_zip_is_clean(zipped):
    names = list(zipped)
    assert names[0] == "imsmanifest.xml"
    assert len(names) == len(set(names))
    assert not [n for n in names if n.startswith("/") or ".." in n.split("/") or "\\" in n or n.endswith("/")], names


def test_the_manifest_declares_scorm_12(zipped, manifest):
    text = zipped["imsmanifest.xml"].decode("utf-8")
    assert text.startswith("<?xml")
    assert f'xmlns="{IMSCP}"' in text and f'xmlns:adlcp="{ADLCP}"' in text
    assert manifest.tag == cp("manifest")
    assert NCNAME.match(manifest.get("identifier", "")) and manifest.get("version")
    # The schema's order: metadata, organizations, resources.
    assert [child.tag for child in manifest] == [cp("metadata"), cp("organizations"), cp("resources")]
    meta = manifest.find(cp("metadata"))
    assert [(c.tag, c.text) for c in meta] == [(cp("schema"), "ADL SCORM"), (cp("schemaversion"), "1.2")]


def test_one_item_per_page_in_the_registrys_order(manifest):
    orgs = manifest.find(cp("organizations"))
    organizations = orgs.findall(cp("organization"))
    assert len(organizations) == 1 and orgs.get("default") == organizations[0].get("identifier")
    org = organizations[0]
    assert [c.tag for c in org][0] == cp("title") and org.find(cp("title")).text
    items = org.findall(cp("item"))
    assert [i.get("identifier") for i in items] == ["item-index", *[f"item-{s}" for s in registry.slugs()]]
    for item in items:
        assert [c.tag for c in item] == [cp("title")] and item.find(cp("title")).text.strip(), item.attrib
        assert item.get("isvisible") == "true"
    titles = [i.find(cp("title")).text for i in items[1:]]
    assert titles == [f"{n}. {registry.plate_class(s).title}" for n, s in enumerate(registry.slugs(), 1)]


def test_identifiers_are_unique_and_every_reference_resolves(manifest):
    ids = [el.get("identifier") for el in manifest.iter() if el.get("identifier") is not None]
    assert len(ids) == len(set(ids)), ids
    assert all(NCNAME.match(i) for i in ids), ids
    resources = {r.get("identifier"): r for r in manifest.find(cp("resources")).findall(cp("resource"))}
    scormtype = f"{{{ADLCP}}}scormtype"
    for item in manifest.iter(cp("item")):
        res = resources[item.get("identifierref")]  # KeyError: an item names no resource
        assert res.get(scormtype) == "sco", "an item launches a SCO"
        assert res.get("href") == f"{item.get('identifier').removeprefix('item-')}.html"
    for res in resources.values():
        assert res.get("type") == "webcontent" and res.get(scormtype) in ("sco", "asset"), res.attrib
        tags = [c.tag for c in res]
        assert tags == sorted(tags, key=lambda t: t != cp("file")), f"files come before dependencies: {tags}"
        for dep in res.findall(cp("dependency")):
            assert dep.get("identifierref") in resources
        if res.get(scormtype) == "sco":
            assert res.get("href") in [f.get("href") for f in res.findall(cp("file"))]
    assert sum(r.get(scormtype) == "sco" for r in resources.values()) == len(registry.slugs()) + 1


def test_every_file_is_listed_once_and_every_listed_file_is_there(zipped, manifest):
    listed = [f.get("href") for f in manifest.iter(cp("file"))]
    assert len(listed) == len(set(listed)), "a file is listed twice"
    assert set(listed) == set(zipped) - {"imsmanifest.xml"}


def test_the_pages_load_the_bridge_first_and_need_no_network(zipped):
    pages = ["index", *registry.slugs()]
    assert sorted(n for n in zipped if n.endswith(".html")) == sorted(f"{p}.html" for p in pages)
    assert "_static/scorm.js" in zipped
    for name in pages:
        html = zipped[f"{name}.html"].decode("utf-8")
        head = html[html.index("<head"):html.index("</head>")]
        first = re.search(r"<script\b[^>]*>", head).group(0)
        done = "open" if name == "index" else "change"
        assert first == f'<script src="_static/scorm.js" data-done="{done}">', (name, first)
        assert offline_problems(html) == [], name
        refs = {r for r in REFS.findall(html) if not r.startswith(EXTERNAL)} | set(STATIC.findall(html))
        missing = sorted(r for r in refs if r.split("?")[0].split("#")[0] not in zipped)
        assert missing == [], f"{name}.html names files the zip lacks: {missing}"
        if name != "index":  # the LMS's menu moves between plates, never a link inside one
            assert "rel='next'" not in html and "rel='prev'" not in html and "class='ae-nav'" not in html, name


@pytest.mark.parametrize("slug", registry.slugs())
def test_every_plate_declares_when_its_page_is_done(slug):
    """Its contract.py's words (SCORM_DONE) and the gesture tests/browser/test_scorm.py makes
    (SCORM_GESTURE), which must name models the plate's document has."""
    contract = registry.contract(slug)
    assert isinstance(contract.SCORM_DONE, str) and len(contract.SCORM_DONE.split()) >= 2, contract.SCORM_DONE
    gesture = contract.SCORM_GESTURE
    plate = registry.plate_class(slug)()
    # one walk over every root (a walk per root goes over the models they share again)
    named = {m.name: m for m in collect_models(*plate.bokeh_models()) if getattr(m, "name", None)}
    if isinstance(gesture, Click):
        assert isinstance(named.get(gesture.name), Widget), f"{slug}: no widget named {gesture.name!r} to click"
        if gesture.holds is not None:
            model, prop, _ = gesture.holds
            assert model in named and prop in named[model].properties(), (slug, gesture.holds)
    else:
        assert isinstance(gesture, Drag), f"{slug}: SCORM_GESTURE is a Click or a Drag, not {gesture!r}"
        assert isinstance(named.get(gesture.plot), Plot), f"{slug}: no plot named {gesture.plot!r}"
        source = named.get(gesture.source)
        assert isinstance(source, ColumnDataSource) and {"x", "y"} <= set(source.data), (slug, gesture.source)


def test_a_missing_thumbnail_names_the_command_that_makes_it(tmp_path, monkeypatch):
    """The index shows each plate's thumbnail (assets/screenshots/<slug>.png); without it the
    package cannot be made, and the error says how to make it."""
    from app.delivery import scorm

    monkeypatch.setattr(registry, "PLATES", registry.PLATES[:1])
    monkeypatch.setattr(scorm, "ASSETS", tmp_path / "assets")
    slug = registry.slugs()[0]
    with pytest.raises(RuntimeError, match=re.escape(f"make screenshots SHOTS_ARGS='--plate {slug}'")):
        scorm.write_pages(tmp_path / "out")


def test_scorm_is_packed_alone(tmp_path, capsys):
    for extra in (["--site"], ["--plate", "lookup"]):
        assert main(["export", str(tmp_path), "--scorm", *extra]) == 2
        assert "--scorm packs the index and every plate" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


# --- scorm.js in node, with a fake LMS ------------------------------------------------------
# Each case builds a chain of windows (the page, its parents, an opener), puts a recording SCORM
# 1.2 API on one of them, runs scorm.js as the page's script, fires `events` at the page and
# answers with the calls the API saw and the page's AEScorm.
DRIVER = r"""
const vm = require("vm"), fs = require("fs");
const src = fs.readFileSync(process.argv[1], "utf8");
const cases = JSON.parse(fs.readFileSync(0, "utf8"));
function api(c) {
  const calls = [], data = {"cmi.core.lesson_status": c.status || "not attempted"};
  return {calls, data,
    LMSInitialize: () => { calls.push("LMSInitialize"); return c.refuse ? "false" : "true"; },
    LMSGetValue: (k) => { calls.push("get " + k); return data[k] || ""; },
    LMSSetValue: (k, v) => { calls.push("set " + k + "=" + v); data[k] = v; return "true"; },
    LMSCommit: () => { calls.push("LMSCommit"); return "true"; },
    LMSFinish: () => { calls.push("LMSFinish"); return "true"; }};
}
function win(label) {
  const listeners = {};
  const w = {label, onpagehide: null,
    addEventListener: (type, fn) => { (listeners[type] = listeners[type] || []).push(fn); },
    fire: (type, trusted) => (listeners[type] || []).forEach((fn) => fn({isTrusted: trusted !== false}))};
  w.parent = w;
  return w;
}
const out = cases.map((c) => {
  const lms = api(c);
  const page = win("page");
  let w = page;  // parents above the page: c.parents of them, the API on the one at c.api_up
  for (let i = 1; i <= c.parents; i++) { const p = win("parent" + i); w.parent = p; w = p; }
  const at = (n) => { let x = page; for (let i = 0; i < n; i++) x = x.parent; return x; };
  if (c.api_up !== null && c.api_up !== undefined) at(c.api_up).API = lms;
  if (c.foreign_up) Object.defineProperty(at(c.foreign_up), "API", {get: () => { throw new Error("SecurityError"); }});
  if (c.opener) { const o = win("opener"), op = win("opener-parent"); o.parent = op; op.API = lms; page.opener = o; }
  const ctx = {window: page, document: {currentScript: {getAttribute: (n) => n === "data-done" ? (c.done || "change") : null}},
               Date, Math, Number, String};
  vm.runInNewContext(src, ctx);
  const seen = [];
  for (const [type, trusted] of c.events || []) {
    page.fire(type, trusted);
    seen.push([type, lms.data["cmi.core.lesson_status"]]);
  }
  return {calls: lms.calls, data: lms.data, seen, state: page.AEScorm};
});
process.stdout.write(JSON.stringify(out));
"""


def run_scorm_js(cases: list[dict]) -> list[dict]:
    proc = subprocess.run([node_path(), "-e", DRIVER, str(SCORM_JS)], input=json.dumps(cases),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


STATUS = "cmi.core.lesson_status"
TIMESPAN = re.compile(r"^\d{2,4}:\d{2}:\d{2}\.\d{2}$")  # CMITimespan


@pytest.mark.node
def test_bridge_finds_the_api_as_scorm_12_says():
    # The API 7 parents up is found; 8 up is not; one on the opener's parent is; a parent of
    # another origin (reading its API throws) is passed over.
    found = run_scorm_js([
        {"parents": 7, "api_up": 7}, {"parents": 8, "api_up": 8}, {"parents": 0, "api_up": None, "opener": True},
        {"parents": 3, "api_up": 3, "foreign_up": 1}, {"parents": 2, "api_up": None},
    ])
    assert [r["state"]["found"] for r in found] == [True, False, True, True, False]
    assert [r["calls"][:1] for r in found] == [["LMSInitialize"], [], ["LMSInitialize"], ["LMSInitialize"], []]


@pytest.mark.node
def test_bridge_reports_incomplete_then_completed_after_the_students_change():
    r, = run_scorm_js([{"parents": 1, "api_up": 1, "events": [
        ["ae-changed", True],      # the page's own change at load, before any input: not counted
        ["keydown", False],        # a script's synthetic key: not the student's
        ["ae-changed", True],
        ["pointerdown", True],     # the student presses...
        ["ae-changed", True],      # ...and the plate commits the change
        ["ae-changed", True],      # later changes report nothing new
        ["pagehide", True], ["pagehide", True],
    ]}])
    assert r["calls"][:4] == ["LMSInitialize", f"get {STATUS}", f"set {STATUS}=incomplete", "LMSCommit"]
    assert [s for _, s in r["seen"]] == ["incomplete", "incomplete", "incomplete", "incomplete", "completed",
                                         "completed", "completed", "completed"]
    after = r["calls"][4:]
    assert after[:2] == [f"set {STATUS}=completed", "LMSCommit"]
    assert after[2].startswith("set cmi.core.session_time=") and TIMESPAN.match(after[2].split("=", 1)[1])
    assert after[3:] == ["set cmi.core.exit=", "LMSCommit", "LMSFinish"], "LMSFinish once, after the last commit"
    assert r["state"]["done"] and r["state"]["finished"] and r["state"]["commits"] == 3


@pytest.mark.node
def test_bridge_keeps_a_finished_status_and_suspends_an_unfinished_one():
    again, left, index, refused = run_scorm_js([
        {"parents": 1, "api_up": 1, "status": "completed", "events": [["pagehide", True]]},
        {"parents": 1, "api_up": 1, "events": [["pointerdown", True], ["pagehide", True]]},
        {"parents": 1, "api_up": 1, "done": "open"},
        {"parents": 1, "api_up": 1, "refuse": True, "events": [["pointerdown", True], ["ae-changed", True]]},
    ])
    assert f"set {STATUS}=incomplete" not in again["calls"] and again["data"][STATUS] == "completed"
    assert again["data"]["cmi.core.exit"] == "" and again["calls"][-1] == "LMSFinish"
    assert left["data"][STATUS] == "incomplete" and left["data"]["cmi.core.exit"] == "suspend"
    assert index["data"][STATUS] == "completed"  # the index is done once opened
    assert refused["calls"] == ["LMSInitialize"] and not refused["state"]["initialized"]
