"""A plate's Bokeh models in Panel's layouts."""

from __future__ import annotations

import panel as pn

from app import workarounds


def bokeh_pane(obj, **kw) -> pn.pane.Bokeh:
    """A Panel pane around a Bokeh model: Panel's own, or the bokeh_pane workaround's when active."""
    if workarounds.active("bokeh_pane"):
        from app.workarounds.bokeh_pane import BokehPane

        return BokehPane(obj, **kw)
    return pn.pane.Bokeh(obj, **kw)
