"""What the browser tests of the workarounds share: an exported plate opened offline, with all of
app/workarounds/js/ on or some switched off (`?workarounds=a,b`), and what AEWorkarounds says
about each."""

from __future__ import annotations

# Once page.js has installed the workarounds (at document ready): {name: status} for `names`.
STATUS = r"""(names) => typeof AEWorkarounds !== "undefined" &&
  names.every((n) => AEWorkarounds.status()[n] !== undefined) &&
  Object.fromEntries(names.map((n) => [n, AEWorkarounds.status()[n]]))"""

SWITCHED_OFF = "off: switched off"

# Two animation frames.
FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"


def open_exported(new_tab, path, ready: str, off: str | None = None, init_script: str | None = None,
                  **ready_options):
    """The exported page at `path` in a new tab with the network cut off, once `ready` holds;
    `off`: the workarounds the address switches off (`?workarounds=off`); `init_script` runs before
    the page's own scripts. Returns (tab, page)."""
    tab = new_tab()
    tab.block_network()
    if init_script:
        tab.page.add_init_script(init_script)
    tab.page.goto(path.as_uri() + (f"?workarounds={off}" if off else ""))
    tab.page.wait_for_function(ready, timeout=60_000, **ready_options)
    return tab, tab.page


def status(page, *names: str) -> dict:
    """{name: AEWorkarounds.status()[name]} once every one of `names` has one ("on", or why it is off)."""
    return page.wait_for_function(STATUS, arg=list(names), timeout=30_000).json_value()
