"""Every registered plate has the files docs/adding-a-plate.md lists, and the list there is the
one checked here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.plates import registry

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "adding-a-plate.md"


def required(package: str) -> list[str]:
    """The files docs/adding-a-plate.md's table names for `package` (glob patterns)."""
    rows = re.findall(r"^\| `([^`]+)` \|", DOC.read_text(encoding="utf-8"), re.MULTILINE)
    return [r.replace("<package>", package) for r in rows]


def test_the_doc_lists_a_short_set_of_files():
    rows = required("x")
    assert 6 <= len(rows) <= 10, rows
    assert "app/plates/registry.py" in rows


@pytest.mark.parametrize("slug", registry.slugs())
def test_every_plate_has_every_file(slug):
    package = registry.package(slug).rpartition(".")[2]
    missing = [pattern for pattern in required(package) if not list(REPO.glob(pattern))]
    assert not missing, f"plate {slug} (app/plates/{package}) lacks {missing}; see docs/adding-a-plate.md"
