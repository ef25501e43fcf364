"""A call made in a thread of its own.

Code that starts an asyncio event loop (`asyncio.run`, Bokeh's client) cannot start it in a
thread where one is already running, and a pytest process's main thread runs one for as long as
Playwright's sync API is open in it: tests/browser's browser lives for the whole session, and
with `make test`'s workers any process may have run a browser test before these."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor


def in_own_thread(fn, *args, **kwargs):
    """fn(*args, **kwargs) in a new thread; its result, or its exception raised here."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn, *args, **kwargs).result()
