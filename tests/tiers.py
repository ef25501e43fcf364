"""The two tiers of the suite: what a test starts, and a guard that holds it to what it says.

`make check` runs the tests that start nothing (no browser, server, node or kernel: the core, the
plates' Python, the links, the export's files); `make test` runs them all. A test is marked by
what it starts: `browser` and `server` come from the fixtures it uses (RESOURCE_FIXTURES, added
by tests/conftest.py), `node`, `kernel` and a server a test starts itself are marked by hand
(`@pytest.mark.node`, or `pytestmark` for a whole module). `--tier=check` leaves the marked ones
out. In either tier a test that starts what it is not marked for fails, naming the mark it
lacks (guard_subprocesses): a test cannot land in the wrong tier silently.

Two more marks start none of these but are left out of `make check` too (FULL_ONLY):
- `whole_export`: a test of a whole export's files (every page of `export --site`) whose export
  is most of its time, where a cheaper test of the same property, on a smaller export written in
  the test's own process, stays in check beside it (test_exported_bokeh_only.py);
- `every_page`: the pages beyond CHECK_PAGES in a test that holds a workaround of the server's
  to Bokeh's and Panel's own way, page by page (tests/workarounds/: each page is built twice or
  more, and the pages were a quarter of `make check`'s time). make check meets each workaround
  on the index and the plates in CHECK_PAGES, whose documents together hold every kind of model
  any page holds (make test checks that they still do:
  tests/workarounds/test_served_bokeh_only.py), and make test on every page.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

# What `make check` leaves out (pyproject.toml registers the markers).
RESOURCES = ("browser", "server", "node", "kernel")
# Left out of `make check` as well, though they start none of RESOURCES (the docstring says when).
FULL_ONLY = ("whole_export", "every_page")
# The pages (None: the index) a workaround's page-by-page test meets in make check (`every_page`).
CHECK_PAGES = (None, "worked", "scaling", "masking", "multi-head", "learn")
# A test that uses one of these fixtures (or one built on it) gets its mark without asking.
RESOURCE_FIXTURES = {"chromium_path": "browser", "servers": "server", "app_server": "server"}


def pages(slugs, index_id: str = "index") -> list:
    """The index (None) and the plates `slugs` as parameters of a workaround's page-by-page test,
    each with its id; those beyond CHECK_PAGES are marked `every_page` (make test only)."""
    import pytest

    return [pytest.param(p, id=index_id if p is None else p,
                         marks=() if p in CHECK_PAGES else pytest.mark.every_page) for p in (None, *slugs)]


def resource_of(argv) -> str | None:
    """The resource a command line starts: a browser (Playwright's driver, Chromium, the figure
    command), a server (the serve command), node (or npm), a Jupyter kernel; None for anything
    else (an export, a Python of the tests' own)."""
    words = [os.fspath(a) for a in ([argv] if isinstance(argv, (str, bytes, os.PathLike)) else argv)]
    words = [w.decode() if isinstance(w, bytes) else w for w in words]
    line, prog = " ".join(words), Path(words[0].split()[0]).name if words else ""
    # A Python's own line may name Playwright without starting it (a test that hides it).
    python = prog.startswith("python") or prog == Path(sys.executable).name
    if ("playwright" in line and not python) or "chrom" in prog or \
            re.search(r"(-m app|attention-explorable) figure\b", line):
        return "browser"
    if re.search(r"(-m app|attention-explorable) serve\b", line):
        return "server"
    if prog in ("node", "nodejs", "npm", "npx"):
        return "node"
    if "ipykernel" in line:
        return "kernel"
    return None


class Guard:
    """The test running in this process, what it may start, and the starts it was refused."""

    item = None
    allowed: frozenset = frozenset(RESOURCES)
    refused: list = []


def guard_subprocesses(event: str, args) -> None:
    """An audit hook (sys.addaudithook sees every subprocess this process starts, Playwright's and
    asyncio's included): a test that starts what it is not marked for is stopped there."""
    if event != "subprocess.Popen" or Guard.item is None:
        return
    argv = args[1] if args[1] is not None else args[0]
    what = resource_of(argv)
    if what is None or what in Guard.allowed:
        return
    line = argv if isinstance(argv, (str, bytes)) else " ".join(map(str, argv))
    msg = (f"{Guard.item.nodeid} starts {what} ({str(line)[:120]}) but is not marked `{what}`: mark it "
           f"(@pytest.mark.{what}; tests/tiers.py says how), so that `make check` leaves it out")
    Guard.refused.append(msg)
    raise RuntimeError(msg)


def marks_of(item) -> set[str]:
    return {m.name for m in item.iter_markers() if m.name in RESOURCES}


def full_only(item) -> bool:
    """Whether `make check` leaves `item` out: it starts a resource, or is marked FULL_ONLY."""
    return bool(marks_of(item)) or any(item.get_closest_marker(name) for name in FULL_ONLY)


def install() -> None:
    """The guard, once per process (an audit hook cannot be removed: Guard.item None idles it)."""
    if not getattr(sys, "_ae_tier_guard", False):
        sys._ae_tier_guard = True
        sys.addaudithook(guard_subprocesses)
