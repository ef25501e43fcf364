"""The server's start-up objects left out of the garbage collector's full passes.

A full collection walks every object the collector tracks. After the server's imports (Panel,
Bokeh, param, NumPy, the plates) that is ~150,000 objects, and one pass took 106-128 ms on this
machine, while a session's own page is a few thousand. Full passes come often in a server:
Panel schedules `gc.collect()` after each closed session (panel.io.document._destroy_document,
debounced), and CPython runs one of its own whenever enough new objects have survived. In the
suite's cold loads that was 27 ms of the server's ~250 ms per page (py-spy, lookup).

`freeze_startup_objects()` imports every plate, collects once, and moves every object still
alive into the permanent generation (`gc.freeze()`, as a pre-fork server does before forking).
Those objects live as long as the process anyway; later passes walk only what was made after,
so a closed session's documents and their cycles are still freed (tests/app/test_startup_gc.py),
and a pass takes ~2 ms instead of ~110. AE_GC_FREEZE=0 leaves the collector as it is.
"""

from __future__ import annotations

import gc

from . import registry


def freeze_startup_objects() -> int:
    """Import every plate, collect, then freeze everything alive; the number of objects frozen."""
    for slug in registry.slugs():
        registry.plate_class(slug)  # their modules (and bokeh.plotting) are start-up objects too
    gc.collect()  # garbage left by the imports is freed, not kept for good
    gc.freeze()
    return gc.get_freeze_count()
