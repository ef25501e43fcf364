"""Pages without BokehJS's WebGL bundle, which no plate uses.

No plot draws with WebGL (every figure's output_backend stays "canvas"), yet Panel ships
bokeh-gl (270 kB of JavaScript to parse) with every page it serves or saves. An exported page
is saved from a copy of its Resources without that bundle (Bokeh's public `clone`); a served
page's Resources are made by the server from the class default, so that default loses it.
"""

from __future__ import annotations

UNUSED_BUNDLES = ("bokeh-gl",)


def trim_bundles(resources):
    """A copy of Bokeh `resources` without the bundles in UNUSED_BUNDLES (for saved pages)."""
    return resources.clone(components=[c for c in resources.components if c not in UNUSED_BUNDLES])


def install() -> bool:
    """Leave UNUSED_BUNDLES out of every page this process serves."""
    from bokeh.resources import Resources

    if not hasattr(Resources, "_default_components"):
        return False
    Resources._default_components = [c for c in Resources._default_components if c not in UNUSED_BUNDLES]
    return True
