"""The whole suite, in two tiers.

- `make check` runs every test that needs no browser, no server, no node and no kernel (the
  core, the plates' Python, the links, the export's files); `make test` runs them all
  (tests/tiers.py: how a test is marked, and the guard that fails one that starts what it is
  not marked for).
- Its longest modules are collected first, so that with `make test`'s two workers (pytest-xdist)
  none of them is left to run alone at the end while the other worker idles. Each module's
  tests keep their order.
- The real-browser fixtures (tests/browser/fixtures.py) and the served app for tests/app
  (`app_server`) are defined here once: every folder's tests share one browser and one
  Playwright per worker (a second sync Playwright in the same worker fails).
- The plates' functional browser tests (the numbers on the page against attention_core, drags,
  keys and clicks, offline exports: tests/browser/plates/ and the files in FUNCTIONAL) are marked
  `functional` and run twice, `[on]` and `[off]`: the second time against a server and exports
  run with AE_WORKAROUNDS=off (the product must be correct without app/workarounds/).
  The [off] leg holds what the product must do without them, per plate: its numbers against
  attention_core at a sample link, served and exported (test_numbers_on_page); one served load
  with the seed's numbers, its keys (tests/browser/keys.py) and a drag or click that is live and
  that Python confirms; the offline export; and, once, on the lookup plate, the races of the
  shared sync protocol (quick slider runs, late answers). A test
  marked `on_only` (a race on one plate's control, a layout, a link's reading, a pace) exercises
  the same protocol or code the [off] leg already runs and runs [on] only.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
for _folder in (TESTS, TESTS / "browser", TESTS / "app", TESTS / "core"):
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

from fixtures import *  # noqa: E402,F401,F403
import tiers  # noqa: E402
from tiers import RESOURCE_FIXTURES, Guard, marks_of  # noqa: E402

LONG_FIRST = ("test_axe.py", "test_visual.py", "test_state_properties.py", "test_hostile_links_browser.py",
              "test_load_short.py", "test_figure_command.py")
FUNCTIONAL = ("test_numbers_on_page.py",)


@pytest.fixture(scope="module")
def app_server(tmp_path_factory):
    """`attention-explorable serve` on a free loopback port, for one test module (tests/app/serving.py)."""
    from serving import load_tools

    srv = load_tools().Server(tmp_path_factory.mktemp("log") / "serve.log")
    try:
        yield srv
    finally:
        srv.stop()


# --- the two tiers (tests/tiers.py) --------------------------------------------------------
tiers.install()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    Guard.item, Guard.allowed, Guard.refused = item, frozenset(marks_of(item)), []
    try:
        return (yield)
    finally:
        Guard.item = None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if Guard.refused and report.passed:  # refused, and the test caught the error
        report.outcome, report.longrepr = "failed", "\n".join(Guard.refused)
        Guard.refused = []
    return report


def pytest_addoption(parser):
    parser.addoption("--tier", choices=("check", "all"), default="all",
                     help="check: only the tests that need no browser, server, node or kernel (make check)")


def pytest_configure(config):
    if config.getoption("tier") == "check":
        # test_state_properties' cases per plate, and of them what a served page sends (each
        # renders the plate): the full 10,000 and 200 run in make test.
        os.environ.setdefault("AE_STATE_CASES", "1000")
        os.environ.setdefault("AE_STATE_BROWSER_CASES", "50")


def functional(path: Path) -> bool:
    """Whether the tests in `path` are the plates' functional browser tests."""
    return ("browser" in path.parts and "plates" in path.parts) or path.name in FUNCTIONAL


def pytest_generate_tests(metafunc):
    # Once with the workarounds on and once with AE_WORKAROUNDS=off (tests/browser/fixtures.py).
    if "workarounds" in metafunc.fixturenames and functional(metafunc.definition.path):
        legs = ["on"] if metafunc.definition.get_closest_marker("on_only") else ["on", "off"]
        metafunc.parametrize("workarounds", legs, indirect=True)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if functional(item.path):
            item.add_marker(pytest.mark.functional)
        for name in {RESOURCE_FIXTURES.get(f) for f in item.fixturenames} - {None} - marks_of(item):
            item.add_marker(name)
    if config.getoption("tier") == "check":
        left = [item for item in items if tiers.full_only(item)]
        items[:] = [item for item in items if not tiers.full_only(item)]
        config.hook.pytest_deselected(items=left)
    rank = {name: i for i, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONG_FIRST)))  # stable: the rest keep their order
