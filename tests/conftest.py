"""The whole suite: its longest modules are collected first, so that with `make test`'s two
workers (pytest-xdist) none of them is left to run alone at the end while the other worker
idles. Each module's tests keep their order; a worker sets a module's fixtures up for each run
of that module's tests it is given (once, in one process)."""

from __future__ import annotations

# In one process, in a slow hour: about 6 min (210 page loads), 1.8 min, 1 min, 1.1 min, 40 s and 20 s.
LONG_FIRST = ("test_hostile_urls.py", "test_axe.py", "test_visual.py", "test_state_properties.py",
              "test_load_short.py", "test_figure_command.py")


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONG_FIRST)))  # stable: the rest keep their order
