"""The offline export: one self-contained HTML file per plate, and the command line that writes it.

The file must work from disk with no network: BokehJS inline (Panel's JavaScript is left out,
tests/workarounds/test_exported_bokeh_only.py), no stylesheet or script fetched from a CDN, and the plate's named
models and live-path code (mirror.js, lookup.js) inside the embedded document.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.delivery.export import export_plate, offline_problems

ROOT = Path(__file__).resolve().parents[2]
CDNS = ("cdn.holoviz.org", "cdn.bokeh.org", "cdn.jsdelivr.net/npm/@holoviz", "unpkg.com/@holoviz")


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("export")
    path = export_plate("lookup", out)
    return out, path, path.read_text(encoding="utf-8")


def docs_json(text: str) -> dict:
    """The Bokeh document(s) embedded in an exported page (the <script type="application/json">)."""
    blocks = re.findall(r'<script type="application/json"[^>]*>\s*(.*?)\s*</script>', text, re.S)
    assert len(blocks) == 1, f"expected one embedded Bokeh document, found {len(blocks)}"
    return json.loads(blocks[0])


def named_sources(obj, out=None) -> dict[str, dict]:
    """name -> {column: list} for every ColumnDataSource with a name in the serialised document."""
    out = {} if out is None else out
    if isinstance(obj, dict):
        if obj.get("type") == "object" and obj.get("name") == "ColumnDataSource":
            attrs = obj.get("attributes", {})
            if attrs.get("name"):
                data = attrs.get("data", {})
                entries = data.get("entries", []) if isinstance(data, dict) else []
                out[attrs["name"]] = {k: v for k, v in entries}
        for v in obj.values():
            named_sources(v, out)
    elif isinstance(obj, list):
        for v in obj:
            named_sources(v, out)
    return out


def rows(column) -> int:
    if isinstance(column, dict) and column.get("type") == "ndarray":
        return int(column["shape"][0])
    return len(column)


def test_export_writes_one_html_file(exported):
    out, path, text = exported
    assert path == out / "lookup.html"
    assert sorted(p.name for p in out.iterdir()) == ["lookup.html"]
    assert text.lstrip().lower().startswith("<!doctype html>")
    assert "<title>Soft lookup · attention explorable</title>" in text


def test_export_loads_nothing_remote(exported):
    _, _, text = exported
    scripts = re.findall(r"<script\b[^>]*>", text, re.I)
    assert scripts, "no <script> tags at all"
    for tag in scripts:
        assert not re.search(r"""\bsrc\s*=\s*["']?\s*(https?:)?//""", tag, re.I), f"remote script: {tag}"
    for tag in re.findall(r"<link\b[^>]*>", text, re.I):
        assert not re.search(r"""\bhref\s*=\s*["']?\s*(https?:)?//""", tag, re.I), f"remote link: {tag[:200]}"
    assert not re.search(r"""@import\s+(url\()?\s*["']?(https?:)?//""", text, re.I), "a CSS @import fetches a URL"
    for cdn in CDNS:
        assert cdn not in text, f"the page still references {cdn}"
    # Bokeh's own code is inline (its version banner and the embed entry point)
    assert "Bokeh" in text and "embed_items" in text and "Bokeh.embed" in text
    # what offline_problems() leaves must not be Bokeh's or Panel's resources
    for url in offline_problems(text):
        assert not any(cdn in url for cdn in CDNS), url
        assert not url.endswith((".css", ".js")) or "/npm/mathjax" in url or "@tabler" in url, url


def test_export_holds_the_named_models(exported):
    _, _, text = exported
    for name in ("query", "keys", "weights", "output"):
        assert f'"name":"{name}"' in text, f"model {name!r} not in the embedded JSON"
    sources = named_sources(docs_json(text))
    expect = {"query": {"x": 1, "y": 1}, "keys": {"x": 5, "y": 5}, "weights": {"weight": 5}, "output": {"value": 1}}
    for name, columns in expect.items():
        assert name in sources, f"no ColumnDataSource named {name!r}; found {sorted(sources)}"
        for column, n in columns.items():
            assert rows(sources[name][column]) == n, (name, column)
    # the exported numbers are the seed's: key 2 takes 55.1 %, the output is 16.84
    assert sources["weights"]["pct"][1] == "55.1%"
    assert sources["output"]["label"] == ["output 16.84"]


def test_export_holds_the_live_path_code(exported):
    _, _, text = exported
    assert "AttentionMirror" in text
    assert "LookupLive" in text
    assert "function lookup_steps" in text and "function on_pan_end" in text


def _cli(*args, **kw):
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120, **kw)


def test_cli_export(tmp_path):
    r = _cli("export", str(tmp_path), "--plate", "lookup")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "lookup.html").is_file()
    assert "wrote" in r.stdout and "lookup.html" in r.stdout
    sources = named_sources(docs_json((tmp_path / "lookup.html").read_text(encoding="utf-8")))
    assert {"query", "keys", "weights", "output"} <= set(sources)


def test_cli_export_unknown_plate(tmp_path):
    r = _cli("export", str(tmp_path), "--plate", "nosuch")
    assert r.returncode == 2
    assert "unknown plate 'nosuch'" in r.stderr and "lookup" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "nosuch.html").exists()
