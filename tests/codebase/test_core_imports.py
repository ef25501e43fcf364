"""attention_core stays a NumPy-and-standard-library package.

It must import without the app's stack (Panel, Bokeh, param, tornado, the app itself), its
modules may import only numpy, the standard library and each other, and it validates user
input with ValueError rather than `assert` (which `python -O` strips).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CORE = REPO / "attention_core"
CORE_FILES = sorted(CORE.glob("*.py"))
FORBIDDEN = ["panel", "bokeh", "param", "tornado", "app"]
ALLOWED_THIRD_PARTY = {"numpy"}


def test_the_core_files_are_found():
    names = {p.name for p in CORE_FILES}
    assert {"__init__.py", "attention.py", "softmax.py", "geometry.py", "lookup.py"} <= names


def test_importing_the_core_pulls_in_no_app_stack(tmp_path):
    code = (
        "import json, sys\n"
        "import attention_core\n"
        f"forbidden = {FORBIDDEN!r}\n"
        "hits = sorted(m for m in sys.modules if m.split('.')[0] in forbidden)\n"
        "print(json.dumps({'file': attention_core.__file__, 'hits': hits}))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    # The subprocess imported this checkout's core, not some other copy.
    assert Path(report["file"]).resolve().parent == CORE.resolve()
    assert report["hits"] == [], f"importing attention_core imported {report['hits']}"


def _imported_roots(tree: ast.AST):
    """(line, root module) for every absolute import; relative imports give None."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, None if node.level > 0 else node.module.split(".")[0]


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: p.name)
def test_core_imports_only_numpy_and_the_standard_library(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = [
        f"{path.name}:{line} imports {root}"
        for line, root in _imported_roots(tree)
        if root is not None and root not in ALLOWED_THIRD_PARTY and root not in sys.stdlib_module_names
    ]
    assert bad == []


def test_the_import_checker_would_catch_a_third_party_import():
    tree = ast.parse("import numpy as np\nfrom . import softmax\nimport panel\ndef f():\n    from bokeh.models import Div\n")
    roots = [root for _, root in _imported_roots(tree)]
    assert roots == ["numpy", None, "panel", "bokeh"]
    assert "panel" not in sys.stdlib_module_names and "numpy" not in sys.stdlib_module_names


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: p.name)
def test_core_uses_no_assert_statements(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    asserts = [f"{path.name}:{node.lineno}" for node in ast.walk(tree) if isinstance(node, ast.Assert)]
    assert asserts == [], "validate user input with ValueError, not assert: " + ", ".join(asserts)
