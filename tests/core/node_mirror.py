"""Run a JavaScript driver in node for the mirror parity tests (tests/core/test_mirror_*.py).

A driver is node code that `require`s the files passed to it (process.argv[1:]), reads its cases
as JSON from stdin and writes its answers as JSON to stdout: one node process per batch of
cases, so a thousand cases cost one start-up. Without node the tests skip with a visible
reason, except under CI=true, where a missing node is a failure (parity must be checked there).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from app.runtime.scripts import js_file

MIRROR = js_file("mirror.js")
_BUNDLES = Path(tempfile.mkdtemp(prefix="ae-library-"))


def library_file(glue: str) -> Path:
    """The script a page loads for `glue` (the runtime, then the plate's glue, without the
    workarounds), as one file for node to require: it exports the glue's object."""
    from app.runtime.scripts import _library

    path = _BUNDLES / glue
    if not path.exists():
        path.write_text(_library(glue, False), encoding="utf-8")
    return path


def node_path() -> str:
    """The node executable, or skip (fail under CI=true)."""
    node = shutil.which("node") or ("/usr/bin/node" if os.path.exists("/usr/bin/node") else None)
    if node is None:
        msg = "node is not installed: mirror.js parity with attention_core is NOT checked"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(msg + " (CI=true requires it)")
        pytest.skip(msg)
    return node


def run_driver(driver: str, payload=None, scripts=(MIRROR,), timeout: float = 300, expect: int | None = None):
    """`driver`'s JSON answer to `payload` (stdin; None sends nothing), with `scripts` as its argv.

    `expect`: the number of answers the driver must give (one per case), checked here.
    """
    proc = subprocess.run(
        [node_path(), "-e", driver, *(str(s) for s in scripts)],
        input=None if payload is None else json.dumps(payload, allow_nan=False),
        capture_output=True, text=True, timeout=timeout,
    )
    assert proc.returncode == 0, f"node failed:\n{proc.stderr}"
    out = json.loads(proc.stdout)
    if expect is not None:
        assert len(out) == expect, f"node answered {len(out)} of {expect} cases"
    return out


PER_CASE = r"""
const M = require(process.argv[1]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = cases.map((c) => {
  try {
    let r;
%s
    return {ok: r};
  } catch (e) { return {error: String(e.message || e)}; }
});
process.stdout.write(JSON.stringify(out));
"""


def per_case(body: str) -> str:
    """A driver that answers each case `c` with {ok: r} or {error: message}; `body` is the JS that
    sets `r` from `c` with the mirror `M`."""
    return PER_CASE % body


# The start of a node script that drives a plate's glue (the page's script, passed as its first
# argument, exports it as L): the job read from stdin into `input`, and fake(props), a stand-in
# for a Bokeh model whose `sent` records what a setv without {sync: false} would send to Python.
GLUE_PRELUDE = r"""
const L = require(process.argv[1]);
let input = "";
process.stdin.on("data", (c) => { input += c; });
let uid = 0;
function fake(props) {
  return Object.assign({id: "m" + (++uid), tags: [], sent: [], setv(p, opts) {
    Object.assign(this, p);
    if (!(opts && opts.sync === false)) this.sent.push(Object.keys(p).join(","));
  }}, props);
}
"""
