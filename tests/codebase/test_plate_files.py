"""Every registered plate has the files docs/adding-a-plate.md lists, and the list there is the
one checked here (tests/codebase/test_new_plate.py builds a plate from the same list)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.plates import registry

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "adding-a-plate.md"


def rows() -> list[str]:
    """The paths in the first column of docs/adding-a-plate.md's table, with their placeholders."""
    return re.findall(r"^\| `([^`]+)` \|", DOC.read_text(encoding="utf-8"), re.MULTILINE)


def fill(row: str, slug: str) -> str:
    """A row of the table for one plate: `<package>` and `<slug>` replaced (a glob pattern)."""
    package = registry.package(slug).rpartition(".")[2]
    return row.replace("<package>", package).replace("<slug>", slug)


def test_the_doc_lists_the_package_its_line_its_tests_and_its_pictures():
    listed = rows()
    assert len(listed) == len(set(listed)), listed
    assert {"app/plates/registry.py", "app/plates/<package>/contract.py", "assets/screenshots/<slug>.png"} <= set(listed)
    assert all(r.startswith(("app/plates/", "tests/", "assets/")) for r in listed), listed


def missing(slug: str, pictures: bool) -> list[str]:
    """The rows (filled for `slug`) that match no file: the pictures `make screenshots` makes, or the rest."""
    picked = [fill(row, slug) for row in rows() if row.endswith(".png") == pictures]
    return [pattern for pattern in picked if not list(REPO.glob(pattern))]


@pytest.mark.parametrize("slug", registry.slugs())
def test_every_plate_has_every_file(slug):
    assert not missing(slug, pictures=False), f"plate {slug} lacks {missing(slug, False)}; see docs/adding-a-plate.md"


@pytest.mark.parametrize("slug", registry.slugs())
def test_every_plate_has_its_pictures(slug):
    assert not missing(slug, pictures=True), (f"plate {slug} lacks {missing(slug, True)}: make them with "
                                              f"`make screenshots SHOTS_ARGS='--plate {slug}'`")
