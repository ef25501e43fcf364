"""The workarounds' registry: one switch, version ranges, fixes apart, and each workaround's file
says what it replaces, the versions it was read against, what it buys and its upstream report."""

from __future__ import annotations

import json
import logging
import re
import subprocess
from importlib.resources import files
from pathlib import Path

import pytest

from app import workarounds as W
from node_mirror import node_path  # tests/core (on the path: tests/conftest.py)

JS_DIR = files("app").joinpath("workarounds", "js")
SECTIONS = ("Replaces:", "Read against:", "Buys:", "Upstream report:")


def test_the_switch_reads_on_off_and_names(monkeypatch):
    assert W.switched_off("") == set() and W.switched_off("on") == set() and W.switched_off(" ON ") == set()
    assert W.switched_off("off") is None and W.switched_off("OFF") is None
    assert W.switched_off("spare_pages, quick_text,") == {"spare_pages", "quick_text"}
    monkeypatch.setenv(W.ENV, "off")
    assert W.js_switched_off() is None  # the pages then carry no browser-side workaround at all
    assert not any(W.enabled(w.name) for w in W.PYTHON if not w.fix)
    assert all(W.enabled(w.name) for w in W.PYTHON if w.fix)  # a fix a user would see stays on
    name = next(w.name for w in W.PYTHON if not w.fix)
    monkeypatch.setenv(W.ENV, f"{name},{W.JS[0]}")
    assert not W.enabled(name) and W.js_switched_off() == [W.JS[0]]
    assert all(W.enabled(w.name) for w in W.PYTHON if w.name != name)


def test_a_workaround_outside_its_version_range_stays_off_and_says_so_once(monkeypatch, caplog):
    w = next(w for w in W.PYTHON if not w.fix and w.at == "serve")
    monkeypatch.delenv(W.ENV, raising=False)
    monkeypatch.setattr(W, "installed", lambda library: "99.0")
    monkeypatch.setattr(W, "_said", set())
    with caplog.at_level(logging.WARNING, logger=W.__name__):
        assert not W.active(w.name)
        assert not W.active(w.name)
    said = [r.getMessage() for r in caplog.records if w.name in r.getMessage()]
    assert len(said) == 1 and "99.0" in said[0] and w.versions in said[0], said


def test_every_workaround_has_one_file_that_says_what_it_is():
    py = {p.name.removesuffix(".py") for p in files("app").joinpath("workarounds").iterdir()
          if p.name.endswith(".py") and p.name != "__init__.py"}
    js = {p.name.removesuffix(".js") for p in JS_DIR.iterdir() if p.name.endswith(".js") and p.name != "registry.js"}
    assert py == {w.name for w in W.PYTHON}, "app/workarounds/*.py and the registry's PYTHON list differ"
    assert js == set(W.JS), "app/workarounds/js/*.js and the registry's JS list differ"
    import importlib

    for w in W.PYTHON:
        doc = importlib.import_module(f"app.workarounds.{w.name}").__doc__ or ""
        missing = [s for s in SECTIONS if s not in doc]
        assert not missing, f"app/workarounds/{w.name}.py's docstring lacks {missing}"
    for name in W.JS:
        text = JS_DIR.joinpath(f"{name}.js").read_text(encoding="utf-8")
        head = text[:text.index("(function")]
        missing = [s for s in SECTIONS if s not in head]
        assert not missing, f"app/workarounds/js/{name}.js's opening comment lacks {missing}"
        assert re.search(rf'W\.define\("{name}"', text), name


def test_pyproject_declares_every_library_whose_internals_are_touched():
    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    for library in {w.library for w in W.PYTHON}:
        assert re.search(rf'"{library}[<>=]', text), f"pyproject.toml does not declare {library} with a range"


NODE = r"""
const W = require(process.argv[1]);
globalThis.Bokeh = {version: process.argv[2]};
const logs = []; console.info = (m) => logs.push(m);
let ran = 0;
W.define("probe", {bokeh: ["3.10", "3.11"], install: () => { ran += 1; return true; }});
W.install({}, []); W.install({}, []);
const switched = (W.configure(["probe"]), W.active("probe"));
W.configure([]);
process.stdout.write(JSON.stringify({ran, logs, status: W.status().probe, switched}));
"""


@pytest.mark.node
@pytest.mark.parametrize("version, ran", [("3.10.2", 2), ("3.11.0", 0), ("3.9.9", 0)])
def test_the_browser_registry_checks_bokehs_version_and_the_switch(version, ran):
    out = json.loads(subprocess.run([node_path(), "-e", NODE, str(JS_DIR.joinpath("registry.js")), version],
                                    capture_output=True, text=True, check=True, timeout=60).stdout)
    assert out["ran"] == ran
    assert out["switched"] is False  # named in the switch: off
    if ran:
        assert out["logs"] == [] and out["status"] == "off: switched off"
    else:  # out of range: said once, however often asked
        assert len(out["logs"]) == 1 and version in out["logs"][0], out
