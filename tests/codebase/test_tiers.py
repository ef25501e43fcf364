"""The two tiers (tests/tiers.py): the commands the suite runs are sorted by what they start, a
test that starts what it is not marked for is stopped before it starts it, and no browser test is
left in `make check`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import tiers

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable


def test_the_commands_the_suite_runs_are_sorted_by_what_they_start():
    from jupyter_client.kernelspec import KernelSpecManager
    from playwright._impl._driver import compute_driver_executable

    dockerfile_cmd = json.loads(next(line for line in (ROOT / "Dockerfile").read_text().splitlines()
                                     if line.startswith("CMD"))[3:])
    kernel = [PY if w == "python" else w for w in KernelSpecManager().get_kernel_spec("python3").argv]
    cases = {
        "browser": [[*compute_driver_executable(), "run-driver"], ["/usr/bin/chromium-headless-shell", "--headless"],
                    [PY, "-m", "app", "figure", "lookup", "--out", "q.png"]],
        "server": [[PY, "-m", "app", "serve", "--port", "5006"], dockerfile_cmd],
        "node": [["/usr/bin/node", "-e", "1"], ["npm", "ci", "--no-audit"]],
        "kernel": [kernel],
        None: [[PY, "-m", "app", "export", "out", "--plate", "lookup"], [PY, "-c", "import attention_core"],
               [PY, "-c", "import sys; sys.modules['playwright'] = None"],  # hides Playwright, starts nothing
               "git status"],
    }
    for want, argvs in cases.items():
        for argv in argvs:
            assert tiers.resource_of(argv) == want, (argv, want)


def test_a_test_that_starts_what_it_is_not_marked_for_is_stopped_before_it_starts(tmp_path):
    """This test is marked for nothing: node is refused before it runs (the file it would write
    is never written), and the refusal is kept so that a test that catches it still fails."""
    flag = tmp_path / "ran"
    assert tiers.Guard.allowed == frozenset() and tiers.Guard.item is not None
    try:
        with pytest.raises(RuntimeError, match="is not marked `node`"):
            subprocess.run(["node", "-e", f"require('fs').writeFileSync({json.dumps(str(flag))}, '1')"])
        assert not flag.exists()
        assert len(tiers.Guard.refused) == 1 and "test_tiers.py" in tiers.Guard.refused[0]
    finally:
        tiers.Guard.refused = []  # this refusal is the one asked for
    subprocess.run([PY, "-c", "pass"], check=True)  # what starts nothing is let through


def test_every_browser_test_is_marked_so_and_left_out_of_check(request):
    """The browser tests' folder holds nothing but browser tests, and `make check` runs none."""
    items = request.session.items
    assert items, "no tests collected"
    unmarked = [i.nodeid for i in items if "browser" in i.path.parts and "browser" not in tiers.marks_of(i)]
    assert not unmarked, unmarked
    if request.config.getoption("tier") == "check":
        assert not [i.nodeid for i in items if tiers.full_only(i)]
