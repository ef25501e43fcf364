"""Every array line in attention_core carries a shape comment, as in minGPT: `# (..., N, M)`.

An "array line" here is an assignment whose right-hand side calls NumPy or multiplies matrices
(`np.` or `@`); scalars computed with NumPy (e.g. `float(np.sum(...))`) are exempt when they
start with a Python scalar constructor.
"""

from __future__ import annotations

import re
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "attention_core"
ASSIGN = re.compile(r"^\s+(?!if |elif |while |return |assert )[A-Za-z_][\w, \[\]\.]*\s*(?<![!<>=])=(?!=)\s*(?P<rhs>.+)$")
SCALAR = re.compile(r"^(float|int|bool|str|math\.)")


def array_lines_without_shape():
    missing = []
    for path in sorted(CORE.glob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code, _, comment = line.partition("#")
            m = ASSIGN.match(code)
            if not m or "==" in code.split("=")[0]:
                continue
            rhs = m.group("rhs").strip()
            if ("np." in rhs or "@" in rhs) and not SCALAR.match(rhs) and not comment.strip().startswith("("):
                missing.append(f"{path.name}:{n}: {line.strip()}")
    return missing


def test_every_array_line_has_a_shape_comment():
    assert array_lines_without_shape() == []


def test_the_check_finds_a_missing_comment(tmp_path, monkeypatch):
    (tmp_path / "bad.py").write_text("def f(x):\n    y = np.exp(x)\n    return y\n")
    monkeypatch.setattr(__import__(__name__), "CORE", tmp_path)
    assert array_lines_without_shape() == ["bad.py:2: y = np.exp(x)"]
