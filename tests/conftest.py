"""The whole suite.

- Its longest modules are collected first, so that with `make test`'s two workers (pytest-xdist)
  none of them is left to run alone at the end while the other worker idles. Each module's
  tests keep their order.
- The plates' functional browser tests (the numbers on the page against attention_core, drags,
  keys and clicks, offline exports: tests/browser/plates/ and the files in FUNCTIONAL) are marked
  `functional`: `make test` runs them a second time with AE_WORKAROUNDS=off.
"""

from __future__ import annotations

import pytest

LONG_FIRST = ("test_axe.py", "test_visual.py", "test_state_properties.py", "test_hostile_links.py",
              "test_load_short.py", "test_figure_command.py")
FUNCTIONAL = ("test_keyboard_plates.py", "test_numbers_on_page.py")


def pytest_configure(config):
    config.addinivalue_line("markers", "functional: a plate's functional browser test, run again with AE_WORKAROUNDS=off")


def pytest_collection_modifyitems(config, items):
    for item in items:
        parts = item.path.parts
        if ("browser" in parts and "plates" in parts) or item.path.name in FUNCTIONAL:
            item.add_marker(pytest.mark.functional)
    rank = {name: i for i, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONG_FIRST)))  # stable: the rest keep their order
