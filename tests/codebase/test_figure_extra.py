"""`attention-explorable figure` after a plain `pip install .` (the Dockerfile's): Playwright is
left out, so the command stops with a message naming what to install, a non-zero exit code and no
traceback; the `figure` extra installs it, and the `test` extra includes that extra.

The missing Playwright is simulated in a fresh interpreter (`sys.modules["playwright"] = None`
makes every `import playwright...` raise ImportError), which then runs the command line's main.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run_figure(out: Path, block_playwright: bool, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    code = ("import sys\n"
            + ("sys.modules['playwright'] = None\n" if block_playwright else "")
            + "from app.cli import main\n"
            + f"sys.exit(main(['figure', 'lookup', 'angle=40', '--out', {str(out)!r}]))\n")
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120,
                          env=env)


def test_without_playwright_the_command_names_the_extra(tmp_path):
    out = tmp_path / "q.png"
    done = run_figure(out, block_playwright=True)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    assert "pip install 'attention-explorable[figure]'" in done.stderr, done.stderr
    assert "apt-get install chromium" in done.stderr, done.stderr
    assert done.stderr.startswith("error: "), done.stderr
    assert not out.exists()


def test_without_chromium_the_command_names_it(tmp_path):
    """Playwright is there but no Chromium is on PATH nor in $CHROMIUM."""
    out = tmp_path / "q.png"
    env = {k: v for k, v in os.environ.items() if k != "CHROMIUM"}
    env["PATH"] = str(tmp_path)  # nothing in it: no chromium of any name
    done = run_figure(out, block_playwright=False, env=env)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    assert "no Chromium found" in done.stderr and "apt-get install chromium" in done.stderr, done.stderr
    assert not out.exists()


def test_the_figure_extra_holds_playwright_and_the_plain_install_does_not():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    assert any(d.startswith("playwright") for d in extras["figure"]), extras["figure"]
    assert not any(d.startswith("playwright") for d in project["dependencies"]), project["dependencies"]
    assert "attention-explorable[figure]" in extras["test"], extras["test"]
