"""The server's start-up objects are frozen (app/startup_gc.py): the collector's passes no longer
walk them, and a session's page built and dropped afterwards is still freed by a pass."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# In a fresh interpreter: this test process has objects of its own that a freeze would keep.
CHILD = r"""
import gc, json, sys, weakref
import app.server
from app.startup_gc import freeze_startup_objects
from app.page import plate_page

before = len(gc.get_objects())
frozen = freeze_startup_objects()
after = len(gc.get_objects())  # the objects a full pass walks now
page = plate_page("masking", {})
model = weakref.ref(page.plate.checks_src)  # a Bokeh model of the page: inside its cycles
built = len(gc.get_objects())
del page
gc.collect()
print(json.dumps({"before": before, "frozen": frozen, "after": after, "built": built,
                  "plates": all(m in sys.modules for m in ("app.plates.masking", "app.plates.multi_head")),
                  "page_freed": model() is None, "left": len(gc.get_objects())}))
"""


def test_freezing_leaves_a_pass_only_new_objects_and_a_dropped_page_is_still_freed():
    out = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["plates"], "every plate's module is imported before the freeze"
    assert r["frozen"] >= r["before"] > 100_000, r
    assert r["after"] < 1_000, r  # a pass walks almost nothing right after the freeze
    assert r["built"] - r["after"] > 5_000, r  # a page is thousands of tracked objects...
    assert r["page_freed"], "a page dropped after the freeze is freed by a pass"
    assert r["left"] < r["after"] + (r["built"] - r["after"]) // 5, r  # ...and most of them go with it
